"""fig-precision: why the master weights must stay fp32, with bf16 rounding done live.

Ⓐ a number stored in two parts: fp32 1|8|23, bf16 1|8|7 (same exponent, same range), fp16
   1|5|10 (three bits moved to the mantissa: finer, but a tiny gradient becomes 0).
Ⓑ the run: 1.0 + 0.0003 rounds back to 1.0; a thousand bf16 additions leave 1.0, the same
   thousand in fp32 give 1.3. Every value drawn comes from precision_run's loop.
Ⓒ the criterion as curves: how much of one step's contribution is still there k steps later.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Brace, Create, Dot, FadeIn, FadeOut, Indicate, Line, SurroundingRectangle, VGroup

from lecture_numerics import precision_run as run
from lecture_numerics.precision import FP32_AFTER, INCREMENT, START
from scenes.kit import theme
from scenes.kit.base import LectureScene
from scenes.kit.panels import EDGE_BUFF
from scenes.kit.annotate import label_after, on_plot
from scenes.kit.arrows import arrow
from scenes.kit.format_widgets import ScreenAxis, bit_row, format_label, format_name
from scenes.kit.layout import at_bottom
from scenes.kit.plots import Plot, curve, dashed, level, place
from scenes.kit.text import ledger_text, line, number, words

FIELD_COLOURS = ("muted", "accent", "warm")       # sign, exponent, mantissa
BIT_W, BIT_H = 0.29, 0.5
ROW_LEFT = -4.9
ROW_YS = {"fp32": 1.55, "bf16": 0.05, "fp16": -1.45}

LINE_Y, LINE_LEFT, LINE_RIGHT = 0.9, -6.2, 6.2
LINE_RANGE = (0.9975, 1.0265)                      # shows the four bf16 ticks with margin
FP32_Y = -2.0
FP32_LEFT, FP32_RIGHT = -2.6, 3.0                  # leaves room for the axis name inside the safe area

PLOT_LEFT, PLOT_RIGHT, PLOT_BOTTOM, PLOT_TOP = -5.6, 3.0, -1.5, 1.3   # the curve tags and footnote fit the safe area
SHARE_TOP = 1.05                                   # the share axis runs a little past "all of it"
M_TAG_AT, V_TAG_AT = (25, 0.22), (1000, 0.68)      # (step, share) where the m and v tags start
SIDE_NOTE_RISE = 0.17                              # the notes right of a bit row sit a little high
TINY_Y, CARD_Y, TOP_Y = -2.55, -1.05, 2.35         # Ⓐ's tiny-gradient line, Ⓑ's bf16 card, the top row
NAIVE_X = 3.2
GAP_BRACE_BUFF, STEP_LABEL_RISE, STEP_LABEL_SHIFT = 0.55, 0.55, 1.3
BALL_RADIUS, FP32_BALL_RADIUS, HALF_DOT_RADIUS = 0.07, 0.1, 0.07
FP32_AXIS_PAST = 0.4                               # the fp32 axis runs on past where the sum lands
FOOTER_DROP = 0.55
HALF = 0.5                                         # the half-life line
ONCE_STEPS = [1.0, 1.999, 2.0]                     # used once: all of it in step 1, nothing from step 2
RULE_LIFT = 0.75
LABEL_GAP = theme.space("small")
ROW_GAP = theme.space("tight")


class FigPrecision(LectureScene):
    scene_id = "fig-precision"
    title = "主权重为什么必须 fp32：当场做一遍 bf16 舍入"
    loop = False
    ledger_keys = (
        "format.fp32.total_bits", "format.bf16.total_bits", "format.fp16.total_bits", "format.sign_bits",
        "format.fp32.exponent_bits", "format.fp32.mantissa_bits", "format.bf16.exponent_bits",
        "format.bf16.mantissa_bits", "format.fp16.exponent_bits", "format.fp16.mantissa_bits",
        "precision.exponent_bits_moved", "precision.tiny_gradient", "precision.tiny_gradient_fp16",
        "precision.tiny_gradient_bf16",
        "precision.start_weight", "precision.increment", "precision.bf16.spacing_at_1",
        "precision.bf16.ticks_near_1", "precision.increment_over_spacing", "precision.bf16.first_sum",
        "precision.bf16.first_stored", "precision.spacing_over_increment", "precision.adds_to_one_spacing",
        "precision.adds", "precision.bf16.after_1000_adds", "precision.fp32.after_1000_adds",
        "precision.criterion_ticks", "optim.adam.beta1", "optim.adam.beta2", "optim.adam.half_life_m",
        "optim.adam.half_life_v", "model.v3.generation", "optim.v.moment_order",
    )

    def construct(self) -> None:
        self.two_parts()
        self.live_rounding()
        self.the_criterion()

    def say(self, current, template: str, color: str = "ink"):
        new = line(template, size="body", color=color).to_edge(DOWN, buff=EDGE_BUFF)
        self.play(*([FadeOut(current)] if current is not None else []), FadeIn(new, shift=UP * theme.space("close")), run_time=0.5)
        return new

    # ---- Ⓐ the bit layouts ----

    def bit_layout(self, name: str):
        fields = [("format.sign_bits", FIELD_COLOURS[0]), (f"format.{name}.exponent_bits", FIELD_COLOURS[1]),
                  (f"format.{name}.mantissa_bits", FIELD_COLOURS[2])]
        row = bit_row(fields, bit_width=BIT_W, height=BIT_H)
        row.move_to([ROW_LEFT + row.width / 2, ROW_YS[name], 0])
        label = format_label(name, size="heading").next_to(row, LEFT, buff=theme.space("edge"))
        counts = VGroup(*[number(key, size="small", color=colour).next_to(row.segment(j), DOWN, buff=theme.space("fine"))
                          for j, (key, colour) in enumerate(fields)])
        return row, label, counts

    def two_parts(self) -> None:
        self.start_panel("A", "一个小数在机器里怎么存")
        fp32, fp32_name, fp32_counts = self.bit_layout("fp32")
        self.play(FadeIn(fp32), FadeIn(fp32_name), FadeIn(fp32_counts), run_time=0.8)
        range_tag = words("指数：管能多大", size="label", color="accent").next_to(fp32.segment(1), UP, buff=theme.space("small"))
        fine_tag = words("尾数：管能多细", size="label", color="warm").next_to(fp32.segment(2), UP, buff=theme.space("small"))
        self.play(FadeIn(range_tag), FadeIn(fine_tag), run_time=0.6)
        caption = self.say(None, "指数那段管「能多大」，尾数那段管「能多细」")

        bf16, bf16_name, bf16_counts = self.bit_layout("bf16")
        self.play(FadeIn(bf16, shift=UP * theme.space("gap")), FadeIn(bf16_name), FadeIn(bf16_counts), run_time=0.8)
        same = ledger_text("指数段跟 " + format_name("fp32") + " 一样长 → 范围一样", size="label", color="accent")
        same.next_to(bf16, RIGHT, buff=theme.space("edge")).shift(UP * SIDE_NOTE_RISE)
        cut = words("掉的只是精细程度", size="label", color="warm").next_to(same, DOWN, buff=theme.space("fine")).align_to(same, LEFT)
        self.play(Indicate(fp32.segment(1), color=theme.color("accent")),
                  Indicate(bf16.segment(1), color=theme.color("accent")), FadeIn(same), FadeIn(cut), run_time=1.0)
        caption = self.say(caption, "范围跟 " + format_name("fp32") + " 完全一样，掉的只是精细程度")

        fp16, fp16_name, fp16_counts = self.bit_layout("fp16")
        self.play(FadeIn(fp16, shift=UP * theme.space("gap")), FadeIn(fp16_name), FadeIn(fp16_counts), run_time=0.8)
        moved = ledger_text("把{precision.exponent_bits_moved}位从指数挪给了尾数", size="label", color="warm")
        moved.next_to(fp16, RIGHT, buff=theme.space("edge")).shift(UP * SIDE_NOTE_RISE)
        smaller = words("更精细，但范围小了很多", size="label", color="backward").next_to(moved, DOWN, buff=theme.space("fine"))
        smaller.align_to(moved, LEFT)
        self.play(FadeIn(moved), FadeIn(smaller), run_time=0.8)

        tiny = ledger_text("一个小梯度 {precision.tiny_gradient}：" + format_name("fp16") + " 存成 "
                           "{precision.tiny_gradient_fp16}，" + format_name("bf16") + " 存成 {precision.tiny_gradient_bf16}",
                           size="body", color="ink").move_to([0, TINY_Y, 0])
        self.play(FadeIn(tiny), run_time=0.7)
        self.say(caption, format_name("fp16") + " 要 loss scaling，是因为范围 —— 跟「{format.fp16.total_bits} 位不够用」无关")
        self.wait(2.0)

    # ---- Ⓑ the live rounding run ----

    def live_rounding(self) -> None:
        self.start_panel("B", "大数吃小数，当场做一遍")
        x = ScreenAxis(*LINE_RANGE, LINE_LEFT, LINE_RIGHT)
        at = lambda v, y=LINE_Y: np.array([x(v), y, 0])
        ticks = run.TICKS.value
        axis = Line(at(LINE_RANGE[0]), at(LINE_RANGE[1]), color=theme.color("muted"), stroke_width=3)
        marks = VGroup(*[Line(at(t) + DOWN * theme.space("small"), at(t) + UP * theme.space("small"), color=theme.color("ink"), stroke_width=4)
                         for t in ticks])
        labels = VGroup(*[number(f"precision.bf16.ticks_near_1[{i}]", size="small").next_to(marks[i], DOWN, buff=theme.space("snug"))
                          for i in range(len(ticks))])
        name = format_label("bf16", " 能存的数", size="label", color="muted").move_to([0, TOP_Y, 0]).to_edge(LEFT, buff=theme.space("wide"))
        self.play(Create(axis), FadeIn(marks), FadeIn(labels), FadeIn(name), run_time=0.9)
        caption = self.say(None, "中间什么都没有 —— 不是精度差，是那些数压根存不下来")

        gap = Brace(VGroup(marks[0], marks[1]), DOWN, buff=GAP_BRACE_BUFF, color=theme.color("accent"))
        gap_label = ledger_text("一格 = {precision.bf16.spacing_at_1}", size="label", color="accent").next_to(gap, DOWN, buff=theme.space("tight"))
        lift = UP * theme.space("gap")                                          # drawn just above the line, to scale
        step = arrow(at(START.value) + lift, at(run.FIRST_SUM.value) + lift, "gradients", weight="heavy", buff=None)
        step_label = ledger_text("每步加 {precision.increment}（量级示意）", size="label", color="backward")
        step_label.next_to(at(START.value), UP, buff=STEP_LABEL_RISE).shift(RIGHT * STEP_LABEL_SHIFT)
        share = ledger_text("只有一格的 {precision.increment_over_spacing}", size="label", color="backward")
        share.next_to(step_label, RIGHT, buff=theme.space("large"))
        self.play(FadeIn(gap), FadeIn(gap_label), run_time=0.6)
        self.play(label_after(step, VGroup(step_label, share), run_time=0.5, label_time=0.3))

        ball = Dot(at(run.FIRST_SUM.value), radius=BALL_RADIUS, color=theme.color("accent"))
        self.play(FadeIn(ball), run_time=0.3)
        caption = self.say(caption, "{precision.bf16.first_sum} 存进 " + format_name("bf16")
                           + "：就近舍入 —— 直接舍回 {precision.bf16.first_stored}", color="backward")
        self.play(ball.animate.move_to(at(run.FIRST_STORED.value)), run_time=0.6)
        self.wait(0.8)                                          # pause 1

        naive = ledger_text("加 {precision.spacing_over_increment} 次就够一格了？", size="body")
        naive_box = SurroundingRectangle(naive, buff=theme.space("small"), color=theme.color("muted"), corner_radius=theme.space("tight"))
        VGroup(naive, naive_box).move_to([NAIVE_X, TOP_Y, 0])
        self.play(FadeIn(naive), Create(naive_box), run_time=0.6)
        sums, stored = run.accumulation_trace(START.value, INCREMENT.value, 4)
        for before, after in zip(sums, stored):                 # the run's first hops, each snapped back
            self.play(ball.animate.move_to(at(float(before))), run_time=0.2)
            self.play(ball.animate.move_to(at(float(after))), run_time=0.2)
        bf16_card = ledger_text(format_name("bf16") + " 里连加 {precision.adds} 次：{precision.start_weight} → "
                                "{precision.bf16.after_1000_adds} · 一步都没动", size="body", color="backward")
        bf16_card.move_to([0, CARD_Y, 0])
        self.play(FadeIn(bf16_card), run_time=0.6)
        self.wait(0.8)                                          # pause 2

        self.fp32_contrast(caption)
        self.wait(2.0)

    def fp32_contrast(self, caption) -> None:
        """The same additions in fp32: the ball glides along a fine axis."""
        end = FP32_AFTER.value
        fine = ScreenAxis(START.value, end, FP32_LEFT, FP32_RIGHT)
        axis = Line([fine(START.value), FP32_Y, 0], [fine(end) + FP32_AXIS_PAST, FP32_Y, 0], color=theme.color("muted"))
        ends = VGroup(number("precision.start_weight", size="small").next_to([fine(START.value), FP32_Y, 0], DOWN, buff=theme.space("small")),
                      number("precision.fp32.after_1000_adds", size="small").next_to([fine(end), FP32_Y, 0], DOWN, buff=theme.space("small")))
        name = format_label("fp32", " 对照：同样的加法", size="label", color="good").next_to(axis, LEFT, buff=theme.space("gap"))
        ball = Dot([fine(START.value), FP32_Y, 0], radius=FP32_BALL_RADIUS, color=theme.color("good"))
        self.play(Create(axis), FadeIn(ends), FadeIn(name), FadeIn(ball), run_time=0.6)
        self.play(ball.animate.move_to([fine(end), FP32_Y, 0]), run_time=1.2)
        self.say(caption, "所以「主权重要留一份 " + format_name("fp32") + "」不是保险起见")
        footer = words("这些数是脚本里一个真的舍入函数当场算的，有断言盯着", size="small", color="muted")
        footer.next_to(axis, DOWN, buff=FOOTER_DROP)
        self.play(FadeIn(footer), run_time=0.4)

    # ---- Ⓒ the criterion ----

    def the_criterion(self) -> None:
        self.start_panel("C", "判据：老的贡献会不会永远不走")
        horizon = run.HORIZON.value
        plot = place(Plot(x_range=(1, horizon), y_range=(0, SHARE_TOP), x_log=True,
                          width=PLOT_RIGHT - PLOT_LEFT, height=(PLOT_TOP - PLOT_BOTTOM) * SHARE_TOP,
                          x_ticks_key="precision.criterion_ticks", x_title="过了多少步", y_title="这一步的贡献还剩多少"),
                     (PLOT_LEFT, PLOT_BOTTOM))
        plot.y_title.align_to(plot.y_axis, LEFT)
        plot.x_title.next_to(plot.x_ticks, DOWN, buff=ROW_GAP).align_to(plot.x_axis, RIGHT)
        half = dashed(level(plot, HALF, "muted", stroke_width=theme.stroke("thin")))
        half_tag = words("半衰线", size="small", color="muted").next_to(half, LEFT, buff=ROW_GAP)
        self.play(FadeIn(plot), FadeIn(half), FadeIn(half_tag), run_time=0.6)

        steps = np.logspace(0, np.log10(horizon), 240)
        def share_curve(kind, role, beta=None, samples=steps):
            return curve(plot, samples, run.remaining(kind, samples - 1, beta), role)   # step 1: the step it was added

        master = share_curve("kept", "weights")
        master_tag = ledger_text("主权重：一直在 → " + format_name("fp32"), size="small", color="weights")
        master_tag.next_to(master.get_end(), RIGHT, buff=LABEL_GAP)
        self.play(label_after(master, master_tag, run_time=0.7, label_time=0.2))
        once = share_curve("used_once", "accent", samples=np.concatenate([ONCE_STEPS, steps[steps > 2]]))
        once_tag = VGroup(words("梯度／激活：用完就扔", size="small", color="accent"),
                          ledger_text("→ " + format_name("bf16"), size="small", color="accent")).arrange(DOWN, aligned_edge=LEFT, buff=ROW_GAP)
        once_tag.next_to(once.get_end(), RIGHT, buff=LABEL_GAP).shift(UP * theme.space("medium"))
        self.play(label_after(once, once_tag, run_time=0.7, label_time=0.2))

        card = ledger_text("DeepSeek-V{model.v3.generation}：m、v 放成 " + format_name("bf16") + "，无可观察退化；"
                           "主权重和梯度仍 " + format_name("fp32"), size="label", color="good")
        card.move_to([0, TOP_Y, 0])
        self.play(FadeIn(card), run_time=0.6)
        m = share_curve("ema", "m", run.BETA1.value)
        v = share_curve("ema", "v", run.BETA2.value)
        # On the plot, with a halo: the v curve passes behind the m tag.
        m_tag = on_plot("动量 m（β₁ {optim.adam.beta1}）半衰期 {optim.adam.half_life_m} 步", size="small", color="m")
        m_tag.move_to(plot.point(*M_TAG_AT), aligned_edge=LEFT)
        v_tag = on_plot("{optim.v.moment_order}阶矩 v（β₂ {optim.adam.beta2}）半衰期 {optim.adam.half_life_v} 步",
                        size="small", color="v")
        v_tag.move_to(plot.point(*V_TAG_AT), aligned_edge=LEFT)
        halves = VGroup(*[Dot(plot.point(1 + h.value, HALF), radius=HALF_DOT_RADIUS, color=theme.color("optimizer"))
                          for h in (run.HALF_LIFE_M, run.HALF_LIFE_V)])
        self.play(label_after(VGroup(m, v), VGroup(m_tag, v_tag, halves), run_time=0.9, label_time=0.3))

        old = words("累不累加", size="body", color="muted")
        new = words("老的贡献会不会永远不走", size="body", color="ink")
        rule = VGroup(words("真正的分界不是", size="body"), old, words("，是", size="body"), new).arrange(RIGHT, buff=LABEL_GAP)
        rule.to_edge(DOWN, buff=RULE_LIFT)
        self.play(FadeIn(rule), run_time=0.6)
        self.play(Create(Line(old.get_left(), old.get_right(), color=theme.color("bad"), stroke_width=theme.stroke("bold"))),
                  Indicate(new, color=theme.color("good")), run_time=0.8)
        footnote = at_bottom(words("梯度在多个 micro-batch 间累加时也有「老的」贡献，所以那份报告把梯度留在高精度",
                                   size="small", color="muted"))
        self.play(FadeIn(footnote), run_time=0.4)
        self.wait(2.0)
