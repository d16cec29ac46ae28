"""fig-muon: two rulers for "one step" — the circle gives SGD, the square gives Muon.

Ⓐ 「最快」取决于怎么量一步: the steepest step is the largest decrease per unit step, for a chosen ruler —
   drawn as one −g over the circle and the square laid on each other, the farthest point of each.
Ⓑ Muon 的更新: M = UΣVᵀ → UVᵀ, every singular value set to the same height.
Ⓒ 同一个梯度，两把尺子 (the one panel the lecture shows), one beat per notes line: the rulers'
   axes (steep up, flat across, as in fig-onelr); 「一格」 and, under the heading, the line said
   over it (「太大」得先有把尺子量); the circle, the square; then a level line perpendicular to −g is pushed outward
   until it last touches each shape — the circle at the SGD point on −g's extension, the square
   at its corner (Muon); the two answers; Newton–Schulz, under Muon's square only.
Ⓓ 它存什么: one state tensor (momentum), not two — the 16-byte bill becomes 12, part by part.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Create, FadeIn, FadeOut, GrowArrow, GrowFromEdge, ValueTracker, VGroup, \
    always_redraw

from lecture_numerics import muon, quantity
from scenes.kit import marks, theme, widgets
from scenes.kit.arrows import arrow
from scenes.kit.bars import StackedBar
from scenes.kit.base import LectureScene
from scenes.kit.panels import caption, content_area_top
from scenes.kit.text import formula, ledger_text, words

# SGD and Muon have no concept colour of their own: the circle and the square tell them apart,
# both in ink, each named where it lands. −g is the gradient (backward, the notes' red); the
# level line being pushed and the points it lands on are the moving highlight (accent).
RULER, STEP, SWEEP, LANDING = "ink", "backward", "accent", "accent"
MOMENTUM, UPDATE = "optimizer", "ink"        # Ⓑ: the momentum buffer is optimizer state; the update is not
SINGULAR_FILL = 0.9
BYTE_UNIT, BYTE_BAR_H = 0.6, 0.6             # Ⓓ: scene units per byte, bar height (its labels inside)
TURN_HALF = 1.2                  # half the length of the arrow from the old update to the new
RADIUS = 1.35                                # one "格" of each ruler, on screen
LEFT_CENTER, RIGHT_CENTER = np.array([-3.3, 0.15, 0]), np.array([3.3, 0.15, 0])
# The axes as fig-onelr has them: the steep parameter up (竖着弹), the flat one across (横着爬).
# The ledger's vectors are (steep, flat); on screen that is (flat, steep).
ON_SCREEN = np.array([1, 0])
DIRECTION = np.array([*np.asarray(muon.SGD_STEP.value)[ON_SCREEN], 0.0])   # −g / ‖g‖₂: where both arrows point
CORNER = np.array([*np.asarray(muon.MUON_STEP.value)[ON_SCREEN], 0.0])    # Muon's step: the square's corner
ARROW_REACH = 1.55                           # the −g arrow runs past the ball: 延长线
CROSS_REACH = 1.15                           # the ruler's axes, in 格
TITLE_Y = 2.15                               # the rulers' names, clear above the 平 labels
PREMISE_GAP = 0.15                           # the premise under the panel heading
PREMISE_CENTER = np.array([0.0, -0.15, 0])   # Ⓐ: the circle and the square, one over the other,
PREMISE_RADIUS = 1.7                         # larger than Ⓒ's: here they are the whole picture
PREMISE_LABEL_GAP, PREMISE_LABEL_RISE = 0.45, 0.5   # Ⓐ's labels left of their dots, off −g's line
LEVEL_HALF = 1.1                             # half the swept level line, in 格
FOOTNOTE_RIGHT, FOOTNOTE_TOP = 6.6, -1.35    # under the square's right half, clear of Muon's label
TANGENT_HALF = 0.6                           # what stays of it: a short tangent at the touch point
TICK_LENGTH = 0.16                           # the ends of 「一格」
# Landing labels left of the touch point (SGD) or below and left of it (Muon), clear of the
# arrow, the tangent and the takeaway under them.
LABEL_OFFSET_SGD = (-1.6, 0.15)
LABEL_OFFSET_MUON = (-1.1, -0.65)
BAR_WIDTH, BAR_UNIT = 0.55, 0.7
ROWS_APART = 1.7                             # Ⓓ: room under each row for its bar and the labels below it
# Ⓓ: the per-parameter bill, part by part, in each part's concept colour.
BILL = (("权重", "bytes.weights_bf16", "weights"), ("梯度", "bytes.gradients_bf16", "backward"),
        ("主权重", "bytes.master_fp32", "optimizer"), ("m", "bytes.momentum_fp32", "optimizer"),
        ("v", "bytes.variance_fp32", "optimizer"))


def name_at_tip(minus_g) -> VGroup:
    """「−梯度」 below and right of the arrow's tip: beside the tip its minus sign ran into the head
    (the arrow points down and left), and the label read 「梯度」."""
    return words("−梯度", size="small", color=STEP).next_to(minus_g.get_end(), DOWN + RIGHT, buff=theme.space("tight"))


class FigMuon(LectureScene):
    scene_id = "fig-muon"
    title = "Muon：两把尺子量「一步」"
    ledger_keys = ("muon.ruler_count", "muon.answer_count", "bytes.per_param_total", "bytes.muon_per_param",
                   "muon.state_tensors")

    def construct(self):
        self.premise_panel()
        self.update_panel()
        self.two_rulers_panel()
        self.storage_panel()

    # ---- Ⓐ the premise -------------------------------------------------------------------------

    def premise_panel(self):
        """The premise drawn: one −g, the circle and the square laid over each other; the farthest
        point along −g inside each (the dots) is a different direction — the ruler decides."""
        self.start_panel("A", "「最快」取决于怎么量一步")
        definition = words("最陡的一步 = 每走「一格」，loss 降得最多的方向", size="heading")
        definition.move_to([0, content_area_top() - PREMISE_GAP, 0])
        center = PREMISE_CENTER
        circle = marks.ring(center, RULER, radius=PREMISE_RADIUS, weight="bold")
        side = 2 * PREMISE_RADIUS
        square = marks.box(side, side, RULER, weight="bold", corner="square").move_to(center)
        minus_g = arrow(center, center + DIRECTION * PREMISE_RADIUS * ARROW_REACH, STEP, weight="bold", buff=None)
        g_name = name_at_tip(minus_g)
        on_circle = center + DIRECTION * PREMISE_RADIUS * muon.SGD_REACH.value
        corner = center + CORNER * PREMISE_RADIUS
        to_corner = arrow(center, corner, "ink", weight="bold", buff="snug")
        # Each label beside its own dot: the circle's under the square, right of where −梯度 leaves
        # the circle (past its name); the square's left of its corner.
        circle_says = words("圆：落在 −梯度 上", size="label")
        circle_says.next_to(square, DOWN, buff=theme.space("small"))
        circle_says.align_to(g_name.get_right() + RIGHT * theme.space("small"), LEFT)
        circle_leader = arrow(circle_says.get_corner(UP + LEFT), on_circle, "ink", weight="thin", buff="fine")
        square_says = words("方：落在角上", size="label").next_to(corner, LEFT, buff=theme.space("medium"))
        square_says.shift(DOWN * PREMISE_LABEL_RISE)
        # As in Ⓒ: the square is the spectral-norm ball in singular-value coordinates, not ℓ∞.
        honest = words("按奇异值量（谱范数）", size="small", color="muted")
        honest.next_to(square_says, DOWN, buff=theme.space("fine")).align_to(square_says, RIGHT)
        self.play(FadeIn(definition), run_time=0.6)
        self.play(Create(circle), Create(square), run_time=0.9)
        self.play(GrowArrow(minus_g), run_time=0.6)
        self.play(FadeIn(g_name), run_time=0.3)
        self.play(FadeIn(marks.dot(on_circle, LANDING, size="ball")), FadeIn(circle_says), GrowArrow(circle_leader),
                  run_time=0.5)
        self.play(GrowArrow(to_corner), FadeIn(marks.dot(corner, LANDING, size="ball")), FadeIn(square_says),
                  FadeIn(honest), run_time=0.6)
        self.play(FadeIn(caption("尺子换了，最陡的方向就跟着换")), run_time=0.5)
        self.wait(1.0)

    # ---- Ⓑ what Muon does to the momentum ----------------------------------------------------------

    def update_panel(self):
        self.start_panel("B", "Muon 的更新：奇异值全部拉成同样高")
        base = DOWN * theme.space("gap")
        before = self.singular_bars(muon.SINGULAR_BEFORE.value, MOMENTUM).move_to(LEFT * 3.3 + base, aligned_edge=DOWN)
        after = self.singular_bars(muon.SINGULAR_AFTER.value, UPDATE).move_to(RIGHT * 3.3 + base, aligned_edge=DOWN)
        before.align_to(base, DOWN)
        after.align_to(base, DOWN)
        names = VGroup(formula("动量 M = UΣVᵀ", size="body", color=MOMENTUM).next_to(before, DOWN, buff=theme.space("edge")),
                       formula("更新 = UVᵀ", size="body", color=UPDATE).next_to(after, DOWN, buff=theme.space("edge")))
        turn = arrow(LEFT * TURN_HALF + UP * theme.space("wide"), RIGHT * TURN_HALF + UP * theme.space("wide"), "ink",
                     weight="bold")
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

        # 「太大」得先有把尺子量: the premise the closing ⭐⭐⭐ line calls back to, said here in the
        # picture's words, and the one unit each ruler measures.
        self.beat(says="我们前面说「一步不许迈太大」—— 可「太大」得先有把尺子量")
        one = VGroup(*(self.one_step_tick(c) for c in (LEFT_CENTER, RIGHT_CENTER)))
        premise = words("「太大」得先有把尺子量", size="body")
        premise.move_to([0, content_area_top() - PREMISE_GAP, 0])
        self.play(FadeIn(one), run_time=0.5)
        self.play(FadeIn(premise), run_time=0.5)

        self.beat(says="用一把尺量，「不许超过一格」圈出来的是个圆")
        circle = marks.ring(LEFT_CENTER, RULER, radius=RADIUS, weight="bold")
        left_title = words("这把尺：圆", size="label").move_to([LEFT_CENTER[0], TITLE_Y, 0])
        self.play(Create(circle), FadeIn(left_title), run_time=0.9)
        self.beat(says="换另一把尺，圈出来的是个方")
        square = marks.box(2 * RADIUS, 2 * RADIUS, RULER, weight="bold", corner="square").move_to(RIGHT_CENTER)
        right_title = words("换把尺：方", size="label").move_to([RIGHT_CENTER[0], TITLE_Y, 0])
        # The square is the spectral-norm ball read in singular-value coordinates, not ℓ∞: said once, quietly.
        honest = words("按奇异值量", size="small", color="muted").next_to(right_title, RIGHT, buff=theme.space("small"))
        self.play(Create(square), FadeIn(right_title), FadeIn(honest), run_time=0.9)

        self.beat(says="同一个梯度方向，在圆上走到最远，是延长线上那一点 —— 那就是 SGD")
        self.gradient_arrows()
        sgd_at = LEFT_CENTER + DIRECTION * RADIUS * muon.SGD_REACH.value
        self.sweep(LEFT_CENTER, muon.SGD_REACH.value, sgd_at)
        self.land(sgd_at, "SGD", "延长线上", LABEL_OFFSET_SGD)

        self.beat(says="可在方上走到最远，落在角上 —— 那个角就是 Muon")
        corner = RIGHT_CENTER + CORNER * RADIUS
        self.sweep(RIGHT_CENTER, muon.MUON_REACH.value, corner)
        # Muon's step itself, as bold as −g: it turns away from the gradient, to the corner.
        step = arrow(RIGHT_CENTER, corner, "ink", weight="bold", buff="snug")
        self.land(corner, "Muon", "落在角上", LABEL_OFFSET_MUON, step=step)

        # Both lines are ⭐⭐⭐ (the stage direction before them): the first lands, the second
        # takes its place as the whole thought; the premise under the heading is what it calls back to.
        self.beat(says="所以 Muon 不是「又一个新优化器」", takeaway="Muon 不是「又一个新优化器」")
        self.beat(says="它跟 SGD 是同一个问题的两个答案 —— 区别只在你拿哪把尺子量「一步」",
                  takeaway="同一个问题的{muon.answer_count}个答案", replaces=True)
        self.beat(says="至于那把尺子怎么算出来的、Newton-Schulz 是什么 —— 今天不讲，超纲")
        # The footnote belongs to Muon's corner: Newton–Schulz computes UVᵀ, the corner, under the square.
        footnote = VGroup(formula("角怎么算（UVᵀ）", size="small", color="muted"),
                          formula("Newton–Schulz", size="small", color="muted"),
                          words("今天不讲，超纲", size="small", color="muted")).arrange(DOWN, aligned_edge=RIGHT,
                                                                                 buff=theme.space("small"))
        footnote.move_to([FOOTNOTE_RIGHT, FOOTNOTE_TOP, 0], aligned_edge=UP + RIGHT)
        self.play(FadeIn(footnote), run_time=0.4)

    def gradient_arrows(self) -> None:
        """−g from each ruler's centre, past the edge (延长线), in the gradient's colour."""
        arrows = VGroup(*(arrow(c, c + DIRECTION * RADIUS * ARROW_REACH, STEP, weight="bold", buff=None)
                          for c in (LEFT_CENTER, RIGHT_CENTER)))
        name = name_at_tip(arrows[0])
        self.play(*(GrowArrow(a) for a in arrows), run_time=0.8)
        self.play(FadeIn(name), run_time=0.3)      # named once it is there

    def one_step_tick(self, center) -> VGroup:
        """「一格」: one unit of the ruler, laid on its flat axis: it ends on the circle and the square."""
        a, b = center, center + RIGHT * RADIUS
        span = marks.segment(a, b, "ink", weight="regular")
        ends = VGroup(*(marks.tick(p, "ink", length=TICK_LENGTH) for p in (a, b)))
        name = words("一格", size="small").next_to(span, UP, buff=theme.space("tight"))
        return VGroup(span, ends, name)

    def sweep(self, center, reach: float, touch) -> None:
        """A level line perpendicular to −g, pushed outward from the centre until it last
        touches the ball (``reach`` ruler units along −g); a short tangent stays at ``touch``,
        thin, grey and dashed, so that at Muon's corner it is not one more bright mark."""
        along = ValueTracker(0.0)
        unit_across = np.array([-DIRECTION[1], DIRECTION[0], 0.0])
        across = unit_across * RADIUS * LEVEL_HALF

        def level_line():
            mid = center + DIRECTION * RADIUS * along.get_value()
            return marks.segment(mid - across, mid + across, SWEEP, weight="regular", dashed=True)

        line_now = always_redraw(level_line)
        self.add(line_now)
        self.play(along.animate.set_value(reach), run_time=2.0)
        line_now.clear_updaters()
        self.remove(along)               # the tracker drove the sweep; it is not part of the picture
        tangent = marks.segment(touch - unit_across * TANGENT_HALF, touch + unit_across * TANGENT_HALF, "muted",
                                weight="thin", dashed=True)
        self.play(FadeOut(line_now), FadeIn(tangent), run_time=0.4)

    def land(self, at, name: str, note: str, offset, step=None) -> None:
        """The touch point's dot, the step to it when it is not on −g, then the label."""
        dot = marks.dot(at, LANDING, size="ball")
        label = VGroup(words(name, size="heading"), words(note, size="small")).arrange(DOWN, buff=theme.space("fine"))
        label.move_to(at + np.array([*offset, 0.0]))
        self.play(FadeIn(dot, scale=1.6), run_time=0.4)
        if step is not None:
            self.play(GrowArrow(step), run_time=0.6)
        self.play(FadeIn(label), run_time=0.4)

    def cross(self, center) -> VGroup:
        """The ruler's two directions through its centre: steep up, flat across, as in fig-onelr
        (axes: muted, hairline)."""
        reach = RADIUS * CROSS_REACH
        across = marks.segment(center + LEFT * reach, center + RIGHT * reach, "muted", weight="hairline")
        up = marks.segment(center + DOWN * reach, center + UP * reach, "muted", weight="hairline")
        names = VGroup(words("平", size="small", color="muted").next_to(across, RIGHT, buff=theme.space("tight")),
                       words("陡", size="small", color="muted").next_to(center + UP * reach, RIGHT, buff=theme.space("snug")))
        return VGroup(across, up, names)

    # ---- Ⓓ what it stores ---------------------------------------------------------------------------

    def storage_panel(self):
        self.start_panel("D", "它存什么")
        rows = VGroup(
            ledger_text("AdamW：{bytes.per_param_total} 字节/参数", size="body"),
            ledger_text("Muon：去掉 v，只留动量（{muon.state_tensors} 份状态）→ {bytes.muon_per_param} 字节/参数",
                        size="body"),
        ).arrange(DOWN, aligned_edge=LEFT, buff=ROWS_APART).move_to(UP * theme.space("wide"))
        # One scale for both bills, each part in its concept's colour: Muon's bar is AdamW's without v.
        bills = (BILL, BILL[:-1])
        bars = VGroup(*(widgets.split_bar(list(parts), BYTE_UNIT * sum(quantity(k).value for _, k, _ in parts), BYTE_BAR_H)
                        .next_to(row, DOWN, buff=theme.space("close")).align_to(row, LEFT)
                        for parts, row in zip(bills, rows)))
        for row, bar in zip(rows, bars):
            self.play(FadeIn(row), GrowFromEdge(bar, LEFT), run_time=0.8)
        self.play(FadeIn(caption("只用在隐藏层的矩阵上；嵌入和输出层仍用 AdamW", color="muted")), run_time=0.5)
        self.wait(1.5)
