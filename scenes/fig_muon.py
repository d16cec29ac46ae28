"""fig-muon: two rulers for "one step" — the circle gives SGD, the square gives Muon.

Ⓐ 「最快」取决于怎么量一步: the steepest step is the largest decrease per unit step, for a chosen ruler.
Ⓑ Muon 的更新: M = UΣVᵀ → UVᵀ, every singular value set to the same height.
Ⓒ 同一个梯度，两把尺子 (the one panel the lecture shows), one beat per notes line: the rulers'
   axes and 「一格」, the circle, the square; then a level line perpendicular to −g is pushed
   outward until it last touches each shape — the circle at the SGD point on −g's extension, the
   square at its corner (Muon); the two answers; Newton–Schulz, under Muon's square only.
Ⓓ 它存什么: one state tensor (momentum), not two — the 16-byte bill becomes 12.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, Circle, Create, DashedLine, Dot, FadeIn, FadeOut, GrowArrow, GrowFromEdge, Line,
                   Square, ValueTracker, VGroup, always_redraw)

from lecture_numerics import muon
from scenes.kit import theme
from scenes.kit.arrows import arrow
from scenes.kit.bars import StackedBar
from scenes.kit.plots import dashed
from scenes.kit.base import LectureScene
from scenes.kit.panels import caption
from scenes.kit.text import formula, ledger_text, words

SGD, MUON = "accent", "warm"
# −g is the step direction: the theme's falling direction, as in fig-descent and fig-momentum
# (the `gradients` role is for the gradient itself, which this figure never draws).
STEP = "good"
SINGULAR_FILL = 0.9
BYTE_UNIT, BYTE_BAR_THICKNESS, BYTE_BAR_FILL = 0.5, 0.45, 0.85   # Ⓓ: scene units per byte, bar height, fill
TURN_HALF = 1.2                  # half the length of the arrow from the old update to the new
RADIUS = 1.5                                 # one "格" of each ruler, on screen
LEFT_CENTER, RIGHT_CENTER = np.array([-3.3, 0.1, 0]), np.array([3.3, 0.1, 0])
DIRECTION = np.array([*muon.SGD_STEP.value, 0.0])   # −g / ‖g‖₂: where both arrows point
ARROW_REACH = 1.55                           # the −g arrow runs past the ball: 延长线
CROSS_REACH = 1.15                           # the ruler's axes, in 格
TITLE_Y = 2.37                               # the rulers' captions, clear above the 平 labels
LEVEL_HALF = 1.1                             # half the swept level line, in 格
FOOTNOTE_RIGHT, FOOTNOTE_TOP = 6.6, -1.83     # under the square, below its axis, above the takeaway
TANGENT_HALF = 0.6                           # what stays of it: a short tangent at the touch point
# Landing labels below and left of the touch point, clear of the arrow and the tangent.
LABEL_OFFSET_SGD = (-0.66, -1.25)
LABEL_OFFSET_MUON = (-1.1, -0.65)
BAR_WIDTH, BAR_UNIT = 0.55, 0.7


class FigMuon(LectureScene):
    scene_id = "fig-muon"
    title = "Muon：两把尺子量「一步」"
    ledger_keys = ("muon.ruler_count", "muon.answer_count", "bytes.per_param_total", "bytes.muon_per_param", "muon.state_tensors")

    def construct(self):
        self.premise_panel()
        self.update_panel()
        self.two_rulers_panel()
        self.storage_panel()

    # ---- Ⓐ the premise -------------------------------------------------------------------------

    def premise_panel(self):
        self.start_panel("A", "「最快」取决于怎么量一步")
        lines = VGroup(
            words("最陡的一步 = 每走「一格」，loss 降得最多的方向", size="heading"),
            formula("d* = argmax ⟨−g, d⟩，要求 ‖d‖ ≤ 1", size="heading", color=SGD),
            words("「一格」多长，由你选的尺子（范数）说了算", size="body", color="muted"),
            words("尺子换了，最陡的方向就跟着换", size="body", color=MUON),
        ).arrange(DOWN, buff=0.55).move_to(UP * theme.space("close"))
        for part in lines:
            self.play(FadeIn(part, shift=UP * theme.space("small")), run_time=0.6)
            self.wait(0.3)
        self.wait(1.0)

    # ---- Ⓑ what Muon does to the momentum ----------------------------------------------------------

    def update_panel(self):
        self.start_panel("B", "Muon 的更新：奇异值全部拉成同样高")
        before = self.singular_bars(muon.SINGULAR_BEFORE.value, "muted").move_to(LEFT * 3.3 + DOWN * theme.space("gap"), aligned_edge=DOWN)
        after = self.singular_bars(muon.SINGULAR_AFTER.value, MUON).move_to(RIGHT * 3.3 + DOWN * theme.space("gap"), aligned_edge=DOWN)
        base = DOWN * theme.space("gap")
        before.align_to(base, DOWN)
        after.align_to(base, DOWN)
        names = VGroup(formula("动量 M = UΣVᵀ", size="body").next_to(before, DOWN, buff=theme.space("edge")),
                       formula("更新 = UVᵀ", size="body", color=MUON).next_to(after, DOWN, buff=theme.space("edge")))
        turn = arrow(LEFT * TURN_HALF + UP * theme.space("wide"), RIGHT * TURN_HALF + UP * theme.space("wide"), "ink", weight="bold")
        self.play(*(GrowFromEdge(b, DOWN) for b in before), FadeIn(names[0]), run_time=0.9)
        self.play(GrowArrow(turn), run_time=0.5)
        self.play(*(GrowFromEdge(b, DOWN) for b in after), FadeIn(names[1]), run_time=0.9)
        self.play(FadeIn(caption("方向（U、V）原样留下，每个奇异值都换成同样的高度")), run_time=0.5)
        self.wait(1.2)

    def singular_bars(self, values, color: str) -> VGroup:
        bars = VGroup(*(StackedBar([(v, color)], scale=BAR_UNIT, orientation="vertical", thickness=BAR_WIDTH,
                                   opacity=SINGULAR_FILL) for v in values))
        return bars.arrange(RIGHT, buff=theme.space("gap"), aligned_edge=DOWN)

    # ---- Ⓒ one gradient, two rulers -----------------------------------------------------------------

    def two_rulers_panel(self):
        self.start_panel("C", "同一个梯度，{muon.ruler_count}把尺子", says="最后花一分钟说 Muon，只讲一个画面")
        rulers = VGroup(self.cross(LEFT_CENTER), self.cross(RIGHT_CENTER))
        self.play(FadeIn(rulers), run_time=0.6)
        self.beat(says="我们前面说「一步不许迈太大」—— 可「太大」得先有把尺子量")
        one = VGroup(*(self.one_step_tick(c) for c in (LEFT_CENTER, RIGHT_CENTER)))
        self.play(FadeIn(one), run_time=0.5)

        self.beat(says="用一把尺量，「不许超过一格」圈出来的是个圆")
        circle = Circle(radius=RADIUS, color=theme.color(SGD), stroke_width=4).move_to(LEFT_CENTER)
        left_title = words("用这把尺量：「不许超过一格」是个圆", size="label", color=SGD)
        left_title.move_to([LEFT_CENTER[0], TITLE_Y, 0])
        self.play(Create(circle), FadeIn(left_title), run_time=0.9)
        self.beat(says="换另一把尺，圈出来的是个方")
        square = Square(side_length=2 * RADIUS, color=theme.color(MUON), stroke_width=4).move_to(RIGHT_CENTER)
        right_title = words("换把尺子（按奇异值量）：是个方", size="label", color=MUON)
        right_title.move_to([RIGHT_CENTER[0], TITLE_Y, 0])
        self.play(Create(square), FadeIn(right_title), run_time=0.9)

        self.beat(says="同一个梯度方向，在圆上走到最远，是延长线上那一点 —— 那就是 SGD")
        arrows = VGroup(*(arrow(c, c + DIRECTION * RADIUS * ARROW_REACH, STEP, weight="bold", buff=None)
                          for c in (LEFT_CENTER, RIGHT_CENTER)))
        arrow_note = words("−梯度", size="small", color=STEP)
        arrow_note.next_to(arrows[0].get_end(), UP + LEFT, buff=theme.space("tight"))
        self.play(*(GrowArrow(a) for a in arrows), run_time=0.8)
        self.play(FadeIn(arrow_note), run_time=0.3)      # named once it is there
        sgd_at = LEFT_CENTER + DIRECTION * RADIUS * muon.SGD_REACH.value
        self.sweep(LEFT_CENTER, muon.SGD_REACH.value, sgd_at, SGD)
        self.land(sgd_at, SGD, "SGD", "延长线上那一点", LABEL_OFFSET_SGD)

        self.beat(says="可在方上走到最远，落在角上 —— 那个角就是 Muon")
        corner = RIGHT_CENTER + np.array([*muon.MUON_STEP.value, 0.0]) * RADIUS
        self.sweep(RIGHT_CENTER, muon.MUON_REACH.value, corner, MUON)
        # Muon's step itself, as bold as −g: it turns away from the gradient, to the corner.
        step = arrow(RIGHT_CENTER, corner, MUON, weight="bold", buff="snug")
        self.land(corner, MUON, "Muon", "落在角上", LABEL_OFFSET_MUON, step=step)

        self.beat(says="所以 Muon 不是「又一个新优化器」")
        self.beat(says="它跟 SGD 是同一个问题的两个答案 —— 区别只在你拿哪把尺子量「一步」",
                  takeaway="同一个问题的{muon.answer_count}个答案 —— 区别只在你拿哪把尺子量「一步」")
        self.beat(says="至于那把尺子怎么算出来的、Newton-Schulz 是什么 —— 今天不讲，超纲")
        # The footnote belongs to Muon's ruler: under the square, never under SGD's circle.
        footnote = VGroup(words("方怎么算：Newton–Schulz", size="small", color="muted"),
                          words("今天不讲，超纲", size="small", color="muted")).arrange(DOWN, aligned_edge=RIGHT,
                                                                                 buff=theme.space("fine"))
        footnote.move_to([FOOTNOTE_RIGHT, FOOTNOTE_TOP, 0], aligned_edge=UP + RIGHT)
        self.play(FadeIn(footnote), run_time=0.4)

    def one_step_tick(self, center) -> VGroup:
        """「一格」: one unit of the ruler, laid on its steep axis: it ends on the circle and the square."""
        a, b = center, center + RIGHT * RADIUS
        span = Line(a, b, color=theme.color("ink"), stroke_width=theme.stroke("regular"))
        ends = VGroup(*(Line(p + DOWN * 0.08, p + UP * 0.08, color=theme.color("ink"), stroke_width=theme.stroke("regular"))
                        for p in (a, b)))
        name = words("一格", size="small").next_to(span, UP, buff=theme.space("tight"))
        return VGroup(span, ends, name)

    def sweep(self, center, reach: float, touch, colour: str) -> None:
        """A level line perpendicular to −g, pushed outward from the centre until it last
        touches the ball (``reach`` ruler units along −g); a short tangent stays at ``touch``,
        thin, grey and dashed, so that at Muon's corner it is not one more orange mark."""
        along = ValueTracker(0.0)
        unit_across = np.array([-DIRECTION[1], DIRECTION[0], 0.0])
        across = unit_across * RADIUS * LEVEL_HALF

        def level_line():
            mid = center + DIRECTION * RADIUS * along.get_value()
            return dashed(Line(mid - across, mid + across, color=theme.color(colour), stroke_width=theme.stroke("regular")))

        line_now = always_redraw(level_line)
        self.add(line_now)
        self.play(along.animate.set_value(reach), run_time=2.0)
        line_now.clear_updaters()
        self.remove(along)               # the tracker drove the sweep; it is not part of the picture
        tangent = dashed(Line(touch - unit_across * TANGENT_HALF, touch + unit_across * TANGENT_HALF,
                              color=theme.color("muted"), stroke_width=theme.stroke("thin")))
        self.play(FadeOut(line_now), FadeIn(tangent), run_time=0.4)

    def land(self, at, colour: str, name: str, note: str, offset, step=None) -> None:
        """The touch point's dot, the step to it when it is not on −g, then the label."""
        dot = Dot(at, radius=0.11, color=theme.color(colour))
        label = VGroup(words(name, size="heading", color=colour),
                       words(note, size="small", color=colour)).arrange(DOWN, buff=theme.space("fine"))
        label.move_to(at + np.array([*offset, 0.0]))
        self.play(FadeIn(dot, scale=1.6), run_time=0.4)
        if step is not None:
            self.play(GrowArrow(step), run_time=0.6)
        self.play(FadeIn(label), run_time=0.4)

    def cross(self, center) -> VGroup:
        """The ruler's two directions through its centre: steep across, flat up."""
        style = {"color": theme.color("muted"), "stroke_width": 2}
        reach = RADIUS * CROSS_REACH
        across = DashedLine(center + LEFT * reach, center + RIGHT * reach, **style)
        up = DashedLine(center + DOWN * reach, center + UP * reach, **style)
        names = VGroup(words("陡", size="small", color="muted").next_to(across, RIGHT, buff=theme.space("tight")),
                       words("平", size="small", color="muted").next_to(up.get_end(), RIGHT, buff=theme.space("snug")))
        return VGroup(across, up, names)

    # ---- Ⓓ what it stores ---------------------------------------------------------------------------

    def storage_panel(self):
        self.start_panel("D", "它存什么")
        rows = VGroup(
            ledger_text("AdamW：权重、梯度、主权重、m、v → {bytes.per_param_total} 字节/参数", size="body"),
            ledger_text("Muon：去掉 v，只留动量（{muon.state_tensors} 份状态）→ {bytes.muon_per_param} 字节/参数",
                        size="body", color=MUON),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.9).move_to(UP * theme.space("wide"))
        bars = VGroup(*(StackedBar([(q.value, c)], scale=BYTE_UNIT, thickness=BYTE_BAR_THICKNESS, opacity=BYTE_BAR_FILL)
                        .next_to(row, DOWN, buff=theme.space("close")).align_to(row, LEFT)
                        for q, c, row in ((quantity_of("bytes.per_param_total"), "optimizer", rows[0]),
                                          (quantity_of("bytes.muon_per_param"), MUON, rows[1]))))
        for row, bar in zip(rows, bars):
            self.play(FadeIn(row), GrowFromEdge(bar, LEFT), run_time=0.8)
        self.play(FadeIn(caption("只用在隐藏层的矩阵上；嵌入和输出层仍用 AdamW", color="muted")), run_time=0.5)
        self.wait(1.5)


def quantity_of(key: str):
    from lecture_numerics import quantity

    return quantity(key)
