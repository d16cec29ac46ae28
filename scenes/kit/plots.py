"""Plots handed data: a 2-D plot frame with linear or log10 axes, curves and run dots on
it, and a horizontal number axis. Nothing here computes what it shows.

Tick labels are ledger quantities: an axis is handed the key of a sequence quantity
declared with ``item_fmt`` (see lecture_numerics/memtime_axes.py, kit_demo.py), places
item i at its value and draws it with ``ledger_text("{key[i]}")``. manim's own number
labels are never used, since they would put numbers on screen that bypass the ledger.

Positions follow the mobject: ``point()`` reads the axis lines' current ends, so a plot
can be built first and moved or scaled afterwards.
"""

from __future__ import annotations

from typing import Sequence, Union

import numpy as np
from manim import (DOWN, ORIGIN, RIGHT, UP, Animation, Create, DashedVMobject, Dot, Line, UpdateFromAlphaFunc, VGroup,
                   VMobject, linear)

from lecture_numerics import quantity
from scenes.kit import theme
from scenes.kit.charts import left_tick
from scenes.kit.scale import EDGE_TOLERANCE, Scale, ScreenAxis  # noqa: F401  (the kit's one mapping)
from scenes.kit.text import ledger_text, line

Values = Union[float, Sequence[float], np.ndarray]

AXIS_STROKE = 3
TICK = 0.1
TICK_LABEL_BUFF = 0.12
TITLE_BUFF = 0.2
CURVE_STROKE = 5
DOT_RADIUS = 0.08
GRID_OPACITY = 0.25
ARROW_TIP = 0.2


def tick_values(ticks_key: str, scale: Scale) -> np.ndarray:
    """The tick quantity's values, checked against the axis they will be drawn on."""
    q = quantity(ticks_key)
    if not q.item_displays:
        raise ValueError(f"{ticks_key} has no item displays: declare the ticks with item_fmt")
    values = np.asarray(q.value, dtype=float)
    outside = ~scale.contains(values)
    if outside.any():
        raise ValueError(f"{ticks_key}: tick {float(values[outside][0])!r} lies outside the {scale.name} "
                         f"({scale.low!r} … {scale.high!r})")
    return values


def tick_label(ticks_key: str, index: int) -> VMobject:
    """Item ``index`` of the tick quantity, in the axes' small muted type."""
    return ledger_text(f"{{{ticks_key}[{index}]}}", size="small", color="muted")


def bottom_tick(x: float, y: float, ticks_key: str, index: int) -> VGroup:
    """A tick under a horizontal axis at (x, y), labelled with item ``index`` of ``ticks_key``."""
    mark = Line([x, y, 0], [x, y - TICK, 0], stroke_width=AXIS_STROKE, color=theme.color("muted"))
    return VGroup(mark, tick_label(ticks_key, index).next_to(mark, DOWN, buff=TICK_LABEL_BUFF))


