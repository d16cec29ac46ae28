"""fig-muon: two rulers for "one step" — the circle gives SGD, the square gives Muon.

Ⓐ 「最快」取决于怎么量一步: the steepest step is the largest decrease per unit step, for a chosen ruler.
Ⓑ Muon 的更新: M = UΣVᵀ → UVᵀ, every singular value set to the same height.
Ⓒ 同一个梯度，两把尺子 (the panel the lecture shows): farthest point along −g on the circle (SGD)
   and on the square (Muon, the corner).
Ⓓ 它存什么: one state tensor (momentum), not two — the 16-byte bill becomes 12.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, Arc, Circle, Create, DashedLine, Dot, FadeIn, GrowArrow,
                   GrowFromEdge, Line, MoveAlongPath, Square, VGroup, VMobject)

from lecture_numerics import muon
from scenes.kit import theme
from scenes.kit.arrows import arrow
from scenes.kit.bars import StackedBar
from scenes.kit.base import LectureScene
from scenes.kit.layout import keep_inside
from scenes.kit.panels import caption
from scenes.kit.text import formula, ledger_text, words

SGD, MUON, GRAD = "accent", "warm", "gradients"
SINGULAR_FILL = 0.9
BYTE_UNIT, BYTE_BAR_THICKNESS, BYTE_BAR_FILL = 0.5, 0.45, 0.85   # Ⓓ: scene units per byte, bar height, fill
TURN_HALF = 1.2                  # half the length of the arrow from the old update to the new
RADIUS = 1.65                                # one "格" of each ruler, on screen
LEFT_CENTER, RIGHT_CENTER = np.array([-2.9, -0.15, 0]), np.array([3.7, -0.15, 0])
ARROW_REACH = 1.45                           # the −g arrow runs past the ball: 延长线
BAR_WIDTH, BAR_UNIT = 0.55, 0.7


class FigMuon(LectureScene):
    scene_id = "fig-muon"
    title = "Muon：两把尺子量「一步」"
    ledger_keys = ("muon.ruler_count", "muon.answer_count", "muon.sgd_flat_component", "muon.muon_flat_component",
                   "bytes.per_param_total", "bytes.muon_per_param", "muon.state_tensors")

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
        self.start_panel("C", "同一个梯度，{muon.ruler_count}把尺子")
        step_dir = muon.SGD_STEP.value                       # −g / ‖g‖₂: where both arrows point
        circle = Circle(radius=RADIUS, color=theme.color(SGD), stroke_width=4).move_to(LEFT_CENTER)
        square = Square(side_length=2 * RADIUS, color=theme.color(MUON), stroke_width=4).move_to(RIGHT_CENTER)
        rulers = VGroup(self.cross(LEFT_CENTER), self.cross(RIGHT_CENTER))
        left_title = words("用这把尺量：「不许超过一格」是个圆", size="label", color=SGD)
        right_title = words("换把尺子：圈出来的是个方", size="label", color=MUON)
        left_title.next_to(circle, UP, buff=0.8)
        right_title.next_to(square, UP, buff=0.8)
        right_title.align_to(left_title, DOWN)
        self.play(FadeIn(rulers[0]), Create(circle), FadeIn(left_title), run_time=0.9)
        self.play(FadeIn(rulers[1]), Create(square), FadeIn(right_title), run_time=0.9)

        direction = np.array([*step_dir, 0.0])
        arrows = VGroup(*(arrow(c, c + direction * RADIUS * ARROW_REACH, GRAD, weight="bold", buff=None)
                          for c in (LEFT_CENTER, RIGHT_CENTER)))
        arrow_note = words("−梯度的方向", size="small", color=GRAD)
        arrow_note.next_to(arrows[0].get_center(), DOWN + RIGHT, buff=theme.space("fine"))
        self.play(*(GrowArrow(a) for a in arrows), FadeIn(arrow_note), run_time=0.8)

        sgd_at = LEFT_CENTER + direction * RADIUS
        start_angle = 0.0
        end_angle = float(np.arctan2(step_dir[1], step_dir[0])) % (2 * np.pi)
        path = Arc(radius=RADIUS, start_angle=start_angle, angle=end_angle - 2 * np.pi, arc_center=LEFT_CENTER)
        self.roll(path, SGD, "SGD", "延长线上那一点", beside=sgd_at, buff=theme.space("close"), shift=UP * theme.space("wide"))

        corner = RIGHT_CENTER + np.array([*muon.MUON_STEP.value, 0.0]) * RADIUS
        edge = VMobject().set_points_as_corners([RIGHT_CENTER + RIGHT * RADIUS, RIGHT_CENTER + RIGHT * RADIUS + DOWN * RADIUS,
                                                 corner])
        self.roll(edge, MUON, "Muon", "落在角上", beside=corner, buff=theme.space("gap"), shift=DOWN * theme.space("medium"))

        flat = VGroup(ledger_text("平的方向只走 {muon.sgd_flat_component} 格", size="small", color=SGD),
                      ledger_text("平的方向走满 {muon.muon_flat_component} 格", size="small", color=MUON))
        flat[0].next_to(circle, DOWN, buff=theme.space("medium"))
        flat[1].next_to(square, DOWN, buff=theme.space("medium"))
        honest = words("方 = 按奇异值量（谱范数）", size="small", color="muted").next_to(flat[1], DOWN, buff=theme.space("fine"))
        self.play(FadeIn(flat), FadeIn(honest), run_time=0.6)
        self.play(FadeIn(caption("同一个问题的{muon.answer_count}个答案 —— 区别只在你拿哪把尺子量「一步」")), run_time=0.6)
        footnote = words("Newton–Schulz：今天不讲（超纲）", size="small", color="muted")
        footnote.next_to(flat[0], DOWN, buff=theme.space("fine"))
        self.play(FadeIn(footnote), run_time=0.4)
        self.wait(2.0)

    def roll(self, path, colour: str, name: str, note: str, *, beside, buff: float, shift) -> None:
        """A ball rolls along ``path`` from the ruler's rim to where the step lands, then the
        step's name and what it did appear left of the landing point."""
        ball = Dot(path.get_start(), radius=0.12, color=theme.color(colour))
        self.play(FadeIn(ball), run_time=0.3)
        self.play(MoveAlongPath(ball, path), run_time=1.2)
        label = VGroup(words(name, size="heading", color=colour),
                       words(note, size="small", color=colour)).arrange(DOWN, buff=theme.space("fine"))
        keep_inside(label.next_to(beside, LEFT, buff=buff).shift(shift))
        self.play(FadeIn(label), run_time=0.5)

    def cross(self, center) -> VGroup:
        """The ruler's two directions through its centre: steep across, flat up."""
        style = {"color": theme.color("muted"), "stroke_width": 2}
        reach = RADIUS * 1.25
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
