"""demo-kit: every widget of the chart kit once, on the numbers of lecture_numerics/kit_demo.py.
Not part of the lecture (ids starting with "demo" are left out of the lecture's list).

Ⓐ a linear plot: a run grown step by step with a ball, its points, a callout, a brace, a legend.
Ⓑ log10 axes: two power laws, one clipped where it leaves the plot.
Ⓒ a log number axis: a shaded span and marks at data values.
Ⓓ stacked bars: labels inside and beside, a brace over two parts, a group of bars, a tally.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, FadeIn

from lecture_numerics import kit_demo
from scenes.kit.annotate import brace_label, callout, legend, tally, label_after, on_plot
from scenes.kit.bars import Segment, bar_group, stacked_bar
from scenes.kit import theme
from scenes.kit.base import LectureScene
from scenes.kit.panels import caption
from scenes.kit.plots import NumberAxis, Plot, curve, dashed, dots, grow, grow_run

PLOT_CORNER = LEFT * 5.6 + DOWN * 2.3   # lower-left corner of the plots in Ⓐ and Ⓑ
GENTLE_TAG_AT = (1.0, 1.0)       # (x, y) data where the gentle law's label sits
BAR_SCALE = 0.55                          # scene units per byte
PLOT_W, PLOT_H = 7.5, 4.2
AXIS_WIDTH = 11.0
BAR_AT, GROUP_AT, TALLY_AT = LEFT * 5.6 + UP * 1.3, RIGHT * 2.9 + DOWN * 2.6, LEFT * 3.2 + DOWN * 2.4
GROUP_SCALE, GROUP_GAP = 0.3, 0.8         # the upright bars: a share of BAR_SCALE, and their spacing


class DemoKit(LectureScene):
    scene_id = "demo-kit"
    title = "图表组件一览"
    ledger_keys = (
        "kit_demo.run_x_ticks", "kit_demo.run_y_ticks", "kit_demo.log_x_ticks", "kit_demo.log_y_ticks",
        "kit_demo.range_ticks", "kit_demo.range_low", "kit_demo.range_high",
        "kit_demo.bar_big", "kit_demo.bar_small", "kit_demo.bar_total",
        "kit_demo.forward", "kit_demo.backward", "kit_demo.tally_total",
    )

    def construct(self):
        self.linear_panel()
        self.log_panel()
        self.axis_panel()
        self.bars_panel()

    # ---- Ⓐ linear plot ----------------------------------------------------------------------

    def linear_panel(self):
        self.start_panel("A", "线性坐标：曲线、小球、标注")
        plot = Plot(x_range=(0, 40), y_range=(0, 3), width=PLOT_W, height=PLOT_H,
                    x_ticks_key="kit_demo.run_x_ticks", y_ticks_key="kit_demo.run_y_ticks",
                    x_title="步数", y_title="损失", grid=True)
        plot.shift(PLOT_CORNER - plot.point(0, 0))
        self.play(FadeIn(plot), run_time=0.6)
        xs, ys = kit_demo.loss_run()
        # The run in ink (a forward value), its ball and sampled points in the accent (the
        # moving ball, a highlight): no concept colour is borrowed for a demo's data.
        run, animation = grow_run(plot, xs, ys, "ink", run_time=3.0)
        self.play(animation)
        every_tenth = dots(plot, xs[::10], ys[::10], "accent")
        lowest = int(np.argmin(ys))
        note = callout(plot.point(xs[lowest], ys[lowest]), "最低处", UP + RIGHT * theme.space("large"))
        span = brace_label((plot.point(0, 0), plot.point(10, 0)), "下降最快", UP, buff=theme.space("small"))
        key = legend([("ink", "损失曲线", "line"), ("accent", "采样点", "dot")], direction=DOWN)
        key.next_to(plot.x_axis, RIGHT, buff=theme.space("wide")).align_to(plot.y_axis, UP)
        self.play(FadeIn(every_tenth), FadeIn(note), FadeIn(span), FadeIn(key), run_time=0.8)
        self.wait(1.0)

    # ---- Ⓑ log axes ------------------------------------------------------------------------

    def log_panel(self):
        self.start_panel("B", "对数坐标：幂律是直线")
        plot = Plot(x_range=(1e-3, 1e3), y_range=(1e-2, 1e2), x_log=True, y_log=True, width=PLOT_W, height=PLOT_H,
                    x_ticks_key="kit_demo.log_x_ticks", y_ticks_key="kit_demo.log_y_ticks",
                    x_title="横轴", y_title="纵轴", grid=True, frame=True)
        plot.shift(PLOT_CORNER - plot.point(1e-3, 1e-2))
        xs, gentle, steep = kit_demo.power_laws()
        # Two laws with no concept of their own: told apart by shape, the subject solid in ink,
        # the other dashed in muted (no concept or status colour is borrowed).
        first = curve(plot, xs, gentle, "ink")
        # The steep law leaves the plot on the left: clipped there instead of refused; the
        # frame shows where "off the picture" begins.
        second = dashed(curve(plot, xs, steep, "muted", clip=True))
        key = legend([("ink", "平缓的幂律", "line"), ("muted", "陡的幂律（出界处截断）", "dashed")], direction=DOWN)
        key.next_to(plot.x_axis, RIGHT, buff=theme.space("wide")).align_to(plot.y_axis, UP)
        # A label on the plot, haloed so the curve behind it never cuts it, shown once its curve is drawn.
        tag = on_plot("平缓", color="ink").move_to(plot.point(*GENTLE_TAG_AT))
        self.play(FadeIn(plot), FadeIn(key), run_time=0.6)
        self.play(label_after(first, tag, run_time=1.6, draw=grow), grow(second))
        self.wait(1.0)

    # ---- Ⓒ number axis ---------------------------------------------------------------------

    def axis_panel(self):
        self.start_panel("C", "数轴：一个格式管到哪里")
        axis = NumberAxis(1e-40, 1e40, width=AXIS_WIDTH, log=True, ticks_key="kit_demo.range_ticks", title="数值")
        axis.move_to(DOWN * theme.space("gap"))
        covered = axis.span(kit_demo.RANGE_LOW.value, kit_demo.RANGE_HIGH.value, "good", "能表示的范围")
        low = axis.mark(kit_demo.RANGE_LOW.value, "下限 {kit_demo.range_low}", color="ink", side=DOWN)
        high = axis.mark(kit_demo.RANGE_HIGH.value, "上限 {kit_demo.range_high}", color="ink", side=DOWN)
        # Marks hang below the axis under the tick labels' row, so they clear each other.
        for mark in (low, high):
            mark[1].next_to(axis.ticks, DOWN, buff=theme.space("medium")).set_x(mark[0].get_x())
        self.play(FadeIn(axis), run_time=0.6)
        self.play(FadeIn(covered), FadeIn(low), FadeIn(high), run_time=0.8)
        self.play(FadeIn(caption("出了范围的数，这个格式写不下")), run_time=0.5)
        self.wait(1.0)

    # ---- Ⓓ stacked bars --------------------------------------------------------------------

    def bars_panel(self):
        self.start_panel("D", "堆叠条：按值切开")
        segments = [Segment("kit_demo.bar_small", "weights", "权重 {kit_demo.bar_small}"),
                    Segment("kit_demo.bar_small", "gradients", "梯度 {kit_demo.bar_small}"),
                    Segment("kit_demo.bar_big", "optimizer", "优化器状态 {kit_demo.bar_big}")]
        bar = stacked_bar(segments, BAR_SCALE, "horizontal")
        bar.start_at(BAR_AT)
        pair = brace_label(bar.span(0, 1), "权重与梯度", DOWN)
        # The whole-bar brace hangs below the pair's, so the two never cross.
        whole = brace_label(bar.blocks, "合计 {kit_demo.bar_total}", DOWN, buff=pair.height + theme.space("medium"))
        group = bar_group([[("kit_demo.bar_big", "activations", "{kit_demo.bar_big}")],
                           [("kit_demo.bar_small", "activations", "{kit_demo.bar_small}")]],
                          BAR_SCALE * GROUP_SCALE, names=["保存", "重算"], orientation="vertical", gap=GROUP_GAP)
        group.shift(GROUP_AT - group.bars[0].base())
        row = tally([("前向", "kit_demo.forward"), ("反向", "kit_demo.backward", "backward")],
                    ("合计", "kit_demo.tally_total"))
        row.move_to(TALLY_AT)
        self.play(FadeIn(bar), run_time=0.6)
        self.play(FadeIn(pair), FadeIn(whole), run_time=0.6)
        self.play(FadeIn(group), FadeIn(row), run_time=0.6)
        self.wait(1.0)
