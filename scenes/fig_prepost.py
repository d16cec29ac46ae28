"""fig-prepost: Post-LN at initialisation — the input's share, one curve, two verdicts (第六节).

One panel, one beat per sentence: x + F(x) (variance 2), the Norm step that divides by √2,
the falling line 2^(−ℓ/2) and its 1/4096 at layer 24; then the same curve copied to the right
on identical axes, the halves titled 预训练 and 微调, and each verdict on its own beat.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, ORIGIN, RIGHT, UP, Create, FadeIn, FadeOut, GrowArrow, VGroup

from lecture_numerics.prepost import LAYERS, postln_input_share
from scenes.kit import marks, theme
from scenes.kit.base import LectureScene
from scenes.kit.arrows import arrow
from scenes.kit.plots import Plot, curve, dots
from scenes.kit.text import formula, ledger_text, line, words

# Geometry (scene units; the frame is 14.2 × 8).
PLOT_WIDTH, PLOT_HEIGHT = 4.6, 2.1    # low enough for the half titles' own row, clear of 「Norm ÷ √2」
COPY_SLIDE = 1.0                     # the copy's last stretch of slide: it starts clear of the left half
NORM_ARROW_EXTRA = 0.3               # the Norm arrow runs past its label 「Norm ÷ √2」 by this much
CALLOUT_AT = (0.85, -7.0)           # the 1/4096 callout: (share of the layer axis, log2 of the share),
                                     # in the empty corner above the line's end, its arrow down to the ring
# The curve and the Norm step in ink: red stays for gradients across the lecture, and the
# pre-training verdict is the one thing here in the "bad" colour.
CURVE_ROLE = "ink"
MARK_ROLE = "accent"                 # the ringed 1/4096: a highlight, the point the speaker sends the room to
LEFT_ORIGIN, RIGHT_ORIGIN = np.array([-5.4, -1.2, 0]), np.array([1.15, -1.2, 0])   # tick labels clear the safe margin
HALF_TITLE_RISE = 0.2                # the half title's row: this far above the y title, never on its line
CLAIM_Y = -0.2                       # the panel's claim, alone in the middle of the empty frame
RING_RADIUS, RING_RISE = 0.125, 0.03  # the ring at layer 24, raised a little so it clears the 「24」 tick
VERDICT_GAP = 0.25                   # the verdict stands this far under the x title (>= 20 px), apart from it


class FigPrepost(LectureScene):
    scene_id = "fig-prepost"
    title = "Post-LN 初始化时：同一条曲线，两种价值"
    ledger_keys = ("prepost.unit_variance", "prepost.variance_sum", "prepost.share_at_24", "prepost.x_ticks",
                   "prepost.y_ticks", "prepost.verdict_count")

    def construct(self) -> None:
        self.panel("A", says="Post-LN 里，归一化本身就是梯度消失的元凶之一")
        self.clear()
        heading = words("Post-LN，初始化时：最初那个输入还剩多少", size="heading").to_corner(UP + LEFT, buff=theme.space("edge"))
        # The panel's claim, said first, holds the empty frame until the curve takes its place.
        claim = words("归一化本身就是梯度消失的元凶之一", size="body").move_to([0, CLAIM_Y, 0])
        self.play(FadeIn(heading), FadeIn(claim), run_time=0.5)
        self.norm_divides_by_root_two(heading)

        self.beat(says="一层一层递归下去，最初那个输入在第 l 层只剩二的负 l 除以二次方")
        self.play(FadeOut(claim), run_time=0.4)
        left = self.falling_line(LEFT_ORIGIN)
        self.beat(says="看这张图：到第 24 层，只剩四千零九十六分之一")
        self.play(Create(left.ring), FadeIn(left.left_over), run_time=0.6)

        self.beat(says="现在看左右两半 —— 曲线一模一样，连坐标都没动，变的只有底下那个结论")
        self.same_curve_on_the_right(left)
        self.beat(says="预训练时这叫『残差名存实亡』")
        self.verdict(left, "预训练：残差名存实亡", "bad")
        self.beat(says="可微调的时候，它正好替你把前面的层按住了")
        self.verdict(self.right, "微调：它正好替你把前面的层按住了", "good")
        self.beat(says="同一条曲线，两种价值", takeaway="同一条曲线，{prepost.verdict_count}种价值")

    def norm_divides_by_root_two(self, heading) -> None:
        """x + F(x) (variance 2), then the Norm step, which is where the ÷ √2 happens."""
        self.beat(says="初始化那一刻，x 和 F(x) 的方差各是 1，加起来是 2")
        # The sum as one short line (方差 once): a label, not a sentence transcribed from the speech.
        summed = line("x + F(x)：方差 {prepost.unit_variance} + {prepost.unit_variance} = {prepost.variance_sum}",
                      size="label")
        summed.next_to(heading, DOWN, buff=theme.space("gap")).align_to(heading, LEFT)
        self.play(FadeIn(summed, shift=RIGHT * 0.2), run_time=0.6)

        self.beat(says="而 Norm 要把它拉回 1 —— 所以它相当于除以根号二")
        norm = VGroup(words("Norm", size="label", color=CURVE_ROLE),
                      formula("÷ √2", size="label", color=CURVE_ROLE)).arrange(RIGHT, buff=theme.space("small"))
        step = arrow(ORIGIN, RIGHT * (norm.width + NORM_ARROW_EXTRA), CURVE_ROLE, weight="bold", buff=None)
        step.next_to(summed, RIGHT, buff=theme.space("small"))
        norm.next_to(step, DOWN, buff=theme.space("fine"))       # the step's own label, under its arrow
        back = ledger_text("方差 {prepost.unit_variance}", size="label").next_to(step, RIGHT, buff=theme.space("small"))
        self.play(GrowArrow(step), FadeIn(norm, shift=DOWN * 0.1), run_time=0.6)
        self.play(FadeIn(back), run_time=0.4)

    def plot(self, origin: np.ndarray) -> Plot:
        p = Plot(x_range=(0, LAYERS.value), y_range=(postln_input_share(LAYERS.value), 1.0), y_log=True,
                 width=PLOT_WIDTH, height=PLOT_HEIGHT, x_ticks_key="prepost.x_ticks", y_ticks_key="prepost.y_ticks",
                 x_title="ℓ（残差 + Norm 的步数）", y_title="x 的系数")
        p.shift(origin - p.x_axis.get_start())
        return p

    def falling_line(self, origin: np.ndarray) -> VGroup:
        """The plot, the line and its law; the ring at layer 24 is built here and shown a beat later."""
        p = self.plot(origin)
        layers = np.arange(LAYERS.value + 1)
        shares = postln_input_share(layers)
        drawn = curve(p, layers, shares, CURVE_ROLE)
        points = dots(p, layers, shares, CURVE_ROLE, radius=0.045)
        law = formula("2^{−ℓ/2}", size="body", color=CURVE_ROLE).move_to(p.point(LAYERS.value * 0.55, 2 ** -3))
        end = p.point(LAYERS.value, shares[-1])
        ring = marks.ring(end + UP * RING_RISE, MARK_ROLE, radius=RING_RADIUS, weight="bold")
        left_over = ledger_text("{prepost.share_at_24}", size="label", color=MARK_ROLE).move_to(
            p.point(LAYERS.value * CALLOUT_AT[0], 2.0 ** CALLOUT_AT[1]))
        pointer = arrow(left_over.get_bottom(), ring.get_top(), MARK_ROLE, weight="thin")
        left_over = VGroup(left_over, pointer)
        group = VGroup(p, drawn, points, law, ring, left_over)
        group.ring, group.left_over = ring, left_over
        self.play(FadeIn(p), run_time=0.5)
        self.play(Create(drawn), FadeIn(points, lag_ratio=0.1), FadeIn(law), run_time=1.5)
        return group

    @staticmethod
    def half_title(plot: Plot, title: str):
        """Over the middle of its plot, on a row of its own above the y title."""
        return words(title, size="heading").next_to(plot.y_title, UP, buff=HALF_TITLE_RISE).set_x(
            plot.x_axis.get_center()[0])

    def same_curve_on_the_right(self, left: VGroup) -> None:
        """The very same curve and axes, copied, come in on the right (fading in as they slide the
        last stretch, never passing over the left half's glyphs); each half gets its title as new
        words, never morphing one title's glyphs into the other's."""
        right = left.copy().shift(RIGHT_ORIGIN - LEFT_ORIGIN)
        titles = VGroup(self.half_title(left[0], "预训练"), self.half_title(right[0], "微调"))
        self.play(FadeIn(right, shift=RIGHT * COPY_SLIDE), run_time=0.9)
        self.play(FadeIn(titles, shift=DOWN * 0.1), run_time=0.5)
        self.right = right

    def verdict(self, half: VGroup, text: str, color: str) -> None:
        below = words(text, size="label", color=color).next_to(half[0], DOWN, buff=VERDICT_GAP)
        below.set_x(half[0].x_axis.get_center()[0])          # centred under its own plot
        self.play(FadeIn(below, shift=UP * theme.space("tight")), run_time=0.5)
