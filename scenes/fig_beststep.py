"""fig-beststep: the best step on a parabola, and why no single step fits both directions.

Ⓐ 一条抛物线，一步到底: best step = gradient ÷ second derivative lands the ball at the bottom.
Ⓑ 只看梯度会判断错: the valley's two cross-sections at one scale, the guess, its correction.
Ⓒ 为什么没人真去算: N² second derivatives cannot be stored; only the diagonal can be estimated.
Ⓑ again (section D, after 「平移到 Ⓑ」) → 中间也没有好的: the three rows (threshold, κ = 25 → 9
   steps, κ = 1000 → 364 steps), the takeaway and its cost.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, DR, LEFT, RIGHT, UP, Create, Dot, FadeIn, FadeOut, Line, Square, VGroup

from lecture_numerics import beststep as bs
from scenes.kit import theme
from scenes.kit.annotate import on_plot
from scenes.kit.arrows import arrow
from scenes.kit.base import LectureScene
from scenes.kit.data_window import DataWindow, clipped_curve
from scenes.kit.panels import panel_header
from scenes.kit.text import formula, ledger_text, words

STEEP, FLAT, RULE = "backward", "accent", "good"
A_WINDOW = DataWindow(((-3.0, 3.0), (-0.3, 4.6)), screen_center=(-2.8, -0.4), screen_size=(6.4, 5.0))
# Ⓑ: both cross-sections on one scale, so the distances to the bottom compare by eye.
B_DATA = ((-28.0, 28.0), (-0.5, 14.0))
B_STEEP = DataWindow(B_DATA, screen_center=(-3.5, 1.45), screen_size=(6.2, 2.0))
B_FLAT = DataWindow(B_DATA, screen_center=(3.5, 1.45), screen_size=(6.2, 2.0))
# Ⓑ again, under the rows: the same valleys drawn flatter, so the rows and their cost fit below.
D_RISE = 0.6
D_STEEP = DataWindow(B_DATA, screen_center=(-3.5, 1.45 + D_RISE / 2), screen_size=(6.2, 2.0 - D_RISE))
D_FLAT = DataWindow(B_DATA, screen_center=(3.5, 1.45 + D_RISE / 2), screen_size=(6.2, 2.0 - D_RISE))
ROWS_TOP, ROW_GAP, ROWS_LEFT = -0.45, 0.3, -6.7
D_ROW_GAP = 0.22    # Ⓓ's rows and their cost a little closer: the cost line clears the takeaway
GRID_CELLS = 12
GRID_SIZE, GRID_CENTRE = 3.9, (-4.35, -0.2)   # left edge well inside the 30 px safe area
BALL_RADIUS, DOT_RADIUS, GHOST_OPACITY = 0.12, 0.09, 0.35
TANGENT_BACK, TANGENT_AHEAD = 0.9, 0.6      # how far the tangent reaches either side of the ball
NOTES_AT = (3.4, 1.2)
TAG_RISE, TRUTH_Y = 0.3, 0.05
GUESS_Y = ROWS_TOP - 0.3    # the guess under the valleys (in D, D_RISE higher: the question)
STRIKE_STROKE = 4
B_HEADING = "只看梯度会判断错"
ROW_B_INDENT = 0.45
LINES_GAP, LINES_Y, LINES_LEFT = 0.3, -0.2, -1.95


def parabola(window: DataWindow, h: float, color: str):
    (x0, x1), _ = window.data
    xs = np.linspace(x0, x1, 600)
    return clipped_curve(window, np.column_stack([xs, 0.5 * h * xs ** 2]), color=color, stroke_width=3)


class FigBeststep(LectureScene):
    scene_id = "fig-beststep"
    title = "最优步长：除以二阶导，以及为什么没有好的全局学习率"
    ledger_keys = ("beststep.a.gradient", "beststep.a.curvature", "beststep.a.best_step",
                   "beststep.b.steep_gradient", "beststep.b.flat_gradient", "onelr.lambda_steep",
                   "beststep.b.flat_curvature", "beststep.b.steep_distance", "beststep.b.flat_distance",
                   "beststep.b.steep_best_lr", "beststep.b.flat_best_lr",
                   "step.kappa_figure",
                   "beststep.threshold", "step.step_times_lambda", "beststep.step_share_of_threshold",
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
        self.start_panel("A", "一条抛物线，一步到底", says="在一条抛物线上，最优步长是可以算出来的")
        h, x = bs.A_CURVATURE.value, bs.A_POINT.value
        curve = parabola(A_WINDOW, h, "ink")
        ball = Dot(A_WINDOW.point(x, 0.5 * h * x * x), radius=BALL_RADIUS, color=theme.color(FLAT))
        slope = bs.A_GRADIENT.value
        tangent = Line(A_WINDOW.point(x - TANGENT_BACK, 0.5 * h * x * x - TANGENT_BACK * slope),
                       A_WINDOW.point(x + TANGENT_AHEAD, 0.5 * h * x * x + TANGENT_AHEAD * slope), color=theme.color(STEEP), stroke_width=3)
        self.play(Create(curve), FadeIn(ball), run_time=0.9)
        # Named once drawn, under the tangent where the convex curve leaves the plot empty.
        slope_name = on_plot("梯度 {beststep.a.gradient}", color=STEEP).next_to(ball, DR, buff=theme.space("small"))
        self.play(Create(tangent), run_time=0.6)
        self.play(FadeIn(slope_name), run_time=0.3)
        self.beat(says="梯度除以二阶导")
        rule = VGroup(
            words("最优步长 = 梯度 ÷ 二阶导", size="heading", color=RULE),
            ledger_text("梯度 {beststep.a.gradient} ÷ 二阶导 {beststep.a.curvature} = {beststep.a.best_step}", size="body"),
        ).arrange(DOWN, aligned_edge=LEFT, buff=theme.space("large")).move_to([*NOTES_AT, 0])
        self.play(FadeIn(rule[0]), run_time=0.6)
        self.play(FadeIn(rule[1]), run_time=0.6)
        self.beat(says="一步到底", takeaway="一步到底")     # the rule itself is already written twice above
        bottom = A_WINDOW.point(x - bs.A_STEP.value, 0)
        move = arrow(ball.get_center(), bottom, RULE, weight="bold", buff="snug")
        self.add(ball.copy().set_opacity(GHOST_OPACITY))
        self.play(Create(move), ball.animate.move_to(bottom), run_time=1.0)

    # ---- Ⓑ, first pass: the trick -------------------------------------------------------------

    def two_valleys_panel(self):
        # Said under the first cue (「⭐ Ⓑ 是这张图的机关：只看梯度会判断错」), before Ⓒ; the rows
        # come after 「平移到 Ⓑ」 (rows_panel). One beat per clause: the valleys, the question
        # alone, its answer, the division.
        self.panel("B", says="只看梯度会判断错")
        self.clear()
        self.play(FadeIn(panel_header("B", B_HEADING)), run_time=0.6)
        self.play(FadeIn(self.valleys(B_STEEP, B_FLAT)), run_time=1.0)
        self.beat(says="看起来陡谷离得更远该迈大步")
        # The guess and its correction share one row, laid out together so neither moves.
        guess = words("看起来陡谷离得更远，该迈大步？", size="body")
        correction = words("错了，它其实离底更近", size="body", color=STEEP)
        VGroup(guess, correction).arrange(RIGHT, buff=theme.space("wide")).move_to([0, GUESS_Y, 0])
        self.play(FadeIn(guess), run_time=0.6)
        self.beat(says="错了，它其实离底更近")
        cross = Line(guess.get_left(), guess.get_right(), color=theme.color("bad"), stroke_width=STRIKE_STROKE)
        self.play(Create(cross), run_time=0.5)
        self.play(FadeIn(correction), run_time=0.5)
        self.beat(says="除以二阶导之后，两个才可比")
        self.play(FadeIn(self.distances()), run_time=0.8)

    def distances(self) -> VGroup:
        """Each valley's distance to the bottom (gradient ÷ second derivative) and best rate."""
        truth = VGroup(
            ledger_text("离底 = {beststep.b.steep_gradient} ÷ {onelr.lambda_steep} = {beststep.b.steep_distance}"
                        " · 最优学习率 {beststep.b.steep_best_lr}", size="label", color=STEEP),
            ledger_text("离底 = {beststep.b.flat_gradient} ÷ {beststep.b.flat_curvature} = {beststep.b.flat_distance}"
                        " · 最优学习率 {beststep.b.flat_best_lr}", size="label", color=FLAT))
        truth[0].move_to([B_STEEP.screen_center[0], TRUTH_Y, 0])
        truth[1].move_to([B_FLAT.screen_center[0], TRUTH_Y, 0])
        return truth

    # ---- Ⓑ again, after 「平移到 Ⓑ」: the three rows ---------------------------------------------

    def rows_panel(self):
        # The pan returns to Ⓑ: its own section (D), so the first cue shows Ⓐ, Ⓑ's trick and Ⓒ
        # and the pan shows the rows; on screen it is Ⓑ again, as the speaker says.
        self.panel("D", says="那有人会说：取个中间值不就行了。")
        self.clear()
        header = panel_header("B", B_HEADING)
        # What 「中间」 lies between stays: each valley's best learning rate.
        best = VGroup(*(ledger_text(f"最优学习率 {{beststep.b.{side}_best_lr}}", size="label", color=color)
                        .move_to([window.screen_center[0], TRUTH_Y + D_RISE, 0])
                        for side, color, window in (("steep", STEEP, D_STEEP), ("flat", FLAT, D_FLAT))))
        self.play(FadeIn(header), FadeIn(self.valleys(D_STEEP, D_FLAT)), FadeIn(best), run_time=0.8)
        question = words("取个中间值不就行了？", size="body").move_to([0, GUESS_Y + D_RISE, 0])
        self.play(FadeIn(question), run_time=0.6)

        self.beat(says="问题就在这儿 —— 中间也没有好的。", takeaway="中间也没有好的")
        answer = words("→ 中间也没有好的", size="heading").next_to(header, RIGHT, buff=theme.space("medium"))
        self.play(FadeOut(question), FadeIn(answer), run_time=0.6)
        rows = self.rows()
        self.beat(says="第一行：再大一点，陡的方向直接发散。")
        self.play(FadeIn(rows[0], shift=RIGHT * theme.space("close")), run_time=0.7)
        self.beat(says="第二行：那就取最大的安全值。")
        self.play(FadeIn(rows[1], shift=RIGHT * theme.space("close")), run_time=0.7)
        self.beat(says="第三行 —— 真实模型上，这个比值是几个数量级。")
        self.wait(1.0)                          # 「第三行要停一下」
        self.play(FadeIn(rows[2], shift=RIGHT * theme.space("close")), run_time=0.7)
        self.beat(says="别再找那个「最好的全局学习率」了，它不存在。",
                  takeaway="最好的全局学习率不存在 —— 每个参数得配它自己的那一个", replaces=True)
        self.beat(says="而代价马上就来")
        # Ink, like row ③: red is 陡谷 in this panel.
        cost = ledger_text("→ 代价：每个参数都得存东西（那 {bytes.optimizer_sum} 字节）", size="label")
        cost.next_to(rows, DOWN, buff=D_ROW_GAP, aligned_edge=LEFT)
        self.play(FadeIn(cost), run_time=0.6)

    def valleys(self, steep: DataWindow, flat: DataWindow) -> VGroup:
        """The valley's two cross-sections at one scale, each with its point and its gradient."""
        valleys = VGroup()
        for window, h, g, color, name in ((steep, bs.LAMBDA_STEEP.value, "beststep.b.steep_gradient", STEEP, "陡谷"),
                                          (flat, bs.FLAT_CURVATURE.value, "beststep.b.flat_gradient", FLAT, "平谷")):
            x = bs.STEEP_DISTANCE.value if window is steep else bs.FLAT_DISTANCE.value
            dot = Dot(window.point(x, 0.5 * h * x * x), radius=DOT_RADIUS, color=theme.color(color))
            tag = ledger_text(f"{name} · 梯度 {{{g}}}", size="label", color=color)
            tag.move_to([window.screen_center[0], window.screen_center[1] + window.screen_size[1] / 2 + TAG_RISE, 0])
            valleys.add(VGroup(parabola(window, h, color), dot, tag))
        return valleys

    def rows(self) -> VGroup:
        # Each row says what its notes line says, and no more.
        row_a = VGroup(ledger_text("① 再大一点就发散：门槛 η = {beststep.threshold}", size="label"),
                       formula("（= 2 ÷ 陡峭程度）", size="label", color="muted")).arrange(RIGHT, buff=theme.space("close"))
        row_b = VGroup(
            ledger_text("② 最大的安全值 η = {step.step_times_lambda}（门槛的 {beststep.step_share_of_threshold}）",
                        size="label"),
            ledger_text("平的方向走完半程 ≈ {step.halfway_coefficient} × 陡峭比 步 · 这个谷 {step.kappa_figure} → "
                        "{step.halfway_steps_kappa25} 步", size="label"),
        ).arrange(DOWN, aligned_edge=LEFT, buff=theme.space("close"))
        row_b[1].shift(RIGHT * ROW_B_INDENT)
        # Bold ink, not red: red is 陡谷 in this panel.
        row_c = ledger_text("③ 真实模型：按 {step.kappa_model} 算 → {step.halfway_steps_kappa1000} 步 —— 已经是最快的了",
                            size="label", weight="BOLD")
        rows = VGroup(row_a, row_b, row_c)
        rows.arrange(DOWN, aligned_edge=LEFT, buff=D_ROW_GAP)
        return rows.move_to([0, ROWS_TOP + D_RISE, 0], aligned_edge=UP).align_to([ROWS_LEFT, 0, 0], LEFT)

    # ---- Ⓒ ------------------------------------------------------------------------------------------

    def hessian_panel(self):
        # Said under the first cue, after Ⓑ's trick (「⭐ Ⓒ 回答为什么没人真去算」): three beats,
        # one per clause of that sentence.
        self.start_panel("C", "为什么没人真去算", says="二阶导每两个参数之间就有一个")
        grid, diagonal = self.hessian_grid()
        side = words("N 个参数", size="label", color="muted").next_to(grid, UP, buff=theme.space("close"))
        lines = VGroup(
            ledger_text("二阶导：每{beststep.c.params_per_entry}个参数之间就有一个", size="body"),
            ledger_text("N = {model.v3.total_params}（DeepSeek-V3）", size="body"),
            # Heading size: the power of ten's exponent must read from the back of the room.
            ledger_text("N × N ≈ {beststep.c.hessian_entries} 个数", size="heading"),
            words("—— 存不下", size="body", color="bad"),
            ledger_text("只估对角线：N 个，fp32 存也才 {beststep.c.diagonal_tib} TiB", size="body", color=RULE),
            words("→ Adam 分母里 v 的平方根：粗略地估它", size="body", color=RULE),
        ).arrange(DOWN, aligned_edge=LEFT, buff=LINES_GAP)
        lines.move_to([0, LINES_Y, 0]).align_to([LINES_LEFT, 0, 0], LEFT)
        self.play(FadeIn(grid), FadeIn(side), run_time=1.0)
        self.reveal(lines[:1])
        self.beat(says="几千亿参数根本存不下")
        self.reveal(lines[1:4])
        self.beat(says="于是只好去估它 —— 而那就是 Adam 分母那一坨的来历",
                  takeaway="参数这么多，根本存不下 —— 于是只好去估它")
        self.play(*(cell.animate.set_fill(theme.color(RULE)) for cell in diagonal), run_time=0.6)
        self.reveal(lines[4:])

    def reveal(self, parts: VGroup) -> None:
        for part in parts:
            self.play(FadeIn(part, shift=RIGHT * theme.space("small")), run_time=0.6)
            self.wait(0.4)

    def hessian_grid(self) -> tuple[VGroup, list[Square]]:
        """The N × N second derivatives as a small grid, and its diagonal (lit when it is said)."""
        cell = GRID_SIZE / GRID_CELLS
        grid, diagonal = VGroup(), []
        for i in range(GRID_CELLS):
            for j in range(GRID_CELLS):
                square = Square(cell, stroke_width=1, stroke_color=theme.color("muted"),
                                fill_color=theme.color("panel"), fill_opacity=1)
                grid.add(square.move_to([GRID_CENTRE[0] + (j - GRID_CELLS / 2 + 0.5) * cell,
                                         GRID_CENTRE[1] - (i - GRID_CELLS / 2 + 0.5) * cell, 0]))
                if i == j:
                    diagonal.append(square)
        return grid, diagonal
