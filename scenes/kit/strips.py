"""Strips that share one time axis, each on its own y scale (fig-step, 第五节),
over light phase bands. Handed the simulator's arrays; they compute nothing.
"""

from __future__ import annotations

import numpy as np
from manim import VGroup, VMobject, interpolate_color

from scenes.kit import marks, theme
from scenes.kit.charts import TimeAxis, set_area

AXIS_WEIGHT = "regular"
DIM_OPACITY = 0.3     # the part of a strip outside the phases where the item is used


def phase_bands(time: TimeAxis, edges: list[float], bottom: float, top: float) -> VGroup:
    """Light bands on every other phase (between the phase edges, times), behind the strips."""
    bands = VGroup()
    for k, (a, b) in enumerate(zip(edges[:-1], edges[1:])):
        if k % 2 == 1:
            continue
        x0, x1 = float(time.x(a)), float(time.x(b))
        bands.add(marks.shade([x0, bottom], [max(x1, x0 + 1e-3), top], "panel", opacity=1.0))
    return bands


class Strip(VGroup):
    """One item over the step, scaled to its own maximum; bright where ``lit`` says it is used.

    Drawn opaque (the pale part is the colour mixed with the background), so a phase band
    behind a strip never shows through and makes an idle item look used."""

    def __init__(self, t: np.ndarray, values: np.ndarray, color: str, time: TimeAxis, bottom: float,
                 height: float, lit: tuple[float, float] = (0.0, 1.0)) -> None:
        super().__init__()
        self.time, self.baseline, self.strip_height = time, bottom, height
        self.peak = float(values.max()) or 1.0
        xs = time.x(t)
        ys = self.y(values)
        base = np.full_like(xs, bottom)
        pale = interpolate_color(theme.background(), theme.color(color), DIM_OPACITY)
        dim = VMobject(stroke_width=0, fill_color=pale, fill_opacity=1.0)
        set_area(dim, xs, base, ys)
        inside = (t >= lit[0] - 1e-12) & (t <= lit[1] + 1e-12)
        self.add(dim)
        if inside.sum() >= 2:
            bright = VMobject(stroke_width=0, fill_color=theme.color(color), fill_opacity=1.0)
            set_area(bright, xs[inside], base[inside], ys[inside])
            self.add(bright)
        self.add(marks.segment([time.left, bottom], [time.right, bottom], "muted", weight=AXIS_WEIGHT))

    def y(self, values):
        return self.baseline + np.asarray(values, dtype=float) / self.peak * self.strip_height

    def point(self, t: float, value: float) -> np.ndarray:
        return np.array([float(self.time.x(t)), float(self.y(value)), 0.0])
