"""fig-vanish: sixty rates multiplied — explosion, vanishing, and where the rate comes from (第一节).

Ⓐ The question alone (那乘起来会怎样？), then the header with the plot. Linear axis: both chains start at 1 at the output end and grow right to left; ×1.2 leaves the
   frame, ×0.8 lies on the axis ("not left out: too small to draw").
Ⓑ Log number line, its rule drawn as a hop between two ticks (每格 ×10): 起点 marked at 10⁰, the
   two input-end values (one format, powers of ten); the brace between them counts 十格, and the
   ⭐⭐⭐ 中间隔着十个数量级 is the largest text; then a zoom on 1 shows 0.8 and 1.2 hugging it (各离 1
   两成, beside it); the panel's point (「每层偏离 1 多少」) comes last, in the ⭐⭐⭐ line's place.
Ⓒ Both slope curves named as the speaker points at them: σ′ (red) first, ReLU′ drawn only at
   「再看绿的」; σ′ = σ(1 − σ) and the peak 0.25 when said, the ⛔ ceiling (每层先乘一个 ≤ 0.25
   的数) as a takeaway over its dashed level; ReLU′ steps up to 1 on the positive side, the lift
   from a quarter back to one is drawn, and the ⭐⭐⭐ 深网络忽然就训得动了 is the largest text; the ⚠
   caveat (the weights' factor is still outside) closes the panel.
The notes put Ⓒ on screen without a 🖥 line (「⭐⭐ 然后 Ⓒ」); its sentences belong to the L229 cue.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Create, FadeIn, FadeOut, VGroup, Write, linear

from lecture_numerics import quantity, vanish_panels
from lecture_numerics.vanish import gradient_along_chain, sigmoid_slope
from scenes.kit import marks, theme, widgets
from scenes.kit.annotate import label_after
from scenes.kit.arrows import arrow
from scenes.kit.base import LectureScene
from scenes.kit.charts import left_tick
from scenes.kit.panels import EDGE_BUFF, panel_header
from scenes.kit.plots import NumberAxis, Plot, clip_at, curve, dashed, level, place
from scenes.kit.text import formula, ledger_text, words

# Geometry (scene units; the frame is 14.2 × 8). Content ends above the takeaways.
CHAIN_CORNER, CHAIN_W, CHAIN_H = (-5.6, -2.2), 11.0, 4.3
LOG_LINE_LEFT, LOG_LINE_Y, LOG_LINE_W = -5.8, 0.2, 11.6
SLOPE_CORNER, SLOPE_W, SLOPE_H = (-5.0, -0.85), 10.0, 3.35   # Ⓒ ends over three takeaway lines
BRACE_DROP = 0.75                   # the brace runs under the tick labels
SLOPE_HEADROOM = 1.25               # the slope axis runs a quarter above ReLU′'s 1
STEP_UP_AT = 0.9                    # Ⓒ: where along the positive half-axis the ¼ → 1 arrow stands
START_LABEL_BACK, START_LABEL_LIFT = 7, 0.55   # Ⓐ: 「从 1 出发」 sits this many layers in, above the axis
ORIGIN_STROKE = 0.3                 # Ⓑ: the 起点 stroke's height above the axis
HOP_DECADE = 7                      # Ⓑ: the 每格 ×10 hop spans ticks 7 → 8 (10¹ → 10²), clear of both points' labels
HOP_BEND = -0.9                     # radians; negative bows a left-to-right arc upward
ZOOM_Y, ZOOM_W = 1.95, 3.2          # Ⓑ: the zoom on 1 (0.8 · 1 · 1.2), a linear line above 起点
ZOOM_MARGIN = 0.5                   # the zoom reaches past 0.8 and 1.2 by half their gap to 1
PEAK_LABEL_CLEAR = 0.15             # Ⓒ: 「最大 0.25」 keeps this far right of the step at x = 0
SIGMOID_NAME_AT, SIGMOID_NAME_Y = -3.2, 0.52   # Ⓒ: the σ′ curve's name: its leader at x = −3.2, its foot at this slope
# The notes name the colours: the exploding rate 蓝, the vanishing one 红 (the sigmoid's slope
# too), ReLU′ 绿. Red is the gradients' own colour (a backward value). Blue is the only blue in
# the key, the weights': the 1.2 chain grows because each layer's factor, the weights' multiply
# among it (Ⓒ's ⚠), is above one. Green is the status 'fine': the slope that lets a deep net train.
EXPLODE, VANISH, RELU = "weights", "backward", "good"


class FigVanish(LectureScene):
    scene_id = "fig-vanish"
    title = "六十个兑换率乘起来：爆炸、消失，和兑换率从哪来"
    ledger_keys = (
        "vanish.layers", "vanish.rate_low", "vanish.rate_high", "vanish.axis.linear_ticks", "vanish.axis.layer_ticks",
        "vanish.rate_0p8_60_layers", "vanish.rate_1p2_60_layers", "vanish.orders_between_zh",
        "vanish.axis.log_ticks", "vanish.axis.log_step", "vanish.output_gradient", "vanish.rate_offset_zh",
        "vanish.sigmoid_max_slope", "vanish.sigmoid_at_max_slope", "vanish.relu_slope_positive",
        "vanish.axis.slope_ticks", "vanish.axis.x_ticks",
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
        question = words("那乘起来会怎样？", size="title")
        self.play(FadeIn(question), run_time=0.6)

        self.beat(says="同一个六十层的网络，我只改一件事：每层的兑换率")
        axes, furniture = self.chain_plot()
        layers = quantity("vanish.layers").value
        start = marks.dot(axes.point(layers, quantity("vanish.output_gradient").value), "ink", size="large")
        start_label = ledger_text("从 {vanish.output_gradient} 出发", size="small")
        # In the wedge between where the two curves will run, clear of both.
        start_label.next_to(axes.point(layers - START_LABEL_BACK, 0), UP, buff=START_LABEL_LIFT).align_to(
            axes.point(layers - START_LABEL_BACK, 0), RIGHT)
        asked = words("那乘起来会怎样？", size="label", color="muted").to_corner(UP + RIGHT, buff=EDGE_BUFF)
        self.play(question.animate.become(asked), FadeIn(furniture), FadeIn(axes), run_time=0.8)
        self.play(FadeIn(start, scale=1.5), FadeIn(start_label), run_time=0.5)

        top = vanish_panels.LINEAR_TOP.value
        layer_ids = np.arange(layers, 0, -1)          # drawn from the output end back to the input
        curves = {}
        for key, color in (("vanish.rate_high", EXPLODE), ("vanish.rate_low", VANISH)):
            grads = gradient_along_chain(quantity(key).value, layers)[::-1]
            curves[key] = curve(axes, *clip_at(layer_ids, grads, top), color)

        self.beat(says="蓝色那条，每层一点二。你看它 —— 从右往左，直接冲出画面")
        self.play(Create(curves["vanish.rate_high"]), run_time=1.2, rate_func=linear)
        exit_at = curves["vanish.rate_high"].get_end()
        up = arrow(exit_at + DOWN * theme.space("tight"), exit_at + UP * theme.space("wide"), EXPLODE, weight="heavy", buff=None)
        high = ledger_text("每层 ×{vanish.rate_high}：冲出去", size="label", color=EXPLODE)
        high.next_to(up, LEFT, buff=theme.space("large")).shift(DOWN * theme.space("gap"))
        self.play(label_after(up, high, run_time=0.7, label_time=0.3))

        self.beat(says="红色那条，每层零点八。它贴在轴上")
        low = ledger_text("每层 ×{vanish.rate_low}：贴着轴", size="label", color=VANISH)
        low.next_to(axes.point(layers * 0.3, 0), UP, buff=theme.space("edge"))
        self.play(Create(curves["vanish.rate_low"]), run_time=1.6, rate_func=linear)
        self.play(FadeIn(low), run_time=0.5)

        self.beat(says="那不是我画漏了，是它真的小到画不出来", takeaway="不是画漏了 —— 是真的小到画不出来")

    @staticmethod
    def chain_plot() -> tuple[Plot, VGroup]:
        """Ⓐ's linear plot, and what names it: the header, the two ends of the layer axis
        (input, output) and the gradient axis's title."""
        layers = quantity("vanish.layers").value
        axes = place(Plot(x_range=(0, layers), y_range=(0, vanish_panels.LINEAR_TOP.value), width=CHAIN_W,
                          height=CHAIN_H, y_ticks_key="vanish.axis.linear_ticks"), CHAIN_CORNER)
        header = panel_header("A", "同样 {vanish.layers} 层的网络，只改每层的兑换率")
        ends = VGroup(*[ledger_text(f"第 {{vanish.axis.layer_ticks[{i}]}} 层 · {side}", size="small", color="muted")
                        .next_to(axes.point(layer, 0), DOWN, buff=theme.space("small"))
                        for i, (layer, side) in enumerate(((1, "输入端"), (layers, "输出端")))])
        y_title = words("传回的梯度", size="small", color="muted").next_to(axes.y_axis, UP, buff=theme.space("tight"))
        y_title.align_to(axes.y_axis, LEFT).shift(UP * theme.space("small"))
        return axes, VGroup(header, ends, y_title)

    # ---- Ⓑ the log number line ----

    def log_line(self) -> None:
        self.start_panel("B", "线性轴装不下两边 → 换成对数轴", says="线性的轴装不下这两头，得换成对数轴")
        numbers = self.log_axis()
        start_value = quantity("vanish.output_gradient").value
        origin = numbers.mark(start_value, "起点 {vanish.output_gradient}", color="ink", size="small")
        origin_stroke, origin_label = origin.submobjects
        # The 起点 stroke stands on the axis, not across it, so it keeps off the 10⁰ label below.
        foot = numbers.point(start_value)
        origin_stroke.put_start_and_end_on(foot, foot + UP * ORIGIN_STROKE)
        origin_label.next_to(origin_stroke, UP, buff=theme.space("snug"))
        self.play(FadeIn(numbers), run_time=0.6)
        self.play(label_after(origin_stroke, origin_label, run_time=0.6, label_time=0.3))
        # The new ruler's rule, drawn: one step between neighbouring ticks multiplies by ten.
        self.play(label_after(*self.decade_hop(numbers), run_time=0.6, label_time=0.3))

        ends = VGroup()
        for value_key, rate_key, color, side, says in (
                ("vanish.rate_0p8_60_layers", "vanish.rate_low", VANISH, LEFT,
                 "左边这个点，是零点八那条最靠输入的那层：一百万分之一点九"),
                ("vanish.rate_1p2_60_layers", "vanish.rate_high", EXPLODE, RIGHT, "右边这个点，是一点二那条：四万七千")):
            self.beat(says=says)
            dot = marks.dot(numbers.point(quantity(value_key).value), color, size="large")
            value = ledger_text("{" + value_key + "}", size="heading", color=color).next_to(dot, UP, buff=theme.space("gap"))
            which = ledger_text("×{" + rate_key + "} · 输入端", size="small", color=color)
            which.next_to(value, UP, buff=theme.space("snug"))
            which.align_to(value, side)
            self.play(FadeIn(dot, scale=1.5), run_time=0.4)
            self.play(Write(value), FadeIn(which), run_time=0.7)
            ends.add(dot)

        # ⭐⭐⭐: the sentence is the takeaway, the largest text; the brace counts the steps between
        # the two points (十格, at 每格 ×10: ten orders of magnitude, read off the ruler).
        self.beat(says="中间隔着十个数量级", takeaway="中间隔着{vanish.orders_between_zh}个数量级")
        span = tuple(end.get_center() + DOWN * BRACE_DROP for end in ends)
        orders = widgets.labelled_brace(span, "{vanish.orders_between_zh}格", DOWN, size="body")
        self.play(FadeIn(orders.brace), run_time=0.5)
        self.play(FadeIn(orders.label), run_time=0.4)

        # The two rates are drawn, not written under the panel: the zoom on 1 takes over the 起点
        # label, 0.8 and 1.2 hug 1 on the ruler whose ends are ten orders of magnitude apart, and
        # how far each sits from 1 is named beside it.
        self.beat(says="而这两个兑换率 —— 零点八和一点二，只差两成")
        self.play(FadeOut(origin_label), run_time=0.3)
        zoom = self.zoom_on_one(numbers)
        offset = ledger_text("各离 {vanish.output_gradient} {vanish.rate_offset_zh}", size="label")
        offset.next_to(zoom[1].line, RIGHT, buff=theme.space("medium"))
        self.play(FadeIn(zoom), run_time=0.8)
        self.play(FadeIn(offset, shift=LEFT * theme.space("close")), run_time=0.4)

        # 「这一格真正要留下的是这句」: it takes the place of the ⭐⭐⭐ line (whose fact the brace
        # keeps), so it stands alone under the picture and leads, bold: the notes mark it in words
        # (lecture_numerics.emphasis.MARKED_IN_WORDS).
        self.beat(says="被指数放大的不是梯度， 是「每层偏离一多少」那个微小的偏差",
                  takeaway="被指数放大的不是梯度，是「每层偏离 {vanish.output_gradient} 多少」", replaces=True)
        # The ⭐⭐⭐ line has left the stack: the brace keeps its fact (十格 = 十个数量级) on the picture.
        # 「那个微小的偏差」 is pointed at: the deviation beside the zoom is picked out.
        kept = ledger_text("{vanish.orders_between_zh}格 = {vanish.orders_between_zh}个数量级", size="body")
        kept.move_to(orders.label)
        self.play(FadeOut(orders.label), FadeIn(kept), run_time=0.4)
        self.play(FadeIn(marks.frame_around(offset, "accent", pad="tight", weight="bold")), run_time=0.5)

    @staticmethod
    def log_axis() -> NumberAxis:
        ticks = quantity("vanish.axis.log_ticks").value
        numbers = NumberAxis(ticks[0], ticks[-1], width=LOG_LINE_W, log=True, ticks_key="vanish.axis.log_ticks")
        return numbers.shift(np.array([LOG_LINE_LEFT, LOG_LINE_Y, 0]) - numbers.line.get_start())

    @staticmethod
    def decade_hop(numbers: NumberAxis) -> tuple:
        """An arc from one tick to the next over the axis, and its rule, 每格 ×10."""
        ticks = quantity("vanish.axis.log_ticks").value
        a, b = (numbers.point(ticks[i]) + UP * theme.space("tight") for i in (HOP_DECADE, HOP_DECADE + 1))
        hop = marks.arc_arrow(a, b, "ink", angle=HOP_BEND, weight="regular")
        rule = ledger_text("每格 ×{vanish.axis.log_step}", size="label").next_to(hop, UP, buff=theme.space("tight"))
        return hop, rule

    @staticmethod
    def zoom_on_one(numbers: NumberAxis) -> VGroup:
        """A linear line from just under 0.8 to just over 1.2, above the 起点 mark, its three points
        marked; two dashed guides tie its ends to the hair of the ruler it magnifies."""
        low, one, high = (quantity(k).value for k in ("vanish.rate_low", "vanish.output_gradient", "vanish.rate_high"))
        reach = ZOOM_MARGIN * (one - low)
        zoom = widgets.number_line(low - reach, high + reach, width=ZOOM_W, points=[
            ("vanish.rate_low", "{vanish.rate_low}", VANISH), ("vanish.output_gradient", "起点 {vanish.output_gradient}", "ink"),
            ("vanish.rate_high", "{vanish.rate_high}", EXPLODE)])
        zoom.move_to([numbers.point(one)[0], ZOOM_Y, 0])
        hair = [numbers.point(v) + UP * ORIGIN_STROKE for v in (low - reach, high + reach)]
        ends = [zoom.line.get_start(), zoom.line.get_end()]
        guides = VGroup(*[marks.segment(e, h, "muted", weight="thin", dashed=True) for e, h in zip(ends, hair)])
        return VGroup(guides, zoom)

    # ---- Ⓒ where part of the rate comes from ----

    def activation_slopes(self) -> None:
        self.start_panel("C", "兑换率从哪来：激活函数的导数", says="那每层的兑换率从哪来？有好几截，其中一截是激活函数的导数")
        half = vanish_panels.X_HALF.value
        relu = quantity("vanish.relu_slope_positive").value
        peak = quantity("vanish.sigmoid_max_slope").value
        # The slope axis's ticks other than 0 wait for the sentences that say them (0.25, 1).
        axes = place(Plot(x_range=(-half, half), y_range=(0, relu * SLOPE_HEADROOM), width=SLOPE_W, height=SLOPE_H,
                          x_ticks_key="vanish.axis.x_ticks", y_title="导数"), SLOPE_CORNER)
        # The x axis is named at its end, level with it: under the tick labels it would meet the takeaways.
        x_name = words("输入", size="label", color="muted").next_to(axes.x_axis, RIGHT, buff=theme.space("small"))
        zero, peak_tick, one_tick = (left_tick(*axes.point(-half, v)[:2], "vanish.axis.slope_ticks", i)
                                     for i, v in enumerate((0.0, peak, relu)))
        self.play(FadeIn(axes), FadeIn(x_name), FadeIn(zero), run_time=0.5)

        # σ′ first; ReLU′ is drawn only when the speaker turns to it (「再看绿的」), so nothing
        # on screen waits unexplained.
        self.beat(says="看这两条曲线。红的是 sigmoid 的导数 —— 它的峰值就这么高")
        curves = vanish_panels.slope_curves()
        sigmoid = curve(axes, *curves["sigmoid"], VANISH)
        relu_step = self.relu_steps(axes, curves, RELU)
        peak_dot = marks.dot(axes.point(0, peak), VANISH, size="large")
        name, formula_line = self.sigmoid_name(axes)
        self.play(Create(sigmoid), run_time=1.0)
        self.play(FadeIn(peak_dot, scale=1.5), FadeIn(name), run_time=0.5)

        self.beat(says="这个数是算得出来的：sigmoid 的导数等于 σ 乘以一减 σ， 在 σ 等于二分之一的时候最大，恰好是零点二五")
        peak_label = ledger_text("最大 {vanish.sigmoid_max_slope}（σ = {vanish.sigmoid_at_max_slope} 时）",
                                 size="label", color=VANISH).next_to(peak_dot, UP + RIGHT, buff=theme.space("snug"))
        peak_label.shift(RIGHT * PEAK_LABEL_CLEAR)
        self.play(FadeIn(formula_line), run_time=0.5)
        self.play(FadeIn(peak_label), FadeIn(peak_tick), run_time=0.5)

        # ⛔ the ceiling: a dashed level at the peak, and the sentence as the beat's takeaway.
        self.beat(says="也就是说，光是 sigmoid 那一下，每层就先乘了个不超过四分之一的数",
                  takeaway="光是 sigmoid 那一下：每层先乘一个 ≤ {vanish.sigmoid_max_slope} 的数")
        self.play(Create(dashed(level(axes, peak, VANISH, stroke_width=theme.stroke("thin")))), run_time=0.8)

        self.beat(says="再看绿的，ReLU 的导数：正半轴恒等于一")
        relu_label = ledger_text("ReLU′ = {vanish.relu_slope_positive}（正半轴）", size="label", color=RELU)
        relu_label.next_to(axes.point(half * 0.5, relu), UP, buff=theme.space("small"))
        self.play(Create(relu_step), FadeIn(one_tick), run_time=0.9)
        self.play(FadeIn(relu_label), run_time=0.4)
        self.bring_to_front(peak_dot)       # the step up at x = 0 passes behind σ′'s peak, not over it

        # ⭐⭐⭐: the consequence is the takeaway, the largest text; the lift from ¼ to 1 is drawn.
        self.beat(says="这就是为什么 ReLU 一换上来，深网络忽然就训得动了 —— 它把每层那个「先天往下压」的系数，从四分之一变回了一",
                  takeaway="换上 ReLU，深网络忽然就训得动了")
        x = half * STEP_UP_AT
        lift = arrow(axes.point(x, peak), axes.point(x, relu), RELU, weight="heavy", buff="tight")
        lift_label = ledger_text("{vanish.sigmoid_max_slope} → {vanish.relu_slope_positive}", size="body", color=RELU)
        lift_label.next_to(lift, LEFT, buff=theme.space("small"))
        self.play(label_after(lift, lift_label, run_time=0.8, label_time=0.3))

        # ⚠ the caveat the speaker must add (the notes flag it): a takeaway, in ink, under the key line.
        self.beat(says="权重那一乘还在外面， 所以不能说「一定衰减四倍」，只能说它先天就往下压",
                  takeaway="⚠ 乘权重那步还在外面：只能说先天往下压")

    @staticmethod
    def relu_steps(axes: Plot, curves: dict, role: str) -> VGroup:
        """ReLU′ as drawn: 0 on the left, a dashed riser at 0, 1 on the right."""
        relu = quantity("vanish.relu_slope_positive").value
        return VGroup(curve(axes, *curves["relu_left"], role), dashed(curve(axes, [0, 0], [0, relu], role)),
                      curve(axes, *curves["relu_right"], role))

    @staticmethod
    def sigmoid_name(axes: Plot) -> tuple[VGroup, VGroup]:
        """「sigmoid 的导数」 over the curve's left flank with a short leader down onto it (shown when
        the curve is pointed at), and σ′ = σ(1 − σ) under the name (shown when it is said)."""
        at = SIGMOID_NAME_AT
        flank = axes.point(at, sigmoid_slope(at))
        name = words("sigmoid 的导数", size="label", color=VANISH)
        said = formula("σ′ = σ(1 − σ)", size="label", color=VANISH)
        VGroup(name, said).arrange(DOWN, buff=theme.space("tight"), aligned_edge=LEFT)
        block = VGroup(name, said)
        block.next_to(axes.point(at, SIGMOID_NAME_Y), UP, buff=0).align_to(axes.point(-vanish_panels.X_HALF.value, 0), LEFT)
        block.shift(RIGHT * theme.space("gap"))
        # The leader ends on the curve itself (the stroke covers its end), not short of it.
        leader = marks.segment([flank[0], said.get_bottom()[1] - theme.space("tight"), 0], flank, VANISH, weight="thin")
        return VGroup(leader, name), VGroup(said)