class Plot(VGroup):
    """A plot frame: x axis along the bottom, y axis up the left, both starting at the
    ranges' low ends; optional ledger ticks, grid lines and word titles.

    ``point(x, y)`` maps data to scene points (arrays give an (n, 3) array)."""

    def __init__(self, *, x_range: tuple[float, float], y_range: tuple[float, float],
                 width: float = 8.0, height: float = 4.5, x_log: bool = False, y_log: bool = False,
                 x_ticks_key: str | None = None, y_ticks_key: str | None = None,
                 x_title: str = "", y_title: str = "", grid: bool = False, frame: bool = False,
                 arrows: bool = False) -> None:
        super().__init__()
        self.x_scale = Scale(*x_range, log=x_log, name="x axis")
        self.y_scale = Scale(*y_range, log=y_log, name="y axis")
        muted = theme.color("muted")
        self.x_axis = Line(ORIGIN, RIGHT * width, stroke_width=AXIS_STROKE, color=muted)
        self.y_axis = Line(ORIGIN, UP * height, stroke_width=AXIS_STROKE, color=muted)
        if arrows:                     # an axis that only says "more this way" ends in a tip
            for axis in (self.x_axis, self.y_axis):
                axis.add_tip(tip_length=ARROW_TIP, tip_width=ARROW_TIP)
        self.grid = VGroup()
        self.x_ticks = self._ticks(x_ticks_key, self.x_scale, along_x=True, grid=grid)
        self.y_ticks = self._ticks(y_ticks_key, self.y_scale, along_x=False, grid=grid)
        # An optional frame closes the plot's top and right, so "off the picture" has an edge.
        corner = UP * height + RIGHT * width
        self.frame = VGroup(*(Line(UP * height, corner), Line(RIGHT * width, corner)) if frame else ())
        self.frame.set_stroke(muted, width=theme.stroke("thin"))
        self.add(self.grid, self.frame, self.x_axis, self.y_axis, self.x_ticks, self.y_ticks)
        # Titles sit outside the tick labels: the x title centred under them, the y title
        # above the y axis (horizontal, since Chinese reads badly turned on its side).
        self.x_title = line(x_title, size="label", color="muted") if x_title else VGroup()
        self.y_title = line(y_title, size="label", color="muted") if y_title else VGroup()
        if x_title:
            self.x_title.next_to(VGroup(self.x_axis, self.x_ticks), DOWN, buff=TITLE_BUFF)
        if y_title:
            self.y_title.next_to(self.y_axis, UP, buff=TITLE_BUFF)
        self.add(self.x_title, self.y_title)

    def _ticks(self, key: str | None, scale: Scale, *, along_x: bool, grid: bool) -> VGroup:
        if key is None:
            return VGroup()
        ticks = VGroup()
        for i, value in enumerate(tick_values(key, scale)):
            at = float(scale.fraction(value))
            if along_x:
                x = at * self.x_axis.get_length()
                ticks.add(bottom_tick(x, 0.0, key, i))
                far = [x, self.y_axis.get_length(), 0]
                start = [x, 0, 0]
            else:
                y = at * self.y_axis.get_length()
                ticks.add(left_tick(0.0, y, key, i))
                far = [self.x_axis.get_length(), y, 0]
                start = [0, y, 0]
            if grid and at > EDGE_TOLERANCE:
                self.grid.add(Line(start, far, stroke_width=2, color=theme.color("muted"),
                                   stroke_opacity=GRID_OPACITY))
        return ticks

    def point(self, x: Values, y: Values) -> np.ndarray:
        """Scene point(s) of data (x, y): shape (3,) for scalars, (n, 3) for arrays."""
        fx, fy = np.broadcast_arrays(self.x_scale.fraction(x), self.y_scale.fraction(y))
        corner = self.x_axis.get_start()
        along_x = self.x_axis.get_end() - corner
        along_y = self.y_axis.get_end() - self.y_axis.get_start()
        return corner + fx[..., None] * along_x + fy[..., None] * along_y

    def x_mark(self, x: float, template: str) -> VGroup:
        """A tick under the x axis at data ``x``, labelled with a template (``"{key}"``)."""
        at = self.point(x, self.y_scale.low)
        mark = Line(at, at + DOWN * TICK, stroke_width=AXIS_STROKE, color=theme.color("muted"))
        return VGroup(mark, line(template, size="small", color="muted").next_to(mark, DOWN, buff=TICK_LABEL_BUFF))

    def contains(self, x: Values, y: Values) -> np.ndarray:
        """Which data points fall inside both ranges."""
        inside_x, inside_y = np.broadcast_arrays(self.x_scale.contains(x), self.y_scale.contains(y))
        return inside_x & inside_y


def _polyline(points: np.ndarray, smooth: bool) -> VMobject:
    piece = VMobject()
    if smooth and len(points) > 2:
        piece.set_points_smoothly(points)
    else:
        piece.set_points_as_corners(points)
    return piece


def curve(plot: Plot, xs: Values, ys: Values, color: str = "accent", *, smooth: bool = False,
          stroke_width: float = CURVE_STROKE, clip: bool = False) -> VMobject:
    """The run (xs, ys) as a line through its mapped points (straight pieces, or a smooth
    spline with ``smooth``). Points outside the plot are an error unless ``clip``, which
    leaves them out and breaks the line there (a loss that blows up leaves the frame)."""
    xs, ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
    if xs.shape != ys.shape or xs.ndim != 1 or len(xs) < 2:
        raise ValueError(f"curve needs two equally long 1-D arrays of at least two points (got {xs.shape}, {ys.shape})")
    points, inside = plot.point(xs, ys), plot.contains(xs, ys)
    if not inside.all() and not clip:
        i = int(np.argmin(inside))
        raise ValueError(f"curve point {i} ({float(xs[i])!r}, {float(ys[i])!r}) lies outside the plot; "
                         "widen the range or pass clip=True")
    mob = VMobject(stroke_color=theme.color(color), stroke_width=stroke_width, fill_opacity=0)
    # Consecutive inside points form one piece; a point outside ends it.
    edges = np.flatnonzero(np.diff(np.concatenate([[0], inside.astype(int), [0]])))
    for start, stop in zip(edges[::2], edges[1::2]):
        if stop - start >= 2:
            mob.append_vectorized_mobject(_polyline(points[start:stop], smooth))
    return mob


