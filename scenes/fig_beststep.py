"""fig-beststep: the best step on a parabola, and why no single step fits both directions.

Ⓐ 一条抛物线：最优步长能算出来: best step = gradient ÷ second derivative (the curve's bend, named
   on it) lands the ball at the bottom; the step is measured on the parameter axis.
Ⓑ 只看梯度会判断错: first only the two balls and their slopes (梯度 2 · 梯度 1), valleys hidden, and
   the guess alone; at 「错了」 the view pulls back to both valleys at one scale, with each ball's
   distance to its bottom (2 and 25); then the division that makes them comparable.
Ⓒ 为什么没人真去算: one second derivative per pair of parameters (a cell of the N × N grid),
   N = 671B written on the grid's edge, N² cannot be stored (one row is already N numbers, 2.44 TiB
   at fp32, and there are N rows); only the diagonal can be estimated —
   Adam's √v (its fp32 size in small print).
Ⓑ again (section D, after 「平移到 Ⓑ」) → 中间也没有好的: Ⓑ's two valleys kept small on top (one
   scale; 陡峭比 25 named when row ② says it), a learning-rate axis with each valley's best rate (1 and 25); the wall at 2 makes everything between them diverge; the three rows
   (threshold, κ = 25 → 9 steps, κ = 1000 → 364 steps), each count also drawn as a strip of step
   dots at one pitch (9 a stub, 364 four whole lines); the conclusion, with 中间也没有好的 kept as
   the heading, and its cost.
"""

from __future__ import annotations

import numpy as np
from manim import (BOLD, DOWN, LEFT, RIGHT, UP, Create, FadeIn, FadeOut, FadeTransform, GrowArrow, LaggedStart, VGroup,
                   config)

from lecture_numerics import beststep as bs
from lecture_numerics import quantity
from scenes.kit import marks, theme, widgets
from scenes.kit.annotate import on_plot
from scenes.kit.arrows import arrow
from scenes.kit.base import LectureScene
from scenes.kit.data_window import DataWindow, clipped_curve
from scenes.kit.panels import panel_header
from scenes.kit.text import formula, ledger_text, words

# Roles: the curves are the picture's subject (ink); the ball is the moving ball (accent); a slope
# is a gradient (backward); the diagonal Adam estimates is optimizer state (its v); what blows up
# or is wrong is `bad`. The two valleys have no concept of their own: their names tell them apart.
CURVE, BALL, SLOPE, ESTIMATE, WRONG, HIGHLIGHT = "ink", "accent", "backward", "optimizer", "bad", "accent"

# ---- Ⓐ: one parabola, the rule on its right ------------------------------------------------------
# High enough that the step's brace and its label stand clear above the takeaway line.
A_WINDOW = DataWindow(((-3.0, 3.0), (-0.3, 4.6)), screen_center=(-2.8, 0.3), screen_size=(6.4, 4.8))
TANGENT_BACK, TANGENT_AHEAD = 0.9, 0.6      # how far the tangent reaches either side of the ball (data x)
BEND_AT = (0.0, 3.2)                        # 「二阶导」 named inside the bowl, where nothing else is
BEND_POINT_X = -0.6                         # its leader ends on the curve left of the bottom
NOTES_AT = (3.4, 1.2)
GHOST_OPACITY = 0.35

# ---- Ⓑ: the valley's two cross-sections at one scale ---------------------------------------------
B_DATA = ((-28.0, 28.0), (-0.5, 14.0))
B_STEEP = DataWindow(B_DATA, screen_center=(-3.5, 1.45), screen_size=(6.2, 2.0))
B_FLAT = DataWindow(B_DATA, screen_center=(3.5, 1.45), screen_size=(6.2, 2.0))
CLOSE_UP_Y = 1.4        # before the pull-back: both balls at one height, only their slopes drawn
SLOPE_LENGTH = 1.7      # the close-up tangent, in scene units (both at one local scale)
TAG_Y = 2.8
QUESTION_Y = -1.85      # the guess, struck, and its correction: one row under the valleys
DIVISION_Y = -0.85      # 梯度 ÷ 二阶导 under each valley's distance
DISTANCE_DROP = 0.15    # each ball's distance bar, just under its valley's bottom
DISTANCE_STOP = 0.24    # the stops at the bar's two ends

