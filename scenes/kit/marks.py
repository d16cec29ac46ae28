"""The small shapes a figure is built from — dots, rings, strokes, boxes, frames, braces, arcs,
polygons — each styled from the theme, so a scene never constructs a manim shape itself.

A role names the colour (``"ink"``, ``"bad"``, ``"weights"`` …), a weight names the stroke
(``"thin"``, ``"regular"``, ``"bold"`` … from the theme's stroke scale; ``None``: no outline),
a gap names a spacing (``"hair"``, ``"small"`` …). Nothing here takes a stroke width as a number.

Dots and triangle markers come in four sizes: the theme has no dot scale, so their radii are
read off the spacing scale (``DOT_SIZES``), the nearest values to the radii the scenes used.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from manim import (DOWN, ORIGIN, UP, ArcBetweenPoints, Brace, CurvedArrow, Circle, Dot, Line, Mobject, Polygon,
                   Rectangle, RoundedRectangle, SurroundingRectangle, Triangle, VMobject)

from scenes.kit import theme
from scenes.kit.annotate import CORNER, HALO_STROKE
from scenes.kit.arrows import curved_arrow
from scenes.kit.plots import dashed as dashed_copy
from scenes.kit.types import Point

# Dot radius by size name → the spacing it borrows (0.05, 0.08, 0.1, 0.12 scene units): a dot
# in a dense run, a marked point, a point the speaker names, a moving ball or a seed.
DOT_SIZES = {"small": "hair", "regular": "fine", "large": "tight", "ball": "snug"}
RING_GAP = "hair"          # a ring's clearance around what it encloses
POINT_RING = "snug"        # a ring's radius around a bare point (just outside a "large" dot)
SHADE_OPACITY = 0.12       # light enough that text of any role on the shade keeps 4.5:1
BACKGROUND = "background"  # the fill name for the page's own colour (a disc that blanks what is behind)


def _point(p: Point) -> np.ndarray:
    return np.array([*p, 0.0][:3], dtype=float)


def width_of(weight: str) -> float:
    """The theme stroke width named ``weight``, with the known names when it is not one."""
    try:
        return theme.stroke(weight)
    except KeyError:
        from lecture_numerics import config_files

        known = ", ".join(config_files.theme()["strokes"])
        raise KeyError(f"no theme stroke {weight!r}; known: {known}") from None


def radius_of(size: str) -> float:
    """A dot's radius by size name (``small``, ``regular``, ``large``, ``ball``)."""
    if size not in DOT_SIZES:
        raise KeyError(f"no dot size {size!r}; known: {', '.join(DOT_SIZES)}")
    return theme.space(DOT_SIZES[size])


def fill_colour(name: str):
    """A fill's colour: a theme role, or ``"background"`` for the page's own colour."""
    return theme.background() if name == BACKGROUND else theme.color(name)


def _outline(mob: VMobject, role: str, weight: str | None, opacity: float = 1.0) -> VMobject:
    if weight is None:
        return mob.set_stroke(width=0, opacity=0)
    return mob.set_stroke(theme.color(role), width=width_of(weight), opacity=opacity)


# ---- points ---------------------------------------------------------------------------

def dot(point: Point = ORIGIN, role: str = "ink", *, size: str = "regular", radius: float | None = None,
        opacity: float = 1.0, halo: bool = False) -> Dot:
    """A filled dot at ``point``. ``radius`` only for a dot measured off another mobject (a
    ball's copy); ``halo`` rings it in the background colour, so lines under it stop short."""
    mark = Dot(_point(point), radius=radius if radius is not None else radius_of(size),
               color=theme.color(role), fill_opacity=opacity)
    if halo:
        mark.set_stroke(theme.background(), width=HALO_STROKE, background=True)
    return mark


def ring(at: Point | Mobject, role: str = "ink", *, radius: float | None = None, weight: str = "regular",
         fill: str | None = None, fill_opacity: float = 0.0) -> Circle:
    """A circle around a mobject (just clear of it) or a point; ``radius`` sets it outright (the
    unit ball of a ruler). ``fill`` (a role, or ``"background"``) makes it a disc."""
    if isinstance(at, Mobject):
        centre = at.get_center()
        radius = radius if radius is not None else max(at.width, at.height) / 2 + theme.space(RING_GAP)
    else:
        centre = _point(at)
        radius = radius if radius is not None else theme.space(POINT_RING)
    tint = dict(fill_color=fill_colour(fill), fill_opacity=fill_opacity) if fill else dict(fill_opacity=0.0)
    circle = Circle(radius=radius, **tint)
    return _outline(circle, role, weight).move_to(centre)


