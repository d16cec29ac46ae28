"""A data window mapped onto the screen, for optimizer runs in a 2-D valley (第三节, second half):
level curves clipped to it, and runs drawn from their iterate arrays. Each is handed data."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import Arrow, Dot, Line, Rectangle, VGroup, VMobject

from scenes.kit import theme
from scenes.kit.arrows import arrow
from scenes.kit.scale import Scale


@dataclass(frozen=True)
class DataWindow:
    """A rectangle of data coordinates ((x0, x1), (y0, y1)) drawn onto a screen rectangle."""

    data: tuple[tuple[float, float], tuple[float, float]]
    screen_center: tuple[float, float]
    screen_size: tuple[float, float]

    @property
    def scales(self) -> tuple[Scale, Scale]:
        """The same data-to-fraction mapping a kit plot's axes use."""
        (x0, x1), (y0, y1) = self.data
        return Scale(x0, x1, name="window x"), Scale(y0, y1, name="window y")

    def point(self, x: float, y: float) -> np.ndarray:
        (sx, sy), (w, h), (cx, cy) = self.scales, self.screen_size, self.screen_center
        return np.array([cx + (float(sx.fraction(x)) - 0.5) * w, cy + (float(sy.fraction(y)) - 0.5) * h, 0.0])

    def points(self, xy: np.ndarray) -> np.ndarray:
        return np.array([self.point(x, y) for x, y in xy])

    def contains(self, x: float, y: float) -> bool:
        sx, sy = self.scales
        return bool(sx.contains(x)) and bool(sy.contains(y))

    def frame(self, color: str = "muted") -> Rectangle:
        """The window's edge, so "off the picture" is a line the viewer sees."""
        width, height = self.screen_size
        return Rectangle(width=width, height=height, color=theme.color(color),
                         stroke_width=theme.stroke("thin")).move_to([*self.screen_center, 0.0])

    def clip_segment(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """The point where the segment from ``a`` (inside) to ``b`` (outside) crosses the border."""
        (x0, x1), (y0, y1) = self.data
        t = 1.0
        for lo, hi, p, q in ((x0, x1, a[0], b[0]), (y0, y1, a[1], b[1])):
            for bound in (lo, hi):
                if q != p and (q < lo or q > hi):
                    s = (bound - p) / (q - p)
                    if 0 <= s <= 1:
                        t = min(t, s)
        return a + t * (b - a)


def clipped_curve(window: DataWindow, xy: np.ndarray, *, color: str, stroke_width: float = 2,
                  opacity: float = 1.0) -> VGroup:
    """A sampled curve drawn only where it lies inside the window (one piece per visible run)."""
    inside = np.array([window.contains(x, y) for x, y in xy])
    pieces = VGroup()
    start = None
    for i, flag in enumerate(np.append(inside, False)):
        if flag and start is None:
            start = i
        elif not flag and start is not None:
            if i - start >= 2:
                piece = VMobject(stroke_color=theme.color(color), stroke_width=stroke_width, stroke_opacity=opacity)
                piece.set_points_as_corners(window.points(xy[start:i]))
                pieces.add(piece)
            start = None
    return pieces


def quadratic_levels(window: DataWindow, curvatures: tuple[float, float], levels: list[float], *,
                     color: str = "muted", samples: int = 400) -> VGroup:
    """Level curves ½(λ₁x² + λ₂y²) = c of a quadratic bowl centred at the origin, clipped."""
    t = np.linspace(0, 2 * np.pi, samples)
    group = VGroup()
    for c in levels:
        a, b = np.sqrt(2 * c / curvatures[0]), np.sqrt(2 * c / curvatures[1])
        group.add(clipped_curve(window, np.column_stack([a * np.cos(t), b * np.sin(t)]), color=color,
                                stroke_width=1.6, opacity=0.55))
    return group


def run_path(window: DataWindow, xy: np.ndarray, *, color: str, dot_radius: float = 0.05,
             stroke_width: float = 3) -> tuple[VMobject, VGroup]:
    """An optimizer run: the polyline through its iterates and a dot on each."""
    pts = window.points(xy)
    path = VMobject(stroke_color=theme.color(color), stroke_width=stroke_width)
    path.set_points_as_corners(pts)
    dots = VGroup(*(Dot(p, radius=dot_radius, color=theme.color(color)) for p in pts))
    return path, dots


def exit_arrow(window: DataWindow, inside: np.ndarray, outside: np.ndarray, *, color: str) -> Arrow:
    """An arrow from the last visible iterate to where the next step crosses the window's border."""
    end = window.clip_segment(inside, outside)
    return arrow(window.point(*inside), window.point(*end), color, weight="bold", buff=None)


def step_parts(window: DataWindow, xy: np.ndarray, *, across: str, up: str) -> tuple[VGroup, VGroup]:
    """Each step split into its across part and its up part (an L from one iterate to the next)."""
    pts = window.points(xy)
    across_parts, up_parts = VGroup(), VGroup()
    for a, b in zip(pts, pts[1:]):
        corner = np.array([b[0], a[1], 0.0])
        across_parts.add(Line(a, corner, color=theme.color(across), stroke_width=6))
        up_parts.add(Line(corner, b, color=theme.color(up), stroke_width=3, stroke_opacity=0.6))
    return across_parts, up_parts

