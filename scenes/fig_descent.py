"""fig-descent: why following the gradient works at all.

Ⓐ one parameter: two strings of balls from a real descent run; steps shrink by themselves;
   red lands in the shallow valley, green in the deep one — only the start differs.
Ⓑ two parameters: the slope becomes a vector; at a steep and a gentle point, −∇ and its length.
Ⓒ many parameters: fig-circuit's gradient as a column — sign says which way (a ↑/↓ badge by each
   entry), size says who first (the ⭐⭐⭐ sentence, a takeaway).
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, ArcBetweenPoints, Circle, Create, DashedLine, Dot, Ellipse, FadeIn, FadeOut, GrowArrow,
                   GrowFromCenter, GrowFromEdge, VGroup, VMobject)

from lecture_numerics import descent
from scenes.kit import theme
from scenes.kit.annotate import legend as legend_rows
from scenes.kit.arrows import arrow
from scenes.kit.bars import StackedBar
from scenes.kit.base import LectureScene
from scenes.kit.format_widgets import ScreenAxis
from scenes.kit.text import formula, ledger_text, number, words

CURVE_LEFT, CURVE_RIGHT = -6.0, 6.0
LOSS_BOTTOM, LOSS_TOP = -1.53, 1.92     # the parameter's name under the curve clears the two takeaways
# The two runs the notes call 红 (it lands in the shallow valley) and 绿 (the deep one).
STRINGS = (("red", "bad"), ("green", "good"))
# −gradient is the step: the theme's falling direction, as the step is in fig-muon and fig-momentum.
NEG_GRADIENT = "good"
BOWL_CENTRE, BOWL_UNIT = np.array([-2.2, -0.4, 0]), 1.45
# Ⓐ
LOSS_SHOWN = (0.2, 1.15)           # the loss range the curve's box shows
BALL_RADIUS, DOT_RADIUS = 0.08, 0.09
START_RING = 0.22                  # 「差别只有一个」: the ring around each string's first ball
DIMMED = 0.3                       # what steps back while the two starts are ringed
# Each hop is its own arc over the curve, so the shrinking steps read one by one (a chain of
# straight pieces through the balls reads as one line). Bend: radians of arc per hop.
HOP_LIFT, HOP_BEND = 0.14, -1.3
# The parameter axis is named under the middle of the curve, clear of both drop lines.
AXIS_NAME_T = 0.6
LANDED_AT = np.array([5.0, 2.2, 0])
RULE_AT = np.array([-1.2, 2.35, 0])
# Ⓑ
RING_RADII = (0.6, 1.2, 1.8)
GRADIENT_DRAWN = 0.35              # both gradients drawn at this share of scale, alike
GRADIENT = "gradients"             # the theme's gradient colour, as in every figure
KEYS_AT = np.array([4.1, 0.6, 0])
# The −∇L names, in bowl units from its centre, off every contour: the steep point's outside the
# outer ring, left of its arrow; the gentle point's just above its arrow's tail, right of the
# middle ring.
NEG_NAMES_AT = ((-2.02, 0.35), (1.46, 0.14))
# Ⓒ: a table of rows (name, value, −gradient, bar)
ROW_TOP, ROW_STEP = 1.3, 1.0
NAME_X, VALUE_X, NEG_X, BAR_X, HEAD_Y = -5.2, -3.6, -1.2, 0.2, 2.2
BAR_HEAD_X = 1.0
BAR_SCALE, BAR_THICKNESS, BAR_FILL = 0.45, 0.35, 0.7
MORE_AT = np.array([-4.4, -1.5, 0])   # under the names and values: the column goes on
SIGN_AT = np.array([0.3, -1.75, 0])  # ① its own line under the table, right of ⋮, over the takeaways (② and the last line)
BADGE_GAP, BADGE_LEN = 0.3, 0.4    # the ↑/↓ badge right of each −gradient entry: which way it pushes
HALO = 8                           # background outline of the ∇L names: a contour behind never cuts a glyph


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

    # ---- Ⓐ one parameter ----

    def one_parameter(self) -> None:
        self.start_panel("A", "只有一个参数：球滚下山", says="先看最简单的情况：只有一个参数。")
        ts = np.linspace(0, 1, 300)
        x = ScreenAxis(0, 1, CURVE_LEFT, CURVE_RIGHT)
        y = ScreenAxis(*LOSS_SHOWN, LOSS_BOTTOM, LOSS_TOP)
        at = lambda t: np.array([x(t), y(float(descent.loss(t))), 0])
        curve = VMobject(stroke_color=theme.color("ink"), stroke_width=4).set_points_smoothly([at(t) for t in ts])
        names = VGroup(words("某个参数 →", size="label", color="muted").move_to([x(AXIS_NAME_T), LOSS_BOTTOM - 0.25, 0]),
                       words("loss", size="label", color="muted").next_to([x(0), y(LOSS_SHOWN[1]), 0], RIGHT, buff=theme.space("tight")))
        self.play(Create(curve), FadeIn(names), run_time=1.0)
        self.loss_curve = curve

        self.beat(says="规则只有一句 —— 看看脚下的坡，往下坡那边挪一点。")
        rule = words("规则：看看脚下的坡，往下坡那边挪一点", size="label").move_to(RULE_AT)
        self.play(FadeIn(rule), run_time=0.5)

        self.beat(says="注意看红色这几个球之间的间距。")
        self.run_string("red", "bad", at)
        self.beat(says="第一步跨得最大，然后一步比一步小。")
        hops = self.hops["red"]
        # Right of the first hop and below-right of the last: in the open air over and under the
        # valley, off the curve (above the first hop the label sat on the falling slope).
        first = words("第一步最大", size="small", color="bad").next_to(hops[0], RIGHT, buff=theme.space("small"))
        later = words("一步比一步小", size="small", color="bad").next_to(hops[-1], DOWN + RIGHT, buff=theme.space("gap"))
        self.play(hops[0].animate.set_stroke(width=8), FadeIn(first), run_time=0.5)
        self.play(FadeIn(later), run_time=0.5)
        self.step_notes = VGroup(first, later)
        self.beat(says="所以它不会在谷底来回冲过头 —— 这一条是白送的。", takeaway="越近谷底步子越小，不会冲过头")

        self.beat(says="现在看绿色那串，它从右边出发。")
        self.run_string("green", "good", at)
        self.beat(says="可是 —— 红色落进了浅的那个谷，绿色落进了深的。")
        drops = [DashedLine(at(descent.PATHS[c].value[-1]), [x(descent.PATHS[c].value[-1]), LOSS_BOTTOM, 0],
                            color=theme.color(paint)) for c, paint in STRINGS]
        landed = VGroup(words("红色 → 浅的谷", size="label", color="bad"),
                        words("绿色 → 深的谷", size="label", color="good")).arrange(DOWN, aligned_edge=LEFT)
        landed.move_to(LANDED_AT)
        self.play(*[Create(d) for d in drops], run_time=0.5)
        self.play(FadeIn(landed), run_time=0.5)
        # The ⭐⭐⭐ sentence takes the caption's place (the steps' point is made): the biggest text.
        self.beat(says="差别只有一个：它们从哪儿出发。",
                  takeaway="差别只有一个：它们从哪儿出发 —— 同样高度，同样规则", replaces=True)
        self.show_the_one_difference(VGroup(*drops))
        self.beat(says="所以要说清楚：梯度下降从来没承诺过最优。它只承诺，每一步都在变好。",
                  takeaway="梯度下降从来没承诺过最优。它只承诺，每一步都在变好。")

    def show_the_one_difference(self, notes: VGroup) -> None:
        """The hops, the balls between and the drop lines step back (text keeps its contrast; each
        last ball keeps its colour: where it landed is half the point); each first ball gets a ring
        and 「起点」."""
        lines = VGroup(notes, *[h for c, _ in STRINGS for h in self.hops[c]])
        balls = VGroup(*[b for c, _ in STRINGS for b in self.balls[c][1:-1]])
        rings = VGroup(*[Circle(radius=START_RING, color=theme.color(paint), stroke_width=theme.stroke("heavy"))
                         .move_to(self.balls[c][0]) for c, paint in STRINGS])
        # Below-left of the first ball: under the falling slope, clear of the hops right of it.
        starts = VGroup(*[words("起点", size="body", color=paint).next_to(ring, DOWN + LEFT, buff=theme.space("fine"))
                          for ring, (_, paint) in zip(rings, STRINGS)])
        # The step notes leave with the hops they name (dimmed text would lose its contrast).
        self.play(lines.animate.set_stroke(opacity=DIMMED), balls.animate.set_opacity(DIMMED),
                  FadeOut(self.step_notes), run_time=0.5)
        self.play(*[GrowFromCenter(r) for r in rings], *[FadeIn(s) for s in starts], run_time=0.6)
        self.start_marks = VGroup(rings, starts)

    def run_string(self, colour: str, paint: str, at) -> None:
        """One string of balls from the real descent run, each hop its own arc over the curve."""
        path = descent.PATHS[colour].value
        lift = UP * HOP_LIFT
        balls = [Dot(at(t), radius=BALL_RADIUS, color=theme.color(paint)) for t in path]
        hops = [ArcBetweenPoints(at(a) + lift, at(b) + lift, angle=HOP_BEND, color=theme.color(paint), stroke_width=5)
                for a, b in zip(path, path[1:])]
        self.balls = getattr(self, "balls", {}) | {colour: balls}
        self.hops = getattr(self, "hops", {}) | {colour: hops}
        self.play(FadeIn(balls[0], scale=1.5), run_time=0.3)
        for ball, hop in zip(balls[1:], hops):
            self.play(Create(hop), run_time=0.35)
            self.play(FadeIn(ball), run_time=0.15)

    # ---- Ⓑ two parameters ----

    def two_parameters(self) -> None:
        self.start_panel("B", "再加个参数：斜率变成向量", says="一个数说不清方向，得用一个向量。那个向量就叫梯度。")
        rings = VGroup(*[Ellipse(width=2 * r * BOWL_UNIT, height=r * BOWL_UNIT, color=theme.color("muted"),
                                 stroke_width=2).move_to(BOWL_CENTRE) for r in RING_RADII])
        self.play(Create(rings), run_time=0.8)
        places = [BOWL_CENTRE + np.array([px, py, 0]) * BOWL_UNIT for px, py in descent.POINTS_2D.value]
        steps = [np.array([*descent.bowl_gradient(px, py), 0]) * GRADIENT_DRAWN * BOWL_UNIT
                 for px, py in descent.POINTS_2D.value]
        # The base point is drawn over both arrows' tails: a black dot ringed in white, so the
        # gradient and −gradient read as two arrows leaving one place.
        bases = [VGroup(Dot(p, radius=DOT_RADIUS * 1.5, color=theme.background()), Dot(p, radius=DOT_RADIUS,
                 color=theme.color("ink"))) for p in places]
        ups = [arrow(p, p + g, GRADIENT, weight="bold", buff=None) for p, g in zip(places, steps)]
        up_names = [self.haloed(formula("∇L", size="small", color=GRADIENT)).next_to(p + g, g / np.linalg.norm(g),
                                                                                        buff=0.12)
                    for p, g in zip(places, steps)]
        self.play(*[FadeIn(b) for b in bases], run_time=0.4)
        self.play(*[GrowArrow(a) for a in ups], *[b.animate.set_z_index(2) for b in bases], run_time=0.7)
        self.play(*[FadeIn(n) for n in up_names], run_time=0.4)
        key = legend_rows([(GRADIENT, "梯度：上坡最快"), (NEG_GRADIENT, "负梯度：下坡")], direction=DOWN, size="label",
                          tinted=True).move_to(KEYS_AT)

        self.beat(says="它指的是上坡最快的方向，所以下坡就取它的相反数。")
        self.play(FadeIn(key[0]), run_time=0.4)       # 「上坡最快」 is this sentence's
        downs = [arrow(p, p - g, NEG_GRADIENT, weight="heavy", buff=None) for p, g in zip(places, steps)]
        down_names = [self.haloed(formula("−∇L", size="small", color=NEG_GRADIENT))
                      .move_to(BOWL_CENTRE + np.array([*at, 0]) * BOWL_UNIT) for at in NEG_NAMES_AT]
        self.play(*[GrowArrow(a) for a in downs], run_time=0.7)
        self.bring_to_front(*bases)
        self.play(*[FadeIn(n) for n in down_names], FadeIn(key[1]), run_time=0.4)

        self.beat(says="而它的长度还顺带告诉你：这个坡有多陡。", takeaway="梯度的长度 = 这个坡有多陡")
        # Each length at its own gradient arrow's tip, after the arrow's name.
        lengths = VGroup(*[ledger_text(("陡处" if i == 0 else "缓处") + "，长度 {descent.bowl_grad_norms[%d]}" % i,
                                       size="label", color=GRADIENT).next_to(name, RIGHT, buff=theme.space("small"))
                           for i, name in enumerate(up_names)])
        self.play(FadeIn(lengths), run_time=0.6)

    @staticmethod
    def haloed(name):
        """A name over the contours, outlined in the background colour (as kit on_plot labels are)."""
        return name.set_stroke(theme.background(), width=HALO, background=True)

    # ---- Ⓒ many parameters ----

    def many_parameters(self) -> None:
        self.start_panel("C", "{slider.desk_faders}个参数：别再想山了", says="别再想「山」了，山画不出来。")
        self.beat(says="换个读法：那就是一列三千亿个数。")
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
        self.play(FadeIn(heads[:2]), *[FadeIn(r[:3]) for r in rows], FadeIn(more), run_time=0.9)

        self.beat(says="每一项告诉你两件事：正负，说这个参数往上推还是往下推；")
        # Each entry's sign as a badge beside it, pointing the way it pushes the parameter.
        badges = VGroup()
        for row, name in zip(rows, "abc"):
            sense = UP if descent.NEG_GRAD[name].value > 0 else DOWN
            base = row[2].get_right() + RIGHT * BADGE_GAP - sense * BADGE_LEN / 2
            badges.add(arrow(base, base + sense * BADGE_LEN, NEG_GRADIENT, weight="bold", buff=None))
        sign = words("① 正负 ↑↓：往上推还是往下推", size="body").move_to(SIGN_AT)
        self.play(*[GrowArrow(b) for b in badges], run_time=0.5)
        self.play(FadeIn(sign), run_time=0.5)
        # The ⭐⭐⭐ sentence: a takeaway, so the biggest text in its beat.
        self.beat(says="相对大小，说哪一项改起来更要紧。", takeaway="② 相对大小：a 比 c 要紧 {descent.a_over_c} 倍")
        self.play(FadeIn(heads[2]), *[GrowFromEdge(r[3].blocks, LEFT) for r in rows], run_time=0.8)
        self.beat(says="它不只告诉你往哪走，还告诉你该先动谁。", takeaway="它不只告诉你往哪走，还告诉你该先动谁")