def triangle_marker(point: Point, role: str = "ink", *, size: str = "large", pointing: np.ndarray = UP) -> Triangle:
    """A filled ▲ centred on ``point`` (``pointing`` turns it: DOWN gives ▼), as big as a dot of ``size``."""
    mark = Triangle(color=theme.color(role), fill_opacity=1.0, stroke_width=0)
    mark.scale(radius_of(size))          # manim's triangle has circumradius 1
    turn = np.arctan2(pointing[1], pointing[0]) - np.pi / 2
    return mark.rotate(turn).move_to(_point(point))


# ---- strokes ----------------------------------------------------------------------------

def segment(start: Point, end: Point, role: str = "ink", *, weight: str = "regular", dashed: bool = False,
            opacity: float = 1.0) -> VMobject:
    """A straight stroke from ``start`` to ``end`` (dashed: dashes of the kit's one length)."""
    stroke = Line(_point(start), _point(end), color=theme.color(role), stroke_width=width_of(weight),
                  stroke_opacity=opacity)
    return dashed_copy(stroke) if dashed else stroke


def tick(at: Point, role: str = "ink", *, across: np.ndarray = UP, length: float | None = None,
         weight: str = "regular") -> Line:
    """A short stroke centred on ``at`` along ``across`` (UP crosses a horizontal line): a tick,
    the end of a span. ``length`` defaults to twice the ``small`` gap."""
    half = (length if length is not None else 2 * theme.space("small")) / 2
    direction = np.asarray(across, dtype=float) / np.linalg.norm(across)
    return segment(_point(at) - direction * half, _point(at) + direction * half, role, weight=weight)


def polyline(points: Sequence[Point], role: str = "ink", *, weight: str = "regular", smooth: bool = False,
             dashed: bool = False, closed: bool = False) -> VMobject:
    """One stroke through ``points``: straight pieces (a staircase, a sketch) or a smooth
    spline; ``closed`` returns to the first point."""
    corners = np.array([_point(p) for p in points])
    if len(corners) < 2:
        raise ValueError("polyline needs at least two points")
    if closed:
        corners = np.vstack([corners, corners[:1]])
    path = VMobject(fill_opacity=0)
    if smooth and len(corners) > 2:
        path.set_points_smoothly(corners)
    else:
        path.set_points_as_corners(corners)
    path.set_stroke(theme.color(role), width=width_of(weight))
    return dashed_copy(path) if dashed else path


def bracket(start: Point, end: Point, toward: np.ndarray, role: str = "ink", *, arm: float | None = None,
            weight: str = "regular") -> VMobject:
    """A square bracket: a stroke from ``start`` to ``end`` with an arm at each end pointing
    ``toward`` (what it brackets), ``arm`` long (default the ``tight`` gap)."""
    length = arm if arm is not None else theme.space("tight")
    reach = np.asarray(toward, dtype=float) / np.linalg.norm(toward) * length
    a, b = _point(start), _point(end)
    return polyline([a + reach, a, b, b + reach], role, weight=weight)


def strike(mob: Mobject, role: str = "bad", *, weight: str = "bold") -> Line:
    """A stroke through the middle of ``mob`` from its left to its right edge: words crossed out."""
    return segment(mob.get_left(), mob.get_right(), role, weight=weight)


def travel_path(start: Point, end: Point, *, angle: float = 0.0) -> VMobject:
    """A path for MoveAlongPath, never drawn: straight, or bent ``angle`` radians as an arc."""
    a, b = _point(start), _point(end)
    path = ArcBetweenPoints(a, b, angle=angle) if angle else Line(a, b)
    return path.set_stroke(opacity=0)


def arc(start: Point, end: Point, role: str = "ink", *, angle: float, weight: str = "regular",
        dashed: bool = False) -> VMobject:
    """An arc from ``start`` to ``end`` bent ``angle`` radians (a hop over a curve), no tip."""
    bend = ArcBetweenPoints(_point(start), _point(end), angle=angle, color=theme.color(role),
                            stroke_width=width_of(weight))
    return dashed_copy(bend) if dashed else bend


