"""fig-vanish: sixty rates multiplied — explosion, vanishing, and where the rate comes from (第一节).

Ⓐ Linear axis: both chains start at 1 at the output end and grow right to left; ×1.2 leaves the
   frame, ×0.8 lies on the axis ("not left out: too small to draw").
Ⓑ Log number line: the two input-end values, ten orders of magnitude apart, on either side of 1.
Ⓒ σ′ peaks at 0.25, ReLU′ is 1 on the positive side: part of every layer's rate.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, Create, Dot, FadeIn, FadeOut, GrowArrow, VGroup, Write,
                   linear)

from lecture_numerics import quantity, vanish_panels
from lecture_numerics.vanish import gradient_along_chain
from scenes.kit import theme
from scenes.kit.arrows import arrow
from scenes.kit.base import LectureScene
from scenes.kit.panels import EDGE_BUFF
from scenes.kit.annotate import label_after, brace_label
from scenes.kit.plots import NumberAxis, Plot, clip_at, curve, place
from scenes.kit.text import ledger_text, line, words

# Geometry (scene units; the frame is 14.2 × 8).
CHAIN_CORNER, CHAIN_W, CHAIN_H = (-5.6, -2.45), 11.0, 4.45
LOG_LINE_LEFT, LOG_LINE_Y, LOG_LINE_W = -5.8, -0.1, 11.6
SLOPE_CORNER, SLOPE_W, SLOPE_H = (-5.0, -2.45), 10.0, 4.15
BRACE_DROP = 0.75                   # the brace runs under the tick labels
SLOPE_HEADROOM = 1.25               # the slope axis runs a quarter above ReLU′'s 1
# The notes call the exploding rate 蓝, the vanishing one 红 (the sigmoid) and ReLU 绿.
EXPLODE, VANISH, RELU = "accent", "bad", "good"


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

    def say(self, current, sentence: str, *, size: str = "body", color: str = "ink"):
        new = line(sentence, size=size, color=color).to_edge(DOWN, buff=EDGE_BUFF)
        self.play(*([FadeOut(current)] if current is not None else []), FadeIn(new, shift=UP * theme.space("close")), run_time=0.4)
        return new

    # ---- Ⓐ the linear axis ----

    def two_chains(self) -> None:
        self.start_panel("A", "同样 {vanish.layers} 层的网络，只改每层的兑换率")
        layers = quantity("vanish.layers").value
        top = vanish_panels.LINEAR_TOP.value
        axes = place(Plot(x_range=(0, layers), y_range=(0, top), width=CHAIN_W, height=CHAIN_H,
                          y_ticks_key="vanish.axis.linear_ticks"), CHAIN_CORNER)
        ends = VGroup(*[ledger_text(f"第 {{vanish.axis.layer_ticks[{i}]}} 层 · {side}", size="small", color="muted")
                        .next_to(axes.point(layer, 0), DOWN, buff=theme.space("small"))
                        for i, (layer, side) in enumerate(((1, "输入端"), (layers, "输出端")))])
        y_title = words("传到这一层的梯度", size="small", color="muted").next_to(axes.y_axis, UP, buff=theme.space("tight"))
        y_title.align_to(axes.y_axis, LEFT).shift(UP * theme.space("small"))
        self.play(FadeIn(axes), FadeIn(ends), FadeIn(y_title), run_time=0.5)

        said = self.say(None, "从输出端的 {vanish.output_gradient} 出发，从右往左，每层乘上它的兑换率")
        layer_ids = np.arange(layers, 0, -1)          # drawn from the output end back to the input
        curves = {}
        for key, color in (("vanish.rate_high", EXPLODE), ("vanish.rate_low", VANISH)):
            grads = gradient_along_chain(quantity(key).value, layers)[::-1]
            curves[key] = curve(axes, *clip_at(layer_ids, grads, top), color)
        self.play(Create(curves["vanish.rate_high"]), Create(curves["vanish.rate_low"]), run_time=2.0, rate_func=linear)

        exit_at = curves["vanish.rate_high"].get_end()
        up = arrow(exit_at + DOWN * theme.space("tight"), exit_at + UP * theme.space("wide"), EXPLODE, weight="heavy", buff=None)
        high = ledger_text("每层 ×{vanish.rate_high}：直接冲出画面", size="label", color=EXPLODE)
        high.next_to(up, LEFT, buff=theme.space("close")).shift(DOWN * theme.space("gap"))
        low = ledger_text("每层 ×{vanish.rate_low}：贴在轴上", size="label", color=VANISH)
        low.next_to(axes.point(layers * 0.3, 0), UP, buff=theme.space("edge"))
        self.play(GrowArrow(up), FadeIn(high), run_time=0.6)
        self.play(FadeIn(low), run_time=0.5)
        self.say(said, "不是画漏了 —— 是真的小到画不出来", color=VANISH)
        self.wait(2.0)

    # ---- Ⓑ the log number line ----

    def log_line(self) -> None:
        self.start_panel("B", "线性轴装不下两边 → 换成对数轴")
        ticks = quantity("vanish.axis.log_ticks").value
        numbers = NumberAxis(ticks[0], ticks[-1], width=LOG_LINE_W, log=True, ticks_key="vanish.axis.log_ticks")
        numbers.shift(np.array([LOG_LINE_LEFT, LOG_LINE_Y, 0]) - numbers.line.get_start())
        start = numbers.point(quantity("vanish.output_gradient").value)
        origin = words("起点", size="small", color="muted").next_to(start, UP, buff=theme.space("medium"))
        self.play(FadeIn(numbers), FadeIn(origin), run_time=0.6)

        ends = VGroup()
        for value_key, rate_key, color, side in (("vanish.rate_0p8_60_layers", "vanish.rate_low", VANISH, LEFT),
                                                 ("vanish.rate_1p2_60_layers", "vanish.rate_high", EXPLODE, RIGHT)):
            at = numbers.point(quantity(value_key).value)
            dot = Dot(at, radius=0.13, color=theme.color(color))
            value = ledger_text("{" + value_key + "}", size="heading", color=color).next_to(dot, UP, buff=theme.space("gap"))
            which = ledger_text("×{" + rate_key + "} 那条，最靠输入的那层", size="small", color=color)
            which.next_to(value, UP, buff=theme.space("snug"))
            which.align_to(value, side)
            self.play(FadeIn(dot, scale=1.5), Write(value), FadeIn(which), run_time=0.7)
            ends.add(dot)
        span = [end.get_center() + DOWN * BRACE_DROP for end in ends]
        orders = brace_label(tuple(span), "{vanish.orders_between_zh}个数量级", size="title")
        self.play(FadeIn(orders.brace), Write(orders.label), run_time=0.7)
        said = self.say(None, "{vanish.rate_low} 和 {vanish.rate_high}：各离 {vanish.output_gradient} {vanish.rate_offset_zh}")
        self.wait(1.0)
        self.say(said, "被指数放大的不是梯度，是「每层偏离 {vanish.output_gradient} 多少」")
        self.wait(2.0)

    # ---- Ⓒ where part of the rate comes from ----

    def activation_slopes(self) -> None:
        self.start_panel("C", "兑换率从哪来：激活函数的导数")
        half = vanish_panels.X_HALF.value
        relu = quantity("vanish.relu_slope_positive").value
        axes = place(Plot(x_range=(-half, half), y_range=(0, relu * SLOPE_HEADROOM), width=SLOPE_W, height=SLOPE_H,
                          x_ticks_key="vanish.axis.x_ticks", y_ticks_key="vanish.axis.slope_ticks"), SLOPE_CORNER)
        self.play(FadeIn(axes), run_time=0.5)

        curves = vanish_panels.slope_curves()
        sigmoid = curve(axes, *curves["sigmoid"], VANISH)
        peak = quantity("vanish.sigmoid_max_slope").value
        peak_dot = Dot(axes.point(0, peak), radius=0.09, color=theme.color(VANISH))
        peak_label = ledger_text("σ′ 最大 {vanish.sigmoid_max_slope}（σ = {vanish.sigmoid_at_max_slope} 时）",
                                 size="label", color=VANISH).next_to(peak_dot, UP + RIGHT, buff=theme.space("snug"))
        said = self.say(None, "光 sigmoid 那一下，每层就先乘一个 ≤ {vanish.sigmoid_max_slope} 的数")
        self.play(Create(sigmoid), run_time=1.0)
        self.play(FadeIn(peak_dot), FadeIn(peak_label), run_time=0.5)
        self.wait(0.8)

        steps = VGroup(curve(axes, *curves["relu_left"], RELU), curve(axes, *curves["relu_right"], RELU))
        relu_label = ledger_text("ReLU′：正半轴恒等于 {vanish.relu_slope_positive}", size="label", color=RELU)
        relu_label.next_to(axes.point(half * 0.5, relu), UP, buff=theme.space("small"))
        said = self.say(said, "从 {vanish.sigmoid_max_slope} 变回 {vanish.relu_slope_positive} —— 深网络忽然训得动了")
        self.play(label_after(steps, relu_label, run_time=0.6, label_time=0.2))
        self.wait(0.8)
        self.say(said, "注意：乘权重那步还在外面 —— 不能说「一定衰减{vanish.sigmoid_shrink_zh}倍」，只能说先天往下压",
                 size="label", color="muted")
        self.wait(2.0)