def curve_upto(plot: Plot, xs: Values, ys: Values, upto: float, color: str = "accent", **style) -> VMobject:
    """The run drawn up to sample index ``upto`` (a float: 2.5 ends halfway from sample 2
    to 3), for growing a run step by step or syncing it with a moving ball."""
    xs, ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
    upto = float(np.clip(upto, 0, len(xs) - 1))
    whole = int(np.floor(upto))
    head = head_point(plot, xs, ys, upto)
    pts = np.vstack([plot.point(xs[:whole + 1], ys[:whole + 1]), head[None, :]])
    mob = VMobject(stroke_color=theme.color(color), stroke_width=style.get("stroke_width", CURVE_STROKE),
                   fill_opacity=0)
    mob.set_points_as_corners(pts if len(pts) >= 2 else np.vstack([pts, pts]))
    return mob


def head_point(plot: Plot, xs: Values, ys: Values, upto: float) -> np.ndarray:
    """Scene point at fractional sample index ``upto``, interpolated on screen (so it stays
    on the drawn straight pieces of a log plot too)."""
    pts = plot.point(xs, ys)
    upto = float(np.clip(upto, 0, len(pts) - 1))
    whole = min(int(np.floor(upto)), len(pts) - 2)
    return pts[whole] + (upto - whole) * (pts[whole + 1] - pts[whole])


def dots(plot: Plot, xs: Values, ys: Values, color: str = "accent", *, radius: float = DOT_RADIUS) -> VGroup:
    """One dot per run point (e.g. the positions of gradient-descent steps)."""
    inside = plot.contains(xs, ys)
    if not np.all(inside):
        raise ValueError("dots: a run point lies outside the plot; widen the range")
    return VGroup(*(Dot(p, radius=radius, color=theme.color(color)) for p in np.atleast_2d(plot.point(xs, ys))))


def grow(mob: VMobject, run_time: float = 2.0) -> Animation:
    """Draw a curve from its start at an even pace (manim's Create, linear)."""
    return Create(mob, run_time=run_time, rate_func=linear)


def grow_run(plot: Plot, xs: Values, ys: Values, color: str = "accent", *, run_time: float = 3.0,
             ball: bool = True) -> tuple[VGroup, Animation]:
    """A run drawn sample by sample at an even pace per step, with a ball at its head
    (gradient descent: every step takes the same time however far it goes). Returns the
    group (curve, ball) — left on screen finished — and the animation to play."""
    xs, ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
    trail = curve_upto(plot, xs, ys, 0, color)
    head = Dot(head_point(plot, xs, ys, 0), radius=DOT_RADIUS * 1.6, color=theme.color(color))
    group = VGroup(trail, head) if ball else VGroup(trail)

    def update(_: VGroup, alpha: float) -> None:
        upto = alpha * (len(xs) - 1)
        trail.become(curve_upto(plot, xs, ys, upto, color))
        head.move_to(head_point(plot, xs, ys, upto))

    return group, UpdateFromAlphaFunc(group, update, run_time=run_time, rate_func=linear)


