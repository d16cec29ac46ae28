"""fig-per-byte: FLOPs paid per byte saved, against sequence length — two models, two crossovers (第二节).

One frame, projected whole (its last frame is the whole figure); the beats follow the notes:
flat linear layers → rising attention → they must cross → two models, two crossovers → the
slopes, set by each model's head dimensions → (⛔) the crossing a borrowed slope gives, marked
wrong → (停一拍, ⭐⭐⭐) the 2022 paper's selective recompute chose attention (GPT-3's attention
line glows, its name on a band), and its gain drawn to scale (−70 % activation memory, +2.7 %
compute, each against its whole) →
why reversed: the lecture's own 128K, past a break in the s axis, where attention is far dearer
than any linear layer, against GPT-3's 2048, left of its crossover, where it is cheaper than
every one → (⭐⭐) the criterion never changed; only the sequence length did.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, Create, FadeIn, FadeOut, GrowArrow, GrowFromEdge, Indicate,
                   VGroup, Write)

from lecture_numerics import per_byte, quantity
from scenes.kit import marks, theme
from scenes.kit.annotate import legend as legend_rows
from scenes.kit.annotate import on_plot
from scenes.kit.arrows import arrow
from scenes.kit.bars import stacked_bar
from scenes.kit.base import LectureScene
from scenes.kit.charts import guide
from scenes.kit.plots import TICK, TICK_LABEL_BUFF, Plot, clip_at, curve, dashed, level, place
from scenes.kit.text import ledger_text, line, words

# Plot area (scene units; the frame is 14.2 × 8). The s axis runs 0…16K, then breaks and shows
# one more point, the lecture's 128K, on a short stub; the lines' names stand right of the stub.
# Along the bottom, room for a recap line and two takeaways (one of them a ⭐⭐⭐ line, the
# largest text), so the tick labels end above y ≈ −1.55.
PLOT_CORNER, DATA_W, PLOT_H = (-5.7, -1.0), 7.0, 3.45
BREAK_GAP, STUB_W = 0.35, 1.0        # the break after 16K, and the stub that carries 128K
BREAK_SLANT = UP + RIGHT * 0.5        # the two short strokes that mark the break
LABEL_X = 3.05                        # left edge of the lines' names
V3, GPT3 = "model_large", "model_small"      # purple solid and orange dashed, as the notes say
WRONG = "bad"                         # the crossing a borrowed slope gives: an error
# Where things sit, in data units (tokens, FLOPs/B): the legend, two rows, in the empty upper
# left above both attention lines; GPT-3's context line stops under it, its name at its top.
LEGEND_AT = (700, 20300)
CONTEXT_TOP = 13100
# 「它落在交点左边」: an arrow along the s axis, from GPT-3's crossover to its context, low enough
# to pass under both attention lines; its name centred right of V3's drop line.
LEFT_OF_Y, LEFT_OF_NAME_X = 900, 8600
# What the 2022 paper picked: GPT-3's attention line under a wide pale glow, its name on a band.
PICK_GLOW_WIDTH, PICK_GLOW_OPACITY, PICK_BAND_OPACITY = 16, 0.35, 0.3
# Its gain, to scale, in the right column under V3's flat line's name: two tracks, each its own whole,
# in two close rows that end well above the s axis's stub (its line would cross the lower name).
GAIN_TRACK_W, GAIN_BAR_H, GAIN_OPACITY, GAIN_BELOW = 1.2, 0.2, 0.85, 0.3


class FigPerByte(LectureScene):
    scene_id = "fig-per-byte"
    title = "每省一个字节付多少 FLOPs：两个模型，两个交点"
    ledger_keys = (
        "per_byte.axis.x_ticks", "per_byte.axis.y_ticks",
        "per_byte.v3.linear_flops_per_byte", "per_byte.gpt3.linear_flops_per_byte",
        "per_byte.v3.attention_slope", "per_byte.gpt3.attention_slope",
        "model.v3.qk_nope_head_dim", "model.v3.qk_rope_head_dim", "model.v3.v_head_dim", "model.gpt3.d_head",
        "recompute.v3.crossover_tokens", "recompute.gpt3.crossover_tokens", "model.gpt3.context_tokens",
        "per_byte.gpt3_with_v3_slope_error_tokens", "recompute.seq_len_label",
        "recompute.gpt3.selective_saving", "recompute.gpt3.selective_overhead", "recompute.korthikanti.year",
    )

    def construct(self) -> None:
        self.start_panel("A", "重算的价钱", says="看这张图")
        self.axes = self.draw_axes()
        self.beat(says="水平的那几条，是线性层 ——  水平的意思是它们的代价跟序列长度无关")
        self.flat_linear_layers()
        self.beat(says="往上爬的那条，是 attention，它的代价随序列长度线性上升")
        names = self.rising_attention()
        self.beat(says="关键在这儿：一条是常数，一条在往上爬 —— 那它们必然相交",
                  takeaway="一条常数、一条往上爬：必然相交")
        dots = self.crossing_points()
        self.beat(says="但这张图上画了两个模型，而它们的交点不在同一个地方")
        self.drop_to_axis(dots)
        self.beat(says="DeepSeek-V3 在五千七就交了；GPT-3 要到一万二才交")
        self.name_crossovers(dots)
        self.beat(says="因为斜率不一样。那条斜线的斜率，是模型自己的头维度定的")
        self.name_slopes(names)
        self.beat(says="换个模型，你要重画的是两条线，而不是把这条挪个位置",
                  takeaway="换个模型，平线斜线都要重画")
        self.beat(says="这一格我原来就画错过：把 V3 的斜率直接套在 GPT-3 上， 交点标错了四千",
                  takeaway="别拿 A 的常数套 B")
        wrong = self.borrowed_slope(dots[1])
        self.paper_story(wrong)
        self.context_story()

    # ---- furniture ----

    def draw_axes(self) -> Plot:
        axes = place(Plot(x_range=(0, per_byte.X_MAX.value), y_range=(0, per_byte.Y_MAX.value), width=DATA_W,
                          height=PLOT_H, x_ticks_key="per_byte.axis.x_ticks", y_ticks_key="per_byte.axis.y_ticks"),
                     PLOT_CORNER)
        self.stub = self.axis_stub(axes)
        x_title = words("序列长度 s", size="small", color="muted").next_to(self.stub, RIGHT, buff=theme.space("small"))
        x_title.align_to(axes.x_ticks, DOWN)
        y_title = words("FLOPs ÷ 省下的字节", size="small", color="muted")
        y_title.next_to(axes.y_axis, UP, buff=theme.space("gap")).align_to(axes.y_ticks, LEFT)
        self.play(FadeIn(axes), FadeIn(self.stub), FadeIn(x_title), FadeIn(y_title), run_time=0.6)
        self.legend = legend_rows([(V3, "DeepSeek-V3", "line"), (GPT3, "GPT-3", "dashed")], direction=DOWN,
                                  tinted=True, gap="small")
        self.legend.move_to(axes.point(*LEGEND_AT), aligned_edge=UP + LEFT)     # it comes with the first line
        return axes

    def axis_stub(self, axes: Plot) -> VGroup:
        """The s axis past a break: a short stub with one tick, the lecture's 128K."""
        end = axes.x_axis.get_end()
        start = end + RIGHT * BREAK_GAP
        stub = marks.segment(start, start + RIGHT * STUB_W, "muted", weight="regular")
        self.stub_x, self.seq_x = start[0], start[0] + STUB_W / 2
        breaks = VGroup(*(marks.tick(end + RIGHT * BREAK_GAP * f, "muted", across=BREAK_SLANT,
                                     length=theme.space("medium")) for f in (0.35, 0.65)))
        mark = marks.segment([self.seq_x, end[1], 0], [self.seq_x, end[1] - TICK, 0], "muted", weight="regular")
        self.seq_label = line("{recompute.seq_len_label}", size="small", color="muted")
        self.seq_label.next_to(mark, DOWN, buff=TICK_LABEL_BUFF)
        return VGroup(stub, breaks, mark, self.seq_label)

    def at_seq(self, price: float) -> np.ndarray:
        """The scene point over the stub's 128K tick at height ``price``."""
        return np.array([self.seq_x, self.axes.point(0, price)[1], 0])

    def line_for(self, model_color: str, mob):
        """Purple solid for V3, orange dashed for GPT-3."""
        return dashed(mob) if model_color == GPT3 else mob

    def name_line(self, template: str, y: float, color: str):
        label = on_plot(template, size="small", color=color)     # a line may pass behind it
        return label.move_to(self.axes.point(0, y)).set_x(LABEL_X + label.width / 2)

    def draw_then_name(self, line_mob, name, run_time: float) -> None:
        """The line first; its name only once the line has reached it."""
        self.play(Create(line_mob), run_time=run_time)
        self.play(FadeIn(name), run_time=0.25)

    # ---- 1. flat: a linear layer's price is its input width ----

    def flat_linear_layers(self) -> None:
        for key, color in (("per_byte.v3.linear_flops_per_byte", V3), ("per_byte.gpt3.linear_flops_per_byte", GPT3)):
            price = quantity(key).value
            # Flat all the way, past the break too: the same price at 128K.
            across_stub = marks.segment([self.stub_x, self.at_seq(price)[1], 0], self.at_seq(price) + RIGHT * STUB_W / 2,
                                        color, weight="bold", dashed=color == GPT3)
            flat = VGroup(self.line_for(color, level(self.axes, price, color)), across_stub)
            self.draw_then_name(flat, self.name_line("线性层 {" + key + "}", price, color), run_time=0.5)
            if color == V3:
                self.play(FadeIn(self.legend), run_time=0.3)

    # ---- 2. rising: attention grows with the sequence ----

    def rising_attention(self) -> list:
        names, self.attention_lines = [], []
        for model, color in (("deepseek-v3", V3), ("gpt3-175b", GPT3)):
            s, price = clip_at(*per_byte.attention_line(model), per_byte.Y_MAX.value)
            rising = self.line_for(color, curve(self.axes, s, price, color))
            name = self.name_line("attention", price[-1], color)
            self.draw_then_name(rising, name, run_time=0.7)
            names.append((name, color))
            self.attention_lines.append(rising)
        return names

    # ---- 3. they cross, each model somewhere else ----

    def crossing_points(self) -> list:
        dots = []
        for cross_key, flat_key, color in (("recompute.v3.crossover_tokens", "per_byte.v3.linear_flops_per_byte", V3),
                                           ("recompute.gpt3.crossover_tokens", "per_byte.gpt3.linear_flops_per_byte",
                                            GPT3)):
            at = self.axes.point(quantity(cross_key).value, quantity(flat_key).value)
            dots.append(marks.dot(at, color, size="ball"))
        self.play(*(FadeIn(d, scale=1.5) for d in dots), run_time=0.6)
        return dots

    def drop_to_axis(self, dots) -> None:
        self.play(*(Indicate(d, color=theme.color(c), scale_factor=1.6) for d, c in zip(dots, (V3, GPT3))),
                  run_time=0.8)
        drops = [guide(d.get_center(), [d.get_x(), self.axes.x_axis.get_y(), 0], c) for d, c in zip(dots, (V3, GPT3))]
        self.play(*(Create(g) for g in drops), run_time=0.6)      # where on the s axis each one crosses

    def name_crossovers(self, dots) -> None:
        for dot, key, color, side in ((dots[0], "recompute.v3.crossover_tokens", V3, UP),
                                      (dots[1], "recompute.gpt3.crossover_tokens", GPT3, DOWN + RIGHT)):
            label = ledger_text("交点 {" + key + "}", size="label", color=color).next_to(dot, side, buff=theme.space("snug"))
            if color == V3:
                # Above its dot and ending at it: left of V3's own line, right of GPT-3's 2048 line.
                label.align_to(dot, RIGHT)
            self.play(Write(label), run_time=0.5)

    def name_slopes(self, names) -> None:
        """Each attention line's name gains its slope, and each legend row its head dimensions
        (the query·key and value widths that set that slope)."""
        slopes = {V3: "per_byte.v3.attention_slope", GPT3: "per_byte.gpt3.attention_slope"}
        suffixes = [on_plot("斜率 {" + slopes[color] + "}", size="small", color=color)
                    .next_to(name, RIGHT, buff=theme.space("snug")) for name, color in names]
        heads = {V3: "qk {model.v3.qk_nope_head_dim}+{model.v3.qk_rope_head_dim} · v {model.v3.v_head_dim}",
                 GPT3: "qk {model.gpt3.d_head} · v {model.gpt3.d_head}"}
        # Each beside its own legend row (not one column): GPT-3's row, the lower one, then ends
        # well left of V3's attention line, which climbs through that corner.
        dims = VGroup(*(on_plot(heads[color], size="small", color=color).next_to(row, RIGHT, buff=theme.space("large"))
                        for row, (_, color) in zip(self.legend, names)))
        # Their name sits over V3's row, above the plot's top edge.
        title = words("头维度", size="small").next_to(dims, UP, buff=theme.space("small")).align_to(dims[0], LEFT)
        self.slope_names = [VGroup(name, suffix) for (name, _), suffix in zip(names, suffixes)]
        self.play(*(FadeIn(s, shift=LEFT * theme.space("tight")) for s in suffixes), run_time=0.6)
        self.play(FadeIn(title), FadeIn(dims), run_time=0.5)

    # ---- 4. ⛔ the crossing a borrowed slope gives ----

    def borrowed_slope(self, right_dot) -> VGroup:
        """V3's slope on GPT-3's flat line: the crossing lands 2.5K short of GPT-3's own."""
        flat = quantity("per_byte.gpt3.linear_flops_per_byte").value
        wrong_s = flat / quantity("per_byte.v3.attention_slope").value - 1
        at = self.axes.point(wrong_s, flat)
        ring = marks.ring(at, WRONG, weight="bold")
        gap = arrow(at, right_dot.get_center(), WRONG, weight="regular", both=True, buff="snug")
        note = on_plot("✗ 套了 V3 的斜率：差 {per_byte.gpt3_with_v3_slope_error_tokens}", size="small", color=WRONG)
        note.next_to(ring, UP + LEFT, buff=theme.space("hair"))
        self.play(Create(ring), run_time=0.4)
        self.play(GrowArrow(gap), FadeIn(note), run_time=0.6)
        return VGroup(ring, gap, note)

    # ---- 5. 停一拍: the paper picked attention ----

    def paper_story(self, wrong: VGroup) -> None:
        self.beat(says="「选择性重算」这个概念，出自英伟达二〇二二年的一篇论文",
                  takeaway="「选择性重算」：英伟达 {recompute.korthikanti.year} 年的论文")
        self.play(FadeOut(wrong), run_time=0.4)          # the speaker has moved past the slip
        self.beat(says="而它选出来要重算的，恰恰就是 attention", takeaway="它挑去重算的，恰恰是 attention")
        self.paper_pick()
        self.beat(says="收益还很漂亮：GPT-3 省 70% 的激活显存，只付 2.7% 的算力",
                  takeaway="GPT-3 省 {recompute.gpt3.selective_saving} 激活显存，付 {recompute.gpt3.selective_overhead} 算力")
        self.paper_gain()

    def paper_pick(self) -> None:
        """What the paper picked, drawn: GPT-3's attention line glows, and its name is marked."""
        s, price = clip_at(*per_byte.attention_line("gpt3-175b"), per_byte.Y_MAX.value)
        glow = curve(self.axes, s, price, "accent").set_stroke(width=PICK_GLOW_WIDTH, opacity=PICK_GLOW_OPACITY)
        name = self.slope_names[1]
        band = marks.highlight_band(name, opacity=PICK_BAND_OPACITY)
        self.play(Create(glow), FadeIn(band), run_time=0.8)
        self.bring_to_back(glow, band)
        self.play(Indicate(self.attention_lines[1], color=theme.color("accent"), scale_factor=1.0), run_time=0.6)

    def paper_gain(self) -> None:
        """The paper's gain to scale: each share drawn against its own whole (a muted track):
        70 % of the activation memory saved, 2.7 % more compute paid."""
        rows = VGroup()
        for name_t, value_t, key, role in (("激活显存", "省 {recompute.gpt3.selective_saving}",
                                            "recompute.gpt3.selective_saving", "activations"),
                                           ("算力", "多付 {recompute.gpt3.selective_overhead}",
                                            "recompute.gpt3.selective_overhead", "ink")):
            bar = stacked_bar([(key, role)], scale=GAIN_TRACK_W, thickness=GAIN_BAR_H, opacity=GAIN_OPACITY,
                              track=GAIN_TRACK_W)
            bar.blocks.set_stroke(theme.color(role), width=marks.width_of("hairline"))   # 2.7 % stays visible
            name = words(name_t, size="small", color=role)
            value = ledger_text(value_t, size="small", color=role)
            rows.add(VGroup(name, VGroup(bar.track, bar.blocks), value))
        for row in rows:
            row[1].next_to(row[0], RIGHT, buff=theme.space("small"))
            row[2].next_to(row[1], RIGHT, buff=theme.space("small"))
        rows.arrange(DOWN, buff=theme.space("tight"))
        for row in rows[1:]:        # the two tracks in one column, names right-aligned before them
            row[1].align_to(rows[0][1], LEFT)
            row[0].next_to(row[1], LEFT, buff=theme.space("small"))
            row[2].next_to(row[1], RIGHT, buff=theme.space("small"))
        flat = quantity("per_byte.v3.linear_flops_per_byte").value
        rows.next_to(self.axes.point(0, flat), DOWN, buff=GAIN_BELOW).set_x(0)
        rows.align_to([self.stub_x, 0, 0], LEFT)       # under the stub's flat lines, right of its 128K arrow's foot
        self.play(*(FadeIn(VGroup(r[0], r[1][0])) for r in rows), run_time=0.3)
        self.play(*(GrowFromEdge(r[1][1], LEFT) for r in rows), *(FadeIn(r[2]) for r in rows), run_time=0.7)

    # ---- 6. why reversed: 128K on one side of the crossings, 2048 on the other ----

    def context_story(self) -> None:
        # The question is put to the room with the lecture's own case drawn: at 128K attention is
        # far dearer than any linear layer, so 「恰恰是 attention」 is the reverse of what it says.
        # The question stands alone: the paper's story above it is drawn (the glow, the gain bars).
        self.beat(says="为什么反过来了？", takeaway="为什么反过来了？")
        self.play(*self.clear_takeaways(), run_time=0.4)
        self.lecture_case()
        self.beat(says="因为它的序列长度是两千零四十八")
        context = quantity("model.gpt3.context_tokens").value
        marker = marks.segment(self.axes.point(context, 0), self.axes.point(context, CONTEXT_TOP), GPT3,
                               weight="bold", dashed=True)
        name = on_plot("GPT-3 序列长度 {model.gpt3.context_tokens}", size="small", color=GPT3)
        name.next_to(self.axes.point(context, CONTEXT_TOP), UP, buff=theme.space("tight")).align_to(marker, LEFT)
        self.draw_then_name(marker, name, run_time=0.5)
        self.beat(says="你看图上 GPT-3 那根竖线 —— 它落在交点左边")
        self.left_of_crossover(context)
        self.beat(says="在那儿，attention 比图上每一条线性层都便宜", takeaway="在那儿，attention 比每一条线性层都便宜")
        s, price = per_byte.attention_line("gpt3-175b", seq_max=context)
        cheap = marks.dot(self.axes.point(context, price[-1]), GPT3, size="large")
        self.play(FadeIn(cheap, scale=1.6), run_time=0.4)
        self.play(Indicate(cheap, color=theme.color(GPT3), scale_factor=1.8), run_time=0.7)
        self.beat(says="论文没错。是前提变了", takeaway="论文没错。是前提变了", replaces=True)
        self.wait(1.0)
        self.beat(says="所以这件事值钱的不是结论，是这句话",
                  takeaway="判据一个字没改，结论翻转 —— 变的只有序列长度")
        self.play(Indicate(self.context_mark, color=theme.color(GPT3)), Indicate(self.seq_label, color=theme.color(V3)),
                  run_time=1.0)

    def lecture_case(self) -> None:
        """At the lecture's 128K, V3's attention is off the top of the chart, far over its flat line."""
        flat = quantity("per_byte.v3.linear_flops_per_byte").value
        # Its words high in the top right, a clear row above the axis title and 头维度.
        up = arrow(self.at_seq(flat), self.at_seq(per_byte.Y_MAX.value) + UP * theme.space("wide"), V3,
                   weight="bold", buff="snug")
        said = on_plot("本讲 {recompute.seq_len_label}：attention 远高于线性层", size="small", color=V3)
        said.next_to(up, UP, buff=theme.space("tight"))
        self.play(self.seq_label.animate.set_color(theme.text_color(V3)), GrowArrow(up), run_time=0.6)
        self.play(FadeIn(said), run_time=0.3)

    def left_of_crossover(self, context: float) -> None:
        crossover = quantity("recompute.gpt3.crossover_tokens").value
        flat = quantity("per_byte.gpt3.linear_flops_per_byte").value
        self.context_mark = marks.dot(self.axes.point(context, flat), GPT3, size="regular")
        self.play(FadeIn(self.context_mark, scale=1.5), run_time=0.3)
        # Along the s axis, from the crossover back to the context: under every line but the drops.
        leftwards = arrow(self.axes.point(crossover, LEFT_OF_Y), self.axes.point(context, LEFT_OF_Y), GPT3,
                          weight="bold", buff=None)
        said = words("在交点左边", size="small", color=GPT3).next_to(leftwards, UP, buff=theme.space("tight"))
        said.set_x(self.axes.point(LEFT_OF_NAME_X, 0)[0])
        self.play(GrowArrow(leftwards), run_time=0.6)
        self.play(FadeIn(said), run_time=0.3)
