"""The kit's marks and data widgets, built without rendering: sizes follow the data they are
handed, parts land where the chart's own mapping puts them, strokes and colours are the
theme's, and every text is a kit text (words, ledger or formula)."""

from __future__ import annotations

import numpy as np
import pytest
from manim import DOWN, LEFT, RIGHT, UP, MarkupText, Text, VGroup

from lecture_numerics import quantity
from scenes.kit import marks, theme, widgets
from scenes.kit.bars import StackedBar, bar_group
from scenes.kit.plots import NumberAxis, Plot
from scenes.kit.text import formula, words
from tests.legibility_checks import drawn_string

TOLERANCE = 1e-6

FP16 = [("符号", "format.sign_bits", "ink"), ("指数", "format.fp16.exponent_bits", "accent"),
        ("尾数", "format.fp16.mantissa_bits", "model_small")]
BF16 = [("符号", "format.sign_bits", "ink"), ("指数", "format.bf16.exponent_bits", "accent"),
        ("尾数", "format.bf16.mantissa_bits", "model_small")]


def hex_of(colour) -> str:
    return colour.to_hex().upper()


def stroked(mob):
    """The first part of ``mob`` that draws a stroke (a dashed copy is a group of dashes)."""
    return next(p for p in mob.family_members_with_points() if p.get_stroke_width() > 0)


def plot() -> Plot:
    return Plot(x_range=(0, 40), y_range=(0, 3), width=8.0, height=4.0, x_ticks_key="kit_demo.run_x_ticks",
                y_ticks_key="kit_demo.run_y_ticks").shift([-3.0, -2.0, 0])


def raw_texts(mob) -> list[str]:
    """Texts in ``mob`` that did not come from the kit's text helpers."""
    return [drawn_string(t) for t in mob.get_family() if isinstance(t, (Text, MarkupText))
            and getattr(t, "kind", None) not in ("words", "ledger", "formula")]


# ---- split_bar -----------------------------------------------------------------------------

@pytest.mark.parametrize("shares", [[3.0, 1.0, 0.5], [1.0, 1.0], [7.0]])
def test_split_bar_parts_are_as_wide_as_their_shares(shares):
    parts = [("", share, role) for share, role in zip(shares, ("weights", "backward", "optimizer"))]
    bar = widgets.split_bar(parts, width=6.0)
    widths = np.array([block.width for block in bar.blocks])
    assert widths.sum() == pytest.approx(6.0, abs=TOLERANCE)
    assert widths / 6.0 == pytest.approx(np.array(shares) / sum(shares), abs=TOLERANCE)
    lefts = [block.get_left()[0] for block in bar.blocks]
    assert lefts == sorted(lefts), "parts run left to right in the order given"


def test_split_bar_reads_ledger_shares_and_a_whole():
    parts = [("大", "kit_demo.bar_big", "weights"), ("小", "kit_demo.bar_small", "backward")]
    whole = "kit_demo.bar_total"
    bar = widgets.split_bar(parts, width=8.0, whole=whole)
    per_unit = 8.0 / quantity(whole).value
    assert bar.blocks[0].width == pytest.approx(quantity("kit_demo.bar_big").value * per_unit)
    assert bar.blocks[1].width == pytest.approx(quantity("kit_demo.bar_small").value * per_unit)
    assert bar.bar.track.width == pytest.approx(8.0)
    with pytest.raises(ValueError, match="more than the whole"):
        widgets.split_bar(parts, width=8.0, whole="kit_demo.bar_small")


def test_split_bar_labels_sit_inside_when_they_fit_else_below_with_a_leader():
    bar = widgets.split_bar([("权重 {kit_demo.bar_big}", 10.0, "weights"), ("梯度", 0.3, "backward"),
                             ("优化器", 0.3, "optimizer")], width=6.0, height=0.6)
    assert bar.inside == [True, False, False]
    big, thin = bar.part(0), bar.part(1)
    block, label, _ = big
    assert block.get_left()[0] < label.get_left()[0] < label.get_right()[0] < block.get_right()[0]
    block, label, leader = thin
    assert label.get_top()[1] < block.get_bottom()[1], "a label that does not fit goes below its part"
    assert leader.get_top()[1] == pytest.approx(block.get_bottom()[1], abs=0.06)
    below = [bar.labels[1], bar.labels[2]]
    assert below[0].get_right()[0] < below[1].get_left()[0], "labels below never overlap"
    assert hex_of(bar.labels[1].get_color()) == hex_of(theme.text_color("backward"))


