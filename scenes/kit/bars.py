"""Stacked bars handed their segments: one bar cut into parts sized by value, and a group
of bars on one shared scale (a memory bill, a byte ruler, one bar cut across GPUs).

A segment's value is a number or a ledger key (then the ledger's value sizes it). Its label
is a template for ``line()``: words, or ``{key}`` placeholders for numbers. A label sits
inside its segment when it fits, else beside the bar with a leader line; labels beside the
bar are pushed along it so that neighbours never overlap.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence, Union

import numpy as np
from manim import DOWN, LEFT, ORIGIN, RIGHT, UP, Dot, Line, Rectangle, VGroup, VMobject

from lecture_numerics import quantity
from scenes.kit import theme
from scenes.kit.text import line

# Light enough that ink text stays readable on any theme colour (the resident blocks of
# anim-memtime use 0.5 for the same reason).
SEGMENT_OPACITY = 0.55
THICKNESS = 0.7
INSIDE_PAD = 0.1     # clear space a label keeps from its segment's edges
OUTSIDE_BUFF = 0.35  # bar edge → outside label
LEADER_DOT = 0.05
LABEL_GAP = 0.2      # between neighbouring outside labels
NAME_BUFF = 0.3      # bar → its name
TRACK_OPACITY = 0.6
SEPARATOR = 2        # background-coloured stroke between segments, so equal colours still read as parts


@dataclass(frozen=True)
class Segment:
    """One part of a bar: its size (number, or ledger key), theme colour and label template."""

    value: float | str
    color: str
    label: str = ""

    def magnitude(self) -> float:
        value = float(quantity(self.value).value) if isinstance(self.value, str) else float(self.value)
        if not (np.isfinite(value) and value > 0):
            raise ValueError(f"bar segment {self.label or self.color!r}: value must be a positive number, got {value!r}")
        return value


SegmentLike = Union[Segment, tuple]


def as_segment(item: SegmentLike) -> Segment:
    return item if isinstance(item, Segment) else Segment(*item)


class StackedBar(VGroup):
    """Segments laid end to end from the bar's base: rightwards (``"horizontal"``) or
    upwards (``"vertical"``); ``scale`` is scene units per unit of value."""

    def __init__(self, segments: Sequence[SegmentLike], *, scale: float, orientation: str = "horizontal",
                 thickness: float = THICKNESS, size: str = "label", opacity: float = SEGMENT_OPACITY,
                 track: float | None = None) -> None:
        super().__init__()
        if orientation not in ("horizontal", "vertical"):
            raise ValueError(f"orientation must be 'horizontal' or 'vertical', got {orientation!r}")
        if not scale > 0:
            raise ValueError(f"scale must be positive (scene units per unit of value), got {scale!r}")
        if not segments:
            raise ValueError("a stacked bar needs at least one segment")
        self.segments = [as_segment(s) for s in segments]
        self.horizontal = orientation == "horizontal"
        self.along = RIGHT if self.horizontal else UP
        self.thickness = thickness
        self.lengths = np.array([s.magnitude() * scale for s in self.segments])
        self.opacity = opacity
        self.blocks = self._blocks()
        # ``track``: a faint outline of that length behind the blocks (what the bar was before a cut).
        self.track = VGroup()
        if track is not None:
            w, h = (track, thickness) if self.horizontal else (thickness, track)
            self.track.add(Rectangle(width=w, height=h, stroke_width=theme.stroke("hairline"),
                                     stroke_color=theme.color("muted"), stroke_opacity=TRACK_OPACITY)
                           .move_to(self.along * track / 2))
        self.labels, self.leaders = VGroup(), VGroup()
        self._place_labels(size)
        self.add(self.track, self.blocks, self.leaders, self.labels)

    def _blocks(self) -> VGroup:
        blocks = VGroup()
        ends = np.concatenate([[0.0], np.cumsum(self.lengths)])
        for seg, start, length in zip(self.segments, ends, self.lengths):
            w, h = (length, self.thickness) if self.horizontal else (self.thickness, length)
            block = Rectangle(width=w, height=h, fill_color=theme.color(seg.color), fill_opacity=self.opacity,
                              stroke_color=theme.background(), stroke_width=SEPARATOR)
            block.kit_bar = True
            blocks.add(block.move_to(self.along * (start + length / 2)))
        return blocks

    def _fits(self, label: VMobject, length: float) -> bool:
        room_along, room_across = length - 2 * INSIDE_PAD, self.thickness - 2 * INSIDE_PAD
        along, across = (label.width, label.height) if self.horizontal else (label.height, label.width)
        return along <= room_along and across <= room_across

    def _place_labels(self, size: str) -> None:
        outside = []
        for seg, block, length in zip(self.segments, self.blocks, self.lengths):
            if not seg.label:
                continue
            label = line(seg.label, size=size)
            if self._fits(label, length):
                self.labels.add(label.move_to(block))
            else:
                outside.append((block, label))
        self._place_outside(outside)

    def _place_outside(self, outside: list[tuple[Rectangle, VMobject]]) -> None:
        """Beside the bar (above a horizontal one, right of a vertical one), each label as
        near its segment as it can be without touching the previous label."""
        side = UP if self.horizontal else RIGHT
        axis = 0 if self.horizontal else 1
        reach = None  # far edge of the previous label along the bar
        for block, label in outside:
            label.next_to(block, side, buff=OUTSIDE_BUFF)
            near = label.get_critical_point(-self.along)[axis]
            if reach is not None and near < reach + LABEL_GAP:
                label.shift(self.along * (reach + LABEL_GAP - near))
            reach = label.get_critical_point(self.along)[axis]
            # The leader starts with a dot on the segment, so beside a vertical bar it reads
            # as a pointer and not as a minus sign before the label.
            edge = block.get_critical_point(side)
            muted = theme.color("muted")
            self.leaders.add(VGroup(Dot(edge, radius=LEADER_DOT, color=muted),
                                    Line(edge, label.get_critical_point(-side) - side * 0.06, stroke_width=2,
                                         color=muted)))
            self.labels.add(label)

    def base(self) -> np.ndarray:
        """The bar's start (left edge centre, or bottom edge centre)."""
        return self.blocks[0].get_critical_point(-self.along)

    def start_at(self, point) -> "StackedBar":
        """Move the bar so that its base sits at ``point`` (scene x, y)."""
        return self.shift(np.array([*point, 0.0][:3]) - self.base())

    def span(self, first: int, last: int) -> VGroup:
        """Segments ``first`` … ``last`` (inclusive) as one group, e.g. for a brace."""
        return VGroup(*self.blocks[first:last + 1])


