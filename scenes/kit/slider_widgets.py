"""Mixing-desk widgets: a 推子 (fader), a small one for a bank of them, a readout box, a "held"
mark, a change meter and a rate arrow.

Widgets are handed what they show (a level, a text mobject) and only draw it; the scene
decides what moves. A fader is a parameter, so its knob wears the weights' colour.
"""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, UP, Mobject, VGroup

from scenes.kit import marks, theme
from scenes.kit.arrows import arrow as kit_arrow
from scenes.kit.text import words

KNOB_WIDTH, KNOB_HEIGHT = 0.9, 0.34
TRACK_WIDTH = 0.12
TRACK_OPACITY = 0.55
TICK_COUNT = 9
TICK_HALF = 0.22          # a tick reaches this far either side of the track
CLAMP_WEIGHT = "thin"     # no heavier than the moving fader's knob outline and push arrow
CLAMP_PAD, PIN_REACH = 0.25, 0.08
METER_WIDTH = 0.5


class Fader(VGroup):
    """A vertical fader: track, tick marks and a knob at ``level`` (0 bottom … 1 top)."""

    def __init__(self, level: float, *, height: float = 4.0, color: str = "weights", ticks: bool = True):
        super().__init__()
        self.travel = height
        self.track = marks.box(TRACK_WIDTH, height, "muted", weight=None, fill_opacity=TRACK_OPACITY)
        self.ticks = VGroup(*(
            marks.segment(LEFT * TICK_HALF, RIGHT * TICK_HALF, "muted", weight="thin")
            .move_to(self.track.get_bottom() + UP * height * i / (TICK_COUNT - 1))
            for i in range(TICK_COUNT if ticks else 0)
        ))
        self.knob = marks.box(KNOB_WIDTH, KNOB_HEIGHT, "ink", weight="thin", fill=color, fill_opacity=1)
        self.knob.move_to(self.level_point(level))
        self.add(self.track, self.ticks, self.knob)

    def level_point(self, level: float):
        """Where the knob's centre sits at ``level``."""
        return self.track.get_bottom() + UP * self.travel * level


def held_mark(fader: Fader) -> VGroup:
    """A light clamp on a held fader's knob, with 按住 under the fader.

    Thin and muted: the clamps say "not this one", and must not outweigh the one fader
    that moves. ``.clamp``, ``.pin`` and ``.label`` name the parts."""
    clamp = marks.box(KNOB_WIDTH + CLAMP_PAD, KNOB_HEIGHT + CLAMP_PAD, "muted", weight=CLAMP_WEIGHT)
    clamp.move_to(fader.knob)
    pin = marks.segment(clamp.get_left() + LEFT * PIN_REACH, clamp.get_right() + RIGHT * PIN_REACH, "muted",
                        weight=CLAMP_WEIGHT)
    label = words("按住", size="small", color="muted").next_to(fader.track, DOWN, buff=theme.space("close"))
    mark = VGroup(clamp, pin, label)
    mark.clamp, mark.pin, mark.label = clamp, pin, label
    return mark


def readout_box(label: Mobject, value: Mobject, *, width: float = 3.6, height: float = 1.7) -> VGroup:
    """A display: a framed window holding ``value``, captioned by ``label`` above it."""
    frame = marks.box(width, height, "ink", weight="regular", fill="panel", fill_opacity=1, corner="square")
    value.move_to(frame)
    label.next_to(frame, UP, buff=theme.space("close"))
    box = VGroup(frame, value, label)
    box.frame, box.value, box.label = frame, value, label
    return box


class ChangeMeter(VGroup):
    """How far the readout moved: a zero rule and a bar up (louder) or down (quieter) from it,
    ``unit`` scene units per unit of change. ``show(change)`` returns the bar for a change, to
    animate in; ``.zero``, ``.label`` name the parts."""

    def __init__(self, label: Mobject, *, reach: float, unit: float):
        super().__init__()
        self.unit = unit
        self.zero = marks.segment(LEFT * METER_WIDTH, RIGHT * METER_WIDTH, "ink", weight="bold")
        self.rail = marks.segment(DOWN * reach, UP * reach, "muted", weight="thin")
        self.label = label.next_to(self.rail, UP, buff=theme.space("small"))
        self.add(self.rail, self.zero, self.label)

    def show(self, change: float) -> Mobject:
        """The bar for ``change`` (its sign sets the side of the zero rule it stands on)."""
        height = max(abs(change) * self.unit, 1e-3)
        bar = marks.box(METER_WIDTH * 1.2, height, "ink", weight=None, fill_opacity=0.8, corner="square")
        return bar.move_to(self.zero.get_center(), aligned_edge=DOWN if change >= 0 else UP)


def mini_fader(level: float, *, scale: float, height: float) -> VGroup:
    """A fader drawn at ``scale`` of a full one (track and knob, no ticks), ``height`` tall:
    one of a bank of many."""
    track = marks.box(TRACK_WIDTH * scale, height, "muted", weight=None, fill_opacity=TRACK_OPACITY)
    knob = marks.box(KNOB_WIDTH * scale, KNOB_HEIGHT * scale, "weights", weight=None, fill_opacity=1)
    return VGroup(track, knob.move_to(track.get_bottom() + UP * height * level))


def shade(fader: Fader, level: float) -> list:
    """Animations that step a fader back (``level`` < 1: held, pale) or bring it forward (1):
    knob and ticks fade to ``level``, the track keeps its own lightness times ``level``."""
    return [fader.knob.animate.set_opacity(level), fader.ticks.animate.set_stroke(opacity=level),
            fader.track.animate.set_fill(opacity=TRACK_OPACITY * level)]


def chain_node(name: str, *, size: str = "body", color: str = "ink") -> VGroup:
    """One stage of a chain: its name in a rounded box."""
    text = words(name, size=size, color=color)
    frame = marks.box(max(text.width + 0.5, 1.6), text.height + 0.55, color, weight="regular", fill="panel",
                      fill_opacity=1)
    text.move_to(frame)
    node = VGroup(frame, text)
    node.frame, node.text = frame, text
    return node


def rate_arrow(start: Mobject, end: Mobject, label: Mobject, *, color: str = "ink") -> VGroup:
    """An arrow from ``start`` to ``end`` (what moves what: ink, a forward influence) with its
    exchange rate written above it."""
    arrow = kit_arrow(start.get_right(), end.get_left(), color, weight="bold", buff="snug")
    label.next_to(arrow, UP, buff=theme.space("snug"))
    group = VGroup(arrow, label)
    group.arrow, group.label = arrow, label
    return group


def push_marks(fader: Fader, from_level: float, to_level: float) -> VGroup:
    """Where the knob was (a dashed outline) and an arrow beside the fader showing the push."""
    ghost = marks.box(KNOB_WIDTH, KNOB_HEIGHT, "muted", weight="thin", dashed=True).move_to(fader.level_point(from_level))
    x = fader.get_right()[0] + theme.space("close")
    arrow = kit_arrow([x, fader.level_point(from_level)[1], 0], [x, fader.level_point(to_level)[1], 0], "accent",
                      weight="heavy", buff=None)
    marks_ = VGroup(ghost, arrow)
    marks_.ghost, marks_.arrow = ghost, arrow
    return marks_