# ---- bit_layout -----------------------------------------------------------------------------

@pytest.mark.parametrize("fields", [FP16, BF16], ids=["fp16", "bf16"])
@pytest.mark.parametrize("per_bit", [True, False])
def test_bit_layout_fields_are_as_wide_as_their_bits_in_order(fields, per_bit):
    layout = widgets.bit_layout(fields, bit_width=0.25, per_bit=per_bit)
    bits = [quantity(key).value for _, key, _ in fields]
    widths = [layout.field(j).width for j in range(len(fields))]
    assert widths == pytest.approx([0.25 * b for b in bits], abs=TOLERANCE)
    lefts = [layout.field(j).get_left()[0] for j in range(len(fields))]
    assert lefts == sorted(lefts)
    for j in range(len(fields) - 1):
        assert layout.field(j).get_right()[0] == pytest.approx(layout.field(j + 1).get_left()[0], abs=TOLERANCE)
    if per_bit:
        assert len(layout.cells) == sum(bits)


def test_bit_layout_counts_are_ledger_numbers_under_their_fields():
    layout = widgets.bit_layout(BF16, title="bf16")
    for j, (_, key, role) in enumerate(BF16):
        count, name = layout.counts[j], layout.names[j]
        assert drawn_string(count) == quantity(key).display
        assert count.ledger_keys == (key,)
        assert count.get_top()[1] < layout.field(j).get_bottom()[1]
        assert name.get_top()[1] < count.get_bottom()[1]
        assert hex_of(count.get_color()) == hex_of(theme.text_color(role))
    assert layout.title.get_right()[0] < layout.cells.get_left()[0]
    names = sorted(layout.names, key=lambda m: m.get_left()[0])
    assert all(a.get_right()[0] <= b.get_left()[0] for a, b in zip(names, names[1:]))


def test_bit_layout_refuses_cells_for_fractional_bits():
    with pytest.raises(ValueError, match="whole positive bit counts"):
        widgets.bit_layout([("甲", 1.5, "ink")])
    drawn = widgets.bit_layout([("甲", 1.5, "ink")], per_bit=False)
    assert drawn.field(0).width == pytest.approx(1.5 * 0.3)
    assert not drawn.counts[0].submobjects, "a count given as a number is never typed onto the screen"


# ---- limit_line ---------------------------------------------------------------------------------

def test_limit_line_on_a_plot_sits_at_the_plots_mapping_of_the_value():
    chart = plot()
    limit = widgets.limit_line(chart, 2.0, "上限", "bad")
    assert limit.line.get_y() == pytest.approx(chart.point(0, 2.0)[1], abs=TOLERANCE)
    assert limit.line.get_left()[0] == pytest.approx(chart.point(0, 2.0)[0], abs=TOLERANCE)
    assert limit.line.get_right()[0] == pytest.approx(chart.point(40, 2.0)[0], abs=TOLERANCE)
    assert limit.label.get_left()[0] > limit.line.get_right()[0]
    assert stroked(limit.line).get_stroke_width() == theme.stroke("bold")
    assert hex_of(stroked(limit.line).get_stroke_color()) == hex_of(theme.color("bad"))
    with pytest.raises(ValueError, match="outside the plot"):
        widgets.limit_line(chart, 5.0, "上限")


def test_limit_line_across_a_bar_frames_what_does_not_fit():
    scale = 0.05
    bar = StackedBar([(50, "weights"), (45, "optimizer")], scale=scale).start_at((-4.0, 0.0))
    limit = widgets.limit_line(bar, "hardware.gpu_memory_gib", "{hardware.gpu_memory_gib} GiB", "bad")
    at = -4.0 + quantity("hardware.gpu_memory_gib").value * scale
    assert limit.line.get_x() == pytest.approx(at, abs=TOLERANCE)
    assert limit.line.get_bottom()[1] < bar.blocks.get_bottom()[1] < bar.blocks.get_top()[1] < limit.line.get_top()[1]
    (overflow,) = limit.overflow
    assert overflow.get_left()[0] == pytest.approx(at, abs=TOLERANCE)
    assert overflow.get_right()[0] == pytest.approx(bar.blocks.get_right()[0], abs=TOLERANCE)
    assert limit.label.get_bottom()[1] > limit.line.get_top()[1]
    roomy = widgets.limit_line(StackedBar([(50, "weights")], scale=scale), 80, "够")
    assert not roomy.overflow.submobjects