def stacked_bar(segments: Sequence[SegmentLike], scale: float, orientation: str = "horizontal",
                **kwargs) -> StackedBar:
    """One bar cut into parts; see :class:`StackedBar`."""
    return StackedBar(segments, scale=scale, orientation=orientation, **kwargs)


class BarGroup(VGroup):
    """Several stacked bars on one shared scale, bases aligned: horizontal bars one under
    another with names on their left, vertical bars side by side with names below."""

    def __init__(self, bars: Sequence[Sequence[SegmentLike]], *, scale: float, names: Sequence[str] = (),
                 orientation: str = "horizontal", gap: float = 0.5, **bar_kwargs) -> None:
        super().__init__()
        if names and len(names) != len(bars):
            raise ValueError(f"bar_group: {len(names)} names for {len(bars)} bars")
        self.bars = [StackedBar(b, scale=scale, orientation=orientation, **bar_kwargs) for b in bars]
        self.names = VGroup(*(line(n, size="label") for n in names))
        horizontal = orientation == "horizontal"
        cursor = 0.0  # top of the next horizontal bar, or left of the next vertical one
        for i, bar in enumerate(self.bars):
            bar.shift(ORIGIN - bar.base())
            if horizontal:
                bar.shift(UP * (cursor - bar.get_top()[1]))
                cursor = bar.get_bottom()[1] - gap
            else:
                name_width = self.names[i].width if names else 0.0
                left = min(bar.get_left()[0], bar.base()[0] - name_width / 2)
                bar.shift(RIGHT * (cursor - left))
                cursor = max(bar.get_right()[0], bar.base()[0] + name_width / 2) + gap
            if names:
                self.names[i].next_to(bar.blocks, LEFT if horizontal else DOWN, buff=NAME_BUFF)
        self.add(*self.bars, self.names)


def bar_group(bars: Sequence[Sequence[SegmentLike]], scale: float, names: Sequence[str] = (),
              orientation: str = "horizontal", **kwargs) -> BarGroup:
    """Bars side by side on a shared scale; see :class:`BarGroup`."""
    return BarGroup(bars, scale=scale, names=names, orientation=orientation, **kwargs)


def histogram(edges: Sequence[float], heights: Sequence[float], *, base: float, unit: float,
              colors: Sequence[str], opacity: float = SEGMENT_OPACITY) -> VGroup:
    """Bars standing on ``base`` between consecutive scene x ``edges``, ``heights[i] × unit``
    tall, bar i in role ``colors[i]``; thin background-coloured edges keep neighbours apart."""
    if not len(edges) == len(heights) + 1 == len(colors) + 1:
        raise ValueError(f"histogram: {len(edges)} edges for {len(heights)} heights and {len(colors)} colours")
    bars = VGroup()
    for a, b, h, color in zip(edges[:-1], edges[1:], heights, colors):
        bars.add(Rectangle(width=b - a, height=h * unit, stroke_width=theme.stroke("hairline") / 1.5,
                           stroke_color=theme.color("panel"), fill_color=theme.color(color), fill_opacity=opacity)
                 .move_to([(a + b) / 2, base + h * unit / 2, 0]))
    for bar in bars:
        bar.kit_bar = True   # drawn by the kit, wherever a scene regroups it: the own-bars check passes it
    return bars