# ---- Ⓒ: the N × N grid and what can be said about it ----------------------------------------------
GRID_CELLS = 12
GRID_SIZE, GRID_CENTRE = 3.9, (-4.35, -0.35)   # left edge well inside the 30 px safe area
PAIR_CELL = (9, 3)                              # (row, column) of the one second derivative picked out:
                                                # low in the grid, its tag under it
LINES_GAP, LINES_Y, LINES_LEFT = 0.3, -0.25, -1.6   # under the first row's size (C.2)

# ---- Ⓑ again: a learning-rate axis from zero, and the three rows under it --------------------------
# The pan lands on Ⓑ's lower half: Ⓑ's two valleys stay on top, shrunk to the right of the heading
# (one scale, as in Ⓑ), so 「图上这个谷」 points at something on screen.
THUMB_DATA = ((-28.0, 28.0), (-0.5, 14.0))
THUMB_STEEP = DataWindow(THUMB_DATA, screen_center=(0.9, 2.95), screen_size=(2.3, 0.75))
THUMB_FLAT = DataWindow(THUMB_DATA, screen_center=(3.5, 2.95), screen_size=(2.3, 0.75))
THUMB_NAME_GAP = 0.08
ETA_HIGH, ETA_W, ETA_LEFT, ETA_Y = 27.0, 10.6, -5.2, 1.35
BETWEEN_DROP = 0.38     # the 「中间」 brace under the axis, clear of its tick labels
ROWS_TOP, ROWS_LEFT, ROW_GAP = -0.22, -6.4, 0.2
# Steps as dots under rows ② and ③, at one pitch across and down: 9 are a stub, 364 fill four
# whole lines of the screen's width (91 a line), so the two strips compare as counts.
STEP_PITCH, STEP_DOT = 0.14, "ink"
STRIP_DROP = 0.18       # a strip's first line of dots under its row
STRIP_ROOM = 0.26       # the room a strip takes under row ②


def parabola(window: DataWindow, h: float, color: str = CURVE):
    (x0, x1), _ = window.data
    xs = np.linspace(x0, x1, 600)
    return clipped_curve(window, np.column_stack([xs, 0.5 * h * xs ** 2]), color=color,
                         stroke_width=theme.stroke("regular"))


def slope_segment(centre, slope: float, length: float):
    """A tangent of ``slope`` (rise over run on screen), ``length`` long, centred on ``centre``."""
    along = np.array([1.0, slope, 0.0]) / np.hypot(1.0, slope) * length / 2
    return marks.segment(centre - along, centre + along, SLOPE, weight="bold")


