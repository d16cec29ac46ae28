"""fig-prepost: Post-LN at initialisation — the input's share, one curve, two verdicts (第六节).

One panel, one beat per sentence: the Post-LN block (x → ⊕ ← F(x) → Norm, Norm marked 元凶之一),
x's and F(x)'s variances as bars stacking into 2, Norm squeezing it back to 1 (÷ √2); then,
summed up in one line over the plots,
the falling line 2^(−ℓ/2) and its 1/4096 at layer 24; then the same curve copied to the right
on identical axes, the halves titled 预训练 and 微调, and each verdict on its own beat.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, ORIGIN, RIGHT, UP, Create, FadeIn, FadeOut, GrowArrow, VGroup

from lecture_numerics.prepost import LAYERS, postln_input_share
from scenes.kit import marks, theme
from scenes.kit.bars import StackedBar
from scenes.kit.base import LectureScene
from scenes.kit.arrows import arrow
from scenes.kit.plots import Plot, curve, dots
from scenes.kit.text import formula, ledger_text, line, words

# Geometry (scene units; the frame is 14.2 × 8).
PLOT_WIDTH, PLOT_HEIGHT = 4.6, 1.95   # low enough for the half titles' own row, clear of 「Norm ÷ √2」
COPY_SLIDE = 1.0                     # the copy's last stretch of slide: it starts clear of the left half
NORM_ARROW_EXTRA = 0.3               # the Norm arrow runs past its label 「Norm ÷ √2」 by this much
CALLOUT_AT = (0.85, -7.0)           # the 1/4096 callout: (share of the layer axis, log2 of the share),
                                     # in the empty corner above the line's end, its arrow down to the ring
# The curve and the Norm step in ink: red stays for gradients across the lecture, and the
# pre-training verdict is the one thing here in the "bad" colour.
CURVE_ROLE = "ink"
MARK_ROLE = "accent"                 # the ringed 1/4096: a highlight, the point the speaker sends the room to
LEFT_ORIGIN, RIGHT_ORIGIN = np.array([-5.4, -1.05, 0]), np.array([1.15, -1.05, 0])   # tick labels clear the safe margin
HALF_TITLE_RISE = 0.2                # the half title's row: this far above the y title, never on its line
# The Post-LN block (A.1–A.3), in the middle of the frame until the curve takes its place:
# x → ⊕ ← F(x), ⊕ → Norm → out on one row; under it, variance as bar heights (x's 1, F(x)'s 1,
# their sum 2, and Norm's 1 again); the claim as a small subtitle under the bars.
BLOCK_Y, F_RISE = 1.2, 1.05          # the block's row; F(x) this far above the ⊕
BLOCK_X = dict(x=-5.0, f=-3.3, plus=-1.4, norm=1.2, out=3.8)
NORM_BOX = (1.5, 0.62)
BAR_BASE, BAR_UNIT, BAR_WIDTH = -1.75, 0.72, 0.6   # variance 1 is BAR_UNIT tall
CLAIM_Y = -2.9                       # the claim, under the bars' labels
BLAME = "bad"                        # Norm, 「元凶之一」: the thing that goes wrong
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
        # Heading and half titles at body size: the closing line (the takeaway) must read as the largest.
        heading = words("Post-LN，初始化时：最初那个输入还剩多少", size="body").to_corner(UP + LEFT, buff=theme.space("edge"))
        # The panel's claim, said first, as the block it is about: Norm after the sum, marked.
        block = self.post_ln_block()
        claim = words("归一化本身就是梯度消失的元凶之一", size="label").move_to([0, CLAIM_Y, 0])
        self.play(FadeIn(heading), FadeIn(block), FadeIn(claim), run_time=0.6)
        bars = self.norm_divides_by_root_two(block)

        self.beat(says="一层一层递归下去，最初那个输入在第 l 层只剩二的负 l 除以二次方")
        # The block leaves for the curve; one line keeps what it showed, over the plots.
        summed = line("x + F(x)：方差 {prepost.unit_variance} + {prepost.unit_variance} = {prepost.variance_sum}",
                      size="label")
        summed.next_to(heading, DOWN, buff=theme.space("gap")).align_to(heading, LEFT)
        norm = VGroup(words("Norm", size="label", color=BLAME),
                      formula("÷ √2", size="label", color=CURVE_ROLE)).arrange(RIGHT, buff=theme.space("small"))
        step = arrow(ORIGIN, RIGHT * (norm.width + NORM_ARROW_EXTRA), CURVE_ROLE, weight="bold", buff=None)
        step.next_to(summed, RIGHT, buff=theme.space("small"))
        norm.next_to(step, DOWN, buff=theme.space("fine"))       # the step's own label, under its arrow
        back = ledger_text("方差 {prepost.unit_variance}", size="label").next_to(step, RIGHT, buff=theme.space("small"))
        # The block leaves first, wholly, so its labels never stand under the line's arriving ones.
        self.play(FadeOut(VGroup(block, bars, claim)), run_time=0.4)
        self.play(FadeIn(VGroup(summed, step, norm, back)), run_time=0.5)
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

    def post_ln_block(self) -> VGroup:
        """x → ⊕ ← F(x), ⊕ → Norm → out; Norm framed in the 'bad' colour and marked 「元凶之一」."""
        y = BLOCK_Y
        x_in = formula("x", size="body").move_to([BLOCK_X["x"], y, 0])
        f_in = formula("F(x)", size="body").move_to([BLOCK_X["plus"], y + F_RISE, 0])
        plus_at = np.array([BLOCK_X["plus"], y, 0])
        plus = VGroup(marks.ring(plus_at, "ink", radius=0.22, weight="regular"), words("+", size="body").move_to(plus_at))
        norm_box = marks.box(*NORM_BOX, BLAME, weight="bold").move_to([BLOCK_X["norm"], y, 0])
        norm = VGroup(norm_box, words("Norm", size="body", color=BLAME).move_to(norm_box))
        blame = words("元凶之一", size="label", color=BLAME).next_to(norm_box, UP, buff=theme.space("small"))
        out = words("输出", size="body").move_to([BLOCK_X["out"], y, 0])
        gap = theme.space("small")
        wires = VGroup(arrow(x_in.get_right() + RIGHT * gap, plus.get_left() + LEFT * gap * 0.5, "ink", buff=None),
                       arrow(f_in.get_bottom() + DOWN * gap * 0.5, plus.get_top() + UP * gap * 0.5, "ink", buff=None),
                       arrow(plus.get_right() + RIGHT * gap * 0.5, norm_box.get_left() + LEFT * gap * 0.5, "ink", buff=None),
                       arrow(norm_box.get_right() + RIGHT * gap * 0.5, out.get_left() + LEFT * gap, "ink", buff=None))
        group = VGroup(x_in, f_in, plus, norm, blame, out, wires)
        group.x_in, group.plus, group.out = x_in, plus, out
        return group

    def variance_bar(self, units: int, x: float, name: str, label: str) -> VGroup:
        """A bar ``units`` variances tall (each unit its own block) on the shared base: what it is over
        it, its variance under it."""
        bar = StackedBar([(1.0, CURVE_ROLE)] * units, scale=BAR_UNIT, orientation="vertical", thickness=BAR_WIDTH)
        bar.start_at((x, BAR_BASE))
        title = (words(name, size="label") if name.isalpha() and not name.isascii() else formula(name, size="label"))
        title.next_to(bar, UP, buff=theme.space("tight"))
        value = ledger_text(label, size="label").next_to([x, BAR_BASE, 0], DOWN, buff=theme.space("small"))
        return VGroup(bar, title, value)

    def norm_divides_by_root_two(self, block: VGroup) -> VGroup:
        """x and F(x), variance 1 each, stack into a bar of 2; then Norm squeezes it back to 1 (÷ √2)."""
        self.beat(says="初始化那一刻，x 和 F(x) 的方差各是 1，加起来是 2")
        one = self.variance_bar(1, BLOCK_X["x"], "x", "方差 {prepost.unit_variance}")
        other = self.variance_bar(1, BLOCK_X["f"], "F(x)", "方差 {prepost.unit_variance}")
        two = self.variance_bar(2, BLOCK_X["plus"], "x + F(x)", "方差 {prepost.variance_sum}")
        mid = BAR_BASE + BAR_UNIT / 2
        signs = VGroup(words("+", size="body").move_to([(BLOCK_X["x"] + BLOCK_X["f"]) / 2, mid, 0]),
                       words("=", size="body").move_to([(BLOCK_X["f"] + BLOCK_X["plus"]) / 2, mid, 0]))
        # x's unit and F(x)'s, side by side, stack into the sum's two.
        self.play(FadeIn(one), FadeIn(other), FadeIn(signs[0]), run_time=0.5)
        self.play(FadeIn(signs[1]), FadeIn(two, shift=RIGHT * 0.2), run_time=0.6)

        self.beat(says="而 Norm 要把它拉回 1 —— 所以它相当于除以根号二")
        back = self.variance_bar(1, BLOCK_X["out"], "输出", "方差 {prepost.unit_variance}")
        top = BAR_BASE + 2 * BAR_UNIT
        squeeze = arrow([BLOCK_X["plus"] + BAR_WIDTH, top - BAR_UNIT / 2, 0],
                        [BLOCK_X["out"] - BAR_WIDTH, BAR_BASE + BAR_UNIT / 2, 0], CURVE_ROLE, weight="bold", buff=None)
        # The bars are variances, the speaker's ÷ √2 is the values': the second line says what the
        # bars show (2 → 1), so ÷ √2 over a halving bar reads as one fact.
        name = VGroup(words("Norm", size="label", color=BLAME), formula("÷ √2", size="label", color=CURVE_ROLE))
        name.arrange(RIGHT, buff=theme.space("small"))
        halves = ledger_text("方差 {prepost.variance_sum} → {prepost.unit_variance}", size="small", color=CURVE_ROLE)
        root = VGroup(name, halves).arrange(DOWN, aligned_edge=LEFT, buff=theme.space("fine"))
        root.next_to(squeeze.get_center(), UP + RIGHT, buff=theme.space("small"))
        self.play(GrowArrow(squeeze), FadeIn(root), run_time=0.6)
        self.play(FadeIn(back, shift=RIGHT * 0.2), run_time=0.4)
        return VGroup(one, other, two, signs, back, squeeze, root)

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
        return words(title, size="body").next_to(plot.y_title, UP, buff=HALF_TITLE_RISE).set_x(
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
