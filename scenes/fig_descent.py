"""fig-descent: why following the gradient works at all.

Ⓐ one parameter: the rule shown on the slope under the first ball; two strings of balls from a
   real descent run, each hop an arc from ball to ball; a tangent at every red ball flattens as
   the hops shrink (坡自己变平了); red lands in the shallow valley, green in the deep one, from
   the same height — only the start differs.
Ⓑ two parameters: a contour map at equal loss steps (the rings bunch where the bowl is steep);
   at a steep and a gentle point the gradient, then −gradient, and their lengths.
Ⓒ many parameters: the map cannot be drawn; fig-circuit's gradient as a column — sign says
   which way (a ↑/↓ badge by each entry), size says who first (the ⭐⭐⭐ sentence, a takeaway).
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, BackgroundRectangle, Create, Ellipse, FadeIn, FadeOut, GrowArrow, GrowFromCenter,
                   GrowFromEdge, VGroup)

from lecture_numerics import descent
from scenes.kit import marks, theme, widgets
from scenes.kit.annotate import legend as legend_rows, on_plot
from scenes.kit.arrows import arrow
from scenes.kit.bars import StackedBar
from scenes.kit.base import LectureScene
from scenes.kit.plots import Plot, curve
from scenes.kit.text import formula, ledger_text, line, number, words

# The two runs the notes call 红 and 绿: red ends in the shallow valley (the worse outcome), green
# in the deep one (the better), so they take the status colours, the red one a crimson.
STRINGS = (("red", "bad"), ("green", "good"))
# ∇L and −∇L are both gradients: the gradient's colour, from first to last (no arrow changes
# colour). −∇L is the step taken, drawn heavy; ∇L, only the direction it reverses, thin. The key's
# swatches are the two arrows themselves, so it tells them apart by stroke.
GRADIENT = "gradients"
UP_WEIGHT, DOWN_WEIGHT = "thin", "heavy"

# ---- Ⓐ: the loss over one parameter ----
# The plot sits between the rule (top band) and the takeaways (bottom band).
# The loss axis starts at 0, so each valley's name fits between its floor and the axis.
PLOT_A = dict(x_range=(0.0, 1.0), y_range=(0.0, 1.15), width=11.6, height=3.2)
PLOT_A_CORNER = (-5.9, -1.3)
RULE_AT = np.array([-5.0, 2.62, 0])         # top left of the rule: right of the loss axis's name
TANGENT_HALF = 0.7                          # half-length of a tangent, scene units: it shows past the ball
STEP_LIFT, STEP_SHOWN = 0.4, 0.7            # the rule's arrow: over the first ball, this long
START_RING = 0.22                           # 「差别只有一个」: the ring around each string's first ball
SAME_LABEL_AT = 0.28                        # 「同样高度」 over this share of the level, from the red start
DIMMED = 0.3                                # what steps back while the two starts are ringed
# Each hop is an arc from ball to ball, bowed over the curve (radians, clockwise: upward).
HOP_BEND = -1.6
LEVEL_END_T = 0.96                          # the valley-floor levels run right to here (data t)
# ---- Ⓑ: the bowl L = (x² + 4y²)/2, seen from above ----
BOWL_CENTRE, BOWL_UNIT = np.array([-2.4, -0.45, 0]), 1.45
# Contours at equal loss steps: on a bowl the rings bunch outward, where the ground is steep.
LEVEL_STEP, LEVEL_COUNT = 0.35, 10
LABEL_CLEARING = 0.06                       # the background patch round a label on the map
GRADIENT_DRAWN = 0.35                       # both gradients drawn at this share of their length
KEYS_AT = np.array([2.5, 1.2, 0])           # the legend and the two lengths, right of the map
MAP_TITLE_AT = np.array([-2.4, 1.95, 0])
# ---- Ⓒ: a table of rows (name, value, −gradient, badge, bar) ----
ROW_TOP, ROW_STEP = 1.5, 0.85
NAME_X, VALUE_X, NEG_X, BAR_X, HEAD_Y = -5.0, -3.3, -1.2, 3.0, 2.4
BADGE_X = 1.1                               # the ↑/↓ badges' column, right of the −gradient entries
BADGE_LEN = 0.4
BAR_SCALE, BAR_THICKNESS, BAR_FILL = 0.45, 0.35, 1.0     # full colour: live values, not pale
MORE_DY = 0.75                              # the ⋮ rows, this far under the last row
# C.1: what cannot be drawn — a one-parameter curve, a two-parameter map, and an empty frame.
SKETCH_Y, SKETCH_XS, SKETCH_W, SKETCH_H = 0.4, (-4.3, 0.0, 4.3), 3.0, 2.0


def clearings(labels: VGroup) -> VGroup:
    """A patch of background under each label on the contour map, so no ring runs through it."""
    return VGroup(*(BackgroundRectangle(label, color=theme.background(), fill_opacity=1, buff=LABEL_CLEARING)
                    for label in labels))


class FigDescent(LectureScene):
    scene_id = "fig-descent"
    title = "为什么顺着梯度走就行：一维、两维、三千亿维"
    loop = False
    ledger_keys = (
        "descent.bowl_grad_norms", "descent.neg_grad_a", "descent.neg_grad_b", "descent.neg_grad_c",
        "descent.a_over_c", "circuit.a", "circuit.b", "circuit.c", "slider.desk_faders", "descent.bowl_parameter_count",
    )

    def construct(self) -> None:
        self.one_parameter()
        self.two_parameters()
        self.many_parameters()

    # ---- Ⓐ one parameter ----

    def at(self, t: float) -> np.ndarray:
        return self.plot.point(t, float(descent.loss(t)))

    def slope_direction(self, t: float) -> np.ndarray:
        """Unit vector along the curve at t, in scene units."""
        ahead = self.at(t + 1e-4) - self.at(t - 1e-4)
        return ahead / np.linalg.norm(ahead)

    def tangent(self, t: float, role: str = "accent"):
        """A short stroke along the curve at t, highlighted: the slope under a ball."""
        along = self.slope_direction(t) * TANGENT_HALF
        return marks.segment(self.at(t) - along, self.at(t) + along, role, weight="bold")

    def one_parameter(self) -> None:
        self.start_panel("A", "只有一个参数：球滚下山", says="先看最简单的情况：只有一个参数。")
        self.plot = Plot(**PLOT_A, x_title="某个参数 →", y_title="loss", arrows=True)
        self.plot.shift(np.array([*PLOT_A_CORNER, 0]) - self.plot.x_axis.get_start())
        # The parameter's name under the axis's start: the middle is the takeaways' and the
        # right end the deep valley's.
        self.plot.x_title.next_to(self.plot.x_axis.get_start(), DOWN, buff=theme.space("small")).align_to(
            self.plot.x_axis.get_start(), LEFT)
        ts = np.linspace(0, 1, 300)
        self.loss_curve = curve(self.plot, ts, descent.loss(ts), "ink", smooth=True, stroke_width=theme.stroke("bold"))
        self.play(FadeIn(self.plot), Create(self.loss_curve), run_time=1.0)

        self.beat(says="规则只有一句 —— 看看脚下的坡，往下坡那边挪一点。")
        self.show_the_rule()
        self.beat(says="注意看红色这几个球之间的间距。")
        self.play(FadeOut(self.rule_demo), self.ball.animate.set_color(theme.color("bad")), run_time=0.4)
        self.run_string("red", "bad")
        self.beat(says="第一步跨得最大，然后一步比一步小。", takeaway="没有人让它慢下来，是坡自己变平了")
        self.show_the_slope_flattening()
        self.beat(says="所以它不会在谷底来回冲过头 —— 这一条是白送的。", takeaway="越近谷底步子越小，不会冲过头")

        self.beat(says="现在看绿色那串，它从右边出发。")
        # The rule and the tangents have been said: they leave before the second string.
        # So do the red string's two captions: the eye goes to the green string and then to the
        # valleys, not to the last claim.
        self.play(FadeOut(self.rule), FadeOut(self.tangents), FadeOut(self.step_notes), *self.clear_takeaways(),
                  run_time=0.4)
        self.run_string("green", "good")
        self.beat(says="可是 —— 红色落进了浅的那个谷，绿色落进了深的。")
        self.show_where_they_landed()
        self.beat(says="差别只有一个：它们从哪儿出发。", takeaway="差别只有一个：它们从哪儿出发", replaces=True)
        # The red string's two lines left when the green string came: the ⭐⭐⭐ line takes the
        # bottom on its own.
        self.show_the_one_difference()
        self.beat(says="所以要说清楚：梯度下降从来没承诺过最优。它只承诺，每一步都在变好。",
                  takeaway="梯度下降从来没承诺过最优。它只承诺，每一步都在变好。")

    def show_the_rule(self) -> None:
        """The rule in two short lines, and the rule at work under the first ball: the slope
        there falls to the right (斜率负), so the step goes right."""
        first = words("看看脚下的坡，往下坡那边挪一点", size="label")
        second = VGroup(words("斜率正 → 往左", size="label", color="muted"),
                        words("斜率负 → 往右", size="label")).arrange(RIGHT, buff=theme.space("wide"))
        self.rule = VGroup(first, second).arrange(DOWN, aligned_edge=LEFT, buff=theme.space("small"))
        self.rule.move_to(RULE_AT, aligned_edge=UP + LEFT)
        start = descent.PATHS["red"].value[0]
        self.ball = marks.dot(self.at(start), "accent", size="ball")
        foot = self.tangent(start)
        # The step goes against the slope: right where the ground falls to the right.
        over = self.at(start) + UP * STEP_LIFT
        step = arrow(over, over + RIGHT * STEP_SHOWN * np.sign(-descent.slope(start)), "ink", weight="bold", buff=None)
        self.play(FadeIn(first), run_time=0.5)
        self.play(FadeIn(self.ball, scale=1.5), Create(foot), run_time=0.5)
        self.play(FadeIn(second), GrowArrow(step), run_time=0.6)
        self.rule_demo = VGroup(foot, step)

    def run_string(self, colour: str, paint: str) -> None:
        """One string of balls from the real descent run, each hop an arc from ball to ball."""
        path = descent.PATHS[colour].value
        balls = [marks.dot(self.at(t), paint, size="regular") for t in path]
        hops = [marks.arc(self.at(a), self.at(b), paint, angle=HOP_BEND, weight="bold") for a, b in zip(path, path[1:])]
        self.balls = getattr(self, "balls", {}) | {colour: balls}
        self.hops = getattr(self, "hops", {}) | {colour: hops}
        if colour == "red":
            self.play(FadeOut(self.ball), FadeIn(balls[0]), run_time=0.2)
        else:
            self.play(FadeIn(balls[0], scale=1.5), run_time=0.3)
        for ball, hop in zip(balls[1:], hops):
            self.play(Create(hop), run_time=0.35)
            self.add(ball)
            self.wait(0.1)

    def show_the_slope_flattening(self) -> None:
        """A tangent under every red ball: the slope flattens as the valley nears, and the hops
        shrink with it (步长跟斜率成正比). The first hop and the last get their words."""
        path = descent.PATHS["red"].value
        self.tangents = VGroup(self.tangent(path[0]), self.tangent(path[-1]))
        self.play(Create(self.tangents, lag_ratio=0.5), run_time=0.8)
        hops = self.hops["red"]
        # Under the falling slope, left of the first ball: open ground, clear of its tangent.
        big = words("坡陡，步子大", size="small", color="bad").next_to(self.at(path[0]), DOWN + LEFT,
                                                                      buff=theme.space("small"))
        small = words("坡平，步子小", size="small", color="bad")
        small.next_to(self.at(path[-1]), DOWN, buff=theme.space("large"))
        self.play(FadeIn(big), run_time=0.4)
        self.play(FadeIn(small), run_time=0.4)
        self.step_notes = VGroup(big, small)

    def show_where_they_landed(self) -> None:
        """Each valley named under its last ball, and how much deeper the green one lies: the
        two floors as levels, a brace between them at the right."""
        ends = {c: descent.PATHS[c].value[-1] for c, _ in STRINGS}
        names = VGroup(*(on_plot(name, color=paint).next_to(self.at(ends[c]), DOWN, buff=theme.space("medium"))
                         for (c, paint), name in zip(STRINGS, ("浅的谷", "深的谷"))))
        right = self.plot.point(LEVEL_END_T, 0.2)[0]
        floors = [np.array([right, self.at(ends[c])[1], 0]) for c, _ in STRINGS]
        levels = VGroup(*(marks.segment(self.at(ends[c]), floor, "muted", weight="thin", dashed=True)
                          for (c, _), floor in zip(STRINGS, floors)))
        deeper = widgets.labelled_brace(tuple(floors), "更深", RIGHT, "good")
        self.play(FadeIn(names), run_time=0.5)
        self.play(Create(levels), run_time=0.5)
        self.play(FadeIn(deeper), run_time=0.5)
        self.landed = VGroup(names, levels, deeper)

    def show_the_one_difference(self) -> None:
        """The hops and the balls between step back (each last ball keeps its colour: where it
        landed is half the point); each first ball gets a ring and 「起点」, and one level
        through both shows they start at the same height."""
        hops = VGroup(*[h for c, _ in STRINGS for h in self.hops[c]])
        balls = VGroup(*[b for c, _ in STRINGS for b in self.balls[c][1:-1]])
        firsts = [self.balls[c][0] for c, _ in STRINGS]
        rings = VGroup(*[marks.ring(ball.get_center(), paint, radius=START_RING, weight="heavy")
                         for ball, (_, paint) in zip(firsts, STRINGS)])
        # Under each falling slope, left of its ball: open ground, off the curve and the hops.
        starts = VGroup(*[on_plot("起点", color=paint, size="body").next_to(ring, DOWN + LEFT, buff=theme.space("fine"))
                          for ring, (_, paint) in zip(rings, STRINGS)])
        level_ends = (firsts[0].get_center() + RIGHT * START_RING, firsts[1].get_center() + LEFT * START_RING)
        same = marks.segment(*level_ends, "muted", weight="thin", dashed=True)
        # Over the level's left part, where the frame is empty (under it the curve climbs back).
        same_label = words("同样高度", size="small", color="muted")
        same_label.next_to(level_ends[0] + (level_ends[1] - level_ends[0]) * SAME_LABEL_AT, UP, buff=theme.space("fine"))
        self.play(hops.animate.set_stroke(opacity=DIMMED), balls.animate.set_opacity(DIMMED), run_time=0.5)
        self.play(*[GrowFromCenter(r) for r in rings], *[FadeIn(s) for s in starts], run_time=0.6)
        self.play(Create(same), FadeIn(same_label), run_time=0.5)

    # ---- Ⓑ two parameters ----

    def bowl_point(self, x: float, y: float) -> np.ndarray:
        return BOWL_CENTRE + np.array([x, y, 0]) * BOWL_UNIT

    def contour_map(self) -> VGroup:
        """Rings of equal loss, LEVEL_STEP apart: L = (x² + 4y²)/2 = c is an ellipse with
        half-axes √(2c) and √(2c)/2."""
        rings = VGroup()
        for k in range(1, LEVEL_COUNT + 1):
            half = np.sqrt(2 * LEVEL_STEP * k) * BOWL_UNIT
            rings.add(Ellipse(width=2 * half, height=half, color=theme.color("muted"),
                              stroke_width=theme.stroke("thin")).move_to(BOWL_CENTRE))
        return rings

    def two_parameters(self) -> None:
        self.start_panel("B", "再加个参数：斜率变成向量", says="一个数说不清方向，得用一个向量。那个向量就叫梯度。")
        rings = self.contour_map()
        title = words("俯视 · 等高线", size="label", color="muted").move_to(MAP_TITLE_AT)
        bottom = VGroup(marks.dot(BOWL_CENTRE, "ink", size="small"),
                        words("谷底", size="small", color="muted").next_to(BOWL_CENTRE, DOWN, buff=theme.space("fine")))
        self.play(Create(rings, lag_ratio=0.1), FadeIn(title), FadeIn(clearings(bottom[1:])), FadeIn(bottom),
                  run_time=1.0)
        places = [self.bowl_point(*p) for p in descent.POINTS_2D.value]
        steps = [np.array([*descent.bowl_gradient(*p), 0]) * GRADIENT_DRAWN * BOWL_UNIT
                 for p in descent.POINTS_2D.value]
        bases = VGroup(*(marks.dot(p, "ink", size="large", halo=True) for p in places))
        ups = VGroup(*(arrow(p, p + g, GRADIENT, weight=UP_WEIGHT, buff=None) for p, g in zip(places, steps)))
        up_names = VGroup(*(on_plot("∇L", color=GRADIENT).next_to(p + g, g / np.linalg.norm(g), buff=theme.space("tight"))
                            for p, g in zip(places, steps)))
        # What each arrow is for is said in B.2: B.1's key names the gradient only.
        key = legend_rows([(GRADIENT, "梯度 ∇L：上坡最快", "line"), (GRADIENT, "负梯度 −∇L：下坡", "line")],
                          direction=DOWN, size="label", tinted=True, gap="medium").move_to(KEYS_AT, aligned_edge=LEFT)
        for row, weight in zip(key, (UP_WEIGHT, DOWN_WEIGHT)):
            sample = arrow(row[0].get_left(), row[0].get_right(), GRADIENT, weight=weight, buff=None)
            sample.kit_legend = True
            row.remove(row[0])
            row.insert(0, sample)
        named = line("梯度 ∇L", size="label", color=GRADIENT).move_to(key[0][1], aligned_edge=LEFT)
        self.play(FadeIn(bases), run_time=0.3)
        self.play(*[GrowArrow(a) for a in ups], run_time=0.7)
        self.bring_to_front(bases)
        self.play(FadeIn(clearings(up_names)), FadeIn(up_names), FadeIn(key[0][0]), FadeIn(named), run_time=0.4)

        self.beat(says="它指的是上坡最快的方向，所以下坡就取它的相反数。")
        downs = VGroup(*(arrow(p, p - g, GRADIENT, weight=DOWN_WEIGHT, buff=None) for p, g in zip(places, steps)))
        down_names = VGroup(*(on_plot("−∇L", color=GRADIENT).next_to(p - g, -g / np.linalg.norm(g),
                                                                      buff=theme.space("tight"))
                              for p, g in zip(places, steps)))
        self.play(*[GrowArrow(a) for a in downs], run_time=0.7)
        self.bring_to_front(bases)
        # The key now says what each is for; both arrows keep the gradient's colour.
        self.play(FadeIn(clearings(down_names)), FadeIn(down_names), FadeIn(key[1]), FadeOut(named), FadeIn(key[0][1]),
                  run_time=0.5)

        self.beat(says="而它的长度还顺带告诉你：这个坡有多陡。", takeaway="梯度的长度 = 这个坡有多陡")
        # Each point named by its ground, and its length listed by the key: the steep point's
        # arrows are longer, and its rings bunch.
        grounds = VGroup(*(on_plot(name, color="ink", size="small").next_to(b, side, buff=theme.space("tight"))
                           for b, name, side in zip(bases, ("陡", "缓"), (LEFT, DOWN))))
        lengths = VGroup(*(ledger_text(f"{name}处：长度 {{descent.bowl_grad_norms[{i}]}}", size="label")
                           for i, name in enumerate(("陡", "缓"))))
        lengths.arrange(DOWN, aligned_edge=LEFT, buff=theme.space("small"))
        lengths.next_to(key, DOWN, buff=theme.space("large"), aligned_edge=LEFT)
        self.play(FadeIn(clearings(grounds)), FadeIn(grounds), run_time=0.4)
        self.play(FadeIn(lengths), run_time=0.5)

    # ---- Ⓒ many parameters ----

    def cannot_draw(self) -> VGroup:
        """One parameter: a curve; two: a map; three hundred billion: an empty frame."""
        ts = np.linspace(0, 1, 120)
        plot = Plot(x_range=(0, 1), y_range=(0.2, 1.15), width=SKETCH_W, height=SKETCH_H)
        plot.move_to([SKETCH_XS[0], SKETCH_Y, 0])
        one = VGroup(plot, curve(plot, ts, descent.loss(ts), "muted", smooth=True, stroke_width=theme.stroke("regular")))
        two = VGroup(*(Ellipse(width=SKETCH_W * np.sqrt(k / 4), height=SKETCH_W * np.sqrt(k / 4) / 2,
                               color=theme.color("muted"), stroke_width=theme.stroke("thin")) for k in range(1, 5)))
        two.move_to([SKETCH_XS[1], SKETCH_Y, 0])
        frame = marks.box(SKETCH_W, SKETCH_H, "muted", weight="regular", dashed=True).move_to([SKETCH_XS[2], SKETCH_Y, 0])
        unknown = words("？", size="title", color="muted").move_to(frame)
        many = VGroup(frame, unknown)
        names = VGroup(*(line(t, size="label", color="muted").next_to(pic, DOWN, buff=theme.space("medium"))
                         for t, pic in zip(("一个参数", "{descent.bowl_parameter_count}个参数", "{slider.desk_faders}个参数"), (one, two, frame))))
        for name in names:      # one baseline under all three, whatever each picture's height
            name.set_y(SKETCH_Y - SKETCH_H / 2 - theme.space("large"))
        group = VGroup(one, two, many, names)
        group.pictures, group.names = VGroup(one, two, many), names
        return group

    def gradient_rows(self) -> VGroup:
        rows = VGroup()
        for i, name in enumerate("abc"):
            y = ROW_TOP - ROW_STEP * i
            row = VGroup(words(name, size="heading", color="weights").move_to([NAME_X, y, 0]),
                         number(f"circuit.{name}", size="heading", color="weights").move_to([VALUE_X, y, 0]),
                         number(f"descent.neg_grad_{name}", size="heading", color=GRADIENT).move_to([NEG_X, y, 0]))
            sense = UP if descent.NEG_GRAD[name].value > 0 else DOWN
            row.badge = arrow([BADGE_X, y, 0] - sense * BADGE_LEN / 2, [BADGE_X, y, 0] + sense * BADGE_LEN / 2,
                              GRADIENT, weight="bold", buff=None)
            row.bar = StackedBar([(abs(descent.NEG_GRAD[name].value), GRADIENT)], scale=BAR_SCALE,
                                 thickness=BAR_THICKNESS, opacity=BAR_FILL).start_at((BAR_X, y))
            rows.add(row)
        return rows

    def many_parameters(self) -> None:
        self.start_panel("C", "{slider.desk_faders}个参数：别再想山了", says="别再想「山」了，山画不出来。")
        sketch = self.cannot_draw()
        self.play(FadeIn(sketch.pictures[:2]), FadeIn(sketch.names[:2]), run_time=0.6)
        self.play(Create(sketch.pictures[2][0]), FadeIn(sketch.pictures[2][1]), FadeIn(sketch.names[2]), run_time=0.6)

        self.beat(says="换个读法：那就是一列三千亿个数。")
        rows = self.gradient_rows()
        last_y = ROW_TOP - ROW_STEP * (len(rows) - 1)
        heads = VGroup(words("参数", size="label", color="weights").move_to([VALUE_X, HEAD_Y, 0]),
                       words("负梯度", size="label", color=GRADIENT).move_to([NEG_X, HEAD_Y, 0]))
        more = VGroup(words("⋮", size="heading", color="weights").move_to([VALUE_X, last_y - MORE_DY, 0]),
                      ledger_text("⋮ 一列{slider.desk_faders}个数", size="body", color=GRADIENT))
        more[1].move_to([NEG_X, last_y - MORE_DY, 0]).align_to([NEG_X - 0.25, 0, 0], LEFT)
        source = words("a、b、c：第一节那个电路", size="small", color="muted")
        source.next_to(VGroup(*(r[0] for r in rows)), DOWN, buff=theme.space("wide")).align_to([NAME_X - 0.3, 0, 0], LEFT)
        source.set_y(last_y - MORE_DY - theme.space("wide"))
        self.play(FadeOut(sketch), run_time=0.4)
        self.play(FadeIn(heads), *[FadeIn(VGroup(*r[:3])) for r in rows], run_time=0.8)
        self.play(FadeIn(more), FadeIn(source), run_time=0.5)

        self.beat(says="每一项告诉你两件事：正负，说这个参数往上推还是往下推；")
        sign_head = words("① 正负：往哪推", size="label").move_to([BADGE_X, HEAD_Y, 0])
        self.play(FadeIn(sign_head), *[GrowArrow(r.badge) for r in rows], run_time=0.6)
        self.beat(says="相对大小，说哪一项改起来更要紧。", takeaway="a、b 比 c 要紧 {descent.a_over_c} 倍")
        size_head = words("② 大小：先动谁", size="label").move_to([BAR_X, HEAD_Y, 0], aligned_edge=LEFT)
        self.play(FadeIn(size_head), *[GrowFromEdge(r.bar.blocks, LEFT) for r in rows], run_time=0.8)
        self.beat(says="它不只告诉你往哪走，还告诉你该先动谁。", takeaway="它不只告诉你往哪走，还告诉你该先动谁")