def test_limit_line_across_a_group_of_upright_bars():
    bars = bar_group([[(30, "weights")], [(90, "optimizer")]], scale=0.04, orientation="vertical")
    limit = widgets.limit_line(bars, 80, "上限")
    base = bars.bars[0].base()[1]
    assert limit.line.get_y() == pytest.approx(base + 80 * 0.04, abs=TOLERANCE)
    assert limit.line.width > bars.bars[1].get_right()[0] - bars.bars[0].get_left()[0] - TOLERANCE
    assert len(limit.overflow) == 1          # only the taller bar sticks out


# ---- axis_range -----------------------------------------------------------------------------------

def test_axis_range_band_spans_lo_to_hi_on_a_number_axis():
    axis = NumberAxis(1e-40, 1e40, width=10.0, log=True, ticks_key="kit_demo.range_ticks").shift([-5.0, 1.0, 0])
    span = widgets.axis_range(axis, "kit_demo.range_low", "kit_demo.range_high",
                              [(1e-20, "甲", "bad"), (1e-19, "乙", "good")], label="范围")
    assert span.band.get_start() == pytest.approx(axis.point(1e-30), abs=TOLERANCE)
    assert span.band.get_end() == pytest.approx(axis.point(1e30), abs=TOLERANCE)
    assert span.marked(0).stroke.get_x() == pytest.approx(axis.point(1e-20)[0], abs=TOLERANCE)
    first, second = span.marked(0).label, span.marked(1).label
    assert first.get_right()[0] < second.get_left()[0], "close marks keep their labels apart"
    assert span.label.get_bottom()[1] > max(first.get_top()[1], second.get_top()[1])
    with pytest.raises(ValueError, match="must be below"):
        widgets.axis_range(axis, 1e10, 1e-10)


def test_axis_range_on_a_plot_shades_the_x_range():
    chart = plot()
    span = widgets.axis_range(chart, 10, 20, [(15, "这儿", "good")], label="区间")
    assert span.band.get_left()[0] == pytest.approx(chart.point(10, 0)[0], abs=TOLERANCE)
    assert span.band.get_right()[0] == pytest.approx(chart.point(20, 0)[0], abs=TOLERANCE)
    assert span.band.get_bottom()[1] == pytest.approx(chart.point(0, 0)[1], abs=TOLERANCE)
    assert span.band.get_top()[1] == pytest.approx(chart.point(0, 3)[1], abs=TOLERANCE)
    assert span.marked(0).stroke.get_x() == pytest.approx(chart.point(15, 0)[0], abs=0.01)


# ---- labelled_brace ---------------------------------------------------------------------------------

@pytest.mark.parametrize("direction", [DOWN, UP, LEFT, RIGHT], ids=["down", "up", "left", "right"])
@pytest.mark.parametrize("label", ["说明", "formula"])
def test_labelled_brace_puts_its_label_on_the_requested_side(direction, label):
    target = marks.box(2.0, 1.0).shift([1.0, -0.5, 0])
    text = formula("x² + y", size="label") if label == "formula" else label
    group = widgets.labelled_brace(target, text, direction, "weights")
    axis = 0 if direction[0] else 1
    sign = np.sign(direction[axis])
    outer_edge = target.get_critical_point(direction)[axis]
    assert sign * (group.brace.get_center()[axis] - outer_edge) > 0
    tip_side = group.brace.get_critical_point(direction)[axis]
    assert sign * (group.label.get_critical_point(-direction)[axis] - tip_side) >= -1e-3
    assert hex_of(group.brace.get_color()) == hex_of(theme.color("weights"))


def test_labelled_brace_spans_two_points():
    group = widgets.labelled_brace(((0, 0), (3, 0)), "这段", UP)
    assert group.brace.width == pytest.approx(3.0, abs=0.1)
    assert group.label.get_bottom()[1] > group.brace.get_top()[1] - 1e-3


# ---- badge and card -------------------------------------------------------------------------------

def test_badge_frames_its_words():
    badge = widgets.badge(["按算子推算", "当量级看"], "bad")
    assert badge.box.width > badge.content.width and badge.box.height > badge.content.height
    assert stroked(badge.box).get_stroke_width() == theme.stroke("regular")
    assert hex_of(stroked(badge.box).get_stroke_color()) == hex_of(theme.color("bad"))
    assert all(hex_of(t.get_color()) == hex_of(theme.text_color("bad")) for t in badge.content)


