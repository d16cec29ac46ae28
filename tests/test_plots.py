"""The chart kit (plots, bars, annotate), built without rendering: data lands where a hand
computation puts it, bars are proportional, ticks say what the ledger says, bad input is
refused with a reason."""

from __future__ import annotations

import math

import numpy as np
import pytest

from lecture_numerics import quantity
from lecture_numerics.axes import power_of_ten_label, tick_values_log
from scenes.kit.annotate import brace_label, callout, legend, tally
from scenes.kit.bars import Segment, bar_group, stacked_bar
from scenes.kit.plots import NumberAxis, Plot, Scale, curve, curve_upto, dots, head_point
from tests.legibility_checks import drawn_string


def linear_plot() -> Plot:
    return Plot(x_range=(0, 40), y_range=(0, 3), width=8.0, height=4.0,
                x_ticks_key="kit_demo.run_x_ticks", y_ticks_key="kit_demo.run_y_ticks")


def log_plot() -> Plot:
    return Plot(x_range=(1e-3, 1e3), y_range=(1e-2, 1e2), x_log=True, y_log=True, width=6.0, height=4.0,
                x_ticks_key="kit_demo.log_x_ticks", y_ticks_key="kit_demo.log_y_ticks")


# ---- numerics helpers ------------------------------------------------------------------------

def test_power_of_ten_labels():
    assert [power_of_ten_label(v) for v in (1e-3, 1.0, 10.0, 1e40)] == ["10⁻³", "10⁰", "10¹", "10⁴⁰"]
    with pytest.raises(ValueError, match="not a power of ten"):
        power_of_ten_label(2e-3)
    with pytest.raises(ValueError, match="positive"):
        power_of_ten_label(0)


def test_log_tick_values():
    assert tick_values_log(1e-3, 1e3) == pytest.approx([10.0 ** k for k in range(-3, 4)])
    assert tick_values_log(2e-3, 5e2, every=2) == pytest.approx([1e-2, 1.0, 1e2])
    with pytest.raises(ValueError, match="0 < low < high"):
        tick_values_log(-1, 10)


# ---- data → scene points ---------------------------------------------------------------------

def test_linear_mapping_matches_hand_computation():
    plot = linear_plot().shift([-3.0, -2.0, 0])
    # x = 10 is a quarter of 0..40 → 2.0 units along 8; y = 1.5 is half of 0..3 → 2.0 up 4.
    assert np.allclose(plot.point(10, 1.5), [-3.0 + 2.0, -2.0 + 2.0, 0])
    xs, ys = np.array([0.0, 20.0, 40.0]), np.array([0.0, 3.0, 0.75])
    expected = [[-3.0, -2.0, 0], [1.0, 2.0, 0], [5.0, -1.0, 0]]
    assert np.allclose(plot.point(xs, ys), expected)


def test_log_mapping_matches_hand_computation():
    plot = log_plot()
    corner = plot.point(1e-3, 1e-2)
    # 10⁰ is 3 of 6 decades along x (3.0 of 6 units); 10¹ is 3 of 4 decades up y (3.0 of 4 units).
    assert np.allclose(plot.point(1.0, 10.0) - corner, [3.0, 3.0, 0])
    # √10 sits half a decade further: log10 is what the axis measures.
    assert np.allclose(plot.point(math.sqrt(10), 1e-2) - corner, [3.5, 0, 0])


def test_mapping_follows_the_plot_when_moved_and_scaled():
    plot = linear_plot()
    before = plot.point(20, 1.5)
    plot.scale(0.5).shift([1.0, 1.0, 0])
    centre = plot.point(0, 0) + 0.5 * (plot.point(40, 3) - plot.point(0, 0))
    assert np.allclose(plot.point(20, 1.5), centre)
    assert not np.allclose(plot.point(20, 1.5), before)


def test_log_axis_refuses_non_positive_values():
    plot = log_plot()
    with pytest.raises(ValueError, match="log axis: every value must be > 0, got 0.0"):
        plot.point(0.0, 1.0)
    with pytest.raises(ValueError, match="y axis is a log axis"):
        curve(plot, [1.0, 2.0], [1.0, -1.0])
    with pytest.raises(ValueError, match="must start above 0"):
        Scale(0.0, 10.0, log=True)
    with pytest.raises(ValueError, match="low < high"):
        Scale(5.0, 1.0)


