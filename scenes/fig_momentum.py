"""fig-momentum: gradient descent with and without momentum — the heavy ball.

Ⓐ 同一条 loss，两次运行: gray (no inertia) stops in the shallow pit — its iterates drawn while
   they land apart, the stop marked once — green (heavy ball) carries over the ridge into the
   deeper valley, overshoots and swings back (an arc shows the swing).
Ⓑ 越过坑底那个瞬间的账: at green's first iterate past the pit bottom, the gradient term points
   back (right), the momentum term onward (left) from the gradient's tip, the net from the ball
   to where it lands — tip to tail, at one true scale, the curve's own (ARROW_SCALE). Then the
   history on its own stage: the diagram steps back, the question, 1964 alone, the 22 years to
   the backprop paper on a timeline, Polyak's name for it; then the crossing and its three
   arrows come back beside his sentence (its sense, from the notes: the page is not read yet).
Ⓒ β 是什么: the step's formula with β in it; the weights β^k of past gradients, the window
   1/(1 − β); the knob turned (the bars follow); Adam's β₁ asked, then answered (the range the
   notes give Polyak is said, not drawn: it is unconfirmed). The brake (the heading turns to 动量的边界): the shallow pit the
   ball escapes beside a deeper one where it stays, each named under its pit; on the deeper one a
   second start, on the left wall, ends in the deep valley (one curve, two starts ringed, two ends).
   The seam to 第一节 (the heading turns to 那列数从哪来): the column of numbers the step needs,
   bracketed, and the gradient it is the negative of.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, Create, FadeIn, FadeOut, FadeTransform, GrowArrow, GrowFromEdge,
                   LaggedStart, VGroup, linear)

from lecture_numerics import momentum as run
from scenes.kit import marks, theme, widgets
from scenes.kit.arrows import arrow, curved_arrow
from scenes.kit.bars import StackedBar
from scenes.kit.base import LectureScene
from scenes.kit.data_window import DataWindow, clipped_curve
from scenes.kit.panels import panel_header
from scenes.kit.text import formula, ledger_text, line, number, words

# The runs by what they are: the notes call the plain run 灰 (muted: it stops) and the heavy ball
# 绿 (it gets out: the status green). The step's terms by concept: the gradient term is a gradient,
# the momentum term is the optimizer's state (its memory, m), the net move is the step itself.
PLAIN, HEAVY_BALL, GRADIENT, INERTIA, NET = "muted", "good", "gradients", "optimizer", "ink"
SHAPE = {"height": run.HEIGHT.value, "tilt": run.TILT.value, "width": run.WIDTH.value}
WHOLE = DataWindow(((-8.0, 9.0), (-1.6, 9.0)), screen_center=(-0.4, 0.3), screen_size=(11.5, 4.4))
CURVE_STROKE = theme.stroke("regular")
# Ⓐ
MIN_SEEN = 0.08                  # a gray iterate closer than this to the last one drawn is not drawn
GREEN_SHOWN = 32                 # green iterates drawn (later ones sit on top of each other)
SWING_BACK = range(17, 25)       # green's overshoot past the valley bottom and the way back
RIDGE_DOT = 7                    # green's iterate nearest the ridge's top: its name stands over it
SWING_BEND = -1.1                # the arc over the swing, radians (clockwise: it bows upward)
SWING_LIFT = 0.45                # the swing's arc rides this far over the dots it spans
STOP_RING = 0.17
LEGEND_GAP = "close"             # a run's name, this far from its last dot
# Ⓑ zooms in on the crossing: from just left of the next iterate to just right of the last, so
# that at the curve's own x-scale the smallest term, the gradient, is still a readable arrow
# (≥ 30 px at 1280×720).
PIT = DataWindow(((2.55, 5.45), (0.8, 2.6)), screen_center=(-0.3, -0.2), screen_size=(10.8, 1.8))
# The three arrows are drawn at the curve's x-scale (scene units per parameter unit): the net
# arrow's tip stands above where the ball lands.
ARROW_SCALE = PIT.screen_size[0] / (PIT.data[0][1] - PIT.data[0][0])
ARROW_ROWS_Y = (2.35, 1.85, 1.35)  # gradient, momentum (starting at the gradient's tip), net
SCALE_NOTE_LIFT = 0.5            # the note on the arrows' scale, over the first row
PIT_MARK = 0.3                   # the dashed stub under the pit bottom, above its label
GHOST_OPACITY = 0.3              # the iterate before the crossing: pale, since it is gone
DIM = 0.15                       # the curve and balls, stepped back for the history
TIMELINE = dict(lo=1960, hi=1990, width=10.0)   # years: where the two marks sit (the marks are ledger numbers)
TIMELINE_Y = 1.6
QUOTE_AT = np.array([6.6, 2.75, 0])   # top right of Polyak's sentence, right of the three arrows
# Ⓒ
FORMULA_Y = 2.45
BAR_BASE_Y, BAR_TOP = -1.25, 0.8
BARS_LEFT, BARS_RIGHT = -6.4, 1.4
BAR_SHARE, BAR_FILL = 0.72, 0.85  # a weight's bar fills this share of its slot
BAR_FLOOR = 0.004                # a bar too small to draw keeps this height (scene units)
KNOB_AT = np.array([2.4, 1.55, 0])  # top left of the knob's card (Polyak's range is named over it)
# The brake: the shallow pit the ball escapes, beside a deeper one where it stays.
SHALLOW = DataWindow(((-8.0, 9.0), (-1.6, 9.0)), screen_center=(-3.3, 0.95), screen_size=(5.8, 2.4))
DEEPER = DataWindow(((-8.0, 9.0), (-1.6, 10.0)), screen_center=(3.3, 0.95), screen_size=(5.8, 2.4))
PIT_DOT = 0.065
START_RING = 0.2                 # 「从哪儿出发」: the ring round each pit run's first dot
# The seam: the column of fig-descent Ⓒ, from fig-circuit's backward pass.
COLUMN_X, COLUMN_TOP, COLUMN_STEP = -1.5, 1.6, 0.75
SOURCE_GAP = 1.8                 # the column → where it came from: room for the arrow between


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


def term_arrow(x: float, y: float, value: float, color: str):
    """One term of the step as an arrow from ``x``, ``value`` parameter units long (signed)."""
    return arrow([x, y, 0], [x + value * ARROW_SCALE, y, 0], color, weight="heavy", buff=None)


class FigMomentum(LectureScene):
    scene_id = "fig-momentum"
    title = "动量：给它一点惯性"
    ledger_keys = ("momentum.run_count", "momentum.gray_final_slope", "momentum.crossing.gradient_term",
                   "momentum.crossing.momentum_term", "momentum.crossing.net", "history.polyak.year",
                   "history.polyak_lead_years", "history.backprop_nature.year", "momentum.window_beta_0p9",
                   "optim.adam.beta1", "momentum.knob.beta_low", "momentum.window_beta_low",
                   "momentum.knob.beta_high", "momentum.window_beta_high", "descent.neg_grad_a",
                   "descent.neg_grad_b", "descent.neg_grad_c", "slider.desk_faders", "circuit.grad_a", "circuit.grad_b",
                   "circuit.grad_c", "momentum.deeper.green_path_left")

    def construct(self):
        self.two_runs_panel()
        self.crossing_panel()
        self.memory_panel()

    def loss_curve(self, window: DataWindow, loss=None, *, upto: float | None = None, **style):
        """The loss across the window; ``upto``: it stops there (at the runs' start, whose dot
        ends it rather than a stub of curve beyond)."""
        (x0, x1), _ = window.data
        xs = np.linspace(x0, x1 if upto is None else min(x1, upto), 400)
        ys = (loss or (lambda x: run.loss(x, **SHAPE)))(xs)
        return clipped_curve(window, np.column_stack([xs, ys]), color="ink", stroke_width=CURVE_STROKE, **style)

    # ---- Ⓐ one loss, two runs ----------------------------------------------------------------

    def two_runs_panel(self):
        # The panel is named for what is said first (动量); the picture waits for 「看这张图」.
        self.start_panel("A", "动量：给它一点惯性", says="办法叫动量。一句话就能说完")
        self.beat(says="这一步怎么动，不只看当前的梯度，还要看上一步是怎么动的",
                  takeaway="这一步怎么动：不只看当前的梯度，还要看上一步是怎么动的")
        self.beat(says="说白了就是给它一点惯性", takeaway="说白了，就是给它一点惯性")
        self.beat(says="看这张图。同一条 loss、同一个起点，唯一的差别就是有没有惯性")
        curve = self.loss_curve(WHOLE, upto=run.START.value)
        start = marks.dot(on_curve(WHOLE, [run.START.value])[0], "ink", size="large")
        picture = panel_header("A", "同一条 loss，{momentum.run_count}次运行")
        self.play(FadeTransform(self.header, picture), Create(curve), FadeIn(start), run_time=1.0)
        self.header = picture
        start_label = words("同一个起点", size="label").next_to(start, LEFT, buff=theme.space("close"))
        self.play(FadeIn(start_label), run_time=0.5)

        self.beat(says="灰的那条，滚到半路这个浅坑就停了")
        gray_xs = distinct_on_screen(WHOLE, run.GRAY.value)
        gray = VGroup(*(marks.dot(p, PLAIN, size="regular") for p in on_curve(WHOLE, gray_xs)))
        self.play(LaggedStart(*(FadeIn(d) for d in gray), lag_ratio=0.5), run_time=2.0, rate_func=linear)
        # Where it stops, marked once: its last iterate (the ones after it sit on this spot).
        stop = marks.ring(on_curve(WHOLE, [run.GRAY.value[-1]])[0], "ink", radius=STOP_RING)
        # Under the pit's right wall, in the open below its dots (the stop's tag goes left of it).
        gray_name = words("灰：没有惯性", size="label", color=PLAIN).next_to(stop, DOWN + RIGHT, buff=theme.space(LEGEND_GAP))
        self.play(Create(stop), FadeIn(gray_name), run_time=0.5)

        self.beat(says="而且我要强调：它是真停 —— 那一点的梯度已经归零，它动不了",
                  takeaway="它是真停：在那一点，它动不了")
        tag = ledger_text("|梯度| = {momentum.gray_final_slope} → 真停", size="label")
        tag.next_to(stop, DOWN + LEFT, buff=theme.space("close"))
        self.play(FadeIn(tag), run_time=0.5)

        # The green run takes over: the gray run's lines have been drawn (its stop and its tag).
        self.beat(says="绿的那条，带着上一步的速度冲了过去，落进了后面那个更深的谷",
                  takeaway="带着上一步的速度冲过去，落进更深的谷")
        self.play(*self.clear_takeaways(), run_time=0.4)
        green_xs = run.GREEN.value[:GREEN_SHOWN + 1]
        green = VGroup(*(marks.dot(p, HEAVY_BALL, size="small") for p in on_curve(WHOLE, green_xs)))
        self.play(LaggedStart(*(FadeIn(d) for d in green[:SWING_BACK.start]), lag_ratio=0.5), run_time=2.0,
                  rate_func=linear)
        green_name = words("绿：有惯性", size="label", color=HEAVY_BALL)
        green_name.next_to(green[RIDGE_DOT], UP, buff=theme.space("medium"))
        self.play(FadeIn(green_name), run_time=0.4)

        self.beat(says="它还冲过了头，然后荡回来 —— 你看那几个点")
        self.play(LaggedStart(*(FadeIn(d) for d in green[SWING_BACK.start:]), lag_ratio=0.5), run_time=1.2,
                  rate_func=linear)
        self.show_the_swing(green)

    def show_the_swing(self, green: VGroup) -> None:
        """「你看那几个点」: the farthest dot past the valley and the dots on the way back, ringed,
        and an arc over them from the far point back: out, then back."""
        far, back = SWING_BACK.start, SWING_BACK.stop - 1
        rings = VGroup(*(marks.ring(green[k], "accent", weight="bold") for k in (far, back)))
        # From the far ring's top to the way-back ring's: the tip lands on the point to look at.
        lift = UP * SWING_LIFT
        swing = curved_arrow(rings[0].get_top() + lift, rings[1].get_top() + UP * theme.space("hair"), "accent",
                             arc=SWING_BEND, weight="bold")
        label = words("冲过头，荡回来", size="label").next_to(swing, UP, buff=theme.space("tight"))
        self.play(Create(rings), run_time=0.5)
        self.play(Create(swing), run_time=0.6)
        self.play(FadeIn(label), run_time=0.3)

    # ---- Ⓑ the crossing, to scale --------------------------------------------------------------

    def crossing_panel(self):
        self.start_panel("B", "越过坑底那个瞬间的账", says="它凭什么冲得过去", takeaway="它凭什么冲得过去？")
        k = run.CROSSING.value
        before, here, after = run.GREEN.value[k - 1:k + 2]
        curve = self.loss_curve(PIT)
        pit_x = run.CRITICAL.value[2]
        pit_at = on_curve(PIT, [pit_x])[0]
        pit = marks.segment(pit_at, pit_at + DOWN * PIT_MARK, "muted", weight="thin", dashed=True)
        pit_label = words("坑底", size="small", color="muted").next_to(pit_at + DOWN * PIT_MARK, DOWN,
                                                                     buff=theme.space("fine"))
        ghost = marks.dot(on_curve(PIT, [before])[0], HEAVY_BALL, size="ball", opacity=GHOST_OPACITY)
        ball = marks.dot(on_curve(PIT, [here])[0], HEAVY_BALL, size="ball")
        self.play(Create(curve), run_time=0.8)          # the curve first: labels and balls sit on it
        self.play(FadeIn(pit), FadeIn(pit_label), FadeIn(ghost), FadeIn(ball), run_time=0.5)

        self.beat(says="我把它刚越过坑底那一刻的账，拆成两项摆在这儿 —— 箭头的长度和方向，都是按真实数值画的")
        names = VGroup(self.iterate_name("上一步", ghost), self.iterate_name("这一步", ball))
        x_ball = ball.get_center()[0]
        # The guide stops above 「这一步」: a dashed line never runs through a label.
        guide = marks.segment([x_ball, ARROW_ROWS_Y[0] + theme.space("medium"), 0], names[1].get_top() + UP * theme.space("fine"),
                              "muted", weight="thin", dashed=True)
        scale_note = words("按真实比例", size="small", color="muted")
        scale_note.move_to([x_ball, ARROW_ROWS_Y[0] + SCALE_NOTE_LIFT, 0], aligned_edge=LEFT)
        self.play(FadeIn(names), run_time=0.4)
        self.play(Create(guide), FadeIn(scale_note), run_time=0.5)

        arrows = self.the_three_terms(x_ball, ball, after)
        self.beat(says="梯度是反对它继续走的。 是惯性把它带出去的",
                  takeaway="梯度反对它继续走，是惯性带它出去")
        # The ⭐⭐⭐ line alone at the bottom: the arrows carry the lines before it.
        self.play(*self.clear_takeaways(), run_time=0.4)
        stage = VGroup(curve, pit, ghost, ball)
        stage.ground, stage.ghost, stage.ball = VGroup(curve, pit), ghost, ball
        said = VGroup(guide, *arrows.shapes, pit_label, names, scale_note, *arrows.labels)
        years = self.history(stage, said)
        self.polyaks_sentence(stage, years, VGroup(*arrows.shapes))

    def the_three_terms(self, x_ball: float, ball, after: float) -> VGroup:
        """Gradient term from the ball (right, back), momentum term from the gradient's tip (left,
        onward), net from the ball to where it lands: tip to tail, so the net is the sum drawn."""
        g, m = run.GRADIENT_TERM.value, run.MOMENTUM_TERM.value
        y_g, y_m, y_n = ARROW_ROWS_Y
        gradient = term_arrow(x_ball, y_g, g, GRADIENT)
        tip_x = gradient.get_end()[0]
        momentum = term_arrow(tip_x, y_m, -m, INERTIA)
        net = term_arrow(x_ball, y_n, -run.NET.value, NET)
        for shown, term in zip((gradient, momentum, net), (run.GRADIENT_TERM, run.MOMENTUM_TERM, run.NET)):
            shown.term_of = term.key
        carry = marks.segment([tip_x, y_g, 0], [tip_x, y_m, 0], "muted", weight="thin", dashed=True)
        labels = VGroup(
            ledger_text("梯度项 {momentum.crossing.gradient_term} →", size="label", color=GRADIENT)
            .next_to(gradient, RIGHT, buff=theme.space("medium")),
            ledger_text("← 惯性项 {momentum.crossing.momentum_term}", size="label", color=INERTIA)
            .next_to([tip_x, y_m, 0], RIGHT, buff=theme.space("medium")),
            ledger_text("← 净移动 {momentum.crossing.net}：往前", size="label", color=NET)
            .next_to([x_ball, y_n, 0], RIGHT, buff=theme.space("medium")),
        )
        self.beat(says="第一项，梯度这一项：零点零九二，朝右")
        self.play(GrowArrow(gradient), run_time=0.6)
        self.play(FadeIn(labels[0]), run_time=0.3)
        self.beat(says="注意方向 —— 它在把球往回拉。因为球刚越过坑底，坡正拽着它回去",
                  takeaway="注意方向：它在把球往回拉")
        back = words("往回拉", size="label", color=GRADIENT).next_to(labels[0], RIGHT, buff=theme.space("small"))
        self.play(FadeIn(back), run_time=0.4)
        self.beat(says="第二项，惯性这一项：一点三零四，朝左")
        self.play(Create(carry), run_time=0.3)
        self.play(GrowArrow(momentum), run_time=0.7)
        self.play(FadeIn(labels[1]), run_time=0.3)
        self.beat(says="两个加起来，净移动一点二一三，朝左 —— 继续往前")
        # The three are rounded each on its own: their last digits need not add up.
        rounded = words("（各自四舍五入）", size="small", color="muted")
        rounded.next_to(labels[2], RIGHT, buff=theme.space("small"))
        labels.add(rounded)
        self.play(GrowArrow(net), run_time=0.7)
        self.play(FadeIn(labels[2]), FadeIn(rounded), run_time=0.3)
        left_behind = ball.copy().set_opacity(0.45)
        self.add(left_behind)
        self.play(ball.animate.move_to(on_curve(PIT, [after])[0]), run_time=0.8)
        landed = self.iterate_name("下一步", ball)
        self.play(FadeIn(landed), run_time=0.4)
        group = VGroup(gradient, momentum, net)
        group.shapes = [gradient, momentum, net, carry, left_behind]
        group.labels = [*labels, back, landed]
        return group

    def history(self, stage: VGroup, said: VGroup) -> None:
        """The year on its own stage: the curve and the balls step back, the arrows and their
        words leave (said; pale text would lose its contrast, and the timeline takes their
        place), the question, 1964 alone, then the backprop paper 22 years later."""
        self.beat(says="这个主意有多老", takeaway="这个主意有多老？")
        # The history has a stage of its own: the diagram's lines leave with its arrows.
        self.play(stage.animate.set_opacity(DIM), FadeOut(said), *self.clear_takeaways(), run_time=0.6)
        self.beat(says="一九六四年", takeaway="{history.polyak.year} 年", replaces=True)
        years = widgets.number_line(TIMELINE["lo"], TIMELINE["hi"], width=TIMELINE["width"],
                                    points=[(run_year("history.polyak.year"), "{history.polyak.year}", INERTIA),
                                            (run_year("history.backprop_nature.year"),
                                             "反向传播 · Nature · {history.backprop_nature.year}", GRADIENT)])
        years.move_to([0, TIMELINE_Y, 0])
        polyak, backprop = years.marked(0), years.marked(1)
        self.play(Create(years.line), FadeIn(polyak), run_time=0.6)
        self.beat(says="比反向传播那篇 Nature 论文还早二十二年",
                  takeaway="比反向传播那篇 Nature 论文还早 {history.polyak_lead_years} 年")
        lead = widgets.labelled_brace((years.point(run_year("history.polyak.year")),
                                       years.point(run_year("history.backprop_nature.year"))),
                                      "{history.polyak_lead_years} 年", DOWN, "ink", gap="small")
        self.play(FadeIn(backprop), run_time=0.5)
        self.play(FadeIn(lead), run_time=0.5)
        self.beat(says="而他给这个方法起的名字是 —— 「小重球法」", takeaway="Polyak 管它叫「小重球法」")
        name = words("Polyak", size="label", color=INERTIA).next_to(polyak.label, UP, buff=theme.space("tight"))
        self.play(FadeIn(name), run_time=0.4)
        return VGroup(years, lead, name)

    def polyaks_sentence(self, stage: VGroup, years: VGroup, arrows: VGroup) -> None:
        """「说的就是我们刚才那三个箭头」: the timeline leaves, the crossing and its three arrows
        come back, and Polyak's sentence stands beside them (quoted from the notes: 待核)."""
        self.beat(says="六十年前的一句话，说的就是我们刚才那三个箭头",
                  takeaway="Polyak 那句话，说的就是刚才这些箭头")
        quote = VGroup(words("「运动不沿着力（负梯度）的方向走，", size="label"),
                       words("因为有惯性。」", size="label"))
        quote.arrange(DOWN, aligned_edge=LEFT, buff=theme.space("small"))
        # The page is not read yet: the card gives the sense, and says so (never 待核 on screen).
        who = line("—— 大意，Polyak {history.polyak.year}", size="small", color="muted")
        card = widgets.card([quote, who], "muted", pad="medium", gap="small")
        card.move_to(QUOTE_AT, aligned_edge=UP + RIGHT)
        # The history's lines leave with its timeline: the card, the arrows and this line remain.
        self.play(FadeOut(years), stage.ground.animate.set_opacity(1), stage.ball.animate.set_opacity(1),
                  stage.ghost.animate.set_opacity(GHOST_OPACITY), *self.clear_takeaways(), run_time=0.5)
        self.play(FadeIn(arrows), run_time=0.5)
        self.play(FadeIn(card), run_time=0.5)

    @staticmethod
    def iterate_name(name: str, dot):
        """Which iterate a dot is, just above it."""
        return words(name, size="small", color="muted").next_to(dot, UP, buff=theme.space("close"))

    # ---- Ⓒ β as a memory knob -------------------------------------------------------------------

    def memory_panel(self):
        self.start_panel("C", "β 是什么", says="最后一件事：那个 β 是什么")
        # From the brake on, the panel is about momentum's limits: its heading says so.
        header = self.mobjects[-1]
        self.header_title = header[1]
        self.brake_title = line("动量的边界", size="heading").move_to(header[1], aligned_edge=LEFT)
        step = self.step_formula().move_to([0, FORMULA_Y, 0])
        step.mark = marks.frame_around(step.beta, "accent", pad="small", weight="bold")
        self.play(FadeIn(step), run_time=0.6)
        self.play(Create(step.mark), run_time=0.4)

        self.beat(says="「上一步的移动」里其实装着过去所有步，只是越老越轻 ——  每往前追一步就再乘一个 β。就是这排柱子",
                  takeaway="每往前追一步就再乘一个 β：越老越轻")
        bars = self.weight_bars(run.WEIGHTS.value)
        now_label = words("这一步", size="small").next_to(bars[0], DOWN, buff=theme.space("small"))
        old_label = words("← 越老越轻", size="small", color="muted").next_to(bars[-1], DOWN, buff=theme.space("small"))
        old_label.align_to(bars[-1], LEFT).align_to(now_label, UP)
        self.play(FadeOut(step.mark), LaggedStart(*(GrowFromEdge(b, DOWN) for b in bars), lag_ratio=0.15), run_time=2.0)
        self.play(FadeIn(now_label), FadeIn(old_label), run_time=0.4)

        self.beat(says="所以它的有效窗口大约是 1 除以（1 减 β）")
        rule = formula("有效窗口 ≈ 1 ÷ (1 − β)", size="label", color="ink")
        brace = self.window_brace(bars, run.WINDOW_09.value, "β = {optim.adam.beta1}：约 {momentum.window_beta_0p9} 步")
        rule.next_to(brace.label, LEFT, buff=theme.space("wide"))     # the formula's row is above
        self.play(FadeIn(brace.brace), run_time=0.4)
        self.play(FadeIn(rule), run_time=0.4)
        self.beat(says="β 等于零点九，就是十步左右")
        self.play(FadeIn(brace.label), run_time=0.5)

        self.beat(says="β 不是玄学，它是一个「记多久」的旋钮", takeaway="β：「记多久」的旋钮")
        knob = self.knob()
        self.play(FadeOut(rule), FadeIn(knob.box), FadeIn(knob.title), FadeIn(knob.stops), run_time=0.6)
        brace = self.turn_the_knob(bars, brace, knob)

        self.beat(says="而今天 Adam 的默认 β₁ 是多少？零点九",
                  takeaway="Adam 的默认 β₁：{optim.adam.beta1}")
        # The question stands alone first; the answer comes when the speaker gives it.
        self.play(FadeIn(knob.asked), run_time=0.4)
        self.wait(1.5)
        # The answer is the knob's own 0.9 stop, framed, and the line at the bottom (said once).
        answer = marks.frame_around(knob.stops[1], "accent", pad="tight", weight="bold")
        self.play(FadeOut(knob.asked), Create(answer), run_time=0.5)
        self.show_takeaway()

        # The brake clears the knob away, and its line takes the Adam line's place (it would
        # otherwise stay the biggest text over pictures that no longer show it).
        self.beat(says="动量能冲过去的是「浅坑」，不是所有的坑", takeaway="动量能冲过去的是「浅坑」")
        shown = VGroup(knob.box, knob.title, knob.stops, answer)
        self.play(FadeOut(VGroup(bars, brace, shown, now_label, old_label, step)), *self.clear_takeaways(),
                  FadeOut(self.header_title), FadeIn(self.brake_title), run_time=0.5)
        shallow = self.pit_run(SHALLOW, run.GREEN.value[:GREEN_SHOWN + 1], None, "坑浅：冲出来了",
                               run.CRITICAL.value[2])
        self.play(Create(shallow.curve), run_time=0.6)
        self.play(LaggedStart(*(FadeIn(d) for d in shallow.dots), lag_ratio=0.4), run_time=1.2, rate_func=linear)
        self.play(FadeIn(shallow.label), run_time=0.3)
        self.beat(says="图上那条能出来，是因为那个坑够浅；换个更深的坑，它一样出不来")
        deeper_path = run.GREEN_DEEPER.value[:GREEN_SHOWN + 1]
        deeper = self.pit_run(DEEPER, deeper_path, self.deeper_loss, "坑深：出不来", float(deeper_path[-1]))
        self.play(Create(deeper.curve), run_time=0.6)
        self.play(LaggedStart(*(FadeIn(d) for d in deeper.dots), lag_ratio=0.4), run_time=1.5, rate_func=linear)
        self.play(FadeIn(deeper.label), run_time=0.3)
        # One landscape, two starts, two ends: the same heavy ball on the deeper loss, started on
        # the left wall, ends in the deep valley. The start still decides, on one curve.
        self.beat(says="所以它降低的是「从哪儿出发决定一切」的程度，不是消除它",
                  takeaway="降低的是「起点说了算」的程度，不是消除它")
        left_path = run.GREEN_DEEPER_LEFT.value[:GREEN_SHOWN + 1]
        left_dots = self.pit_dots(DEEPER, left_path, self.deeper_loss)
        valley = self.pit_label(DEEPER, self.deeper_loss, "落进深谷", run.CRITICAL.value[0])
        starts = VGroup(*(marks.ring(dots[0], "accent", radius=START_RING, weight="bold")
                          for dots in (deeper.dots, left_dots)))
        self.play(LaggedStart(*(FadeIn(d) for d in left_dots), lag_ratio=0.4), run_time=1.5, rate_func=linear)
        self.play(FadeIn(valley), run_time=0.3)
        self.play(Create(starts), run_time=0.5)
        # The sentence said now leads alone: the brake's lines are drawn (the shallow pit left, the
        # deep one kept; one curve, two starts, two ends).
        self.beat(says="它治的是「慢」，不是「最优」", takeaway="它治的是「慢」，不是「最优」")
        self.play(*self.clear_takeaways(), run_time=0.4)
        self.the_seam(VGroup(shallow, deeper, left_dots, valley, starts))

    def step_formula(self) -> VGroup:
        """这一步 ＝ 梯度项 ＋ β × 上一步的移动, with β framed: what the panel is about."""
        parts = VGroup(words("这一步 ＝", size="body"), words("梯度项", size="body", color=GRADIENT),
                       words("＋", size="body"), formula("β", size="body", color=INERTIA),
                       words("× 上一步的移动", size="body", color=INERTIA)).arrange(RIGHT, buff=theme.space("small"))
        parts.beta = parts[3]
        return parts

    def weight_bars(self, weights) -> VGroup:
        slot = (BARS_RIGHT - BARS_LEFT) / len(weights)
        bars = VGroup()
        for age, w in enumerate(weights):          # age 0 = this step, drawn rightmost
            bar = StackedBar([(w, INERTIA)], scale=BAR_TOP - BAR_BASE_Y, orientation="vertical",
                             thickness=slot * BAR_SHARE, opacity=BAR_FILL)
            bar.start_at((BARS_RIGHT - (age + 0.5) * slot, BAR_BASE_Y))
            bars.add(bar)
        return bars

    def window_brace(self, bars: VGroup, window: float, template: str) -> VGroup:
        """A brace over the newest ``window`` bars (all of them when the window is longer)."""
        shown = VGroup(*bars[:min(len(bars), int(round(window)))])
        top = BAR_TOP + theme.space("small")
        return widgets.labelled_brace(((shown.get_left()[0], top), (shown.get_right()[0], top)), template, UP, "ink")

    def knob(self) -> VGroup:
        """The knob's three stops, β → window; Adam's default asked under them (the answer is the
        0.9 stop, framed)."""
        stops = VGroup(
            ledger_text("β = {momentum.knob.beta_low} → {momentum.window_beta_low} 步", size="label"),
            ledger_text("β = {optim.adam.beta1} → {momentum.window_beta_0p9} 步", size="label"),
            ledger_text("β = {momentum.knob.beta_high} → {momentum.window_beta_high} 步", size="label"),
        ).arrange(DOWN, aligned_edge=LEFT, buff=theme.space("medium"))
        title = words("「记多久」的旋钮", size="label", color=INERTIA)
        card = widgets.card([title, stops], "muted", pad="medium", gap="medium")
        card.move_to(KNOB_AT, aligned_edge=UP + LEFT)
        asked = line("Adam 默认 β₁ ＝ ？", size="label").next_to(card, DOWN, buff=theme.space("medium")).align_to(card, LEFT)
        # No bracket names the stops Polyak's range: the range the notes give him is unconfirmed
        # (history.polyak.beta_low/high), so the speaker says it and the screen shows the knob.
        group = VGroup(card, asked)
        group.box, group.title, group.stops, group.asked = card.box, title, stops, asked
        return group

    def turn_the_knob(self, bars: VGroup, brace: VGroup, knob: VGroup) -> VGroup:
        """Turn the knob to each stop: the bars take that β's weights, the brace that window; back
        to 0.9 last."""
        stops = ((run.WEIGHTS_LOW.value, run.WINDOW_LOW.value, "β = {momentum.knob.beta_low}：约 {momentum.window_beta_low} 步", 0),
                 (run.WEIGHTS_HIGH.value, run.WINDOW_HIGH.value,
                  "β = {momentum.knob.beta_high}：约 {momentum.window_beta_high} 步，左边画不下", 2),
                 (run.WEIGHTS.value, run.WINDOW_09.value, "β = {optim.adam.beta1}：约 {momentum.window_beta_0p9} 步", 1))
        scale = BAR_TOP - BAR_BASE_Y
        for weights, window, template, row in stops:
            marker = marks.frame_around(knob.stops[row], "accent", pad="tight", weight="bold")
            heights = [max(BAR_FLOOR, w * scale) for w in weights]
            moves = [bar.animate.stretch_to_fit_height(h).align_to([0, BAR_BASE_Y, 0], DOWN)
                     for bar, h in zip(bars, heights)]
            new_brace = self.window_brace(bars.copy(), window, template)
            self.play(FadeIn(marker), FadeOut(brace), *moves, run_time=0.9)
            self.play(FadeIn(new_brace), run_time=0.4)
            self.wait(0.6)
            self.play(FadeOut(marker), run_time=0.2)
            brace = new_brace
        return brace

    def deeper_loss(self, xs):
        bump = {"bump_height": run.BUMP_HEIGHT.value, "bump_width": run.BUMP_WIDTH.value, "ridge": run.CRITICAL.value[1]}
        return run.deeper_loss(xs, **SHAPE, **bump)

    @staticmethod
    def pit_dots(window: DataWindow, path, loss) -> VGroup:
        """The heavy ball's iterates on one of the brake's losses."""
        return VGroup(*(marks.dot(p, HEAVY_BALL, radius=PIT_DOT)
                        for p in window.points(np.column_stack([path, loss(np.asarray(path))]))))

    @staticmethod
    def pit_label(window: DataWindow, loss, name: str, pit_x: float):
        """A name under the bottom at ``pit_x`` of one of the brake's losses."""
        pit = window.points(np.array([[pit_x, float(loss(np.array([pit_x]))[0])]]))[0]
        return words(name, size="body").next_to(pit, DOWN, buff=theme.space("wide"))

    def pit_run(self, window: DataWindow, path, loss, name: str, pit_x: float) -> VGroup:
        """One loss and the heavy ball's run on it, named under its pit (at ``pit_x``)."""
        loss = loss or (lambda x: run.loss(x, **SHAPE))
        curve = self.loss_curve(window, loss, upto=float(path[0]))
        dots = self.pit_dots(window, path, loss)
        label = self.pit_label(window, loss, name, pit_x)
        group = VGroup(curve, dots, label)
        group.curve, group.dots, group.label = curve, dots, label
        return group

    def the_seam(self, brake: VGroup) -> None:
        """The column the step needs, as fig-descent Ⓒ drew it, and where it came from."""
        self.beat(says="而那一整列数是从哪来的？", takeaway="而那整列数是从哪来的？")
        column = VGroup(*(number(f"descent.neg_grad_{n}", size="heading", color=GRADIENT)
                          .move_to([COLUMN_X, COLUMN_TOP - COLUMN_STEP * i, 0]) for i, n in enumerate("abc")))
        more = ledger_text("⋮ {slider.desk_faders}个数", size="label", color=GRADIENT)
        more.next_to(column, DOWN, buff=theme.space("small")).align_to(column, LEFT)
        head = words("负梯度", size="label", color=GRADIENT).next_to(column, UP, buff=theme.space("medium"))
        # The question stands alone: the brake's lines leave with its pictures, and the heading
        # leaves the brake too.
        seam_title = line("那列数从哪来", size="heading").move_to(self.brake_title, aligned_edge=LEFT)
        self.play(FadeOut(brake), *self.clear_takeaways(), FadeOut(self.brake_title), FadeIn(seam_title),
                  run_time=0.5)
        self.play(FadeIn(head), FadeIn(column), FadeIn(more), run_time=0.6)
        self.beat(says="就是第一节里，反向传播走一遍算出来的那一份")
        # The whole column, bracketed, is what the backward pass gave (its gradient, sign flipped).
        edge = column.get_right()[0] + theme.space("medium")
        span = marks.bracket([edge, column.get_top()[1], 0], [edge, column.get_bottom()[1], 0], LEFT, GRADIENT,
                             weight="bold")
        source = VGroup(words("第一节：反向传播走一遍", size="body", color=GRADIENT),
                        line("梯度 ({circuit.grad_a}, {circuit.grad_b}, {circuit.grad_c})", size="label",
                             color=GRADIENT))
        source.arrange(DOWN, aligned_edge=LEFT, buff=theme.space("small"))
        source.next_to(span, RIGHT, buff=SOURCE_GAP)
        feed = arrow(source.get_left(), span.get_right() + RIGHT * theme.space("small"), GRADIENT, weight="bold")
        flip = words("取负号", size="small", color=GRADIENT).next_to(feed, UP, buff=theme.space("tight"))
        self.play(Create(span), FadeIn(source), run_time=0.5)
        self.play(GrowArrow(feed), FadeIn(flip), run_time=0.5)
        # Answered: the closing line takes the question's place.
        self.beat(says="所以第一节和第三节，接头就在这儿", takeaway="第一节和第三节，接头就在这儿", replaces=True)


def run_year(key: str) -> float:
    """A year as a position on the timeline: the ledger's value."""
    from lecture_numerics import quantity

    return float(quantity(key).value)
