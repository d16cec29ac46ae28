"""Mixing-desk widgets: a 推子 (fader), a readout box, a "held" mark and a rate arrow.

Widgets are handed what they show (a level, a text mobject) and only draw it; the scene
decides what moves.
"""

from __future__ import annotations

from manim import (DOWN, LEFT, RIGHT, UP, DashedVMobject, Line, Mobject, Rectangle, RoundedRectangle,
                   VGroup)

from scenes.kit import theme
from scenes.kit.arrows import arrow as kit_arrow
from scenes.kit.text import words

KNOB_WIDTH, KNOB_HEIGHT = 0.9, 0.34
TRACK_WIDTH = 0.12
TICK_COUNT = 9
CLAMP_STROKE = 2     # lighter than the moving fader's push arrow and knob outline


class Fader(VGroup):
    """A vertical fader: track, tick marks and a knob at ``level`` (0 bottom … 1 top)."""

    def __init__(self, level: float, *, height: float = 4.0, color: str = "accent"):
        super().__init__()
        self.travel = height
        self.track = RoundedRectangle(width=TRACK_WIDTH, height=height, corner_radius=TRACK_WIDTH / 2,
                                      stroke_width=0, fill_color=theme.color("muted"), fill_opacity=0.55)
        self.ticks = VGroup(*(
            Line(LEFT * 0.22, RIGHT * 0.22, stroke_width=2, color=theme.color("muted"))
            .move_to(self.track.get_bottom() + UP * height * i / (TICK_COUNT - 1))
            for i in range(TICK_COUNT)
        ))
        self.knob = RoundedRectangle(width=KNOB_WIDTH, height=KNOB_HEIGHT, corner_radius=0.06,
                                     stroke_color=theme.color("ink"), stroke_width=2,
                                     fill_color=theme.color(color), fill_opacity=1)
        self.knob.move_to(self.level_point(level))
        self.add(self.track, self.ticks, self.knob)

    def level_point(self, level: float):
        """Where the knob's centre sits at ``level``."""
        return self.track.get_bottom() + UP * self.travel * level


def held_mark(fader: Fader) -> VGroup:
    """A light clamp on a held fader's knob, with 按住 under the fader.

    Hairline and muted: the clamps say "not this one", and must not outweigh the one fader
    that moves."""
    clamp = RoundedRectangle(width=KNOB_WIDTH + 0.25, height=KNOB_HEIGHT + 0.2, corner_radius=0.08,
                             stroke_color=theme.color("muted"), stroke_width=CLAMP_STROKE, fill_opacity=0)
    clamp.move_to(fader.knob)
    pin = Line(clamp.get_left() + LEFT * 0.08, clamp.get_right() + RIGHT * 0.08,
               stroke_width=CLAMP_STROKE, color=theme.color("muted"))
    label = words("按住", size="small", color="muted").next_to(fader.track, DOWN, buff=0.2)
    return VGroup(clamp, pin, label)


def readout_box(label: Mobject, value: Mobject, *, width: float = 3.6, height: float = 1.7) -> VGroup:
    """A display: a framed window holding ``value``, captioned by ``label`` above it."""
    frame = Rectangle(width=width, height=height, stroke_color=theme.color("ink"), stroke_width=3,
                      fill_color=theme.color("panel"), fill_opacity=1)
    value.move_to(frame)
    label.next_to(frame, UP, buff=0.2)
    box = VGroup(frame, value, label)
    box.frame, box.value, box.label = frame, value, label
    return box


def chain_node(name: str, *, size: str = "body", color: str = "ink") -> VGroup:
    """One stage of a chain: its name in a rounded box."""
    text = words(name, size=size, color=color)
    frame = RoundedRectangle(width=max(text.width + 0.5, 1.6), height=text.height + 0.55, corner_radius=0.15,
                             stroke_color=theme.color(color), stroke_width=3,
                             fill_color=theme.color("panel"), fill_opacity=1)
    text.move_to(frame)
    node = VGroup(frame, text)
    node.frame, node.text = frame, text
    return node


def rate_arrow(start: Mobject, end: Mobject, label: Mobject, *, color: str = "gradients") -> VGroup:
    """An arrow from ``start`` to ``end`` with its exchange rate written above it."""
    arrow = kit_arrow(start.get_right(), end.get_left(), color, weight="bold", buff="snug")
    label.next_to(arrow, UP, buff=theme.space("snug"))
    group = VGroup(arrow, label)
    group.arrow, group.label = arrow, label
    return group


def push_marks(fader: Fader, from_level: float, to_level: float) -> VGroup:
    """Where the knob was (a dashed outline) and an arrow beside the fader showing the push."""
    ghost = DashedVMobject(fader.knob.copy().move_to(fader.level_point(from_level)).set_fill(opacity=0)
                           .set_stroke(theme.color("muted"), width=2), num_dashes=18)
    x = fader.get_right()[0] + 0.2
    arrow = kit_arrow([x, fader.level_point(from_level)[1], 0], [x, fader.level_point(to_level)[1], 0], "accent",
                      weight="heavy", buff=None)
    return VGroup(ghost, arrow)
