"""fig-vanish: sixty rates multiplied — explosion, vanishing, and where the rate comes from (第一节).

Ⓐ The question alone (那乘起来会怎样？), then the header with the plot. Linear axis: both chains start at 1 at the output end and grow right to left; ×1.2 leaves the
   frame, ×0.8 lies on the axis ("not left out: too small to draw").
Ⓑ Log number line: 起点 marked at 10⁰, the two input-end values (one format, powers of ten), ten
   orders of magnitude apart; 各离 1 两成 and the panel's point stay as takeaways (the point last
   and largest: 十个数量级 and the 两成 line step back when it comes).
Ⓒ σ′ = σ(1 − σ), named on its curve, peaks at 0.25 (marked ≤ 0.25), ReLU′ steps up to 1 on the
   positive side; the step from a quarter back to one is drawn and stays; the ⚠ caveat (the
   weights' factor is still outside) is a line under the plot.
The notes put Ⓒ on screen without a 🖥 line (「⭐⭐ 然后 Ⓒ」); its sentences belong to the L229 cue.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Create, Dot, FadeIn, Line, VGroup, Write, linear

from lecture_numerics import quantity, vanish_panels
from lecture_numerics.vanish import gradient_along_chain, sigmoid_slope
from scenes.kit import theme
from scenes.kit.annotate import brace_label, label_after
from scenes.kit.arrows import arrow
from scenes.kit.base import LectureScene
from scenes.kit.panels import EDGE_BUFF, panel_header
from scenes.kit.plots import NumberAxis, Plot, clip_at, curve, dashed, level, place
from scenes.kit.text import formula, ledger_text, words

# Geometry (scene units; the frame is 14.2 × 8). Content ends above the takeaways (≈ −2.5 for two).
CHAIN_CORNER, CHAIN_W, CHAIN_H = (-5.6, -2.2), 11.0, 4.3
LOG_LINE_LEFT, LOG_LINE_Y, LOG_LINE_W = -5.8, 0.2, 11.6
SLOPE_CORNER, SLOPE_W, SLOPE_H = (-5.0, -1.55), 10.0, 3.85
END_DOT_RADIUS = 0.1                # Ⓑ's two end points: clear of the tick labels under the axis
BRACE_DROP = 0.75                   # the brace runs under the tick labels
SLOPE_HEADROOM = 1.25               # the slope axis runs a quarter above ReLU′'s 1
STEP_UP_AT = 0.9                    # Ⓒ: where along the positive half-axis the ¼ → 1 arrow stands
START_LABEL_BACK, START_LABEL_LIFT = 7, 0.55   # Ⓐ: 「从 1 出发」 sits this many layers in, above the axis
ORIGIN_STROKE = 0.3                 # Ⓑ: the 起点 stroke's height above the axis
FOOTNOTE_Y = -2.55                  # Ⓒ: the caveat, under the plot and over the takeaway
PEAK_LABEL_CLEAR = 0.15             # Ⓒ: 「σ′ 最大」 keeps this far right of the dashed step at x = 0
SIGMOID_NAME_AT, SIGMOID_NAME_Y = -3.2, 0.52   # Ⓒ: the σ′ curve's name: its leader at x = −3.2, its foot at this slope
# The notes call the exploding rate 蓝, the vanishing one 红 (the sigmoid) and ReLU 绿.
# The vanishing curve is a gradient, in the theme's one gradient red (as in every figure).
EXPLODE, VANISH, RELU = "accent", "gradients", "good"


class FigVanish(LectureScene):
    scene_id = "fig-vanish"
    title = "六十个兑换率乘起来：爆炸、消失，和兑换率从哪来"
    ledger_keys = (
        "vanish.layers", "vanish.rate_low", "vanish.rate_high", "vanish.axis.linear_ticks", "vanish.axis.layer_ticks",
        "vanish.rate_0p8_60_layers", "vanish.rate_1p2_60_layers", "vanish.orders_between_zh",
        "vanish.axis.log_ticks", "vanish.output_gradient", "vanish.rate_offset_zh",
        "vanish.sigmoid_max_slope", "vanish.sigmoid_at_max_slope", "vanish.relu_slope_positive",
        "vanish.sigmoid_shrink_zh", "vanish.axis.slope_ticks", "vanish.axis.x_ticks",
    )

    def construct(self) -> None:
        self.two_chains()
        self.log_line()
        self.activation_slopes()

    # ---- Ⓐ the linear axis ----

    def two_chains(self) -> None:
        # The question is put to the room alone, large; the header is the next sentence's, and
        # comes with the plot. Once the plot answers it, the question stays, small, level with the header.
        self.panel("A", says="把六十一个数乘起来 —— 那乘起来会怎样？")
        self.clear()
        header = panel_header("A", "同样 {vanish.layers} 层的网络，只改每层的兑换率")
        question = words("那乘起来会怎样？", size="title")
        self.play(FadeIn(question), run_time=0.6)
        layers = quantity("vanish.layers").value
        top = vanish_panels.LINEAR_TOP.value
        axes = place(Plot(x_range=(0, layers), y_range=(0, top), width=CHAIN_W, height=CHAIN_H,
                          y_ticks_key="vanish.axis.linear_ticks"), CHAIN_CORNER)
        ends = VGroup(*[ledger_text(f"第 {{vanish.axis.layer_ticks[{i}]}} 层 · {side}", size="small", color="muted")
                        .next_to(axes.point(layer, 0), DOWN, buff=theme.space("small"))
                        for i, (layer, side) in enumerate(((1, "输入端"), (layers, "输出端")))])
        y_title = words("传到这一层的梯度", size="small", color="muted").next_to(axes.y_axis, UP, buff=theme.space("tight"))
        y_title.align_to(axes.y_axis, LEFT).shift(UP * theme.space("small"))

        self.beat(says="同一个六十层的网络，我只改一件事：每层的兑换率")
        start = Dot(axes.point(layers, quantity("vanish.output_gradient").value), radius=0.09, color=theme.color("ink"))
        start_label = ledger_text("从 {vanish.output_gradient} 出发，每层乘上兑换率", size="small")
        # In the wedge between where the two curves will run, clear of both.
        start_label.next_to(axes.point(layers - START_LABEL_BACK, 0), UP, buff=START_LABEL_LIFT).align_to(
            axes.point(layers - START_LABEL_BACK, 0), RIGHT)
        asked = words("那乘起来会怎样？", size="label", color="muted").to_corner(UP + RIGHT, buff=EDGE_BUFF)
        self.play(question.animate.become(asked), FadeIn(header), FadeIn(axes), FadeIn(ends), FadeIn(y_title),
                  run_time=0.8)
        self.play(FadeIn(start, scale=1.5), FadeIn(start_label), run_time=0.5)

        layer_ids = np.arange(layers, 0, -1)          # drawn from the output end back to the input
        curves = {}
        for key, color in (("vanish.rate_high", EXPLODE), ("vanish.rate_low", VANISH)):
            grads = gradient_along_chain(quantity(key).value, layers)[::-1]
            curves[key] = curve(axes, *clip_at(layer_ids, grads, top), color)

        self.beat(says="蓝色那条，每层一点二。你看它 —— 从右往左，直接冲出画面")
        self.play(Create(curves["vanish.rate_high"]), run_time=1.2, rate_func=linear)
        exit_at = curves["vanish.rate_high"].get_end()
        up = arrow(exit_at + DOWN * theme.space("tight"), exit_at + UP * theme.space("wide"), EXPLODE, weight="heavy", buff=None)
        high = ledger_text("每层 ×{vanish.rate_high}：直接冲出画面", size="label", color=EXPLODE)
        high.next_to(up, LEFT, buff=theme.space("large")).shift(DOWN * theme.space("gap"))
        self.play(label_after(up, high, run_time=0.7, label_time=0.3))

        self.beat(says="红色那条，每层零点八。它贴在轴上")
        low = ledger_text("每层 ×{vanish.rate_low}：贴在轴上", size="label", color=VANISH)
        low.next_to(axes.point(layers * 0.3, 0), UP, buff=theme.space("edge"))
        self.play(Create(curves["vanish.rate_low"]), run_time=1.6, rate_func=linear)
        self.play(FadeIn(low), run_time=0.5)

        self.beat(says="那不是我画漏了，是它真的小到画不出来", takeaway="不是画漏了 —— 是真的小到画不出来")

    # ---- Ⓑ the log number line ----

    def log_line(self) -> None:
        self.start_panel("B", "线性轴装不下两边 → 换成对数轴", says="线性的轴装不下这两头，得换成对数轴")
        ticks = quantity("vanish.axis.log_ticks").value
        numbers = NumberAxis(ticks[0], ticks[-1], width=LOG_LINE_W, log=True, ticks_key="vanish.axis.log_ticks")
        numbers.shift(np.array([LOG_LINE_LEFT, LOG_LINE_Y, 0]) - numbers.line.get_start())
        origin = numbers.mark(quantity("vanish.output_gradient").value, "起点 {vanish.output_gradient}", color="ink",
                              size="small")
        # The 起点 stroke stands on the axis, not across it, so it keeps off the 10⁰ label below.
        foot = numbers.point(quantity("vanish.output_gradient").value)
        origin[0].put_start_and_end_on(foot, foot + UP * ORIGIN_STROKE)
        origin[1].next_to(origin[0], UP, buff=theme.space("snug"))
        self.play(FadeIn(numbers), run_time=0.6)
        self.play(label_after(origin[0], origin[1], run_time=0.6, label_time=0.3))

        ends = VGroup()
        for value_key, rate_key, color, side, says in (
                ("vanish.rate_0p8_60_layers", "vanish.rate_low", VANISH, LEFT,
                 "左边这个点，是零点八那条最靠输入的那层：一百万分之一点九"),
                ("vanish.rate_1p2_60_layers", "vanish.rate_high", EXPLODE, RIGHT, "右边这个点，是一点二那条：四万七千")):
            self.beat(says=says)
            at = numbers.point(quantity(value_key).value)
            dot = Dot(at, radius=END_DOT_RADIUS, color=theme.color(color))
            value = ledger_text("{" + value_key + "}", size="heading", color=color).next_to(dot, UP, buff=theme.space("gap"))
            which = ledger_text("×{" + rate_key + "} 那条，最靠输入的那层", size="small", color=color)
            which.next_to(value, UP, buff=theme.space("snug"))
            which.align_to(value, side)
            self.play(FadeIn(dot, scale=1.5), run_time=0.4)
            self.play(Write(value), FadeIn(which), run_time=0.7)
            ends.add(dot)

        self.beat(says="中间隔着十个数量级")
        span = [end.get_center() + DOWN * BRACE_DROP for end in ends]
        orders = brace_label(tuple(span), "{vanish.orders_between_zh}个数量级", size="title")
        self.play(FadeIn(orders.brace), run_time=0.5)
        self.play(Write(orders.label), run_time=0.6)

        self.beat(says="而这两个兑换率 —— 零点八和一点二，只差两成",
                  takeaway="{vanish.rate_low} 和 {vanish.rate_high}：各离 {vanish.output_gradient} {vanish.rate_offset_zh}")
        # 「这一格真正要留下的是这句」: what was said before it steps back (十个数量级 to heading
        # size, the 两成 line to gray), so this line is the panel's largest, darkest words.
        self.beat(says="被指数放大的不是梯度， 是「每层偏离一多少」那个微小的偏差",
                  takeaway="被指数放大的不是梯度，是「每层偏离 {vanish.output_gradient} 多少」")
        self.play(orders.label.animate.scale(theme.size("heading") / theme.size("title")),
                  *self.dim_takeaways(), run_time=0.6)

    # ---- Ⓒ where part of the rate comes from ----

    def activation_slopes(self) -> None:
        self.start_panel("C", "兑换率从哪来：激活函数的导数", says="那每层的兑换率从哪来？有好几截，其中一截是激活函数的导数")
        half = vanish_panels.X_HALF.value
        relu = quantity("vanish.relu_slope_positive").value
        peak = quantity("vanish.sigmoid_max_slope").value
        axes = place(Plot(x_range=(-half, half), y_range=(0, relu * SLOPE_HEADROOM), width=SLOPE_W, height=SLOPE_H,
                          x_ticks_key="vanish.axis.x_ticks", y_ticks_key="vanish.axis.slope_ticks"), SLOPE_CORNER)
        self.play(FadeIn(axes), run_time=0.5)

        self.beat(says="红的是 sigmoid 的导数 —— 它的峰值就这么高")
        curves = vanish_panels.slope_curves()
        sigmoid = curve(axes, *curves["sigmoid"], VANISH)
        peak_dot = Dot(axes.point(0, peak), radius=0.09, color=theme.color(VANISH))
        self.play(Create(sigmoid), run_time=1.0)
        self.play(FadeIn(peak_dot, scale=1.5), run_time=0.4)
        self.play(FadeIn(self.sigmoid_name(axes)), run_time=0.5)

        self.beat(says="在 σ 等于二分之一的时候最大，恰好是零点二五")
        peak_label = ledger_text("σ′ 最大 {vanish.sigmoid_max_slope}（σ = {vanish.sigmoid_at_max_slope} 时）",
                                 size="label", color=VANISH).next_to(peak_dot, UP + RIGHT, buff=theme.space("snug"))
        peak_label.shift(RIGHT * PEAK_LABEL_CLEAR)
        self.play(FadeIn(peak_label), run_time=0.5)

        self.beat(says="光是 sigmoid 那一下，每层就先乘了个不超过四分之一的数")
        ceiling = dashed(level(axes, peak, VANISH))
        bound = ledger_text("σ′ ≤ {vanish.sigmoid_max_slope}", size="label", color=VANISH)
        bound.next_to(axes.point(-half, peak), UP, buff=theme.space("snug")).align_to(axes.point(-half, peak), LEFT)
        bound.shift(RIGHT * theme.space("gap"))
        self.play(label_after(ceiling, bound, run_time=0.8, label_time=0.3))

        self.beat(says="再看绿的，ReLU 的导数：正半轴恒等于一")
        steps = VGroup(curve(axes, *curves["relu_left"], RELU), dashed(curve(axes, [0, 0], [0, relu], RELU)),
                       curve(axes, *curves["relu_right"], RELU))
        relu_label = ledger_text("ReLU′：正半轴恒等于 {vanish.relu_slope_positive}", size="label", color=RELU)
        relu_label.next_to(axes.point(half * 0.5, relu), UP, buff=theme.space("small"))
        self.play(label_after(steps, relu_label, run_time=0.9, label_time=0.3))
        self.bring_to_front(peak_dot)       # the step up at x = 0 passes behind σ′'s peak, not over it

        self.beat(says="这就是为什么 ReLU 一换上来，深网络忽然就训得动了 —— 它把每层那个「先天往下压」的系数，从四分之一变回了一",
                  takeaway="ReLU 把每层先天往下压的系数，从 {vanish.sigmoid_max_slope} 变回了 {vanish.relu_slope_positive}")
        x = half * STEP_UP_AT
        lift = arrow(axes.point(x, peak), axes.point(x, relu), RELU, weight="heavy", buff="tight")
        lift_label = ledger_text("{vanish.sigmoid_max_slope} → {vanish.relu_slope_positive}", size="body", color=RELU)
        lift_label.next_to(lift, LEFT, buff=theme.space("small"))
        self.play(label_after(lift, lift_label, run_time=0.8, label_time=0.3))

        self.beat(says="权重那一乘还在外面， 所以不能说「一定衰减四倍」，只能说它先天就往下压")
        # ⚠ in ink: the caveat the speaker must say (the notes flag it ⚠️), not a muted aside.
        caveat = ledger_text("⚠ 乘权重那步还在外面 —— 不能说「一定衰减{vanish.sigmoid_shrink_zh}倍」，只能说先天往下压",
                             size="small", color="ink")
        caveat.move_to([0, FOOTNOTE_Y, 0]).to_edge(LEFT, buff=EDGE_BUFF + theme.space("small"))
        self.play(FadeIn(caveat), run_time=0.5)

    @staticmethod
    def sigmoid_name(axes: Plot) -> VGroup:
        """「sigmoid 的导数 / σ′ = σ(1 − σ)」 over the curve's left flank, a short leader down to it:
        the curve is named, with the formula the speaker reads, when it is first pointed at."""
        at = SIGMOID_NAME_AT
        flank = axes.point(at, sigmoid_slope(at))
        name = VGroup(words("sigmoid 的导数", size="label", color=VANISH),
                      formula("σ′ = σ(1 − σ)", size="label", color=VANISH)).arrange(DOWN, buff=theme.space("tight"),
                                                                                    aligned_edge=LEFT)
        name.next_to(axes.point(at, SIGMOID_NAME_Y), UP, buff=0).align_to(axes.point(-vanish_panels.X_HALF.value, 0), LEFT)
        name.shift(RIGHT * theme.space("gap"))
        leader = Line(flank + UP * theme.space("small"), [flank[0], name.get_bottom()[1] - theme.space("tight"), 0],
                      stroke_width=theme.stroke("thin"), color=theme.color(VANISH))
        return VGroup(leader, name)