def contains(outer, inner, slack: float = 1e-6) -> bool:
    (ol, ob, _), (orr, ot, _) = outer.get_corner(DOWN + LEFT), outer.get_corner(UP + RIGHT)
    (il, ib, _), (ir, it, _) = inner.get_corner(DOWN + LEFT), inner.get_corner(UP + RIGHT)
    return ol <= il + slack and ir <= orr + slack and ob <= ib + slack and it <= ot + slack


def play_through(animation) -> None:
    animation.begin()
    animation.finish()


def test_card_add_row_grows_the_card_to_hold_the_row():
    card = widgets.card([words("首行", size="label")], fill="panel", fill_opacity=1.0, weight=None)
    card.move_to([2.0, 1.0, 0])
    corner = card.box.get_corner(UP + LEFT)
    height = card.box.height
    rows = [words("次行，长些的句子", size="label"), words("末行", size="label")]
    for row in rows:
        play_through(card.add_row(row))
        assert contains(card.box, row)
        assert card.box.get_corner(UP + LEFT) == pytest.approx(corner, abs=TOLERANCE)
    assert card.box.height > height
    tops = [r.get_top()[1] for r in card.rows]
    assert tops == sorted(tops, reverse=True), "rows run top to bottom in the order added"
    assert all(contains(card.box, r) for r in card.rows)


def test_card_animation_animates_the_card_itself():
    """The animation's group is the card: a scene showing the card never pulls the box in front
    of the rows it already holds."""
    card = widgets.card([words("首行")])
    animation = card.add_row(words("次行"))
    assert animation.mobject is card


def test_card_keeps_its_minimum_size():
    card = widgets.card([], width=4.0, min_height=3.0)
    assert card.box.width == pytest.approx(4.0) and card.box.height == pytest.approx(3.0)
    play_through(card.add_row(words("短句")))
    assert card.box.height == pytest.approx(3.0), "a row that fits does not grow a card sized in advance"


# ---- number_line --------------------------------------------------------------------------------

def test_number_line_marks_sit_at_their_values():
    axis = widgets.number_line(0, 40, "kit_demo.run_x_ticks", [(10, "甲", "bad"), (30, "乙", "good")], width=8.0)
    axis.shift([-4.0, 0, 0])
    assert axis.point(10)[0] == pytest.approx(-2.0)
    assert [axis.marked(i).stroke.get_x() for i in (0, 1)] == pytest.approx([-2.0, 2.0])
    assert all(m.label.get_bottom()[1] > axis.line.get_y() for m in axis.marks)
    assert len(axis.ticks) == len(quantity("kit_demo.run_x_ticks").value)


# ---- marks: theme strokes and colours ----------------------------------------------------------

@pytest.mark.parametrize("weight", ["hairline", "thin", "regular", "bold", "heavy", "strong", "heaviest"])
def test_marks_draw_theme_strokes(weight):
    built = [marks.segment((0, 0), (1, 0), weight=weight), marks.segment((0, 0), (1, 0), weight=weight, dashed=True),
             marks.ring((0, 0), weight=weight), marks.box(1, 1, weight=weight),
             marks.box(1, 1, weight=weight, dashed=True),
             marks.frame_around(words("框"), weight=weight), marks.polyline([(0, 0), (1, 0), (1, 1)], weight=weight),
             marks.bracket((0, 0), (0, 1), LEFT, weight=weight), marks.arc((0, 0), (1, 0), angle=1.0, weight=weight),
             marks.polygon([(0, 0), (1, 0), (0, 1)], weight=weight), marks.tick((0, 0), weight=weight),
             marks.strike(words("删"), weight=weight)]
    for mob in built:
        assert stroked(mob).get_stroke_width() == pytest.approx(theme.stroke(weight)), type(mob).__name__


@pytest.mark.parametrize("role", ["ink", "backward", "weights", "good", "bad", "accent", "muted"])
def test_marks_draw_theme_colours(role):
    colour = hex_of(theme.color(role))
    filled = [marks.dot((0, 0), role), marks.triangle_marker((0, 0), role), marks.box(1, 1, role, fill_opacity=0.5),
              marks.shade((0, 0), (1, 1), role), marks.polygon([(0, 0), (1, 0), (0, 1)], role, fill_opacity=0.2)]
    for mob in filled:
        assert hex_of(mob.get_fill_color()) == colour, type(mob).__name__
    outlined = [marks.segment((0, 0), (1, 0), role), marks.ring((0, 0), role), marks.box(1, 1, role),
                marks.frame_around(words("框"), role), marks.arc((0, 0), (1, 0), role, angle=1.0),
                marks.brace(((0, 0), (1, 0)), DOWN, role), marks.arc_arrow((0, 0), (2, 0), role, angle=-1.0)]
    for mob in outlined:
        part = mob if type(mob).__name__ == "Brace" else stroked(mob)
        got = part.get_fill_color() if type(mob).__name__ == "Brace" else part.get_stroke_color()
        assert hex_of(got) == colour, type(mob).__name__


