"""Widgets for the vote picture: probability bars, request arrows, neurons and wires.

Every widget is handed its numbers (from lecture_numerics) and only draws it; the
vertical scale (scene units per 1.0 of probability or request) is the caller's choice.
A prediction is a forward value (ink), a request a backward one (red), a neuron's brightness
an activation (teal), a wire a weight (blue).
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, ORIGIN, UP, Arrow, VMobject

from scenes.kit import marks
from scenes.kit.arrows import arrow
from scenes.kit.types import Point

VOTE_TIP = 0.25   # a vote's tip at most a quarter unit: the rows of votes in fig-vote stay apart
BAR_FILL = 0.12   # a prediction bar's tint: light enough that a red request drawn inside it reads
LIT_FLOOR = 0.05  # a neuron at activation 0 still shows its disc


def probability_bar(value: float, base: Point, *, unit_height: float, width: float,
                    color: str = "ink") -> VMobject:
    """A bar standing on ``base`` whose height is ``value`` × ``unit_height``: outlined, lightly tinted."""
    height = max(value * unit_height, 1e-3)
    bar = marks.box(width, height, color, weight="regular", fill_opacity=BAR_FILL, corner="square")
    bar.kit_bar = True
    return bar.move_to(base, aligned_edge=DOWN)


def answer_outline(base: Point, *, unit_height: float, width: float, color: str = "ink") -> VMobject:
    """The one-hot answer: a dashed box as tall as probability 1 (told from the bars by its dashes)."""
    return marks.box(width, unit_height, color, weight="bold", corner="square", dashed=True).move_to(
        base, aligned_edge=DOWN)


def request_arrow(start: Point, request: float, *, unit_height: float, color: str = "backward",
                  weight: str = "strong") -> Arrow:
    """A vertical push from ``start``: up for a positive request, length |request| × unit_height.

    The kit's arrow keeps its stroke on short requests (manim would thin them), so a small
    vote stays visible; tips are capped so a row of votes never runs together.
    """
    length = max(abs(request) * unit_height, 1e-3)
    end = start + (UP if request >= 0 else DOWN) * length
    return arrow(start, end, color, weight=weight, buff=None, max_tip=VOTE_TIP)


def neuron(brightness: float, *, radius: float = 0.5, color: str = "activations") -> VMobject:
    """A neuron lit in proportion to its activation (0 = dark, 1 = fully lit)."""
    return marks.ring(ORIGIN, "ink", radius=radius, weight="regular", fill=color,
                      fill_opacity=float(np.clip(brightness, LIT_FLOOR, 1.0)))


def wire(source: VMobject, target: VMobject, *, weight: str = "bold", color: str = "weights") -> VMobject:
    """A weight: the line from one neuron's rim to another's."""
    direction = target.get_center() - source.get_center()
    direction = direction / np.linalg.norm(direction)
    start = source.get_center() + direction * source.width / 2
    end = target.get_center() - direction * target.width / 2
    return marks.segment(start, end, color, weight=weight)
