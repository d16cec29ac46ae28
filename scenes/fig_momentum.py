"""fig-momentum: gradient descent with and without momentum — the heavy ball.

Ⓐ 同一条 loss，两次运行: gray (no inertia) stops in the shallow pit — its iterates drawn while
   they land apart, the stop marked once — green (heavy ball) carries over the ridge into the
   deeper valley, overshoots and swings back.
Ⓑ 越过坑底那个瞬间的账: at green's first iterate past the pit bottom, the gradient term points
   back (right), the momentum term onward (left), the net is their difference — all three at one
   true scale, the curve's own (ARROW_SCALE); then the year, the backprop paper, Polyak's name.
Ⓒ β 是什么 → 一个「记多久」的旋钮: the weights β^k of past gradients, the window 1/(1 − β), three stops.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, Brace, Circle, Create, DashedLine, Dot,
                   FadeIn, GrowArrow, GrowFromEdge, LaggedStart, VGroup, linear)

from lecture_numerics import momentum as run
from scenes.kit import theme
from scenes.kit.arrows import arrow
from scenes.kit.bars import StackedBar
from scenes.kit.base import LectureScene
from scenes.kit.layout import keep_inside
from scenes.kit.data_window import DataWindow, clipped_curve
from scenes.kit.text import formula, ledger_text, words

# The runs by what they are; the notes call the plain run 灰 and the heavy ball 绿.
PLAIN, HEAVY_BALL, GRADIENT, INERTIA = "muted", "good", "gradients", "accent"
SHAPE = {"height": run.HEIGHT.value, "tilt": run.TILT.value, "width": run.WIDTH.value}
WHOLE = DataWindow(((-8.0, 9.0), (-1.6, 9.0)), screen_center=(-0.4, -0.1), screen_size=(11.5, 4.6))
# Ⓑ zooms in on the crossing: from just left of the next iterate to just right of the last, so
# that at the curve's own x-scale the smallest term, the gradient, is still a readable arrow
# (≥ 30 px at 1280×720).
PIT = DataWindow(((2.55, 5.45), (0.8, 2.6)), screen_center=(-0.3, -0.75), screen_size=(10.8, 1.8))
# Ⓑ's three arrows are drawn at the curve's x-scale (scene units per parameter unit): the net
# arrow's tip stands above where the ball lands.
ARROW_SCALE = PIT.screen_size[0] / (PIT.data[0][1] - PIT.data[0][0])
MIN_SEEN = 0.08                  # Ⓐ: a gray iterate closer than this to the last one drawn is not drawn
HISTORY_X, HISTORY_Y = -6.6, 2.5      # Ⓑ's year, top left: the gradient row leaves it empty,
                                      # its card kept clear of the momentum arrow's head below
THUMB_TITLE_RIGHT = 6.4          # Ⓒ's thumbnail title keeps clear of the safe edge
KNOB_X, KNOB_Y = 4.9, 1.8
# Ⓒ's deeper pit fills the free corner between the bars, the knob and the takeaways, so its
# iterates read from the back of the room.
THUMB = DataWindow(((-8.0, 9.0), (-1.6, 10.0)), screen_center=(4.5, -1.55), screen_size=(4.2, 1.5))
THUMB_DOT_RADIUS, THUMB_STROKE = 0.065, 3
GREEN_SHOWN = 32                 # green iterates drawn in Ⓐ (later ones sit on top of each other)
BAR_SHARE, BAR_FILL = 0.72, 0.85    # Ⓒ: a weight's bar fills this share of its slot
SWING_BACK = range(17, 25)       # green's overshoot past the valley bottom and the way back
RING_RADIUS, RING_GAP, RINGS_SHOWN = 0.13, 0.04, 4   # 「你看那几个点」: the last few on the way back
SWING_LABEL_LIFT = 0.3           # its label stands clear of the curve climbing to the ridge
ARROW_ROWS_Y = (2.15, 1.35, 0.55)
PIT_MARK = 0.3                   # the dashed stub under the pit bottom, above its label
BAR_BASE_Y, BAR_TOP = -1.55, 1.3
BARS_LEFT, BARS_RIGHT = -6.6, 1.6


def on_curve(window: DataWindow, xs) -> np.ndarray:
    return window.points(np.column_stack([xs, run.loss(xs, **SHAPE)]))


def distinct_on_screen(window: DataWindow, xs) -> np.ndarray:
    """The iterates that land apart on screen: later ones pile onto the stop and would smear."""
    pts = on_curve(window, xs)
    kept = [0]
    for i in range(1, len(pts)):
        if np.linalg.norm(pts[i] - pts[kept[-1]]) >= MIN_SEEN:
            kept.append(i)
    return np.asarray(xs)[kept]


def apart(dots: VGroup, indices) -> list[int]:
    """The dots among ``indices`` whose rings would not touch the ring of the one kept before."""
    kept: list[int] = []
    for k in indices:
        if not kept or np.linalg.norm(dots[k].get_center() - dots[kept[-1]].get_center()) > 2 * RING_RADIUS + RING_GAP:
            kept.append(k)
    return kept


def term_arrow(x: float, y: float, value: float, color: str):
    """One term of the step as an arrow from the ball's column, ``value`` parameter units long."""
    return arrow([x, y, 0], [x + value * ARROW_SCALE, y, 0], color, weight="heavy", buff=None)