def test_marks_refuse_numbers_for_weights_and_unknown_sizes():
    with pytest.raises(KeyError, match="known: hairline"):
        marks.segment((0, 0), (1, 0), weight=3)
    with pytest.raises(KeyError, match="no dot size"):
        marks.dot((0, 0), size="huge")
    with pytest.raises(ValueError, match="corner"):
        marks.box(1, 1, corner="bevel")


def test_mark_sizes_and_extras():
    assert [marks.dot(size=s).radius for s in ("small", "regular", "large", "ball")] == \
        pytest.approx([theme.space(n) for n in marks.DOT_SIZES.values()])
    target = marks.dot(size="ball")
    assert marks.ring(target).radius > target.radius, "a ring clears what it encloses"
    assert marks.box(1, 1, weight=None).get_stroke_width() == 0
    disc = marks.ring((0, 0), "accent", fill="background", fill_opacity=1.0)
    assert hex_of(disc.get_fill_color()) == hex_of(theme.background())
    path = marks.travel_path((0, 0), (2, 0), angle=1.0)
    assert path.get_stroke_opacity() == 0 and path.get_end() == pytest.approx([2, 0, 0])
    down = marks.triangle_marker((0, 0), pointing=DOWN)
    assert down.get_vertices()[0][1] < 0, "a ▼ points down"
    halo = marks.dot((0, 0), halo=True)
    assert hex_of(halo.get_stroke_color(background=True)) == hex_of(theme.background())


# ---- every widget's text is a kit text ----------------------------------------------------------

def every_widget() -> list:
    chart = plot()
    axis = NumberAxis(1e-40, 1e40, log=True, ticks_key="kit_demo.range_ticks")
    bar = StackedBar([(50, "weights"), (45, "optimizer")], scale=0.05)
    card = widgets.card([words("首行")])
    card.add_row(words("次行"))
    return [
        widgets.split_bar([("权重 {kit_demo.bar_big}", 10.0, "weights"), ("梯度", 0.3, "backward")], width=5.0),
        widgets.bit_layout(BF16, title="bf16"), widgets.bit_layout(FP16, per_bit=False),
        widgets.limit_line(chart, 2.0, "上限"), widgets.limit_line(bar, 80, "{hardware.gpu_memory_gib} GiB"),
        widgets.axis_range(axis, 1e-30, 1e30, [(1.0, "甲", "bad")], label="范围"),
        widgets.axis_range(chart, 10, 20, [(15, "乙", "good")], label="区间"),
        widgets.labelled_brace(bar, "这段", DOWN), widgets.labelled_brace(bar, formula("x²"), UP),
        widgets.badge("提醒", "bad"), card,
        widgets.number_line(0, 40, "kit_demo.run_x_ticks", [(10, "{kit_demo.bar_big}", "ink")]),
    ]


def test_every_widget_draws_its_text_through_the_kit():
    found = {type(w).__name__: raw_texts(w) for w in every_widget()}
    assert not any(found.values()), f"text not drawn through scenes.kit.text: {found}"


def test_widgets_refuse_typed_numbers_in_labels():
    with pytest.raises(ValueError, match="digits"):
        widgets.split_bar([("80 GiB", 1.0, "weights")], width=3.0)
    with pytest.raises(ValueError, match="digits"):
        widgets.badge("装 80 GiB", "bad")


def test_widgets_have_named_parts():
    """Scenes reach parts by name, never by position."""
    names = {"SplitBar": ("bar", "blocks", "labels", "leaders"), "BitLayout": ("cells", "counts", "names", "title"),
             "LimitLine": ("line", "label", "overflow"), "AxisRange": ("band", "marks", "label"),
             "Card": ("box", "rows"), "NumberLine": ("line", "ticks", "marks")}
    built = {type(w).__name__: w for w in every_widget()}
    for kind, parts in names.items():
        assert all(isinstance(getattr(built[kind], p), VGroup) or hasattr(getattr(built[kind], p), "points")
                   for p in parts), kind