class FigBeststep(LectureScene):
    scene_id = "fig-beststep"
    title = "最优步长：除以二阶导，以及为什么没有好的全局学习率"
    ledger_keys = ("beststep.a.gradient", "beststep.a.curvature", "beststep.a.best_step",
                   "beststep.b.steep_gradient", "beststep.b.flat_gradient", "onelr.lambda_steep",
                   "beststep.b.flat_curvature", "beststep.b.steep_distance", "beststep.b.flat_distance",
                   "beststep.b.steep_best_lr", "beststep.b.flat_best_lr", "beststep.axis.lr_ticks",
                   "step.kappa_figure",
                   "beststep.threshold", "beststep.step_share_of_threshold",
                   "step.halfway_coefficient", "step.halfway_steps_kappa25", "step.kappa_model",
                   "step.halfway_steps_kappa1000", "model.v3.total_params", "beststep.c.hessian_entries",
                   "beststep.c.diagonal_tib", "beststep.c.params_per_entry", "bytes.optimizer_sum")

    def construct(self):
        self.one_parabola_panel()
        self.two_valleys_panel()
        self.hessian_panel()
        self.rows_panel()

    # ---- Ⓐ ------------------------------------------------------------------------------------------

    def one_parabola_panel(self):
        # The heading names the claim of A.1, not its payoff (一步到底 is said two beats later).
        self.start_panel("A", "一条抛物线：最优步长能算出来", says="在一条抛物线上，最优步长是可以算出来的")
        h, x = bs.A_CURVATURE.value, bs.A_POINT.value
        ball = marks.dot(A_WINDOW.point(x, 0.5 * h * x * x), BALL, size="ball")
        slope = bs.A_GRADIENT.value
        tangent = marks.segment(A_WINDOW.point(x - TANGENT_BACK, 0.5 * h * x * x - TANGENT_BACK * slope),
                                A_WINDOW.point(x + TANGENT_AHEAD, 0.5 * h * x * x + TANGENT_AHEAD * slope), SLOPE)
        self.play(Create(parabola(A_WINDOW, h)), FadeIn(ball), run_time=0.9)

        # The gradient is drawn when it is named, not before.
        self.beat(says="梯度除以二阶导")
        # Named once drawn, under the tangent where the convex curve leaves the plot empty.
        slope_name = on_plot("梯度 {beststep.a.gradient}", color=SLOPE).next_to(ball, RIGHT + DOWN,
                                                                              buff=theme.space("small"))
        self.play(Create(tangent), run_time=0.6)
        self.play(FadeIn(slope_name), run_time=0.3)
        # The second derivative gets a referent as the gradient has one: the bowl's bend.
        bend = on_plot("二阶导 {beststep.a.curvature}：弯的程度", color=CURVE).move_to(A_WINDOW.point(*BEND_AT))
        rule = VGroup(
            words("最优步长 = 梯度 ÷ 二阶导", size="heading"),
            ledger_text("梯度 {beststep.a.gradient} ÷ 二阶导 {beststep.a.curvature} = {beststep.a.best_step}",
                        size="body"),
        ).arrange(DOWN, aligned_edge=LEFT, buff=theme.space("large")).move_to([*NOTES_AT, 0])
        # A thin leader from the name to the bowl's floor, left of the bottom (the ball lands from
        # the right): the bend it names is there.
        bend_at = A_WINDOW.point(BEND_POINT_X, 0.5 * h * BEND_POINT_X ** 2)
        bend_leader = arrow(bend.get_bottom(), bend_at, CURVE, weight="thin", buff="fine")
        self.play(FadeIn(bend), GrowArrow(bend_leader), run_time=0.5)
        for part in rule:
            self.play(FadeIn(part), run_time=0.6)

        self.beat(says="一步到底", takeaway="一步到底")
        self.one_step(ball, x)

    def one_step(self, ball, x: float) -> None:
        """The ball drops to the bottom in one move; the step it took is measured where a step
        lives, along the parameter axis (2 ÷ 1 = 2)."""
        bottom = A_WINDOW.point(x - bs.A_STEP.value, 0)
        move = arrow(ball.get_center(), bottom, "ink", weight="bold", buff="snug")
        step = widgets.labelled_brace((bottom, A_WINDOW.point(x, 0)), "步长 {beststep.a.best_step}", DOWN)
        self.add(ball.copy().set_opacity(GHOST_OPACITY))
        self.play(Create(move), ball.animate.move_to(bottom), run_time=1.0)
        self.play(FadeIn(step), run_time=0.5)

    # ---- Ⓑ, first pass: the trick -------------------------------------------------------------

    def two_valleys_panel(self):
        # Said under the first cue (「⭐ Ⓑ 是这张图的机关：只看梯度会判断错」), before Ⓒ; the rows
        # come after 「平移到 Ⓑ」 (rows_panel). The valleys stay hidden until 「错了」: before it,
        # only what the guess looks at (two balls, two slopes) is on screen.
        self.start_panel("B", "只看梯度会判断错", says="只看梯度会判断错")
        self.close_up()

        self.beat(says="看起来陡谷离得更远该迈大步")
        self.guess = words("看起来陡谷离得更远，该迈大步？", size="body")
        self.correction = words("错了，它其实离底更近", size="body")
        VGroup(self.guess, self.correction).arrange(RIGHT, buff=theme.space("wide")).move_to([0, QUESTION_Y, 0])
        self.play(FadeIn(self.guess), run_time=0.6)

        self.beat(says="错了，它其实离底更近")
        self.play(Create(marks.strike(self.guess, WRONG)), run_time=0.5)
        self.pull_back()
        self.play(FadeIn(self.correction), run_time=0.5)

        self.beat(says="除以二阶导之后，两个才可比")
        self.play(FadeIn(self.divisions()), run_time=0.8)

    def close_up(self) -> None:
        """Both balls at one height, each with its slope at one local scale: 陡 2 is the steeper."""
        self.balls, self.slopes, tags = VGroup(), VGroup(), VGroup()
        for window, g, name in ((B_STEEP, bs.STEEP_GRADIENT, "陡谷"), (B_FLAT, bs.FLAT_GRADIENT, "平谷")):
            centre = np.array([window.screen_center[0], CLOSE_UP_Y, 0.0])
            self.balls.add(marks.dot(centre, BALL, size="ball"))
            self.slopes.add(slope_segment(centre, g.value, SLOPE_LENGTH))
            tag = VGroup(words(name, size="label"), ledger_text(f"梯度 {{{g.key}}}", size="label", color=SLOPE))
            tags.add(tag.arrange(RIGHT, buff=theme.space("medium")).move_to([window.screen_center[0], TAG_Y, 0]))
        self.play(FadeIn(tags), FadeIn(self.balls), run_time=0.6)
        self.play(*(Create(s) for s in self.slopes), run_time=0.8)
        self.bring_to_front(self.balls)

    def pull_back(self) -> None:
        """The whole valleys at one scale: the balls slide to where they really are, and each
        one's distance to its bottom is drawn as a bar at that one scale — 2 against 25."""
        sides = ((B_STEEP, bs.LAMBDA_STEEP.value, bs.STEEP_DISTANCE.value, "beststep.b.steep_distance"),
                 (B_FLAT, bs.FLAT_CURVATURE.value, bs.FLAT_DISTANCE.value, "beststep.b.flat_distance"))
        self.valleys = VGroup(*(parabola(window, h) for window, h, _, _ in sides))
        self.valley_bottoms = [window.point(0, 0) for window, _, _, _ in sides]
        distances = VGroup(*(self.distance_bar(window, x, key) for window, _, x, key in sides))
        landings = [window.point(x, 0.5 * h * x * x) for window, h, x, _ in sides]
        self.play(FadeOut(self.slopes), run_time=0.3)
        self.play(*(Create(v) for v in self.valleys),
                  *(ball.animate.move_to(at) for ball, at in zip(self.balls, landings)), run_time=1.2)
        self.bring_to_front(self.balls)
        self.play(FadeIn(distances), run_time=0.6)

    @staticmethod
    def distance_bar(window: DataWindow, x: float, key: str) -> VGroup:
        """A ball's distance to its valley's bottom as a thick bar under the valley, from the
        bottom's x to the ball's, with a stop at each end: both valleys share one scale, so the
        two bars compare as lengths (2 against 25)."""
        y = window.point(0, 0)[1] - DISTANCE_DROP
        start, end = np.array([window.point(0, 0)[0], y, 0.0]), np.array([window.point(x, 0)[0], y, 0.0])
        bar = VGroup(marks.segment(start, end, CURVE, weight="heavy"),
                     *(marks.tick(p, CURVE, length=DISTANCE_STOP, weight="bold") for p in (start, end)))
        label = ledger_text(f"离底 {{{key}}}", size="label").next_to(bar, DOWN, buff=theme.space("small"))
        return VGroup(bar, label)

    def divisions(self) -> VGroup:
        """Under each distance, the division that gives it: gradient ÷ second derivative."""
        rows = VGroup(
            ledger_text("梯度 {beststep.b.steep_gradient} ÷ 二阶导 {onelr.lambda_steep} = {beststep.b.steep_distance}",
                        size="label"),
            ledger_text("梯度 {beststep.b.flat_gradient} ÷ 二阶导 {beststep.b.flat_curvature} = "
                        "{beststep.b.flat_distance}", size="label"))
        for row, window in zip(rows, (B_STEEP, B_FLAT)):
            row.move_to([window.screen_center[0], DIVISION_Y, 0])
        return rows

    # ---- Ⓒ ------------------------------------------------------------------------------------------

    def hessian_panel(self):
        # Said under the first cue, after Ⓑ's trick (「⭐ Ⓒ 回答为什么没人真去算」): three beats,
        # one per clause of that sentence.
        self.start_panel("C", "为什么没人真去算", says="二阶导每两个参数之间就有一个")
        grid, diagonal, pair = self.hessian_grid()
        top = words("N 个参数", size="label", color="muted").next_to(grid, UP, buff=theme.space("small"))
        # At 「几千亿参数」 the grid's own edge gets its N: the size is drawn where N is, not a line.
        top_sized = ledger_text("N = {model.v3.total_params} 个参数（V3）", size="label", color="muted")
        top_sized.move_to(top)
        side = formula("N", size="label", color="muted").next_to(grid, LEFT, buff=theme.space("small"))
        # Plain words, no subscripts: wᵢ's raised i would fall under the 14 px floor.
        pair_tag = words("参数 i 与 j 之间", size="label", color=HIGHLIGHT)
        pair_tag.next_to(grid, DOWN, buff=theme.space("medium")).align_to(pair, LEFT)
        pair_pointer = arrow(pair_tag.get_top(), pair.get_bottom(), HIGHLIGHT, weight="thin", buff="hair")
        lines = VGroup(
            ledger_text("二阶导：每{beststep.c.params_per_entry}个参数之间就有一个", size="body"),
            # Heading size: the power of ten's exponent must read from the back of the room.
            VGroup(ledger_text("N × N ≈ {beststep.c.hessian_entries} 个数", size="heading"),
                   words("—— 存不下", size="heading", color=WRONG)).arrange(RIGHT, buff=theme.space("small")),
            ledger_text("只估对角线：N 个", size="body", color=ESTIMATE),
        ).arrange(DOWN, aligned_edge=LEFT, buff=LINES_GAP)
        lines.move_to([0, LINES_Y, 0]).align_to([LINES_LEFT, 0, 0], LEFT)
        lines[0].shift(UP * theme.space("small"))
        # The diagonal's size in chart-label type, under its line: a footnote, not a sentence.
        diag_size = ledger_text("fp32：{beststep.c.diagonal_tib} TiB", size="small", color="muted")
        diag_size.next_to(lines[2], DOWN, buff=theme.space("tight"), aligned_edge=LEFT)
        self.play(FadeIn(grid), FadeIn(top), FadeIn(side), run_time=1.0)
        self.play(pair.animate.set_fill(theme.color(HIGHLIGHT)), GrowArrow(pair_pointer), FadeIn(pair_tag),
                  run_time=0.6)
        self.reveal(lines[:1])

        self.beat(says="几千亿参数根本存不下")
        self.play(FadeTransform(top, top_sized), run_time=0.6)
        size = self.table_size(grid)
        self.play(Create(size.row), FadeIn(size.row_name), run_time=0.6)
        self.play(GrowArrow(size.rows), FadeIn(size.rows_name), run_time=0.6)
        self.reveal(lines[1:2])

        self.beat(says="于是只好去估它 —— 而那就是 Adam 分母那一坨的来历",
                  takeaway="于是只好去估它 —— 那就是 Adam 分母的来历")
        # The one pair steps back; the diagonal is what gets estimated: Adam's √v, optimizer state.
        root_v = formula("≈ Adam 的 √v", size="label", color=ESTIMATE)
        root_v.next_to(diagonal[-1], RIGHT, buff=theme.space("small"))
        self.play(FadeOut(pair_tag), FadeOut(pair_pointer), FadeOut(size), pair.animate.set_fill(theme.color("panel")),
                  *(cell.animate.set_fill(theme.color(ESTIMATE)) for cell in diagonal), run_time=0.6)
        self.play(FadeIn(root_v), run_time=0.4)
        self.reveal(lines[2:])
        self.play(FadeIn(diag_size), run_time=0.4)

    @staticmethod
    def table_size(grid: VGroup) -> VGroup:
        """「存不下」 drawn as a size: the grid's first row framed — one row alone is N numbers, at fp32
        already the diagonal's 2.44 TiB — and an arrow down the grid's side: × N rows."""
        first_row = VGroup(*grid[:GRID_CELLS])
        row = marks.frame_around(first_row, WRONG, pad="hair", weight="bold", corner="square")
        row_name = ledger_text("每行 N 个数：fp32 就 {beststep.c.diagonal_tib} TiB", size="label", color=WRONG)
        row_name.next_to(row, RIGHT, buff=theme.space("small"))
        x = row.get_right()[0] + theme.space("close")
        rows = arrow([x, row.get_bottom()[1], 0], [x, grid.get_bottom()[1], 0], WRONG, weight="bold", buff=None)
        rows_name = ledger_text("× {model.v3.total_params} 行", size="label", color=WRONG)
        rows_name.next_to(rows, RIGHT, buff=theme.space("small")).align_to(rows, DOWN)
        size = VGroup(row, row_name, rows, rows_name)
        size.row, size.row_name, size.rows, size.rows_name = row, row_name, rows, rows_name
        return size

    def reveal(self, parts: VGroup) -> None:
        for part in parts:
            self.play(FadeIn(part, shift=RIGHT * theme.space("small")), run_time=0.6)
            self.wait(0.4)

    def hessian_grid(self):
        """The N × N second derivatives as a small grid, its diagonal (lit when it is said) and
        the one cell picked out as 「两个参数之间」."""
        cell = GRID_SIZE / GRID_CELLS
        grid, diagonal, pair = VGroup(), [], None
        for i in range(GRID_CELLS):
            for j in range(GRID_CELLS):
                square = marks.box(cell, cell, "muted", weight="hairline", fill="panel", fill_opacity=1,
                                   corner="square")
                grid.add(square.move_to([GRID_CENTRE[0] + (j - GRID_CELLS / 2 + 0.5) * cell,
                                         GRID_CENTRE[1] - (i - GRID_CELLS / 2 + 0.5) * cell, 0]))
                if i == j:
                    diagonal.append(square)
                if (i, j) == PAIR_CELL:
                    pair = square
        return grid, diagonal, pair

    # ---- Ⓑ again, after 「平移到 Ⓑ」: the axis and the three rows -----------------------------------

    def rows_panel(self):
        # The pan returns to Ⓑ: its own section (D), so the first cue shows Ⓐ, Ⓑ's trick and Ⓒ
        # and the pan shows the rows; on screen it is Ⓑ again, as the speaker says. The heading is
        # the room's question, which the first beat says.
        self.panel("D", says="那有人会说：取个中间值不就行了。")
        self.clear()
        self.back_to_b()
        self.rate_axis()

        # ⭐⭐⭐: the answer is seen — the wall at 2 stands right of 陡谷's best, and everything from
        # it to 平谷's best diverges.
        self.beat(says="问题就在这儿 —— 中间也没有好的。", takeaway="中间也没有好的")
        self.wall()

        rows = self.rows()
        near = self.step_strip(rows[1], "step.halfway_steps_kappa25")
        far = self.step_strip(rows[2], "step.halfway_steps_kappa1000")
        self.beat(says="第一行：再大一点，陡的方向直接发散。")
        self.play(FadeIn(rows[0], shift=RIGHT * theme.space("close")), run_time=0.7)
        self.beat(says="第二行：那就取最大的安全值。")
        self.play(FadeIn(rows[1], shift=RIGHT * theme.space("close")), run_time=0.7)
        # 「图上这个谷陡峭比是二十五」: the two valleys above, at one scale, get their ratio.
        self.play(FadeIn(self.kappa_tag), run_time=0.5)
        self.play(LaggedStart(*(FadeIn(d) for d in near), lag_ratio=0.3), run_time=0.9)
        self.beat(says="第三行 —— 真实模型上，这个比值是几个数量级。")
        # Row ① has been read: it leaves, and the rest moves up a row, so the 364 steps have air
        # under them before the ⭐⭐⭐ line.
        lift = UP * (rows[0].get_top()[1] - rows[1].get_top()[1])
        self.play(FadeOut(rows[0]), VGroup(rows[1], near).animate.shift(lift), run_time=0.5)
        VGroup(rows[2], far).shift(lift)
        self.wait(1.0)                          # 「第三行要停一下」
        self.play(FadeIn(rows[2], shift=RIGHT * theme.space("close")), run_time=0.7)
        # The same steps at the same pitch: four whole lines of them.
        self.play(LaggedStart(*(FadeIn(d) for d in far), lag_ratio=0.05), run_time=2.0)

        # The conclusion takes the ⭐⭐⭐ line's place at the bottom, and the ⭐⭐⭐ line becomes the
        # panel's heading, so it stays to the end. Row ① has been read; ② and ③ (9 steps against
        # four lines of them) stay.
        self.beat(says="别再找那个「最好的全局学习率」了，它不存在。",
                  takeaway="最好的全局学习率不存在 —— 每个参数得配它自己的那一个", replaces=True)
        answer = panel_header("B", "（续）中间也没有好的")
        self.play(FadeTransform(self.header, answer), run_time=0.6)
        # The cost comes in: rows ② and ③ have been read, so they shrink to the names of their
        # strips (the dots stay): ②'s stub moves up beside its name, ③'s block follows its name up,
        # so the frame keeps the conclusion and the cost with room between them.
        self.beat(says="而代价马上就来", takeaway="代价：每个参数都得存东西 —— 那 {bytes.optimizer_sum} 字节")
        names = VGroup(*(ledger_text(f"陡峭比 {{{kappa}}} → {{{steps}}} 步", size="label")
                         for kappa, steps in (("step.kappa_figure", "step.halfway_steps_kappa25"),
                                              ("step.kappa_model", "step.halfway_steps_kappa1000"))))
        names[0].move_to(rows[1], aligned_edge=LEFT)
        beside = names[0].get_right() + RIGHT * theme.space("medium") - near.get_left()
        rise = names[0].get_bottom()[1] - ROW_GAP - rows[2].get_top()[1]
        names[1].move_to(rows[2], aligned_edge=LEFT).shift(UP * rise)
        self.play(*(FadeTransform(row, name) for row, name in zip(rows[1:], names)),
                  near.animate.shift(beside * (RIGHT + UP)), far.animate.shift(UP * rise), run_time=0.6)

    def back_to_b(self) -> None:
        """The pan back to Ⓑ: Ⓑ's heading and its two valleys come back as Ⓑ left them, then the
        valleys shrink to the right of the heading, which turns into the room's question (Ⓑ, 续)."""
        before = panel_header("B", "只看梯度会判断错")
        valleys = VGroup(parabola(B_STEEP, bs.LAMBDA_STEEP.value), parabola(B_FLAT, bs.FLAT_CURVATURE.value))
        self.header = panel_header("B", "（续）取个中间值？")
        self.thumbs, self.kappa_tag = self.valley_thumbnails()
        self.play(FadeIn(before), FadeIn(valleys), run_time=0.5)
        self.play(FadeTransform(before, self.header),
                  *(FadeTransform(v, thumb[0]) for v, thumb in zip(valleys, self.thumbs)), run_time=0.9)
        self.play(*(FadeIn(thumb[1]) for thumb in self.thumbs), run_time=0.4)

    def valley_thumbnails(self) -> tuple[VGroup, VGroup]:
        """Ⓑ's two valleys, shrunk to the right of the heading at one scale, each named; and the
        tag 陡峭比 25 between their names, shown when row ② says it."""
        thumbs = VGroup()
        for window, h, name in ((THUMB_STEEP, bs.LAMBDA_STEEP.value, "陡谷"),
                                (THUMB_FLAT, bs.FLAT_CURVATURE.value, "平谷")):
            curve = parabola(window, h)
            tag = words(name, size="label").next_to(curve, DOWN, buff=THUMB_NAME_GAP)
            thumbs.add(VGroup(curve, tag))
        left, right = thumbs[0][1], thumbs[1][1]
        kappa = ledger_text("陡峭比 {step.kappa_figure}", size="label", color=HIGHLIGHT)
        kappa.move_to((left.get_center() + right.get_center()) / 2)
        return thumbs, kappa

    def step_strip(self, row, steps_key: str) -> VGroup:
        """One dot per step under ``row``, at one pitch across and down in both rows, wrapped into
        even lines no wider than the screen: 9 stay a stub, 364 fill four whole lines — the ratio
        of the two counts is the ratio of the dots."""
        count = int(quantity(steps_key).value)
        room = config.frame_width / 2 - theme.space("safe") - ROWS_LEFT
        lines = -(-count // int(room / STEP_PITCH))
        per_line = -(-count // lines)
        left = np.array([ROWS_LEFT + STEP_PITCH / 2, row.get_bottom()[1] - STRIP_DROP, 0.0])
        return VGroup(*(marks.dot(left + RIGHT * STEP_PITCH * (i % per_line) + DOWN * STEP_PITCH * (i // per_line),
                                  STEP_DOT, size="small") for i in range(count)))

    def rate_axis(self) -> None:
        """η from zero: each valley's own best rate, and 「中间」 braced between them."""
        axis = widgets.number_line(0.0, ETA_HIGH, ticks="beststep.axis.lr_ticks", width=ETA_W)
        axis.shift(np.array([ETA_LEFT, ETA_Y, 0.0]) - axis.line.get_start())
        steep = axis.mark(bs.STEEP_BEST_LR.value, "陡谷最优 {beststep.b.steep_best_lr}", color=CURVE)
        flat = axis.mark(bs.FLAT_BEST_LR.value, "平谷最优 {beststep.b.flat_best_lr}", color=CURVE)
        stroke, label = steep.submobjects
        label.align_to(stroke, RIGHT).shift(LEFT * theme.space("hair"))   # leaves the room right of 1 to the wall
        ends = [axis.point(v) + DOWN * BETWEEN_DROP for v in (bs.STEEP_BEST_LR.value, bs.FLAT_BEST_LR.value)]
        between = widgets.labelled_brace(tuple(ends), "中间", DOWN, "muted")
        self.axis = axis
        self.play(FadeIn(axis), run_time=0.5)
        self.play(FadeIn(steep), FadeIn(flat), run_time=0.6)
        self.play(FadeIn(between), run_time=0.5)

    def wall(self) -> None:
        """The threshold as a wall: past 2 the steep direction diverges — nearly all of 「中间」."""
        band = widgets.axis_range(self.axis, "beststep.threshold", ETA_HIGH, role=WRONG)
        stroke, name = self.axis.mark(bs.THRESHOLD.value, "门槛 {beststep.threshold}", color=WRONG).submobjects
        name.align_to(stroke, LEFT).shift(RIGHT * theme.space("hair"))
        blown = words("发散", size="label", color=WRONG).next_to(self.axis.point((bs.THRESHOLD.value + ETA_HIGH) / 2),
                                                                   UP, buff=theme.space("medium"))
        self.play(FadeIn(band), FadeIn(VGroup(stroke, name)), run_time=0.6)
        self.play(FadeIn(blown), run_time=0.4)

    def rows(self) -> VGroup:
        # Each row says what its notes line says, and no more; 陡峭程度 (the steep bend, 1) and
        # 陡峭比 (the ratio, 25) each carry their value, so the two never read as one.
        row_a = VGroup(words("① 再大一点就发散：门槛 =", size="label"), formula("2 ÷ 陡峭程度", size="label"),
                       ledger_text("= {beststep.threshold}", size="label")).arrange(RIGHT, buff=theme.space("small"))
        # 「最大的安全值」 as the speaker says it, and what it is on the axis: just under the wall.
        row_b = ledger_text("② 最大的安全值 = 门槛的 {beststep.step_share_of_threshold}：平的方向走完半程 "
                            "{step.halfway_steps_kappa25} 步 ≈ {step.halfway_coefficient} × 陡峭比 "
                            "{step.kappa_figure}", size="label")
        # ⛔ 「第三行要停一下」: the row the speaker stops on is the largest of the three.
        # 「而这已经是最快的了」 ends the row: the four lines of dots under it are the best case.
        row_c = ledger_text("③ 真实模型，陡峭比按 {step.kappa_model} 算 → {step.halfway_steps_kappa1000} 步 "
                            "—— 这已经是最快的了", size="body", weight=BOLD)
        rows = VGroup(row_a, row_b, row_c).arrange(DOWN, aligned_edge=LEFT, buff=ROW_GAP)
        row_c.shift(DOWN * STRIP_ROOM)          # row ②'s steps stand between ② and ③
        return rows.move_to([0, ROWS_TOP, 0], aligned_edge=UP).align_to([ROWS_LEFT, 0, 0], LEFT)