class FigMomentum(LectureScene):
    scene_id = "fig-momentum"
    title = "动量：给它一点惯性"
    ledger_keys = ("momentum.run_count", "momentum.gray_final_slope", "momentum.crossing.gradient_term",
                   "momentum.crossing.momentum_term", "momentum.crossing.net", "history.polyak.year",
                   "history.polyak_lead_years", "history.backprop_nature.year", "momentum.window_beta_0p9", "optim.adam.beta1",
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
        self.start_panel("A", "同一条 loss，{momentum.run_count}次运行", says="办法叫动量。一句话就能说完")
        curve = self.loss_curve(WHOLE)
        start = Dot(on_curve(WHOLE, [run.START.value])[0], radius=0.1, color=theme.color("ink"))
        self.play(Create(curve), FadeIn(start), run_time=1.0)
        self.beat(says="这一步怎么动，不只看当前的梯度，还要看上一步是怎么动的",
                  takeaway="这一步怎么动：不只看当前的梯度，还要看上一步是怎么动的")
        self.beat(says="说白了就是给它一点惯性")
        # Green is named first (「给它一点惯性」); gray joins under it, so nothing moves.
        with_inertia = words("绿：有惯性（动量）", size="label", color=HEAVY_BALL)
        without = words("灰：没有惯性", size="label", color=PLAIN)
        VGroup(with_inertia, without).arrange(DOWN, aligned_edge=LEFT).move_to([-4.3, 2.2, 0])
        self.play(FadeIn(with_inertia), run_time=0.5)

        self.beat(says="看这张图。同一条 loss、同一个起点，唯一的差别就是有没有惯性")
        start_label = words("同一个起点", size="label").next_to(start, LEFT, buff=theme.space("close"))
        self.play(FadeIn(start_label), FadeIn(without), run_time=0.5)

        self.beat(says="灰的那条，滚到半路这个浅坑就停了")
        gray_xs = distinct_on_screen(WHOLE, run.GRAY.value)
        gray = VGroup(*(Dot(p, radius=0.075, color=theme.color(PLAIN)) for p in on_curve(WHOLE, gray_xs)))
        self.play(LaggedStart(*(FadeIn(d) for d in gray), lag_ratio=0.5), run_time=2.0, rate_func=linear)
        # Where it stops, marked once: its last iterate (the ones after it sit on this spot).
        stop_at = on_curve(WHOLE, [run.GRAY.value[-1]])[0]
        stop = Circle(radius=0.17, color=theme.color("ink"), stroke_width=3).move_to(stop_at)
        self.play(Create(stop), run_time=0.4)

        self.beat(says="而且我要强调：它是真停 —— 那一点的梯度已经归零，它动不了")
        tag = ledger_text("停在这：|梯度| = {momentum.gray_final_slope}", size="label", color="ink")
        tag.next_to(stop, DOWN, buff=theme.space("close"))
        self.play(FadeIn(tag), run_time=0.5)

        self.beat(says="绿的那条，带着上一步的速度冲了过去，落进了后面那个更深的谷")
        green_xs = run.GREEN.value[:GREEN_SHOWN + 1]
        green = VGroup(*(Dot(p, radius=0.06, color=theme.color(HEAVY_BALL)) for p in on_curve(WHOLE, green_xs)))
        self.play(LaggedStart(*(FadeIn(d) for d in green[:SWING_BACK.start]), lag_ratio=0.5), run_time=2.0,
                  rate_func=linear)
        self.beat(says="它还冲过了头，然后荡回来 —— 你看那几个点")
        self.play(LaggedStart(*(FadeIn(d) for d in green[SWING_BACK.start:]), lag_ratio=0.5), run_time=1.2,
                  rate_func=linear)
        rings = VGroup(*(Circle(radius=RING_RADIUS, color=theme.color("ink"), stroke_width=3).move_to(green[k])
                         for k in apart(green, SWING_BACK)[-RINGS_SHOWN:]))
        swing = words("冲过头，荡回来", size="label", color="ink").next_to(rings, UP, buff=theme.space("gap") + SWING_LABEL_LIFT)
        self.play(Create(rings), run_time=0.6)
        self.play(FadeIn(swing), run_time=0.3)

    # ---- Ⓑ the crossing, to scale --------------------------------------------------------------

    def crossing_panel(self):
        self.start_panel("B", "越过坑底那个瞬间的账", says="它凭什么冲得过去")
        k = run.CROSSING.value
        before, here, after = run.GREEN.value[k - 1:k + 2]
        curve = self.loss_curve(PIT)
        pit_x = run.CRITICAL.value[2]
        pit = DashedLine(on_curve(PIT, [pit_x])[0], on_curve(PIT, [pit_x])[0] + DOWN * PIT_MARK,
                         color=theme.color("muted"))
        pit_label = words("坑底", size="small", color="muted").next_to(pit, DOWN, buff=theme.space("fine"))
        ghost = Dot(on_curve(PIT, [before])[0], radius=0.12, color=theme.color(HEAVY_BALL), fill_opacity=0.3)
        ball = Dot(on_curve(PIT, [here])[0], radius=0.14, color=theme.color(HEAVY_BALL))
        self.play(Create(curve), run_time=0.8)          # the curve first: labels and balls sit on it
        self.play(FadeIn(pit), FadeIn(pit_label), FadeIn(ghost), FadeIn(ball), run_time=0.5)

        self.beat(says="我把它刚越过坑底那一刻的账，拆成两项摆在这儿 —— 箭头的长度和方向，都是按真实数值画的")
        # 「刚越过坑底那一刻」: which dot is which, said now.
        name_of = {"上一步": ghost, "这一步": ball}
        marks = VGroup(*(self.iterate_name(name, dot) for name, dot in name_of.items()))
        self.play(FadeIn(marks), run_time=0.4)
        x_ball = ball.get_center()[0]
        # The guide stops above 「这一步」: a dashed line never runs through a label.
        guide = DashedLine([x_ball, ARROW_ROWS_Y[0] + 0.35, 0], marks[1].get_top() + UP * theme.space("fine"),
                           color=theme.color("muted"), stroke_width=2)
        scale_note = words("箭头：按真实数值画，和曲线比例相同", size="small", color="muted")
        scale_note.move_to([x_ball, ARROW_ROWS_Y[0] + 0.65, 0], aligned_edge=LEFT)
        self.play(Create(guide), run_time=0.4)
        self.play(FadeIn(scale_note), run_time=0.4)

        rows = (("梯度项 {momentum.crossing.gradient_term} →", run.GRADIENT_TERM, GRADIENT),
                ("← 惯性项 {momentum.crossing.momentum_term}", run.MOMENTUM_TERM, INERTIA),
                ("← 净移动 {momentum.crossing.net} · 继续往前", run.NET, HEAVY_BALL))
        signs = (1.0, -1.0, -1.0)           # the gradient term points right (back), the others left (onward)
        says = ("第一项，梯度这一项：零点零九二，朝右", "第二项，惯性这一项：一点三零四，朝左",
                "两个加起来，净移动一点二一三，朝左 —— 继续往前")
        for i, ((template, term, color), sign, y) in enumerate(zip(rows, signs, ARROW_ROWS_Y)):
            self.beat(says=says[i])
            shown = term_arrow(x_ball, y, sign * term.value, color)
            shown.term_of = term.key
            label = ledger_text(template, size="label", color=color)
            label.next_to([max(x_ball, shown.get_right()[0]), y, 0], RIGHT, buff=theme.space("medium"))
            self.play(GrowArrow(shown), run_time=0.6)
            self.play(FadeIn(label), run_time=0.3)
            if i == 0:
                self.beat(says="注意方向 —— 它在把球往回拉。因为球刚越过坑底，坡正拽着它回去")
                back = words("往回拉", size="label", color=GRADIENT).next_to(label, RIGHT, buff=theme.space("small"))
                self.play(FadeIn(back), run_time=0.4)
        left_behind = ball.copy().set_opacity(0.45)
        self.add(left_behind)
        self.play(ball.animate.move_to(on_curve(PIT, [after])[0]), run_time=0.8)
        self.play(FadeIn(self.iterate_name("下一步", ball)), run_time=0.4)

        self.beat(says="梯度是反对它继续走的。 是惯性把它带出去的",
                  takeaway="梯度是反对它继续走的，是惯性把它带出去的")
        self.beat(says="这个主意有多老")
        self.beat(says="一九六四年")
        # The year alone first, big and neutral, in the empty corner left of the gradient row.
        year = ledger_text("{history.polyak.year}", size="takeaway").move_to([HISTORY_X, HISTORY_Y, 0], aligned_edge=LEFT)
        self.play(FadeIn(year), run_time=0.5)
        self.beat(says="比反向传播那篇 Nature 论文还早二十二年",
                  takeaway="比反向传播那篇 Nature 论文还早 {history.polyak_lead_years} 年")
        backprop = ledger_text("反向传播 · Nature · {history.backprop_nature.year}", size="small", color="muted")
        backprop.next_to(year, DOWN, buff=theme.space("tight"), aligned_edge=LEFT)
        self.play(FadeIn(backprop), run_time=0.4)
        self.beat(says="而他给这个方法起的名字是 —— 「小重球法」")
        name = words("Polyak ·「小重球法」", size="label").next_to(year, RIGHT, buff=theme.space("medium"))
        self.play(FadeIn(name), run_time=0.5)

    def iterate_name(self, name: str, dot: Dot):
        """Which iterate a dot is, just above it."""
        return words(name, size="small", color="muted").next_to(dot, UP, buff=theme.space("close"))

    # ---- Ⓒ β as a memory knob -------------------------------------------------------------------

    def memory_panel(self):
        # The heading asks; 「记多久」 is the answer C.5 gives (the knob's name).
        self.start_panel("C", "β 是什么", says="最后一件事：那个 β 是什么")
        self.beat(says="「上一步的移动」里其实装着过去所有步，只是越老越轻 ——  每往前追一步就再乘一个 β。就是这排柱子",
                  takeaway="每往前追一步就再乘一个 β：越老越轻")
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
        old_label.align_to(bars[-1], LEFT).align_to(now_label, UP)
        self.play(LaggedStart(*(GrowFromEdge(b, DOWN) for b in bars), lag_ratio=0.15), run_time=2.0)
        self.play(FadeIn(now_label), FadeIn(old_label), run_time=0.4)

        self.beat(says="所以它的有效窗口大约是 1 除以（1 减 β）")
        window = int(round(run.WINDOW_09.value))
        brace = Brace(VGroup(*bars[:window]), UP, color=theme.color("ink"))
        rule_of_thumb = formula("有效窗口 ≈ 1 ÷ (1 − β)", size="label", color="muted").next_to(brace, UP, buff=theme.space("tight"))
        self.play(FadeIn(brace), run_time=0.4)
        self.play(FadeIn(rule_of_thumb), run_time=0.4)
        self.beat(says="β 等于零点九，就是十步左右")
        brace_label = ledger_text("β = {optim.adam.beta1}：约 {momentum.window_beta_0p9} 步", size="label")
        brace_label.next_to(rule_of_thumb, UP, buff=theme.space("tight"))
        self.play(FadeIn(brace_label), run_time=0.5)

        self.beat(says="β 不是玄学，它是一个「记多久」的旋钮")
        knob = self.knob().move_to([KNOB_X, KNOB_Y, 0])
        self.play(FadeIn(knob[:2]), run_time=0.8)
        self.beat(says="而今天 Adam 的默认 β₁ 是多少？零点九")
        self.play(FadeIn(knob[2]), run_time=0.5)

        self.beat(says="图上那条能出来，是因为那个坑够浅；换个更深的坑，它一样出不来")
        self.deeper_pit()
        self.beat(says="它治的是「慢」，不是「最优」", takeaway="它治的是「慢」，不是「最优」", replaces=True)

    def deeper_pit(self):
        """The brake: the same heavy ball on a deeper pit stays in it."""
        ridge = run.CRITICAL.value[1]
        bump = {"bump_height": run.BUMP_HEIGHT.value, "bump_width": run.BUMP_WIDTH.value, "ridge": ridge}
        xs = np.linspace(*THUMB.data[0], 300)
        curve = clipped_curve(THUMB, np.column_stack([xs, run.deeper_loss(xs, **SHAPE, **bump)]), color="ink",
                              stroke_width=THUMB_STROKE)
        path = run.GREEN_DEEPER.value[:GREEN_SHOWN + 1]
        dots = VGroup(*(Dot(p, radius=THUMB_DOT_RADIUS, color=theme.color(HEAVY_BALL))
                        for p in THUMB.points(np.column_stack([path, run.deeper_loss(path, **SHAPE, **bump)]))))
        # The curve's right end climbs to its top edge: the title stands a gap above it.
        title = keep_inside(words("换个更深的坑：一样出不来", size="label", color=HEAVY_BALL).next_to(curve, UP, buff=theme.space("gap")))
        title.shift(LEFT * max(0.0, title.get_right()[0] - THUMB_TITLE_RIGHT))
        self.play(Create(curve), run_time=0.6)
        self.play(FadeIn(title), run_time=0.3)
        self.play(LaggedStart(*(FadeIn(d) for d in dots), lag_ratio=0.4), run_time=1.5, rate_func=linear)

    def knob(self) -> VGroup:
        stops = VGroup(
            ledger_text("β = {momentum.knob.beta_low} → {momentum.window_beta_low} 步", size="label", color="muted"),
            ledger_text("β = {optim.adam.beta1} → {momentum.window_beta_0p9} 步", size="body", color=INERTIA),
            ledger_text("β = {momentum.knob.beta_high} → {momentum.window_beta_high} 步", size="label", color="muted"),
        ).arrange(DOWN, aligned_edge=LEFT, buff=theme.space("edge"))
        adam = ledger_text("Adam 默认 β₁ = {optim.adam.beta1}", size="small", color=INERTIA)
        adam.next_to(stops, DOWN, buff=0.45).align_to(stops, LEFT)
        name = words("「记多久」的旋钮", size="label", color="ink").next_to(stops, UP, buff=theme.space("edge")).align_to(stops, LEFT)
        return VGroup(name, stops, adam)
