"""Memory against time: a stacked chart whose value axis is broken above the resident
block, and a zoom strip for one small category. Handed the simulator's arrays; draws
them and grows them to a moment in time, never computes memory itself.

Tick labels are ledger quantities (a sequence declared with item displays): the chart is
handed the key and places item i at its value, so every label on screen is in the ledger.

Why a broken axis: the resident block (weights + optimizer state, ~8.5 TiB for V3) would
flatten everything that moves during a step into a few pixels. Below the break the block is
drawn to its own (squeezed) scale; above it the scale is expanded and every tick says so.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import LEFT, Dot, Line, Square, VGroup, VMobject

from scenes.kit import theme
from scenes.kit.scale import ScreenAxis
from lecture_numerics import quantity
from scenes.kit.text import ledger_text

AXIS_WIDTH = 3
RESIDENT_OPACITY = 0.5   # light enough for ink text on the resident block
# A growing curve is two pieces: the part already passed ("settled", static, drawn once per
# animation) and the part being drawn now ("live", redrawn each frame). The live piece
# reaches this far (scene units, ~3 px at 1080p) back under the settled one so no seam shows;
# both are opaque, so the overlap is invisible.
SEAM_OVERLAP = 0.02
TICK = 0.08


def band(color: str, opacity: float = 0.9) -> VMobject:
    return VMobject(stroke_width=0, fill_color=theme.color(color), fill_opacity=opacity)


def window(t: np.ndarray, since: float, until: float) -> np.ndarray:
    """Times from ``since`` to ``until``: both ends and every event in between."""
    inner = t[(t > since) & (t < until)]
    return np.concatenate([[since], inner, [until]])


def set_area(shape: VMobject, xs: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> None:
    """Make ``shape`` the region between two curves over ``xs``."""
    top = np.column_stack([xs, upper, np.zeros_like(xs)])
    bottom = np.column_stack([xs[::-1], lower[::-1], np.zeros_like(xs)])
    shape.set_points_as_corners(np.vstack([top, bottom, top[:1]]))


@dataclass(frozen=True)
class TimeAxis:
    """Step time (0 → 1) to scene x."""

    left: float
    right: float

    def x(self, t):
        return ScreenAxis(0.0, 1.0, self.left, self.right, name="step time")(np.asarray(t))


@dataclass(frozen=True)
class BrokenScale:
    """Bytes to scene y: [0, floor] squeezed into ``squeezed`` units, a ``gap`` for the
    break marks, then [floor, ceiling] over the rest up to ``top``."""

    floor: float
    ceiling: float
    bottom: float
    squeezed: float
    gap: float
    top: float

    def below(self, value):
        return ScreenAxis(0.0, self.floor, self.bottom, self.bottom + self.squeezed, name="below the break")(np.asarray(value))

    def above(self, value):
        start = self.bottom + self.squeezed + self.gap
        return ScreenAxis(self.floor, self.ceiling, start, self.top, name="above the break")(np.asarray(value))


class StackedMemoryChart(VGroup):
    """Resident categories stacked below the break, varying ones stacked above it."""

    def __init__(self, t: np.ndarray, series: dict[str, np.ndarray], resident: tuple[str, ...],
                 varying: tuple[str, ...], time: TimeAxis, scale: BrokenScale, unit_bytes: float,
                 ticks_key: str) -> None:
        super().__init__()
        for name in resident:
            if np.ptp(series[name]) != 0:
                raise ValueError(f"{name} changes during the step; it cannot sit below the break")
        self.t, self.series, self.resident, self.varying = t, series, resident, varying
        self.time, self.scale, self.unit_bytes, self.ticks_key = time, scale, unit_bytes, ticks_key
        self.axes = self._axes()
        # The resident block is there before, during and after the step: drawn whole at once.
        self.bands = {name: band(name, RESIDENT_OPACITY) for name in resident}
        self.settled = {name: band(name, 1.0) for name in varying}
        self.live = {name: band(name, 1.0) for name in varying}
        self._draw_resident()
        self.add(*[self.bands[name] for name in resident], self.axes)

    def _draw_resident(self) -> None:
        xs = self.time.x(np.array([0.0, 1.0]))
        for name in self.resident:
            low, high = self.resident_band_box(name)
            set_area(self.bands[name], xs, np.full(2, low), np.full(2, high))

    def _axes(self) -> VGroup:
        s, x0, x1 = self.scale, self.time.left, self.time.right
        muted = theme.color("muted")
        split = s.bottom + s.squeezed + s.gap / 2
        lower = Line([x0, s.bottom, 0], [x0, split - 0.07, 0], stroke_width=AXIS_WIDTH, color=muted)
        upper = Line([x0, split + 0.07, 0], [x0, s.top, 0], stroke_width=AXIS_WIDTH, color=muted)
        base = Line([x0, s.bottom, 0], [x1, s.bottom, 0], stroke_width=AXIS_WIDTH, color=muted)
        marks = VGroup(*[Line([x0 - 0.12, y - 0.05, 0], [x0 + 0.12, y + 0.05, 0], stroke_width=AXIS_WIDTH,
                              color=muted) for y in (split - 0.07, split + 0.07)])
        # The first tick is the axis' foot (0); the others sit above the break.
        values = quantity(self.ticks_key).value
        ys = [s.bottom, *[float(s.above(v * self.unit_bytes)) for v in values[1:]]]
        labels = VGroup(*[left_tick(self.time.left, y, self.ticks_key, i) for i, y in enumerate(ys)])
        return VGroup(lower, upper, base, marks, labels)

    def _draw_varying(self, pieces: dict[str, VMobject], since: float, until: float) -> None:
        ts = window(self.t, since, until)
        xs = self.time.x(ts)
        if since > 0:
            xs[0] -= SEAM_OVERLAP
        level = np.full_like(ts, self.scale.floor)
        for name in self.varying:
            top = level + np.interp(ts, self.t, self.series[name])
            set_area(pieces[name], xs, self.scale.above(level), self.scale.above(top))
            level = top

    def settle(self, until: float) -> None:
        """The static piece: the varying categories from the step's start to ``until``."""
        self._draw_varying(self.settled, 0.0, until)

    def grow_to(self, now: float, since: float = 0.0) -> None:
        """The live piece: the varying categories from ``since`` (settled so far) to ``now``."""
        self._draw_varying(self.live, since, now)

    def point(self, t: float, value: float) -> np.ndarray:
        """Scene point of a total ``value`` (bytes) at time ``t``, above the break."""
        return np.array([float(self.time.x(t)), float(self.scale.above(value)), 0.0])

    def resident_band_box(self, name: str) -> tuple[float, float]:
        """(bottom y, top y) of a resident category's band."""
        level = 0.0
        for other in self.resident:
            height = float(self.series[other][0])
            if other == name:
                return float(self.scale.below(level)), float(self.scale.below(level + height))
            level += height
        raise KeyError(name)


