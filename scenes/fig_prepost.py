"""fig-prepost: Post-LN at initialisation — the input's share, one curve, two verdicts (第六节).

One panel, both halves seen together: the same falling line 2^(−l/2) on identical axes, titled
预训练 and 微调; only the verdict under each half differs.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Circle, Create, FadeIn, TransformFromCopy, VGroup, Write

from lecture_numerics.prepost import LAYERS, postln_input_share
from scenes.kit import theme
from scenes.kit.base import LectureScene
from scenes.kit.layout import at_bottom
from scenes.kit.plots import Plot, curve, dots
from scenes.kit.text import formula, ledger_text, line, words

# Geometry (scene units; the frame is 14.2 × 8).
PLOT_WIDTH, PLOT_HEIGHT = 4.6, 2.5
LEFT_ORIGIN, RIGHT_ORIGIN = np.array([-5.4, -1.3, 0]), np.array([1.15, -1.3, 0])   # tick labels clear the safe margin


class FigPrepost(LectureScene):
    scene_id = "fig-prepost"
    title = "Post-LN 初始化时：同一条曲线，两种价值"
    ledger_keys = ("prepost.unit_variance", "prepost.variance_sum", "prepost.share_at_24", "prepost.x_ticks",
                   "prepost.y_ticks", "prepost.verdict_count")

    def construct(self) -> None:
        self.panel("A")
        self.clear()
        self.norm_divides_by_root_two()
        left = self.falling_line(LEFT_ORIGIN, "预训练")
        self.same_curve_on_the_right(left)
        self.two_verdicts()

    def norm_divides_by_root_two(self) -> None:
        heading = words("Post-LN，初始化时：最初那个输入还剩多少", size="heading").to_corner(UP + LEFT, buff=theme.space("edge"))
        block = line("x（方差 {prepost.unit_variance}）+ F(x)（方差 {prepost.unit_variance}）"
                     "= 方差 {prepost.variance_sum} → Norm → 方差 {prepost.unit_variance}", size="label")
        block.next_to(heading, DOWN, buff=theme.space("gap")).align_to(heading, LEFT)
        divide = formula("÷ √2", size="label", color="backward").next_to(block, RIGHT, buff=theme.space("edge"))
        self.play(FadeIn(heading), run_time=0.5)
        self.play(FadeIn(block), run_time=0.6)
        self.play(Write(divide), run_time=0.4)

    def plot(self, origin: np.ndarray) -> Plot:
        p = Plot(x_range=(0, LAYERS.value), y_range=(postln_input_share(LAYERS.value), 1.0), y_log=True,
                 width=PLOT_WIDTH, height=PLOT_HEIGHT, x_ticks_key="prepost.x_ticks", y_ticks_key="prepost.y_ticks",
                 x_title="层 l（残差 + Norm 的次数）")
        p.shift(origin - p.x_axis.get_start())
        return p

    def falling_line(self, origin: np.ndarray, title: str) -> VGroup:
        p = self.plot(origin)
        layers = np.arange(LAYERS.value + 1)
        shares = postln_input_share(layers)
        drawn = curve(p, layers, shares, "backward")
        points = dots(p, layers, shares, "backward", radius=0.045)
        name = words(title, size="label").next_to(p.y_axis, UP, buff=theme.space("close")).align_to(p.x_axis, LEFT).shift(RIGHT * theme.space("wide"))
        law = formula("2^(−l/2)", size="label", color="backward").move_to(p.point(LAYERS.value * 0.55, 2 ** -3))
        end = p.point(LAYERS.value, shares[-1])
        ring = Circle(radius=0.16, color=theme.color("backward"), stroke_width=4).move_to(end)
        left_over = ledger_text("{prepost.share_at_24}", size="label", color="backward").next_to(ring, UP, buff=theme.space("fine")).shift(RIGHT * theme.space("gap"))
        group = VGroup(p, name, drawn, points, law, ring, left_over)
        self.play(FadeIn(p), FadeIn(name), run_time=0.5)
        self.play(Create(drawn), FadeIn(points, lag_ratio=0.1), FadeIn(law), run_time=1.5)
        self.play(Create(ring), FadeIn(left_over), run_time=0.5)
        return group

    def same_curve_on_the_right(self, left: VGroup) -> None:
        right = left.copy().shift(RIGHT_ORIGIN - LEFT_ORIGIN)
        right[1].become(words("微调", size="label").move_to(right[1]).align_to(right[1], LEFT))
        self.play(TransformFromCopy(left, right), run_time=1.0)
        self.left, self.right = left, right

    def two_verdicts(self) -> None:
        below = {}
        for half, text, color in ((self.left, "预训练：残差名存实亡", "backward"),
                                  (self.right, "微调：它正好替你把前面的层按住了", "good")):
            below[text] = words(text, size="small", color=color).next_to(half[0], DOWN, buff=theme.space("close")).align_to(
                half[0].x_axis, LEFT)
            self.play(FadeIn(below[text], shift=UP * theme.space("tight")), run_time=0.5)
        closing = at_bottom(line("同一条曲线，{prepost.verdict_count}种价值", size="body"))
        self.play(Write(closing), run_time=0.6)
        self.wait(1.5)
