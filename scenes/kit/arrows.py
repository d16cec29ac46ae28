"""One arrow for every figure: strokes, tips and buffs from the theme's scales, so an arrow
in fig-zero and one in fig-muon are drawn alike; a role names its colour."""

from __future__ import annotations

import numpy as np
from manim import Arrow, CurvedArrow, DoubleArrow

from scenes.kit import theme
from scenes.kit.types import Point

TIP_PER_STROKE = 0.05    # tip length per unit of stroke width: a bolder arrow has a larger tip


def _point(p: Point) -> np.ndarray:
    return np.array([*p, 0.0][:3], dtype=float)


def arrow(start: Point, end: Point, role: str = "ink", *, weight: str = "regular", buff: str | None = "tight",
          both: bool = False, opacity: float = 1.0, max_tip: float | None = None) -> Arrow:
    """An arrow from ``start`` to ``end`` in a role's colour, its stroke ``weight`` and its
    ``buff`` (the gap left at each end; None: none) named from the theme's scales.
    ``max_tip`` caps the tip's length, for a row of heavy arrows whose tips must not touch."""
    start, end = _point(start), _point(end)
    length = float(np.linalg.norm(end - start))
    if not length > 0:
        raise ValueError("arrow: start and end coincide")
    width = theme.stroke(weight)
    gap = theme.space(buff) if buff else 0.0
    tip = min(TIP_PER_STROKE * width, 0.4 * max(length - 2 * gap, 1e-3), max_tip or float("inf"))
    kind = DoubleArrow if both else Arrow
    return kind(start, end, buff=gap, color=theme.color(role), stroke_width=width, stroke_opacity=opacity,
                tip_length=tip, max_tip_length_to_length_ratio=0.5, max_stroke_width_to_length_ratio=1000)


def curved_arrow(start: Point, end: Point, role: str = "ink", *, arc: float, weight: str = "regular",
                 max_tip: float | None = None) -> CurvedArrow:
    """An arrow bent along an arc of ``arc`` radians (as manim turns it: negative is clockwise, so
    left to right it bows upward) from ``start`` to ``end``: a swap, a loop back, a rewind. Stroke
    and tip as :func:`arrow`'s."""
    start, end = _point(start), _point(end)
    length = float(np.linalg.norm(end - start))
    if not length > 0:
        raise ValueError("curved_arrow: start and end coincide")
    width = theme.stroke(weight)
    tip = min(TIP_PER_STROKE * width, 0.4 * length, max_tip or float("inf"))
    return CurvedArrow(start, end, angle=arc, color=theme.color(role), stroke_width=width, tip_length=tip)
