"""fig-momentum: gradient descent with and without momentum — the heavy ball.

Ⓐ 同一条 loss，两次运行: gray (no inertia) stops in the shallow pit, green (heavy ball) carries
   over the ridge into the deeper valley, overshoots and swings back.
Ⓑ 越过坑底那个瞬间的账: at green's first iterate past the pit bottom, the gradient term points
   back (right), the momentum term onward (left), the net is their difference — all to scale.
Ⓒ β 是一个「记多久」的旋钮: the weights β^k of past gradients, the window 1/(1 − β), three stops.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, BackgroundRectangle, Brace, Circle, Create, DashedLine, Dot,
                   FadeIn, FadeOut, GrowArrow, GrowFromEdge, LaggedStart, VGroup, linear)

from lecture_numerics import momentum as run
from scenes.kit import theme
from scenes.kit.arrows import arrow
from scenes.kit.bars import StackedBar
from scenes.kit.base import LectureScene
from scenes.kit.layout import keep_inside
from scenes.kit.panels import caption
from scenes.kit.data_window import DataWindow, clipped_curve
from scenes.kit.text import formula, ledger_text, words

# The runs by what they are; the notes call the plain run 灰 and the heavy ball 绿.
PLAIN, HEAVY_BALL, GRADIENT, INERTIA = "muted", "good", "gradients", "accent"
SHAPE = {"height": run.HEIGHT.value, "tilt": run.TILT.value, "width": run.WIDTH.value}
WHOLE = DataWindow(((-8.0, 9.0), (-1.6, 9.0)), screen_center=(-0.4, -0.35), screen_size=(11.5, 5.3))
PIT = DataWindow(((1.6, 6.8), (0.4, 3.8)), screen_center=(-0.6, -1.4), screen_size=(10.4, 2.4))
THUMB = DataWindow(((-8.0, 9.0), (-1.6, 10.0)), screen_center=(5.0, -2.35), screen_size=(3.4, 1.3))
GREEN_SHOWN = 32                 # green iterates drawn in Ⓐ (later ones sit on top of each other)
BAR_SHARE, BAR_FILL = 0.72, 0.85    # Ⓒ: a weight's bar fills this share of its slot
SWING_BACK = range(17, 25)       # green's overshoot past the valley bottom and the way back
ARROW_ROWS_Y = (2.15, 1.35, 0.55)
BAR_BASE_Y, BAR_TOP = -2.1, 1.5
BARS_LEFT, BARS_RIGHT = -6.6, 1.6


def on_curve(window: DataWindow, xs) -> np.ndarray:
    return window.points(np.column_stack([xs, run.loss(xs, **SHAPE)]))


class FigMomentum(LectureScene):
    scene_id = "fig-momentum"
    title = "动量：给它一点惯性"
    ledger_keys = ("momentum.run_count", "momentum.gray_final_slope", "momentum.crossing.gradient_term",
                   "momentum.crossing.momentum_term", "momentum.crossing.net", "history.polyak.year",
                   "history.polyak_lead_years", "momentum.window_beta_0p9", "optim.adam.beta1",
                   "momentum.knob.beta_low", "momentum.window_beta_low", "momentum.knob.beta_high",
                   "momentum.window_beta_high")

    def construct(self):
        self.two_runs_panel()
        self.crossing_panel()
        self.memory_panel()

    # ---- Ⓐ one loss, two runs ----------------------------------------------------------------

    def loss_curve(self, window: DataWindow):
        (x0, x1), _ = window.data
        xs = np.linspace(x0, x1, 400)
        return clipped_curve(window, np.column_stack([xs, run.loss(xs, **SHAPE)]), color="ink", stroke_width=3)

    def two_runs_panel(self):
        self.start_panel("A", "同一条 loss，{momentum.run_count}次运行")
        curve = self.loss_curve(WHOLE)
        start = Dot(on_curve(WHOLE, [run.START.value])[0], radius=0.1, color=theme.color("ink"))
        start_label = words("起点", size="label").next_to(start, LEFT, buff=theme.space("close"))
        self.play(Create(curve), FadeIn(start), FadeIn(start_label), run_time=1.0)
        self.play(FadeIn(caption("同一条 loss · 同一个起点 · 唯一的差别：有没有惯性")), run_time=0.5)

        legend = VGroup(words("灰：没有惯性", size="label", color=PLAIN),
                        words("绿：有惯性（动量）", size="label", color=HEAVY_BALL)).arrange(DOWN, aligned_edge=LEFT)
        legend.move_to([-4.3, 2.2, 0])
        gray = VGroup(*(Dot(p, radius=0.075, color=theme.color(PLAIN)) for p in on_curve(WHOLE, run.GRAY.value)))
        self.play(FadeIn(legend[0]), LaggedStart(*(FadeIn(d) for d in gray[:30]), lag_ratio=0.5), run_time=2.4,
                  rate_func=linear)
        self.add(gray[30:])
        stop = gray[-1].get_center()
        tag = ledger_text("|梯度| = {momentum.gray_final_slope} → 真停", size="label", color=PLAIN)
        tag.next_to(stop, DOWN, buff=theme.space("edge"))
        self.play(FadeIn(tag), run_time=0.5)

        green_xs = run.GREEN.value[:GREEN_SHOWN + 1]
        green = VGroup(*(Dot(p, radius=0.06, color=theme.color(HEAVY_BALL)) for p in on_curve(WHOLE, green_xs)))
        self.play(FadeIn(legend[1]), LaggedStart(*(FadeIn(d) for d in green), lag_ratio=0.5), run_time=3.0,
                  rate_func=linear)
        rings = VGroup(*(Circle(radius=0.13, color=theme.color(INERTIA), stroke_width=3).move_to(green[k])
                         for k in SWING_BACK))
        swing = words("冲过头，荡回来", size="label", color=INERTIA).next_to(rings, UP, buff=theme.space("gap"))
        self.play(Create(rings), FadeIn(swing), run_time=0.8)
        self.wait(2.0)

    # ---- Ⓑ the crossing, to scale --------------------------------------------------------------

    def crossing_panel(self):
        self.start_panel("B", "越过坑底那个瞬间的账")
        k = run.CROSSING.value
        before, here, after = run.GREEN.value[k - 1:k + 2]
        curve = self.loss_curve(PIT)
        pit_x = run.CRITICAL.value[2]
        pit = DashedLine(on_curve(PIT, [pit_x])[0], on_curve(PIT, [pit_x])[0] + DOWN * 0.45,
                         color=theme.color("muted"))
        pit_label = words("坑底", size="small", color="muted").next_to(pit, DOWN, buff=theme.space("fine"))
        ghost = Dot(on_curve(PIT, [before])[0], radius=0.12, color=theme.color(HEAVY_BALL), fill_opacity=0.3)
        ball = Dot(on_curve(PIT, [here])[0], radius=0.14, color=theme.color(HEAVY_BALL))
        self.play(Create(curve), FadeIn(pit), FadeIn(pit_label), FadeIn(ghost), FadeIn(ball), run_time=1.0)

        scale = PIT.screen_size[0] / (PIT.data[0][1] - PIT.data[0][0])
        x_ball = ball.get_center()[0]
        guide = DashedLine([x_ball, ARROW_ROWS_Y[0] + 0.35, 0], ball.get_center() + UP * theme.space("close"),
                           color=theme.color("muted"), stroke_width=2)
        self.play(Create(guide), run_time=0.4)
        rows = (("梯度项 {momentum.crossing.gradient_term} → 往回拉", run.GRADIENT_TERM.value, GRADIENT),
                ("← 惯性项 {momentum.crossing.momentum_term}", -run.MOMENTUM_TERM.value, INERTIA),
                ("← 净移动 {momentum.crossing.net} · 继续往前", -run.NET.value, HEAVY_BALL))
        for (template, dx, color), y in zip(rows, ARROW_ROWS_Y):
            term = arrow([x_ball, y, 0], [x_ball + dx * scale, y, 0], color, weight="heavy", buff=None)
            label = ledger_text(template, size="label", color=color)
            label.next_to([max(x_ball, term.get_right()[0]), y, 0], RIGHT, buff=theme.space("medium"))
            self.play(GrowArrow(term), FadeIn(label), run_time=0.8)
            self.wait(0.6)
        left_behind = ball.copy().set_opacity(0.45)
        self.add(left_behind)
        self.play(ball.animate.move_to(on_curve(PIT, [after])[0]), run_time=0.8)
        marks = VGroup(*(words(name, size="small", color="muted").next_to(dot, UP, buff=theme.space("close"))
                         for name, dot in (("上一步", ghost), ("这一步", left_behind), ("下一步", ball))))
        self.play(FadeIn(marks), run_time=0.4)
        now = caption("梯度在反对它继续走 —— 是惯性把它带出去的", color=INERTIA)
        self.play(FadeIn(now), run_time=0.5)
        self.wait(1.5)
        history = caption("Polyak {history.polyak.year} · 比反向传播那篇 Nature 论文早 {history.polyak_lead_years} 年")
        self.play(FadeOut(now), FadeIn(history), run_time=0.6)
        self.wait(1.5)

    # ---- Ⓒ β as a memory knob -------------------------------------------------------------------

    def memory_panel(self):
        self.start_panel("C", "β 是一个「记多久」的旋钮")
        weights = run.WEIGHTS.value
        slot = (BARS_RIGHT - BARS_LEFT) / len(weights)
        bars = VGroup()
        for age, w in enumerate(weights):          # age 0 = this step, drawn rightmost
            bar = StackedBar([(w, INERTIA)], scale=BAR_TOP - BAR_BASE_Y, orientation="vertical",
                             thickness=slot * BAR_SHARE, opacity=BAR_FILL)
            bar.start_at((BARS_RIGHT - (age + 0.5) * slot, BAR_BASE_Y))
            bars.add(bar)
        now_label = words("这一步", size="small").next_to(bars[0], DOWN, buff=theme.space("small"))
        old_label = words("← 越老越轻", size="small", color="muted").next_to(bars[-1], DOWN, buff=theme.space("small"))
        old_label.align_to(bars[-1], LEFT)
        self.play(LaggedStart(*(GrowFromEdge(b, DOWN) for b in bars), lag_ratio=0.15), FadeIn(now_label),
                  FadeIn(old_label), run_time=2.0)
        rule = caption("「每往前追一步就再乘一个 β」 · 越老越轻")
        self.play(FadeIn(rule), run_time=0.5)
        self.wait(0.6)

        window = int(round(run.WINDOW_09.value))
        brace = Brace(VGroup(*bars[:window]), UP, color=theme.color("ink"))
        brace_label = ledger_text("有效窗口 ≈ {momentum.window_beta_0p9} 步", size="label").next_to(brace, UP, buff=theme.space("tight"))
        rule_of_thumb = formula("≈ 1 ÷ (1 − β)", size="label", color="muted").next_to(brace_label, LEFT, buff=theme.space("gap"))
        self.play(FadeIn(brace), FadeIn(brace_label), FadeIn(rule_of_thumb), run_time=0.8)
        self.wait(0.8)
        self.play(FadeIn(self.knob().move_to([4.9, 1.0, 0])), run_time=0.9)
        knob_line = caption("β 不是玄学，是「记多久」的旋钮")
        self.play(FadeOut(rule), FadeIn(knob_line), run_time=0.6)
        self.wait(1.5)
        self.deeper_pit()
        self.play(FadeOut(knob_line), FadeIn(caption("它治的是「慢」，不是「最优」", color=HEAVY_BALL)), run_time=0.6)
        self.wait(1.5)

    def deeper_pit(self):
        """The brake: the same heavy ball on a deeper pit stays in it."""
        ridge = run.CRITICAL.value[1]
        bump = {"bump_height": run.BUMP_HEIGHT.value, "bump_width": run.BUMP_WIDTH.value, "ridge": ridge}
        xs = np.linspace(*THUMB.data[0], 300)
        curve = clipped_curve(THUMB, np.column_stack([xs, run.deeper_loss(xs, **SHAPE, **bump)]), color="ink",
                              stroke_width=2)
        path = run.GREEN_DEEPER.value[:GREEN_SHOWN + 1]
        dots = VGroup(*(Dot(p, radius=0.04, color=theme.color(HEAVY_BALL))
                        for p in THUMB.points(np.column_stack([path, run.deeper_loss(path, **SHAPE, **bump)]))))
        title = keep_inside(words("换个更深的坑：一样出不来", size="small", color=HEAVY_BALL).next_to(curve, UP, buff=theme.space("small")))
        self.play(Create(curve), FadeIn(title), run_time=0.6)
        self.play(LaggedStart(*(FadeIn(d) for d in dots), lag_ratio=0.4), run_time=1.5, rate_func=linear)

    def knob(self) -> VGroup:
        stops = VGroup(
            ledger_text("β = {momentum.knob.beta_low} → {momentum.window_beta_low} 步", size="label", color="muted"),
            ledger_text("β = {optim.adam.beta1} → {momentum.window_beta_0p9} 步", size="body", color=INERTIA),
            ledger_text("β = {momentum.knob.beta_high} → {momentum.window_beta_high} 步", size="label", color="muted"),
        ).arrange(DOWN, aligned_edge=LEFT, buff=theme.space("edge"))
        adam = ledger_text("Adam 默认 β₁ = {optim.adam.beta1}", size="small", color=INERTIA)
        adam.next_to(stops, DOWN, buff=0.45).align_to(stops, LEFT)
        name = words("旋钮", size="label", color="muted").next_to(stops, UP, buff=theme.space("edge")).align_to(stops, LEFT)
        return VGroup(name, stops, adam)
