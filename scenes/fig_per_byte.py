"""fig-per-byte: FLOPs paid per byte saved, against sequence length — two models, two crossovers (第二节).

One frame, projected whole (its last frame is the whole figure); the beats follow the notes:
flat linear layers → rising attention → they must cross → two models, two crossovers → the
slopes, set by head widths → (停一拍) the 2022 paper's selective recompute chose attention, and
its gain → why: GPT-3's 2048-token context sits left of its crossover, where attention is
cheaper than every linear layer.
"""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, UP, Create, Dot, FadeIn, GrowArrow, Indicate, Transform, VGroup, Write

from lecture_numerics import per_byte, quantity
from scenes.kit import theme
from scenes.kit.annotate import boxed, on_plot
from scenes.kit.annotate import legend as legend_rows
from scenes.kit.arrows import arrow
from scenes.kit.base import LectureScene
from scenes.kit.charts import guide
from scenes.kit.plots import Plot, clip_at, curve, dashed, level, place, upright
from scenes.kit.text import ledger_text, words

# Plot area (scene units; the frame is 14.2 × 8): room on the right for the lines' names and,
# along the bottom, for two takeaway lines (the whole-frame figure keeps A.4/A.8's sentence to
# the end, under the last one), so the plot ends above them.
PLOT_CORNER, PLOT_W, PLOT_H = (-5.7, -1.75), 8.6, 3.35
LABEL_X = 3.25                      # left edge of the lines' names
V3, GPT3 = "model_large", "model_small"      # purple solid and orange dashed, as the notes say
# Where things sit, in data units (tokens, FLOPs/B): the legend, one row, in the empty upper left, above
# both attention lines; the 2048 line's name under it. The paper's card sits above the plot,
# right of the y axis's title, its top-right corner at the safe margin, a breath under the
# header and clear of the attention lines' names: off the plot, so it covers no line.
LEGEND_AT = (3000, 18700)
CONTEXT_NAME_Y = 15200
CARD_TOP_RIGHT = (6.7, 2.95)
CARD_PAD = "small"
# 「它落在交点左边」: an arrow along the s axis, from GPT-3's crossover to its context, low enough
# to pass under both attention lines; its name centred right of V3's drop line.
LEFT_OF_Y, LEFT_OF_NAME_X = 900, 8600
CHEAP_DOT_R = 0.1                   # GPT-3's attention price at 2048: clear of V3's line just above


