"""fig-descent: why following the gradient works at all.

Ⓐ one parameter: two strings of balls from a real descent run; steps shrink by themselves;
   red lands in the shallow valley, green in the deep one — only the start differs.
Ⓑ two parameters: the slope becomes a vector; at a steep and a gentle point, −∇ and its length.
Ⓒ many parameters: fig-circuit's gradient as a column — sign says which way, size says who first.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, Create, DashedLine, Dot, Ellipse, FadeIn, FadeOut, GrowArrow, GrowFromEdge, Line,
                   VGroup, VMobject)

from lecture_numerics import descent
from scenes.kit import theme
from scenes.kit.annotate import legend as legend_rows
from scenes.kit.arrows import arrow
from scenes.kit.bars import StackedBar
from scenes.kit.base import LectureScene
from scenes.kit.panels import EDGE_BUFF
from scenes.kit.format_widgets import ScreenAxis
from scenes.kit.text import ledger_text, line, number, words

CURVE_LEFT, CURVE_RIGHT = -6.0, 6.0
LOSS_BOTTOM, LOSS_TOP = -2.2, 1.6
# The two runs the notes call 红 (it lands in the shallow valley) and 绿 (the deep one).
STRINGS = (("red", "bad"), ("green", "good"))
NEG_GRADIENT = "accent"            # −gradient, the step, in Ⓑ and Ⓒ alike
BOWL_CENTRE, BOWL_UNIT = np.array([-2.2, -0.4, 0]), 1.45
# Ⓐ
LOSS_SHOWN = (0.2, 1.15)           # the loss range the curve's box shows
RULE_Y = 2.35
BALL_RADIUS, DOT_RADIUS = 0.11, 0.08
DROP_PAST_AXIS = 0.1
LANDED_AT = np.array([4.6, 2.1, 0])
# Ⓑ
RING_RADII = (0.6, 1.2, 1.8)
GRADIENT_DRAWN = 0.35              # both gradients drawn at this share of scale, alike
KEYS_AT = np.array([4.1, 0.2, 0])
# Ⓒ: a table of rows (name, value, −gradient, bar)
ROW_TOP, ROW_STEP = 1.3, 1.0
NAME_X, VALUE_X, NEG_X, BAR_X, HEAD_Y = -5.2, -3.6, -1.2, 0.2, 2.2
BAR_HEAD_X = 1.0
BAR_SCALE, BAR_THICKNESS, BAR_FILL = 0.45, 0.35, 0.7
MORE_AT = np.array([-2.4, -1.5, 0])
NOTES_X, SIGN_Y, SIZE_Y = 2.3, 0.9, -0.2


class FigDescent(LectureScene):
    scene_id = "fig-descent"
    title = "为什么顺着梯度走就行：一维、两维、三千亿维"
    loop = False
    ledger_keys = (
        "descent.bowl_grad_norms", "descent.neg_grad_a", "descent.neg_grad_b", "descent.neg_grad_c",
        "descent.a_over_c", "circuit.a", "circuit.b", "circuit.c", "slider.desk_faders",
    )

    def construct(self) -> None:
        self.one_parameter()
        self.two_parameters()
        self.many_parameters()

    def say(self, current, template: str, color: str = "ink"):
        new = line(template, size="body", color=color).to_edge(DOWN, buff=EDGE_BUFF)
        self.play(*([FadeOut(current, shift=UP * theme.space("close"))] if current is not None else []), FadeIn(new, shift=UP * theme.space("close")), run_time=0.5)
        return new

    # ---- Ⓐ one parameter ----

    def one_parameter(self) -> None:
        self.start_panel("A", "只有一个参数：球滚下山")
        ts = np.linspace(0, 1, 300)
        x = ScreenAxis(0, 1, CURVE_LEFT, CURVE_RIGHT)
        y = ScreenAxis(*LOSS_SHOWN, LOSS_BOTTOM, LOSS_TOP)
        at = lambda t: np.array([x(t), y(float(descent.loss(t))), 0])
        curve = VMobject(stroke_color=theme.color("ink"), stroke_width=4).set_points_smoothly([at(t) for t in ts])
        names = VGroup(words("某个参数 →", size="label", color="muted").next_to([x(1), y(LOSS_SHOWN[0]), 0], DOWN, buff=theme.space("tight"))
                       .align_to([x(1), 0, 0], RIGHT),
                       words("loss", size="label", color="muted").next_to([x(0), y(LOSS_SHOWN[1]), 0], RIGHT, buff=theme.space("tight")))
        rule = words("看看脚下的坡，往下坡那边挪一点", size="label").move_to([0, RULE_Y, 0])
        self.play(Create(curve), FadeIn(names), FadeIn(rule), run_time=1.0)
        caption = None
        for colour, paint in STRINGS:
            path = descent.PATHS[colour].value
            balls = [Dot(at(t), radius=BALL_RADIUS, color=theme.color(paint)) for t in path]
            hops = VGroup(*[Line(at(a) + UP * theme.space("gap"), at(b) + UP * theme.space("gap"), color=theme.color(paint), stroke_width=3)
                            for a, b in zip(path, path[1:])])
            self.play(FadeIn(balls[0], scale=1.5), run_time=0.3)
            for ball, hop in zip(balls[1:], hops):
                self.play(FadeIn(ball), Create(hop), run_time=0.4)
            bottom = DashedLine(at(path[-1]), [x(path[-1]), LOSS_BOTTOM - DROP_PAST_AXIS, 0], color=theme.color(paint))
            self.play(Create(bottom), run_time=0.3)
            if colour == "red":
                caption = self.say(caption, "第一步跨得最大，然后一步比一步小 —— 是坡自己变平了", paint)
                self.wait(0.8)
        landed = VGroup(words("红色 → 浅的谷", size="label", color="bad"),
                        words("绿色 → 深的谷", size="label", color="good")).arrange(DOWN, aligned_edge=LEFT)
        landed.move_to(LANDED_AT)
        self.play(FadeIn(landed), run_time=0.5)
        self.say(caption, "梯度下降从来没承诺过最优。它只承诺，每一步都在变好。")
        self.wait(2.0)

    # ---- Ⓑ two parameters ----

    def two_parameters(self) -> None:
        self.start_panel("B", "再加个参数：斜率变成向量")
        rings = VGroup(*[Ellipse(width=2 * r * BOWL_UNIT, height=r * BOWL_UNIT, color=theme.color("muted"),
                                 stroke_width=2).move_to(BOWL_CENTRE) for r in RING_RADII])
        self.play(Create(rings), run_time=0.8)
        caption = self.say(None, "一个数说不清方向，得用一个向量 —— 梯度")
        legend = VGroup()
        for i, (px, py) in enumerate(descent.POINTS_2D.value):
            where = BOWL_CENTRE + np.array([px, py, 0]) * BOWL_UNIT
            grad = descent.bowl_gradient(px, py) * GRADIENT_DRAWN * BOWL_UNIT
            up = arrow(where, where + [*grad, 0], "gradients", weight="bold", buff=None)           # the gradient
            down = arrow(where, where - np.array([*grad, 0]), NEG_GRADIENT, weight="heavy", buff=None)
            self.play(FadeIn(Dot(where, radius=DOT_RADIUS)), GrowArrow(up), GrowArrow(down), run_time=0.7)
            legend.add(ledger_text(("陡处" if i == 0 else "缓处") + "：长度 {descent.bowl_grad_norms[%d]}" % i,
                                   size="body", color="gradients"))
        key = legend_rows([("gradients", "梯度，上坡最快"), (NEG_GRADIENT, "负梯度，下坡")], direction=DOWN, size="label",
                          tinted=True)
        keys = VGroup(key, *legend).arrange(DOWN, aligned_edge=LEFT)
        keys.move_to(KEYS_AT)
        self.play(FadeIn(keys), run_time=0.6)
        self.say(caption, "长度 = 这个坡有多陡")
        self.wait(2.0)

    # ---- Ⓒ many parameters ----

    def many_parameters(self) -> None:
        self.start_panel("C", "{slider.desk_faders}个参数：别再想山了")
        rows = VGroup()
        for name in "abc":
            value = number(f"circuit.{name}", size="heading")
            neg = number(f"descent.neg_grad_{name}", size="heading", color=NEG_GRADIENT)
            bar = StackedBar([(abs(descent.NEG_GRAD[name].value), NEG_GRADIENT)], scale=BAR_SCALE,
                             thickness=BAR_THICKNESS, opacity=BAR_FILL)
            rows.add(VGroup(words(name, size="heading", color="muted"), value, neg, bar))
        for i, row in enumerate(rows):
            y = ROW_TOP - ROW_STEP * i
            row[0].move_to([NAME_X, y, 0]); row[1].move_to([VALUE_X, y, 0]); row[2].move_to([NEG_X, y, 0])
            row[3].start_at((BAR_X, y))
        heads = VGroup(words("参数", size="label", color="muted").move_to([VALUE_X, HEAD_Y, 0]),
                       words("负梯度", size="label", color=NEG_GRADIENT).move_to([NEG_X, HEAD_Y, 0]),
                       words("相对大小", size="label", color=NEG_GRADIENT).move_to([BAR_HEAD_X, HEAD_Y, 0]))
        more = ledger_text("⋮ {slider.desk_faders}个数", size="body", color="muted").move_to(MORE_AT)
        self.play(FadeIn(heads), *[FadeIn(r[:3]) for r in rows], FadeIn(more), run_time=0.9)
        sign = words("① 正负：往上推还是往下推", size="label").move_to([NOTES_X, SIGN_Y, 0], aligned_edge=LEFT)
        caption = self.say(None, "这一列就是前面那个电路里，反向传播算出来的那一份")
        self.play(FadeIn(sign), run_time=0.5)
        self.play(*[GrowFromEdge(r[3].blocks, LEFT) for r in rows], run_time=0.8)
        size_line = ledger_text("② 大小：a 比 c 要紧 {descent.a_over_c} 倍", size="label").move_to([NOTES_X, SIZE_Y, 0], aligned_edge=LEFT)
        self.play(FadeIn(size_line), run_time=0.5)
        self.say(caption, "它不只告诉你往哪走，还告诉你该先动谁")
        self.wait(2.0)