def arc_arrow(start: Point, end: Point, role: str = "ink", *, angle: float, weight: str = "regular",
              max_tip: float | None = None) -> CurvedArrow:
    """An arc with a tip (a loop back, a hop out): the kit's curved arrow, tip sized by its weight."""
    return curved_arrow(start, end, role, arc=angle, weight=weight, max_tip=max_tip)


# ---- areas and frames -------------------------------------------------------------------

def box(width: float, height: float, role: str = "ink", *, weight: str | None = "regular", fill: str | None = None,
        fill_opacity: float = 0.0, corner: str = "round", dashed: bool = False) -> VMobject:
    """A rectangle ``width`` × ``height`` at the origin: outlined in ``role`` (weight None: no
    outline) and filled with ``fill`` (a role or ``"background"``; default the role) at
    ``fill_opacity``; ``corner`` ``"round"`` or ``"square"``."""
    if corner not in ("round", "square"):
        raise ValueError(f"corner must be 'round' or 'square', got {corner!r}")
    style = dict(width=width, height=height, fill_color=fill_colour(fill or role), fill_opacity=fill_opacity)
    shape = RoundedRectangle(corner_radius=min(CORNER, width / 2, height / 2), **style) if corner == "round" \
        else Rectangle(**style)
    _outline(shape, role, weight)
    return dashed_copy(shape) if dashed else shape


def shade(corner: Point, opposite: Point, role: str, *, opacity: float = SHADE_OPACITY) -> Rectangle:
    """A filled, unoutlined rectangle between two opposite corners: a region of a chart (the
    steps where …, the range only bf16 keeps)."""
    a, b = _point(corner), _point(opposite)
    width, height = abs(b[0] - a[0]), abs(b[1] - a[1])
    if not (width > 0 and height > 0):
        raise ValueError("shade: the two corners must differ in x and in y")
    area = Rectangle(width=width, height=height, stroke_width=0, fill_color=theme.color(role), fill_opacity=opacity)
    return area.move_to((a + b) / 2)


def frame_around(mob: Mobject, role: str = "ink", *, pad: str = "small", weight: str = "regular",
                 corner: str = "round", dashed: bool = False) -> VMobject:
    """A frame around ``mob``, ``pad`` (a spacing name) clear of it on every side: the one row
    that matters, the cell the speaker points at, a hypothetical row (dashed)."""
    frame = SurroundingRectangle(mob, buff=theme.space(pad), corner_radius=CORNER if corner == "round" else 0.0,
                                 color=theme.color(role), stroke_width=width_of(weight))
    return dashed_copy(frame) if dashed else frame


def polygon(points: Sequence[Point], role: str = "ink", *, weight: str | None = "regular",
            fill_opacity: float = 0.0) -> Polygon:
    """A closed shape through ``points`` (a funnel), outlined and tinted in ``role``."""
    shape = Polygon(*[_point(p) for p in points], fill_color=theme.color(role), fill_opacity=fill_opacity)
    return _outline(shape, role, weight)


def brace(target: Mobject | tuple[Point, Point], direction: np.ndarray = DOWN, role: str = "ink", *,
          gap: str = "tight") -> Brace:
    """A brace along ``target`` (a mobject, or a span as two points) on its ``direction`` side,
    ``gap`` clear of it. With a label: :func:`scenes.kit.widgets.labelled_brace`."""
    if not isinstance(target, Mobject):
        start, end = (_point(p) for p in target)
        if np.allclose(start, end):
            raise ValueError("brace: the span's two points coincide")
        target = Line(start, end)
    return Brace(target, direction=direction, buff=theme.space(gap), color=theme.color(role))


def highlight_band(mob: Mobject, *, opacity: float, gap: str = "fine") -> Mobject:
    """A pale band of the highlight colour around ``mob`` (to sit behind it): the key's 强调,
    a mark no one reads as a glyph."""
    return SurroundingRectangle(mob, buff=theme.space(gap), corner_radius=theme.space("hair"), stroke_width=0,
                                fill_color=theme.color("accent"), fill_opacity=opacity)