class FigPerByte(LectureScene):
    scene_id = "fig-per-byte"
    title = "每省一个字节付多少 FLOPs：两个模型，两个交点"
    ledger_keys = (
        "per_byte.axis.x_ticks", "per_byte.axis.y_ticks",
        "per_byte.v3.linear_flops_per_byte", "per_byte.gpt3.linear_flops_per_byte",
        "per_byte.v3.attention_slope", "per_byte.gpt3.attention_slope",
        "recompute.v3.crossover_tokens", "recompute.gpt3.crossover_tokens", "model.gpt3.context_tokens",
        "recompute.gpt3.selective_saving", "recompute.gpt3.selective_overhead", "recompute.korthikanti.year",
    )

    def construct(self) -> None:
        self.start_panel("A", "重算的价钱：每省一个字节，要付多少 FLOPs", says="看这张图")
        self.axes = self.draw_axes()
        self.beat(says="水平的那几条，是线性层 ——  水平的意思是它们的代价跟序列长度无关")
        self.flat_linear_layers()
        self.beat(says="往上爬的那条，是 attention，它的代价随序列长度线性上升")
        names = self.rising_attention()
        self.beat(says="关键在这儿：一条是常数，一条在往上爬 —— 那它们必然相交",
                  takeaway="一条是常数，一条在往上爬 —— 必然相交")
        dots = self.crossing_points()
        self.beat(says="但这张图上画了两个模型，而它们的交点不在同一个地方")
        self.play(*(Indicate(d, color=theme.color(c), scale_factor=1.6) for d, c in zip(dots, (V3, GPT3))),
                  run_time=0.8)
        drops = [guide(d.get_center(), [d.get_x(), self.axes.x_axis.get_y(), 0], c) for d, c in zip(dots, (V3, GPT3))]
        self.play(*(Create(g) for g in drops), run_time=0.6)      # where on the s axis each one crosses
        self.beat(says="DeepSeek-V3 在五千七就交了；GPT-3 要到一万二才交")
        self.name_crossovers(dots)
        self.beat(says="因为斜率不一样。那条斜线的斜率，是模型自己的头维度定的")
        self.name_slopes(names)
        self.beat(says="换个模型，你要重画的是两条线，而不是把这条挪个位置",
                  takeaway="一条常数、一条往上爬，必然相交 —— 换个模型，平线斜线都要重画", replaces=True)
        self.paper_story()
        self.context_story()

    # ---- furniture ----

    def draw_axes(self) -> Plot:
        axes = place(Plot(x_range=(0, per_byte.X_MAX.value), y_range=(0, per_byte.Y_MAX.value), width=PLOT_W,
                          height=PLOT_H, x_ticks_key="per_byte.axis.x_ticks", y_ticks_key="per_byte.axis.y_ticks"),
                     PLOT_CORNER)
        # Level with the tick labels: the paper's card reaches past the axis's end above it.
        x_title = words("序列长度 s", size="small", color="muted").next_to(axes.x_axis, RIGHT, buff=theme.space("small"))
        x_title.align_to(axes.x_ticks, DOWN)
        y_title = words("每省一个字节要付的 FLOPs", size="small", color="muted")
        # Over the tick labels, left: clear of the paper's card on the same row.
        y_title.next_to(axes.y_axis, UP, buff=theme.space("gap")).align_to(axes.y_ticks, LEFT)
        legend = legend_rows([(V3, "DeepSeek-V3", "line"), (GPT3, "GPT-3", "dashed")], direction=RIGHT, tinted=True,
                             gap="small")
        legend.move_to(axes.point(*LEGEND_AT), aligned_edge=LEFT)
        self.play(FadeIn(axes), FadeIn(x_title), FadeIn(y_title), run_time=0.6)
        self.legend = legend      # it comes with the first line it names
        return axes

    def line_for(self, model_color: str, mob):
        """Purple solid for V3, orange dashed for GPT-3."""
        return dashed(mob) if model_color == GPT3 else mob

    def name_line(self, template: str, y: float, color: str):
        label = on_plot(template, size="small", color=color)     # a line may pass behind it
        return label.move_to(self.axes.point(0, y)).set_x(LABEL_X + label.width / 2)

    def draw_then_name(self, line, name, run_time: float) -> None:
        """The line first; its name only once the line has reached it."""
        self.play(Create(line), run_time=run_time)
        self.play(FadeIn(name), run_time=0.25)

    # ---- 1. flat: a linear layer's price is its input width ----

    def flat_linear_layers(self) -> None:
        for key, color in (("per_byte.v3.linear_flops_per_byte", V3), ("per_byte.gpt3.linear_flops_per_byte", GPT3)):
            price = quantity(key).value
            flat = self.line_for(color, level(self.axes, price, color))
            self.draw_then_name(flat, self.name_line("线性层 {" + key + "}", price, color), run_time=0.5)
            if color == V3:
                self.play(FadeIn(self.legend), run_time=0.3)

    # ---- 2. rising: attention grows with the sequence ----

    def rising_attention(self) -> list:
        names = []
        for model, color in (("deepseek-v3", V3), ("gpt3-175b", GPT3)):
            s, price = clip_at(*per_byte.attention_line(model), per_byte.Y_MAX.value)
            rising = self.line_for(color, curve(self.axes, s, price, color))
            name = self.name_line("attention", price[-1], color)
            self.draw_then_name(rising, name, run_time=0.7)
            names.append((name, price[-1], color))
        return names

    # ---- 3. they cross, each model somewhere else ----

    def crossing_points(self) -> list:
        dots = []
        for cross_key, flat_key, color in (("recompute.v3.crossover_tokens", "per_byte.v3.linear_flops_per_byte", V3),
                                           ("recompute.gpt3.crossover_tokens", "per_byte.gpt3.linear_flops_per_byte",
                                            GPT3)):
            at = self.axes.point(quantity(cross_key).value, quantity(flat_key).value)
            dots.append(Dot(at, radius=0.11, color=theme.color(color)))
        self.play(*(FadeIn(d, scale=1.5) for d in dots), run_time=0.6)
        return dots

    def name_crossovers(self, dots) -> None:
        for dot, key, color, side in ((dots[0], "recompute.v3.crossover_tokens", V3, UP + LEFT),
                                      (dots[1], "recompute.gpt3.crossover_tokens", GPT3, DOWN + RIGHT)):
            label = ledger_text("交点 {" + key + "}", size="label", color=color).next_to(dot, side, buff=theme.space("snug"))
            self.play(Write(label), run_time=0.5)

    def name_slopes(self, names) -> None:
        """Each attention line's name gains its slope, written after it (the name stays put)."""
        slopes = {V3: "per_byte.v3.attention_slope", GPT3: "per_byte.gpt3.attention_slope"}
        # The full-width comma carries its own space after it: no gap before it.
        suffixes = [on_plot("，斜率 {" + slopes[color] + "}", size="small", color=color)
                    .next_to(name, RIGHT, buff=0) for name, _, color in names]
        self.play(*(FadeIn(s, shift=LEFT * theme.space("tight")) for s in suffixes), run_time=0.6)

    # ---- 4. 停一拍: the paper picked attention ----

    def paper_story(self) -> None:
        source = ledger_text("英伟达 {recompute.korthikanti.year}「选择性重算」", size="small")
        picked = words("→ 恰恰就是 attention", size="small", color="accent")
        gain = ledger_text("GPT-3：省 {recompute.gpt3.selective_saving} 激活显存，付 {recompute.gpt3.selective_overhead} 算力",
                           size="small")
        first = VGroup(source, picked).arrange(RIGHT, buff=theme.space("snug"))
        body = VGroup(first, gain).arrange(DOWN, aligned_edge=LEFT, buff=theme.space("small"))
        card = boxed(body, "muted", pad=CARD_PAD)
        card.move_to([*CARD_TOP_RIGHT, 0], aligned_edge=UP + RIGHT)
        # The card's frame grows with what it holds: it opens around the source only.
        frame = boxed(source, "muted", pad=CARD_PAD).box
        self.beat(says="「选择性重算」这个概念，出自英伟达二〇二二年的一篇论文")
        self.play(Create(frame), FadeIn(source), run_time=0.6)
        self.beat(says="而它选出来要重算的，恰恰就是 attention")     # the card says it: the takeaways stay
        self.play(Transform(frame, boxed(first, "muted", pad=CARD_PAD).box),
                  FadeIn(picked, shift=RIGHT * theme.space("tight")), run_time=0.5)
        self.beat(says="收益还很漂亮：GPT-3 省 70% 的激活显存，只付 2.7% 的算力")
        self.play(Transform(frame, card.box), FadeIn(gain, shift=DOWN * theme.space("tight")), run_time=0.5)

    # ---- 5. why: at 2048 tokens GPT-3 sits left of its crossover ----

    def context_story(self) -> None:
        # The question is put to the room alone, in the caption slot; it stays until answered.
        self.beat(says="为什么反过来了？", takeaway="为什么反过来了？")
        self.beat(says="因为它的序列长度是两千零四十八")
        context = quantity("model.gpt3.context_tokens").value
        marker = dashed(upright(self.axes, context, GPT3, stroke_width=4))
        name = on_plot("GPT-3 序列长度 {model.gpt3.context_tokens}", size="small", color=GPT3)
        name.next_to(self.axes.point(context, CONTEXT_NAME_Y), RIGHT, buff=theme.space("snug"))
        self.draw_then_name(marker, name, run_time=0.5)
        self.beat(says="你看图上 GPT-3 那根竖线 —— 它落在交点左边")
        crossover = quantity("recompute.gpt3.crossover_tokens").value
        flat = quantity("per_byte.gpt3.linear_flops_per_byte").value
        left_of = self.axes.point(context, flat)
        self.play(FadeIn(Dot(left_of, radius=0.09, color=theme.color(GPT3)), scale=1.5), run_time=0.3)
        # Along the s axis, from the crossover back to the context: under every line but the drops.
        leftwards = arrow(self.axes.point(crossover, LEFT_OF_Y), self.axes.point(context, LEFT_OF_Y), GPT3,
                          weight="bold", buff=None)
        said = words("在交点左边", size="small", color=GPT3).next_to(leftwards, UP, buff=theme.space("tight"))
        said.set_x(self.axes.point(LEFT_OF_NAME_X, 0)[0])
        self.play(GrowArrow(leftwards), run_time=0.6)
        self.play(FadeIn(said), run_time=0.3)
        self.beat(says="在那儿，attention 比图上每一条线性层都便宜",
                  takeaway="在那儿，attention 比图上每一条线性层都便宜", replaces=True)
        s, price = per_byte.attention_line("gpt3-175b", seq_max=context)
        cheap = Dot(self.axes.point(context, price[-1]), radius=CHEAP_DOT_R, color=theme.color(GPT3))
        self.play(FadeIn(cheap, scale=1.6), run_time=0.4)
        self.play(Indicate(cheap, color=theme.color(GPT3), scale_factor=1.8), run_time=0.7)
        self.beat(says="论文没错。是前提变了", takeaway="论文没错。是前提变了", replaces=True)
        self.wait(1.5)
