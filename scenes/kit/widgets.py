"""Widgets handed data, each drawing one idea the lecture shows again and again:

- ``split_bar``      a whole cut into shares (each part as wide as its share), labelled inside
                     or, when a label does not fit, below with a leader;
- ``bit_layout``     a number format's bit fields (fp16 1|5|10 against bf16 1|8|7), one cell per
                     bit or one block per field, each field's bit count and name under it;
- ``limit_line``     a capacity across a chart or a bar (an 80 GiB card), with what sticks out
                     past it framed: 装不下, shown rather than said;
- ``axis_range``     a shaded range on an axis (what a format covers) with marked points;
- ``labelled_brace`` a brace with its label on the side it opens to;
- ``badge``, ``card`` words in a rounded frame; a card of rows that grows row by row
                     (``add_row`` returns the animation);
- ``number_line``    a number axis with ledger ticks and marks.

Every part is reachable by name (``.bar``, ``.labels``, ``.line`` …), so a scene never indexes
into a widget. Text goes through scenes.kit.text (words, or templates whose ``{key}`` fills a
ledger number); colours are theme roles; shapes come from scenes.kit.marks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence, Union

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, Animation, AnimationGroup, FadeIn, Mobject, Transform,
                   VGroup, VMobject)

from lecture_numerics import quantity
from scenes.kit import marks, theme
from scenes.kit.annotate import boxed, brace_label, on_plot
from scenes.kit.bars import INSIDE_PAD, OUTSIDE_BUFF, SEGMENT_OPACITY, THICKNESS, BarGroup, Segment, StackedBar
from scenes.kit.format_widgets import CellBar
from scenes.kit.plots import NumberAxis, Plot, dashed, upright
from scenes.kit.text import line

Value = Union[float, str]            # a number, or the ledger key whose value it is
Label = Union[str, Mobject]          # a template for line(), or a kit text mobject

LABEL_GAP = "close"                  # between neighbouring labels pushed apart along a row


def value_of(value: Value) -> float:
    """A number, or the ledger value of a key."""
    return float(quantity(value).value) if isinstance(value, str) else float(value)


def as_text(label: Label, *, size: str, color: str) -> Mobject:
    """A label as a mobject: a template goes through ``line()``; a mobject is used as it is."""
    return label if isinstance(label, Mobject) else line(label, size=size, color=color)


def spread(labels: Sequence[Mobject], gap: str = LABEL_GAP) -> None:
    """Push labels in a row apart, left to right, so that no two overlap: each keeps its
    place unless the one before it reaches into it (order by centre; ties keep the given order)."""
    reach = None
    for label in sorted(labels, key=lambda m: m.get_center()[0]):
        if reach is not None and label.get_left()[0] < reach + theme.space(gap):
            label.shift(RIGHT * (reach + theme.space(gap) - label.get_left()[0]))
        reach = label.get_right()[0]


def leader(edge: np.ndarray, label: Mobject, side: np.ndarray) -> VGroup:
    """A dot on a bar's edge and a thin line to the label beyond it: which part a label names.
    The line drops straight when the label spans the edge point, else slants to its nearest corner."""
    near = label.get_critical_point(-side) - side * theme.space("hair")
    x = float(np.clip(edge[0], label.get_left()[0], label.get_right()[0]))
    return VGroup(marks.dot(edge, "muted", size="small"), marks.segment(edge, [x, near[1], 0], "muted", weight="thin"))


# ---- 1. a whole cut into shares ------------------------------------------------------------

class SplitBar(VGroup):
    """A horizontal bar ``width`` long cut into parts, each as long as its share of the whole
    (the parts' sum, or ``whole``: then a faint track shows the rest). A label sits inside
    its part when it fits, else below it with a leader, pushed along so none overlap.

    ``.bar`` (a StackedBar), ``.blocks``, ``.labels`` and ``.leaders`` (in the parts' order;
    an unlabelled part has an empty group), ``.inside`` (which labels sit inside),
    ``.part(i)`` (block, label and leader of part i)."""

    def __init__(self, parts: Sequence[tuple[str, Value, str]], *, width: float, height: float = THICKNESS,
                 whole: Value | None = None, size: str = "label") -> None:
        super().__init__()
        if not parts:
            raise ValueError("split_bar needs at least one part")
        segments = [Segment(share, role) for _, share, role in parts]
        self.shares = np.array([s.magnitude() for s in segments])
        total = value_of(whole) if whole is not None else float(self.shares.sum())
        if total < self.shares.sum() * (1 - 1e-9):
            raise ValueError(f"split_bar: the parts ({self.shares.sum()!r}) are more than the whole ({total!r})")
        self.bar = StackedBar(segments, scale=width / total, thickness=height,
                              track=width if whole is not None else None)
        self.blocks = self.bar.blocks
        self.labels, self.leaders, self.inside = VGroup(), VGroup(), []
        for (label, _, role), block in zip(parts, self.blocks):
            self._label(label, role, block, size)
        spread(self._outside_labels())
        self._draw_leaders()
        self.add(self.bar, self.leaders, self.labels)

    def _label(self, template: str, role: str, block: Mobject, size: str) -> None:
        if not template:
            self.labels.add(VGroup())
            self.inside.append(True)
            return
        label = line(template, size=size, color="ink")
        fits = label.width <= block.width - 2 * INSIDE_PAD and label.height <= block.height - 2 * INSIDE_PAD
        if fits:
            label.move_to(block)
        else:              # below the bar, in the part's colour so it still reads as that part
            label = line(template, size=size, color=role).next_to(block, DOWN, buff=OUTSIDE_BUFF)
        self.labels.add(label)
        self.inside.append(fits)

    def _outside_labels(self) -> list[Mobject]:
        return [lab for lab, inside in zip(self.labels, self.inside) if not inside]

    def _draw_leaders(self) -> None:
        for label, block, inside in zip(self.labels, self.blocks, self.inside):
            self.leaders.add(VGroup() if inside else leader(block.get_bottom(), label, DOWN))

    def part(self, i: int) -> VGroup:
        """Part ``i`` (in the order the parts were given): its block, label and leader."""
        return VGroup(self.blocks[i], self.labels[i], self.leaders[i])


def split_bar(parts: Sequence[tuple[str, Value, str]], width: float, height: float = THICKNESS, **kwargs) -> SplitBar:
    """A whole cut into shares: ``parts`` are (label template, share — a number or ledger key,
    role). See :class:`SplitBar`."""
    return SplitBar(parts, width=width, height=height, **kwargs)


# ---- 2. a number format's bit fields ---------------------------------------------------------

@dataclass(frozen=True)
class Field:
    """One bit field: its name (a template), its bit count (a ledger key, or a number), its
    role, and the template of the count drawn under it (default ``"{key}"`` for a ledger
    count; a count given as a number is drawn only through a template the caller passes)."""

    name: str
    bits: Value
    role: str
    count: str | None = None

    def count_template(self) -> str | None:
        if self.count is not None:
            return self.count
        return "{" + self.bits + "}" if isinstance(self.bits, str) else None


FieldLike = Union[Field, tuple]


class BitLayout(VGroup):
    """A format's fields left to right, ``bit_width`` per bit: one cell per bit (``per_bit``)
    or one block per field. Under each field, its bit count and then its name; an optional
    ``title`` (the format's name) on the left.

    ``.cells``, ``.field(j)`` (the cells of field j), ``.counts``, ``.names``, ``.title``."""

    def __init__(self, fields: Sequence[FieldLike], *, bit_width: float = 0.3, height: float = 0.5,
                 per_bit: bool = True, title: Label | None = None, size: str = "small") -> None:
        super().__init__()
        self.fields = [f if isinstance(f, Field) else Field(*f) for f in fields]
        if not self.fields:
            raise ValueError("bit_layout needs at least one field")
        self.bits = [value_of(f.bits) for f in self.fields]
        if per_bit and any(b != int(b) or b < 1 for b in self.bits):
            raise ValueError(f"bit_layout: one cell per bit needs whole positive bit counts, got {self.bits}")
        self.per_bit = per_bit
        self.cells = self._cells(bit_width, height)
        self.counts, self.names = VGroup(), VGroup()
        under = [self._under(j, f, size) for j, f in enumerate(self.fields)]
        spread(under)
        self.title = VGroup()
        if title is not None:
            self.title = as_text(title, size="heading", color="ink").next_to(self.cells, LEFT,
                                                                              buff=theme.space("edge"))
        self.add(self.cells, self.counts, self.names, self.title)

    def _cells(self, bit_width: float, height: float) -> VGroup:
        if self.per_bit:
            cells = CellBar([(int(b), f.role) for b, f in zip(self.bits, self.fields)], cell_width=bit_width,
                            cell_height=height, fill_opacity=SEGMENT_OPACITY, stroke_width=theme.stroke("hairline"))
            for cell in cells:
                cell.kit_bar = True     # the kit's cells: the own-bars check passes them
            return cells
        return StackedBar([(b, f.role) for b, f in zip(self.bits, self.fields)], scale=bit_width,
                          thickness=height).blocks

    def field(self, j: int) -> VGroup:
        """The cells (or the block) of field ``j``."""
        return self.cells.segment(j) if self.per_bit else VGroup(self.cells[j])

    def _under(self, j: int, field: Field, size: str) -> VGroup:
        """Field ``j``'s count and name, stacked under its cells."""
        template = field.count_template()
        count = line(template, size=size, color=field.role) if template else VGroup()
        name = line(field.name, size=size, color="muted") if field.name else VGroup()
        self.counts.add(count)
        self.names.add(name)
        stack = VGroup(*(m for m in (count, name) if m.has_points() or m.submobjects))
        stack.arrange(DOWN, buff=theme.space("fine"))
        return stack.next_to(self.field(j), DOWN, buff=theme.space("fine"))


def bit_layout(fields: Sequence[FieldLike], **kwargs) -> BitLayout:
    """A format's bit fields: ``fields`` are :class:`Field` or (name, bits, role[, count])."""
    return BitLayout(fields, **kwargs)


# ---- 3. a limit across a chart or a bar ---------------------------------------------------------

class LimitLine(VGroup):
    """A capacity drawn where the chart or bar puts its value, labelled; ``.overflow`` frames
    each part of a bar that lies past it (empty when everything fits).

    ``.line``, ``.label``, ``.overflow``, ``.value``."""

    def __init__(self, target: Mobject, value: Value, label: Label, role: str = "bad", *, weight: str = "bold",
                 dashed: bool = False, side: np.ndarray | None = None, size: str = "label") -> None:
        super().__init__()
        self.value = value_of(value)
        self.role, self.weight, self.dashed = role, weight, dashed
        self.overflow = VGroup()
        if isinstance(target, Plot):
            self.line = self._across_plot(target)
            side = RIGHT if side is None else side
        else:
            bars = self._bars(target)
            self.line = self._across_bars(bars)
            side = (UP if bars[0].horizontal else RIGHT) if side is None else side
        self.label = self._place(on_plot(label, color=role, size=size) if isinstance(label, str) else label, side)
        self.add(self.overflow, self.line, self.label)

    def _across_plot(self, plot: Plot) -> VMobject:
        if not plot.y_scale.contains(self.value):
            raise ValueError(f"limit_line: {self.value!r} lies outside the plot's y range")
        xs = plot.x_scale.low, plot.x_scale.high
        return marks.segment(plot.point(xs[0], self.value), plot.point(xs[1], self.value), self.role,
                             weight=self.weight, dashed=self.dashed)

    @staticmethod
    def _bars(target: Mobject) -> list[StackedBar]:
        if isinstance(target, StackedBar):
            return [target]
        if isinstance(target, BarGroup):
            return list(target.bars)
        if isinstance(getattr(target, "bar", None), StackedBar):
            return [target.bar]
        raise TypeError(f"limit_line goes across a Plot, a StackedBar, a BarGroup or a SplitBar, "
                        f"not a {type(target).__name__}")

    def _across_bars(self, bars: list[StackedBar]) -> VMobject:
        """A stroke across every bar at the value, reaching the ``small`` gap past their sides."""
        at = [self._at(bar) for bar in bars]
        if not np.allclose(at, at[0]):
            raise ValueError("limit_line: the bars do not share one scale and base")
        across = 1 if bars[0].horizontal else 0
        blocks = VGroup(*(bar.blocks for bar in bars))
        reach = theme.space("small")
        ends = [blocks.get_critical_point(-UP if across else -RIGHT)[across] - reach,
                blocks.get_critical_point(UP if across else RIGHT)[across] + reach]
        points = [[at[0], e, 0] if across else [e, at[0], 0] for e in ends]
        for bar in bars:
            self._frame_overflow(bar, at[0])
        return marks.segment(*points, self.role, weight=self.weight, dashed=self.dashed)

    def _at(self, bar: StackedBar) -> float:
        """The scene coordinate along ``bar`` where the value falls."""
        scale = bar.lengths[0] / bar.segments[0].magnitude()
        axis = 0 if bar.horizontal else 1
        return float(bar.base()[axis] + self.value * scale)

    def _frame_overflow(self, bar: StackedBar, at: float) -> None:
        axis = 0 if bar.horizontal else 1
        end = bar.blocks.get_critical_point(bar.along)[axis]
        if end <= at:
            return
        length = end - at
        width, height = (length, bar.thickness) if bar.horizontal else (bar.thickness, length)
        frame = marks.box(width, height, self.role, weight="regular", corner="square")
        centre = bar.base() + bar.along * (at - bar.base()[axis] + length / 2)
        self.overflow.add(frame.move_to(centre))

    def _place(self, label: Mobject, side: np.ndarray) -> Mobject:
        """An upright line's label goes past its top (or bottom, for DOWN); a level line's past its
        right end (RIGHT), or above or below it flush with that end."""
        horizontal_side = np.allclose(side, RIGHT) or np.allclose(side, LEFT)
        if self.line.height > self.line.width:
            end = self.line.get_bottom() if np.allclose(side, DOWN) else self.line.get_top()
            label.next_to(end, side, buff=theme.space("tight"))
            return label.align_to(self.line, UP) if horizontal_side else label
        if horizontal_side:
            end = self.line.get_right() if np.allclose(side, RIGHT) else self.line.get_left()
            return label.next_to(end, side, buff=theme.space("small"))
        return label.next_to(self.line, side, buff=theme.space("tight")).align_to(self.line, RIGHT)


def limit_line(target: Mobject, value: Value, label: Label, role: str = "bad", **kwargs) -> LimitLine:
    """A limit at ``value`` (number or ledger key, in the target's units) across a Plot (a level
    line), a StackedBar, a BarGroup or a SplitBar (a stroke across the bars). See :class:`LimitLine`."""
    return LimitLine(target, value, label, role, **kwargs)


# ---- 4. a range on an axis ----------------------------------------------------------------------

class AxisRange(VGroup):
    """A shaded band from ``lo`` to ``hi`` on a NumberAxis (along it) or a Plot (a band up the
    plot over that x range), points marked in it, and an optional label over the band.

    ``.band``, ``.marks`` (each with ``.stroke`` and ``.label``), ``.label``, ``.marked(i)``."""

    def __init__(self, axis: NumberAxis | Plot, lo: Value, hi: Value, points: Sequence[tuple[Value, str, str]] = (),
                 *, role: str = "accent", label: str = "", opacity: float | None = None) -> None:
        super().__init__()
        lo, hi = value_of(lo), value_of(hi)
        if not lo < hi:
            raise ValueError(f"axis_range: lo ({lo!r}) must be below hi ({hi!r})")
        self.lo, self.hi = lo, hi
        on_plot_ = isinstance(axis, Plot)
        self.band = self._plot_band(axis, role, opacity) if on_plot_ else \
            axis.span(lo, hi, role, **({} if opacity is None else {"opacity": opacity}))[0]
        self.marks = VGroup(*(self._plot_mark(axis, *p) if on_plot_ else self._axis_mark(axis, *p) for p in points))
        spread([m.label for m in self.marks])
        self.label = VGroup()
        if label:
            self.label = self._range_label(label, role, on_plot_)
        self.add(self.band, self.marks, self.label)

    def _plot_band(self, plot: Plot, role: str, opacity: float | None) -> VMobject:
        corner, opposite = plot.point(self.lo, plot.y_scale.low), plot.point(self.hi, plot.y_scale.high)
        return marks.shade(corner, opposite, role, **({} if opacity is None else {"opacity": opacity}))

    @staticmethod
    def _axis_mark(axis: NumberAxis, value: Value, template: str, role: str) -> VGroup:
        mark = axis.mark(value_of(value), template, color=role)
        mark.stroke, mark.label = mark.submobjects
        return mark

    def _plot_mark(self, plot: Plot, value: Value, template: str, role: str) -> VGroup:
        stroke = dashed(upright(plot, value_of(value), role, stroke_width=theme.stroke("thin")))
        label = on_plot(template, color=role, size="label").next_to(stroke, UP, buff=theme.space("tight"))
        mark = VGroup(stroke, label)
        mark.stroke, mark.label = stroke, label
        return mark

    def _range_label(self, template: str, role: str, inside_plot: bool) -> Mobject:
        """Over the marks' labels (or the band) on an axis; inside the band's top on a plot."""
        if inside_plot:
            return on_plot(template, color=role).next_to(self.band.get_top(), DOWN, buff=theme.space("small"))
        above = VGroup(self.band, *(m.label for m in self.marks))
        return line(template, size="label", color=role).next_to(above, UP, buff=theme.space("small")) \
            .set_x(self.band.get_center()[0])

    def marked(self, i: int) -> VGroup:
        """Marked point ``i``, in the order given."""
        return self.marks[i]


def axis_range(axis: NumberAxis | Plot, lo: Value, hi: Value, points: Sequence[tuple[Value, str, str]] = (),
               **kwargs) -> AxisRange:
    """A range ``lo``…``hi`` on an axis, with ``points`` as (value, label template, role). See
    :class:`AxisRange`."""
    return AxisRange(axis, lo, hi, points, **kwargs)


# ---- 5. a brace with its label ------------------------------------------------------------------

def labelled_brace(target: Mobject | tuple, label: Label, direction: np.ndarray = DOWN, role: str = "ink", *,
                   size: str = "label", gap: str = "tight") -> VGroup:
    """A brace on the ``direction`` side of ``target`` (a mobject or two points) with its label
    past the brace's tip. ``.brace`` and ``.label``. A template goes through
    annotate.brace_label; a text mobject (a formula) is put at the tip as it is."""
    if isinstance(label, str):
        return brace_label(target, label, direction, color=role, size=size, buff=theme.space(gap))
    brace = marks.brace(target, direction, role, gap=gap)
    brace.put_at_tip(label)
    group = VGroup(brace, label)
    group.brace, group.label = brace, label
    return group


# ---- 6. badges and cards ----------------------------------------------------------------------------

def badge(content: Label | Sequence[str], role: str = "ink", *, size: str = "small", weight: str = "regular",
          pad: str = "small", fill_opacity: float = 0.0) -> VGroup:
    """Words in a rounded frame of the role's colour (a warning, a tag, a pill): a template,
    several (one line each) or a text mobject. ``.box`` and ``.content`` (annotate.boxed)."""
    if isinstance(content, (str, Mobject)):
        text = as_text(content, size=size, color=role)
    else:
        text = VGroup(*(line(t, size=size, color=role) for t in content)).arrange(DOWN, buff=theme.space("fine"))
    return boxed(text, role, fill=fill_opacity, weight=weight, pad=pad)


class Card(VGroup):
    """A rounded card of rows, top to bottom, ``pad`` inside its edge and ``gap`` apart; its top
    and left edge stay put as it grows. ``add_row`` places a row under the last one and returns
    the animation that grows the card around it.

    ``.box``, ``.rows``."""

    def __init__(self, rows: Sequence[Mobject] = (), role: str = "muted", *, width: float | None = None,
                 min_height: float = 0.0, weight: str | None = "thin", fill: str | None = None,
                 fill_opacity: float = 0.0, pad: str = "medium", gap: str = "small", align: np.ndarray = LEFT,
                 dashed: bool = False) -> None:
        super().__init__()
        self.role, self.weight, self.dashed = role, weight, dashed
        self.fill, self.fill_opacity = fill, fill_opacity
        self.pad, self.gap, self.align = theme.space(pad), theme.space(gap), align
        self.min_width, self.min_height = width or 0.0, min_height
        self.rows = VGroup(*rows)
        if rows:
            self.rows.arrange(DOWN, buff=self.gap, aligned_edge=align)
        self.box = self._box_for(self._needed_width(self.rows), self._needed_height(self.rows))
        top_left = self.box.get_corner(UP + LEFT)
        if rows:
            self.rows.move_to(self._row_anchor(self.rows, top_left[1] - self.pad), aligned_edge=UP + align)
        self.add(self.box, self.rows)

    def _needed_width(self, content: Mobject) -> float:
        width = content.width + 2 * self.pad if content.submobjects else 2 * self.pad
        return max(width, self.min_width)

    def _needed_height(self, content: Mobject) -> float:
        height = content.height + 2 * self.pad if content.submobjects else 2 * self.pad
        return max(height, self.min_height)

    def _box_for(self, width: float, height: float) -> VMobject:
        return marks.box(width, height, self.role, weight=self.weight, fill=self.fill, fill_opacity=self.fill_opacity,
                         dashed=self.dashed)

    def _row_anchor(self, row: Mobject, top: float) -> np.ndarray:
        """Where a row's top edge goes (left-aligned rows: at the pad; centred: the box's middle)."""
        left = self.box.get_left()[0]
        x = left + self.pad if np.allclose(self.align, LEFT) else self.box.get_center()[0]
        return np.array([x, top, 0.0])

    def add_row(self, row: Mobject, *, run_time: float = 0.5) -> Animation:
        """Put ``row`` under the last row and return the animation that grows the card to hold
        it (its top-left corner fixed) while the row fades in."""
        top_left = self.box.get_corner(UP + LEFT)
        below = self.rows.get_bottom()[1] - self.gap if self.rows.submobjects else top_left[1] - self.pad
        row.move_to(self._row_anchor(row, below), aligned_edge=UP + self.align)
        self.rows.add(row)
        width = max(self.box.width, self._needed_width(row))
        height = max(self.min_height, top_left[1] - row.get_bottom()[1] + self.pad, self.box.height)
        grown = self._box_for(width, height).move_to(top_left, aligned_edge=UP + LEFT)
        # The group is the card itself: a scene that shows the card already animates it in
        # place, so the box never jumps above the rows it holds.
        return AnimationGroup(Transform(self.box, grown), FadeIn(row), group=self, run_time=run_time)


def card(rows: Sequence[Mobject] = (), role: str = "muted", **kwargs) -> Card:
    """A rounded card of rows that can grow; see :class:`Card`."""
    return Card(rows, role, **kwargs)


# ---- 7. a number line with marks --------------------------------------------------------------

class NumberLine(NumberAxis):
    """A NumberAxis (ledger ticks under it) with marks above it: (value, label template, role).

    ``.line``, ``.ticks``, ``.title``, ``.marks`` (each with ``.stroke`` and ``.label``), ``.marked(i)``,
    ``point(v)``; ``axis_range(line, lo, hi)`` shades a range on it."""

    def __init__(self, low: float, high: float, *, ticks: str | None = None,
                 points: Sequence[tuple[Value, str, str]] = (), width: float = 10.0, log: bool = False,
                 title: str = "") -> None:
        super().__init__(low, high, width=width, log=log, ticks_key=ticks, title=title)
        self.marks = VGroup(*(AxisRange._axis_mark(self, *p) for p in points))
        spread([m.label for m in self.marks])
        self.add(self.marks)

    def marked(self, i: int) -> VGroup:
        """Marked point ``i``, in the order given."""
        return self.marks[i]


def number_line(lo: float, hi: float, ticks: str | None = None, points: Sequence[tuple[Value, str, str]] = (),
                **kwargs) -> NumberLine:
    """A number line from ``lo`` to ``hi``, ``ticks`` a ledger sequence key, ``points`` marked
    as (value, label template, role). See :class:`NumberLine`."""
    return NumberLine(lo, hi, ticks=ticks, points=points, **kwargs)


__all__ = ["AxisRange", "BitLayout", "Card", "Field", "LimitLine", "NumberLine", "SplitBar", "axis_range", "badge",
           "bit_layout", "card", "labelled_brace", "limit_line", "number_line", "split_bar"]
