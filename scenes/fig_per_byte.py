"""fig-per-byte: FLOPs paid per byte saved, against sequence length — two models, two crossovers (第二节).

One frame, projected whole; the lines build in as the speaker names them:
flat linear layers → rising attention → the two crossovers (V3 early, GPT-3 late) → GPT-3's
2048-token context, left of its crossover, where the 2022 paper chose to recompute attention.
"""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, UP, Dot, FadeIn, FadeOut, VGroup, Write

from lecture_numerics import per_byte, quantity
from scenes.kit import theme
from scenes.kit.annotate import label_after, on_plot
from scenes.kit.annotate import legend as legend_rows
from scenes.kit.base import LectureScene
from scenes.kit.panels import caption
from scenes.kit.plots import Plot, clip_at, curve, dashed, level, place, upright
from scenes.kit.text import ledger_text, words

# Plot area (scene units; the frame is 14.2 × 8): room on the right for the lines' names.
PLOT_CORNER, PLOT_W, PLOT_H = (-5.7, -2.55), 8.6, 4.7
LABEL_X = 3.25                      # left edge of the lines' names
V3, GPT3 = "model_large", "model_small"      # purple solid and orange dashed, as the notes say


class FigPerByte(LectureScene):
    scene_id = "fig-per-byte"
    title = "每省一个字节付多少 FLOPs：两个模型，两个交点"
    ledger_keys = (
        "per_byte.axis.x_ticks", "per_byte.axis.y_ticks",
        "per_byte.v3.linear_flops_per_byte", "per_byte.gpt3.linear_flops_per_byte",
        "per_byte.v3.attention_slope", "per_byte.gpt3.attention_slope",
        "recompute.v3.crossover_tokens", "recompute.gpt3.crossover_tokens", "model.gpt3.context_tokens",
        "recompute.gpt3.selective_saving", "recompute.gpt3.selective_overhead",
    )

    def construct(self) -> None:
        self.start_panel("A", "重算的价钱：每省一个字节，要付多少 FLOPs")
        self.axes = self.draw_axes()
        said = self.flat_linear_layers()
        said = self.rising_attention(said)
        said = self.two_crossovers(said)
        self.paper_context(said)

    def say(self, current, sentence: str):
        new = caption(sentence)
        self.play(*([FadeOut(current)] if current is not None else []), FadeIn(new, shift=UP * theme.space("close")), run_time=0.4)
        return new

    def draw_axes(self) -> Plot:
        axes = place(Plot(x_range=(0, per_byte.X_MAX.value), y_range=(0, per_byte.Y_MAX.value), width=PLOT_W,
                          height=PLOT_H, x_ticks_key="per_byte.axis.x_ticks", y_ticks_key="per_byte.axis.y_ticks"),
                     PLOT_CORNER)
        x_title = words("序列长度 s", size="small", color="muted").next_to(axes.x_axis, RIGHT, buff=theme.space("small"))
        y_title = words("每省一个字节要付的 FLOPs", size="small", color="muted")
        y_title.next_to(axes.y_axis, UP, buff=theme.space("gap")).align_to(axes.y_axis, LEFT)
        legend = legend_rows([(V3, "DeepSeek-V3", "line"), (GPT3, "GPT-3", "dashed")], direction=DOWN, tinted=True,
                             gap="small")
        legend.move_to(axes.point(0.8 * per_byte.X_MAX.value, 0.22 * per_byte.Y_MAX.value))
        self.play(FadeIn(axes), FadeIn(x_title), FadeIn(y_title), FadeIn(legend), run_time=0.6)
        return axes

    def line_for(self, model_color: str, mob):
        """Purple solid for V3, orange dashed for GPT-3."""
        return dashed(mob) if model_color == GPT3 else mob

    def name_line(self, template: str, y: float, color: str):
        label = on_plot(template, size="small", color=color)     # a line may pass behind it
        return label.move_to(self.axes.point(0, y)).set_x(LABEL_X + label.width / 2)

    # ---- 1. flat: a linear layer's price is its input width ----

    def flat_linear_layers(self):
        said = self.say(None, "线性层：代价 ＝ 输入宽度，跟序列长度无关")
        for key, color in (("per_byte.v3.linear_flops_per_byte", V3), ("per_byte.gpt3.linear_flops_per_byte", GPT3)):
            price = quantity(key).value
            flat = self.line_for(color, level(self.axes, price, color))
            name = self.name_line("线性层 {" + key + "}", price, color)
            self.play(label_after(flat, name, run_time=0.5, label_time=0.2))
        self.wait(0.6)
        return said

    # ---- 2. rising: attention grows with the sequence ----

    def rising_attention(self, said):
        said = self.say(said, "attention：随序列长度线性上升")
        for model, key, color in (("deepseek-v3", "per_byte.v3.attention_slope", V3),
                                  ("gpt3-175b", "per_byte.gpt3.attention_slope", GPT3)):
            s, price = clip_at(*per_byte.attention_line(model), per_byte.Y_MAX.value)
            rising = self.line_for(color, curve(self.axes, s, price, color))
            name = self.name_line("attention · 斜率 {" + key + "}", price[-1], color)
            self.play(label_after(rising, name, run_time=0.7, label_time=0.2))
        said = self.say(said, "一条是常数，一条在往上爬 —— 必然相交")
        self.wait(0.8)
        return said

    # ---- 3. two crossovers, set by the head widths ----

    def two_crossovers(self, said):
        spots = (("recompute.v3.crossover_tokens", "per_byte.v3.linear_flops_per_byte", V3, UP + LEFT),
                 ("recompute.gpt3.crossover_tokens", "per_byte.gpt3.linear_flops_per_byte", GPT3, DOWN + RIGHT))
        said = self.say(said, "DeepSeek-V3 早早就交了；GPT-3 要晚得多")
        for cross_key, flat_key, color, side in spots:
            at = self.axes.point(quantity(cross_key).value, quantity(flat_key).value)
            dot = Dot(at, radius=0.11, color=theme.color(color))
            label = ledger_text("交点 {" + cross_key + "}", size="label", color=color).next_to(dot, side, buff=theme.space("snug"))
            self.play(FadeIn(dot, scale=1.5), Write(label), run_time=0.6)
        said = self.say(said, "斜率由头维度定 —— 换个模型，线要重画，不是挪个位置")
        self.wait(1.0)
        return said

    # ---- 4. the paper's GPT-3 sat left of its crossover ----

    def paper_context(self, said) -> None:
        context = quantity("model.gpt3.context_tokens").value
        marker = dashed(upright(self.axes, context, GPT3, stroke_width=4))
        name = ledger_text("GPT-3 序列长度 {model.gpt3.context_tokens}", size="small", color=GPT3)
        name.next_to(self.axes.point(context, per_byte.Y_MAX.value), RIGHT, buff=theme.space("snug")).shift(DOWN * theme.space("close"))
        finding = VGroup(
            words("选择性重算：重算的恰恰是 attention", size="small"),
            ledger_text("GPT-3 省 {recompute.gpt3.selective_saving} 激活显存，只付 {recompute.gpt3.selective_overhead} 算力",
                        size="small"),
        ).arrange(DOWN, aligned_edge=LEFT, buff=theme.space("tight")).next_to(name, DOWN, buff=theme.space("small"), aligned_edge=LEFT)
        self.play(label_after(marker, name, run_time=0.4, label_time=0.2))
        self.play(FadeIn(finding, shift=DOWN * theme.space("tight")), run_time=0.6)
        self.say(said, "在那儿，attention 比图上每一条线性层都便宜 —— 论文没错，是前提变了")
        self.wait(2.5)