class NumberAxis(VGroup):
    """One horizontal real-number axis (linear or log10) with ledger ticks; marks and
    shaded spans are placed at data values (where a number format stops, what it covers)."""

    def __init__(self, low: float, high: float, *, width: float = 10.0, log: bool = False,
                 ticks_key: str | None = None, title: str = "") -> None:
        super().__init__()
        self.data_scale = Scale(low, high, log=log, name="number axis")
        self.line = Line(ORIGIN, RIGHT * width, stroke_width=AXIS_STROKE, color=theme.color("muted"))
        self.ticks = VGroup()
        if ticks_key is not None:
            for i, value in enumerate(tick_values(ticks_key, self.data_scale)):
                self.ticks.add(bottom_tick(float(self.data_scale.fraction(value)) * width, TICK / 2, ticks_key, i))
        # The title goes past the last tick label too, level with the line.
        self.title = VGroup()
        if title:
            self.title = line(title, size="label", color="muted").next_to(VGroup(self.line, self.ticks), RIGHT,
                                                                          buff=0.25).set_y(self.line.get_y())
        self.add(self.line, self.ticks, self.title)

    def point(self, value: Values) -> np.ndarray:
        """Scene point(s) of ``value`` on the axis."""
        start, end = self.line.get_start(), self.line.get_end()
        return start + np.asarray(self.data_scale.fraction(value))[..., None] * (end - start)

    def mark(self, value: float, template: str, *, color: str = "accent", side: np.ndarray = UP,
             size: str = "label") -> VGroup:
        """A stroke across the axis at ``value`` and a label (``{key}`` fills a number) on ``side``."""
        if not self.data_scale.contains(value):
            raise ValueError(f"mark at {value!r} lies outside the number axis ({self.data_scale.low!r} … {self.data_scale.high!r})")
        at = self.point(value)
        stroke = Line(at + DOWN * 0.22, at + UP * 0.22, stroke_width=5, color=theme.color(color))
        label = line(template, size=size, color=color).next_to(stroke, side, buff=0.12)
        return VGroup(stroke, label)

    def span(self, low: float, high: float, color: str = "accent", template: str = "", *,
             side: np.ndarray = UP, opacity: float = 0.35) -> VGroup:
        """A band over [low, high] along the axis (the range a format covers), labelled on ``side``."""
        a, b = self.point(low), self.point(high)
        band = Line(a, b, stroke_width=18, color=theme.color(color), stroke_opacity=opacity)
        group = VGroup(band)
        if template:
            group.add(line(template, size="label", color=color).next_to(band, side, buff=0.12))
        return group


# ---- small additions: a run clipped at the frame, dashes, level lines, filled areas ----

DASH_PERIOD = 0.22   # scene units per dash and gap


def clip_at(xs, ys, top: float) -> tuple[np.ndarray, np.ndarray]:
    """The points of a run up to where it first passes ``top``, ending exactly on it (a
    curve that leaves the frame is drawn to the edge, not to its last sample inside)."""
    xs, ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
    above = np.nonzero(ys > top)[0]
    if len(above) == 0:
        return xs, ys
    i = above[0]
    if i == 0:
        return xs[:1], np.minimum(ys[:1], top)
    share = (top - ys[i - 1]) / (ys[i] - ys[i - 1])
    return np.append(xs[:i], xs[i - 1] + share * (xs[i] - xs[i - 1])), np.append(ys[:i], top)


def dashed(mob: VMobject) -> DashedVMobject:
    """A dashed copy of a line or curve, dashes of one length whatever its length."""
    return DashedVMobject(mob, num_dashes=max(2, round(mob.get_arc_length() / DASH_PERIOD)), dashed_ratio=0.6)


def level(plot: Plot, y: float, color: str, **style) -> VMobject:
    """A horizontal line across the whole plot at data height ``y``."""
    return curve(plot, [plot.x_scale.low, plot.x_scale.high], [y, y], color, **style)


def upright(plot: Plot, x: float, color: str, **style) -> VMobject:
    """A vertical line up the whole plot at data position ``x``."""
    return curve(plot, [x, x], [plot.y_scale.low, plot.y_scale.high], color, **style)


def area(plot: Plot, xs, ys, color: str, *, opacity: float = 0.45) -> VMobject:
    """The region between a run and the plot's floor, outlined along the run."""
    floor = plot.y_scale.low
    run = plot.point(np.asarray(xs, dtype=float), np.asarray(ys, dtype=float))
    corners = np.vstack([plot.point(xs[0], floor), run, plot.point(xs[-1], floor)])
    shape = VMobject(stroke_color=theme.color(color), stroke_width=3, fill_color=theme.color(color),
                     fill_opacity=opacity)
    shape.set_points_as_corners(np.vstack([corners, corners[:1]]))
    return shape


def place(plot: Plot, corner: tuple[float, float]) -> Plot:
    """Move ``plot`` so that its axes meet at ``corner`` (scene x, y)."""
    return plot.shift(np.array([*corner, 0.0]) - plot.x_axis.get_start())