# ---- curves and dots -------------------------------------------------------------------------

def test_curve_passes_through_the_mapped_points():
    plot = log_plot()
    xs = np.logspace(-3, 3, 13)
    ys = 1 / np.sqrt(xs)
    line = curve(plot, xs, ys)
    anchors = line.get_anchors()
    for p in plot.point(xs, ys):
        assert np.min(np.linalg.norm(anchors - p, axis=1)) < 1e-9


def test_curve_outside_the_plot_is_refused_or_clipped():
    plot = linear_plot()
    xs, ys = np.array([0.0, 10.0, 20.0, 30.0, 40.0]), np.array([1.0, 5.0, 1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="point 1 .* outside the plot"):
        curve(plot, xs, ys)
    clipped = curve(plot, xs, ys, clip=True)
    # The point outside is dropped and the line breaks there: one piece, samples 2..4.
    assert len(clipped.get_subpaths()) == 1
    assert np.allclose(clipped.get_start(), plot.point(20, 1.0))


def test_partial_curve_ends_between_samples():
    plot = linear_plot()
    xs, ys = np.array([0.0, 10.0, 20.0]), np.array([0.0, 1.0, 3.0])
    part = curve_upto(plot, xs, ys, 1.5)
    assert np.allclose(part.get_end(), head_point(plot, xs, ys, 1.5))
    assert np.allclose(part.get_end(), plot.point(15, 2.0))


def test_dots_sit_on_the_data():
    plot = linear_plot()
    balls = dots(plot, [10.0, 30.0], [1.0, 2.0])
    assert np.allclose([b.get_center() for b in balls], plot.point([10.0, 30.0], [1.0, 2.0]))
    with pytest.raises(ValueError, match="outside the plot"):
        dots(plot, [50.0], [1.0])


# ---- ticks come from the ledger --------------------------------------------------------------

def test_tick_labels_are_the_ledger_items():
    plot = log_plot()
    for ticks, key in ((plot.x_ticks, "kit_demo.log_x_ticks"), (plot.y_ticks, "kit_demo.log_y_ticks")):
        assert [drawn_string(t[1]) for t in ticks] == [d.replace(" ", "") for d in quantity(key).item_displays]
        assert all(t[1].ledger_keys == (key,) for t in ticks)
    # Each tick mark sits at its value.
    values = quantity("kit_demo.log_x_ticks").value
    marks = [t[0].get_start() for t in plot.x_ticks]
    assert np.allclose([m[0] for m in marks], plot.point(values, 1e-2)[:, 0])


def test_ticks_outside_the_range_are_refused():
    with pytest.raises(ValueError, match="kit_demo.log_x_ticks: tick .* outside the x axis"):
        Plot(x_range=(1e-2, 1e2), y_range=(0, 1), x_log=True, x_ticks_key="kit_demo.log_x_ticks")


def test_number_axis_places_marks_and_ticks():
    axis = NumberAxis(1e-40, 1e40, width=10.0, log=True, ticks_key="kit_demo.range_ticks")
    assert np.allclose(axis.point(1.0), axis.line.get_center())
    assert [drawn_string(t[1]) for t in axis.ticks] == [d.replace(" ", "") for d in quantity("kit_demo.range_ticks").item_displays]
    mark = axis.mark(1e-30, "下限 {kit_demo.range_low}")
    assert np.isclose(mark[0].get_x(), axis.point(1e-30)[0])
    with pytest.raises(ValueError, match="outside the number axis"):
        axis.mark(1e50, "上限")


# ---- stacked bars ----------------------------------------------------------------------------

def test_segment_lengths_are_proportional_to_values():
    bar = stacked_bar([(2, "weights", ""), (2, "gradients", ""), (12, "optimizer", "")], scale=0.5)
    assert np.allclose([b.width for b in bar.blocks], [1.0, 1.0, 6.0])
    # End to end, no gaps: each segment starts where the previous one ends.
    for a, b in zip(bar.blocks, bar.blocks[1:]):
        assert np.isclose(a.get_right()[0], b.get_left()[0])
    upright = stacked_bar([("kit_demo.bar_big", "activations", "")], scale=0.25, orientation="vertical")
    assert np.isclose(upright.blocks[0].height, quantity("kit_demo.bar_big").value * 0.25)


def test_labels_go_inside_when_they_fit_and_beside_when_not():
    bar = stacked_bar([Segment(2, "weights", "权重 {kit_demo.bar_small}"),
                       Segment(12, "optimizer", "优化器状态 {kit_demo.bar_big}")], scale=0.5)
    small, big = bar.labels[1], bar.labels[0]  # inside labels are placed first
    assert bar.blocks[1].get_left()[0] < big.get_left()[0] and big.get_right()[0] < bar.blocks[1].get_right()[0]
    assert small.get_bottom()[1] > bar.blocks[0].get_top()[1]
    assert len(bar.leaders) == 1


def test_outside_labels_never_overlap():
    bar = stacked_bar([(1, "weights", "权重"), (1, "gradients", "梯度"), (1, "optimizer", "优化器")], scale=0.3)
    boxes = sorted((lab.get_left()[0], lab.get_right()[0]) for lab in bar.labels)
    assert all(right < next_left for (_, right), (next_left, _) in zip(boxes, boxes[1:]))


def test_bars_refuse_bad_input():
    with pytest.raises(ValueError, match="positive number"):
        stacked_bar([(0, "weights", "权重")], scale=1.0)
    with pytest.raises(ValueError, match="orientation"):
        stacked_bar([(1, "weights", "")], scale=1.0, orientation="diagonal")
    with pytest.raises(ValueError, match="names for"):
        bar_group([[(1, "weights", "")]], scale=1.0, names=["甲", "乙"])


def test_bar_group_shares_one_scale_and_base():
    group = bar_group([[(4, "weights", "")], [(2, "weights", "")]], scale=0.5, names=["甲", "乙"])
    first, second = group.bars
    assert np.isclose(first.blocks[0].width, 2 * second.blocks[0].width)
    assert np.isclose(first.base()[0], second.base()[0])
    assert first.base()[1] > second.base()[1]


# ---- annotations -----------------------------------------------------------------------------

def test_tally_numbers_come_from_the_ledger():
    row = tally([("前向", "kit_demo.forward"), ("反向", "kit_demo.backward")], ("合计", "kit_demo.tally_total"))
    assert [t.text for t in row.terms] == ["前向1", "反向2", "合计3"]  # Text drops spaces from .text
    assert [t.ledger_keys for t in row.terms] == [("kit_demo.forward",), ("kit_demo.backward",),
                                                  ("kit_demo.tally_total",)]


def test_callout_label_avoids_its_point():
    point = np.array([1.0, -1.0, 0.0])
    note = callout(point, "最低处")
    lo, hi = note.label.get_corner([-1, -1, 0]), note.label.get_corner([1, 1, 0])
    assert not (lo[0] <= point[0] <= hi[0] and lo[1] <= point[1] <= hi[1])
    assert np.linalg.norm(note.leader.get_start() - point) > 0.05


def test_brace_spans_two_points_and_legend_rows():
    brace = brace_label(((0, 0), (3, 0)), "下降最快")
    assert np.isclose(brace.brace.width, 3.0, atol=0.1)
    assert brace.label.get_top()[1] < brace.brace.get_bottom()[1] + 1e-6
    rows = legend([("ink", "损失"), ("backward", "梯度")])
    assert len(rows) == 2 and rows[0].get_right()[0] < rows[1].get_left()[0]
    from manim import DOWN

    marks = legend([("ink", "平的", "dot"), ("accent", "曲线", "line")], direction=DOWN)
    dot, stroke = marks[0][0], marks[1][0]
    assert np.isclose(dot.width, dot.height) and dot.width < stroke.width   # a round mark, not a line
    assert dot.get_left()[0] == pytest.approx(stroke.get_left()[0])       # the column's marks line up
    with pytest.raises(ValueError, match="dot"):
        legend([("ink", "x", "star")])


# --- the kit's patterns: one mapping, arrows from the scale, labels after their lines -------

def test_every_mapper_goes_through_one_scale():
    """A data window, a time axis and a broken scale land where the scale's fraction says."""
    from scenes.kit.charts import BrokenScale, TimeAxis
    from scenes.kit.data_window import DataWindow

    window = DataWindow(((0.0, 10.0), (-1.0, 1.0)), screen_center=(1.0, 2.0), screen_size=(4.0, 2.0))
    assert np.allclose(window.point(10.0, -1.0), [3.0, 1.0, 0.0]) and np.allclose(window.point(5.0, 0.0), [1.0, 2.0, 0.0])
    assert window.contains(10.0, 1.0) and not window.contains(10.5, 0.0)
    assert TimeAxis(-2.0, 6.0).x(0.25) == pytest.approx(0.0)
    broken = BrokenScale(floor=10.0, ceiling=110.0, bottom=0.0, squeezed=1.0, gap=0.5, top=6.5)
    assert broken.below(5.0) == pytest.approx(0.5) and broken.above(60.0) == pytest.approx(1.5 + 2.5)


def test_arrows_take_their_stroke_and_buff_from_the_theme():
    from scenes.kit import theme
    from scenes.kit.arrows import arrow

    bold = arrow((0, 0), (3, 0), "gradients", weight="bold", buff="small")
    assert bold.get_stroke_width() == theme.stroke("bold")
    assert bold.get_start()[0] == pytest.approx(theme.space("small"), abs=1e-6)
    assert bold.get_color().to_hex().upper() == theme.color("gradients").to_hex().upper()
    with pytest.raises(ValueError):
        arrow((1, 1), (1, 1))


def test_a_curved_arrow_bends_between_its_ends():
    from scenes.kit import theme
    from scenes.kit.arrows import curved_arrow

    bent = curved_arrow((0, 0), (2, 0), "backward", arc=-1.0, weight="bold")
    assert bent.get_stroke_width() == theme.stroke("bold")
    assert bent.get_start() == pytest.approx([0, 0, 0], abs=1e-6)
    tip = bent.tip.get_center()
    assert abs(tip[0] - 2) < 0.3                        # the tip at the far end
    assert bent.get_top()[1] > 0.2                      # left to right, a negative arc bows upward (clockwise)
    with pytest.raises(ValueError):
        curved_arrow((1, 1), (1, 1), arc=0.5)


def test_label_after_draws_the_line_first():
    from manim import Line

    from scenes.kit.annotate import label_after, on_plot

    line, label = Line([0, 0, 0], [2, 0, 0]), on_plot("梯度", color="gradients")
    animation = label_after(line, label, run_time=1.0, label_time=0.4)
    first, second = animation.animations
    assert first.mobject is line and second.mobject is label
    assert animation.run_time == pytest.approx(1.4)
    # The halo: a background-coloured stroke drawn behind the glyphs.
    glyph = label.family_members_with_points()[0]
    assert glyph.get_stroke_width(background=True) > 0


def test_plot_frame_is_optional():
    bare = Plot(x_range=(0, 1), y_range=(0, 1), width=4.0, height=2.0)
    framed = Plot(x_range=(0, 1), y_range=(0, 1), width=4.0, height=2.0, frame=True)
    assert len(bare.frame) == 0 and len(framed.frame) == 2
    top, right = framed.frame
    assert np.allclose(top.get_end(), framed.point(1, 1)) and np.allclose(right.get_end(), framed.point(1, 1))


def test_a_revealed_arrow_gets_its_tip_back():
    """Hiding a part must not cascade to its children before they are read: an arrow's tip
    would be remembered as hidden and never shown again."""
    from scenes.kit.arrows import arrow
    from scenes.kit.reveal import hidden, show_fraction

    pointer = arrow([0, 0, 0], [2, 0, 0], "ink")
    hidden(pointer)
    assert pointer.tip.get_fill_opacity() == 0
    show_fraction(pointer, 1.0)
    assert pointer.tip.get_fill_opacity() == 1.0 and pointer.get_stroke_opacity() == 1.0