class ZoomStrip(VGroup):
    """One category alone, on its own scale from zero: the small one made readable."""

    def __init__(self, t: np.ndarray, values: np.ndarray, color: str, time: TimeAxis,
                 bottom: float, top: float, unit_bytes: float, ceiling: float, ticks_key: str) -> None:
        super().__init__()
        self.t, self.values, self.time = t, values, time
        self.bottom, self.top, self.unit_bytes = bottom, top, unit_bytes
        self.ceiling, self.ticks_key = ceiling, ticks_key
        self.settled, self.live = band(color, 1.0), band(color, 1.0)
        self.add(self._axes())

    def y(self, value):
        return self.bottom + np.asarray(value) / self.ceiling * (self.top - self.bottom)

    def _axes(self) -> VGroup:
        x0, x1, muted = self.time.left, self.time.right, theme.color("muted")
        axis = Line([x0, self.bottom, 0], [x0, self.top, 0], stroke_width=AXIS_WIDTH, color=muted)
        base = Line([x0, self.bottom, 0], [x1, self.bottom, 0], stroke_width=AXIS_WIDTH, color=muted)
        labels = VGroup(*[left_tick(x0, float(self.y(v * self.unit_bytes)), self.ticks_key, i)
                          for i, v in enumerate(quantity(self.ticks_key).value)])
        return VGroup(axis, base, labels)

    def _draw(self, piece: VMobject, since: float, until: float) -> None:
        ts = window(self.t, since, until)
        xs = self.time.x(ts)
        if since > 0:
            xs[0] -= SEAM_OVERLAP
        set_area(piece, xs, np.full_like(ts, self.bottom), self.y(np.interp(ts, self.t, self.values)))

    def settle(self, until: float) -> None:
        self._draw(self.settled, 0.0, until)

    def grow_to(self, now: float, since: float = 0.0) -> None:
        self._draw(self.live, since, now)

    def point(self, t: float, value: float) -> np.ndarray:
        return np.array([float(self.time.x(t)), float(self.y(value)), 0.0])


def left_tick(x: float, y: float, ticks_key: str, index: int) -> VGroup:
    """A tick mark on a vertical axis at ``x`` and its label: item ``index`` of the ledger's
    tick quantity ``ticks_key``."""
    mark = Line([x - TICK, y, 0], [x, y, 0], stroke_width=AXIS_WIDTH, color=theme.color("muted"))
    label = ledger_text(f"{{{ticks_key}[{index}]}}", size="small", color="muted").next_to(mark, LEFT, buff=0.1)
    return VGroup(mark, label)


def marker(point: np.ndarray, color: str = "ink") -> Dot:
    return Dot(point, radius=0.07, color=theme.color(color))


def guide(start: np.ndarray, end: np.ndarray, color: str = "ink", dash: float = 0.08) -> VMobject:
    """A dashed line as one mobject (one path of many pieces), cheap to copy and draw."""
    start, end = np.asarray(start, dtype=float), np.asarray(end, dtype=float)
    pieces = max(int(np.linalg.norm(end - start) / (2 * dash)), 1)
    line = VMobject(stroke_width=2, stroke_color=theme.color(color))
    for k in range(pieces):
        a = start + (end - start) * (2 * k + 0.5) / (2 * pieces)
        line.start_new_path(a)
        line.add_line_to(start + (end - start) * (2 * k + 1.5) / (2 * pieces))
    return line


def swatch(color: str, opacity: float = 0.9) -> VMobject:
    return Square(side_length=0.28, stroke_width=0, fill_color=theme.color(color), fill_opacity=opacity)
