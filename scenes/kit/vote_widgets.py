"""Widgets for the vote picture: probability bars, request arrows, neurons and wires.

Every widget is handed its numbers (from lecture_numerics) and only draws them; the
vertical scale (scene units per 1.0 of probability or request) is the caller's choice.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, UP, Arrow, Circle, DashedVMobject, Line, Rectangle, VMobject

from scenes.kit import theme
from scenes.kit.types import Point
from scenes.kit.arrows import arrow

VOTE_TIP = 0.25   # a vote's tip at most a quarter unit: the rows of votes in fig-vote stay apart



def probability_bar(value: float, base: Point, *, unit_height: float, width: float,
                    color: str = "accent") -> Rectangle:
    """A bar standing on ``base`` whose height is ``value`` × ``unit_height``."""
    height = max(value * unit_height, 1e-3)
    bar = Rectangle(width=width, height=height, stroke_width=0,
                    fill_color=theme.color(color), fill_opacity=0.55)
    bar.kit_bar = True
    return bar.move_to(base, aligned_edge=DOWN)


def answer_outline(base: Point, *, unit_height: float, width: float, color: str = "good") -> VMobject:
    """The one-hot answer: a dashed box as tall as probability 1."""
    box = Rectangle(width=width, height=unit_height, stroke_color=theme.color(color), stroke_width=4)
    return DashedVMobject(box.move_to(base, aligned_edge=DOWN), num_dashes=36)


def request_arrow(start: Point, request: float, *, unit_height: float, color: str = "backward",
                  weight: str = "strong") -> Arrow:
    """A vertical push from ``start``: up for a positive request, length |request| × unit_height.

    The kit's arrow keeps its stroke on short requests (manim would thin them), so a small
    vote stays visible; tips are capped so a row of votes never runs together.
    """
    length = max(abs(request) * unit_height, 1e-3)
    end = start + (UP if request >= 0 else DOWN) * length
    return arrow(start, end, color, weight=weight, buff=None, max_tip=VOTE_TIP)


def neuron(brightness: float, *, radius: float = 0.5, color: str = "activations") -> Circle:
    """A neuron lit in proportion to its activation (0 = dark, 1 = fully lit)."""
    return Circle(radius=radius, stroke_color=theme.color("ink"), stroke_width=3,
                  fill_color=theme.color(color), fill_opacity=float(np.clip(brightness, 0.05, 1.0)))


def wire(source: Circle, target: Circle, *, stroke_width: float = 4, color: str = "weights") -> Line:
    """A weight: the line from one neuron's rim to another's."""
    line = Line(source.get_center(), target.get_center())
    direction = line.get_unit_vector()
    start = source.get_center() + direction * source.width / 2
    end = target.get_center() - direction * target.width / 2
    return Line(start, end, stroke_width=stroke_width, color=theme.color(color))
