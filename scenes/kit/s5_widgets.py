"""Widgets of 第五节 (fig-step): strips that share one time axis, each on its own y scale,
and a two-line chart against a count. Handed arrays and ledger keys; they compute nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import DOWN, Line, Rectangle, VGroup, VMobject

from scenes.kit import theme
from scenes.kit.charts import TimeAxis, guide, left_tick, set_area
from scenes.kit.text import ledger_text

AXIS_WIDTH = 3
TICK = 0.08
DIM_OPACITY = 0.3     # the part of a strip outside the phases where the item is used


@dataclass(frozen=True)
class Box:
    left: float
    right: float
    bottom: float
    top: float

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.top - self.bottom


def phase_bands(time: TimeAxis, edges: list[float], bottom: float, top: float) -> VGroup:
    """Light bands on every other phase (between the phase edges, times), behind the strips."""
    bands = VGroup()
    for k, (a, b) in enumerate(zip(edges[:-1], edges[1:])):
        if k % 2 == 1:
            continue
        x0, x1 = float(time.x(a)), float(time.x(b))
        bands.add(Rectangle(width=max(x1 - x0, 1e-3), height=top - bottom, stroke_width=0,
                            fill_color=theme.color("panel"), fill_opacity=1.0)
                  .move_to([(x0 + x1) / 2, (bottom + top) / 2, 0]))
    return bands


class Strip(VGroup):
    """One item over the step, scaled to its own maximum; bright where ``lit`` says it is used."""

    def __init__(self, t: np.ndarray, values: np.ndarray, color: str, time: TimeAxis, bottom: float,
                 height: float, lit: tuple[float, float] = (0.0, 1.0)) -> None:
        super().__init__()
        self.time, self.baseline, self.strip_height = time, bottom, height
        self.peak = float(values.max()) or 1.0
        xs = time.x(t)
        ys = self.y(values)
        base = np.full_like(xs, bottom)
        dim = VMobject(stroke_width=0, fill_color=theme.color(color), fill_opacity=DIM_OPACITY)
        set_area(dim, xs, base, ys)
        inside = (t >= lit[0] - 1e-12) & (t <= lit[1] + 1e-12)
        self.add(dim)
        if inside.sum() >= 2:
            bright = VMobject(stroke_width=0, fill_color=theme.color(color), fill_opacity=0.95)
            set_area(bright, xs[inside], base[inside], ys[inside])
            self.add(bright)
        self.add(Line([time.left, bottom, 0], [time.right, bottom, 0], stroke_width=AXIS_WIDTH,
                      color=theme.color("muted")))

    def y(self, values):
        return self.baseline + np.asarray(values, dtype=float) / self.peak * self.strip_height

    def point(self, t: float, value: float) -> np.ndarray:
        return np.array([float(self.time.x(t)), float(self.y(value)), 0.0])


class CountChart(VGroup):
    """Value against a count: axes with ledger ticks, lines drawn from arrays."""

    def __init__(self, box: Box, x_max: float, y_max: float, x_ticks: tuple[str, list[float]],
                 y_ticks: tuple[str, list[float]]) -> None:
        super().__init__()
        self.box, self.x_max, self.y_max = box, x_max, y_max
        muted = theme.color("muted")
        self.add(Line([box.left, box.bottom, 0], [box.right, box.bottom, 0], stroke_width=AXIS_WIDTH, color=muted),
                 Line([box.left, box.bottom, 0], [box.left, box.top, 0], stroke_width=AXIS_WIDTH, color=muted))
        key, values = x_ticks
        for i, v in enumerate(values):
            x = float(self.x(v))
            mark = Line([x, box.bottom, 0], [x, box.bottom - TICK, 0], stroke_width=AXIS_WIDTH, color=muted)
            label = ledger_text(f"{{{key}[{i}]}}", size="small", color="muted").next_to(mark, DOWN, buff=0.08)
            self.add(mark, label)
        key, values = y_ticks
        for i, v in enumerate(values):
            self.add(left_tick(box.left, float(self.y(v)), key, i))

    def x(self, v):
        return self.box.left + np.asarray(v, dtype=float) / self.x_max * self.box.width

    def y(self, v):
        return self.box.bottom + np.asarray(v, dtype=float) / self.y_max * self.box.height

    def point(self, x: float, y: float) -> np.ndarray:
        return np.array([float(self.x(x)), float(self.y(y)), 0.0])

    def curve(self, xs: np.ndarray, ys: np.ndarray, color: str, width: float = 5) -> VMobject:
        line = VMobject(stroke_width=width, stroke_color=theme.color(color))
        line.set_points_as_corners(np.column_stack([self.x(xs), self.y(ys), np.zeros(len(xs))]))
        return line

    def vertical(self, x: float, color: str = "ink") -> VMobject:
        return guide(self.point(x, 0), self.point(x, self.y_max), color)
