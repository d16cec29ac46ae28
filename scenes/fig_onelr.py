"""fig-onelr: one global learning rate in a valley steep one way and flat the other.

Ⓐ 一个谷，两条轨迹, in the notes' order: the axes first (竖着弹：陡的参数 · 横着爬：平的参数 ·
   谷底在右边), then red bounces harder each time until it leaves the framed plot, blue's
   bounce shrinks until it reaches the bottom; the reveal that red's learning rate is only
   1.1 × blue's (差一成); and last, blue itself: its zigzag stays blue, and how much of its
   path goes toward the bottom is a separate measure — a bar of its 路程 against one of its 前进.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Create, Dot, FadeIn, FadeOut, GrowArrow, GrowFromEdge, LaggedStart, VGroup, linear

from lecture_numerics import onelr
from scenes.kit import theme
from scenes.kit.annotate import legend, on_plot
from scenes.kit.arrows import arrow
from scenes.kit.bars import StackedBar
from scenes.kit.base import LectureScene
from scenes.kit.data_window import DataWindow, exit_arrow, quadratic_levels, run_path
from scenes.kit.plots import Plot, place
from scenes.kit.text import line, words

# The two runs by what they do; the notes call the diverging one 红 and the settling one 蓝.
DIVERGING, SETTLING, FORWARD = "bad", "accent", "good"
# The plot: the valley at equal scale both ways (29 × 12 data units), framed on all sides,
# so 「出画面」 has an edge to leave; a column on its right holds the legend and the measure.
(X0, X1), (Y0, Y1) = onelr.WINDOW
PLOT_W = 8.4
PLOT_H = PLOT_W * (Y1 - Y0) / (X1 - X0)
PLOT_CORNER = (-6.4, -1.55)
WINDOW = DataWindow(onelr.WINDOW, screen_center=(PLOT_CORNER[0] + PLOT_W / 2, PLOT_CORNER[1] + PLOT_H / 2),
                    screen_size=(PLOT_W, PLOT_H))
# Level curves: steep half-widths 1 … 6 (½·λ_steep·y² with y = 1 … 6).
LEVELS = [0.5 * h * h for h in (1, 2, 3, 4, 5, 6)]
COLUMN_X = 2.5                  # left edge of the right-hand column
LEGEND_TOP = 2.0
MEASURE_TOP = 0.7
BAR_LENGTH, BAR_THICKNESS = 3.0, 0.34
DIMMED = 0.3                     # a run the speaker has moved on from
FORWARD_Y = -5.0                 # data height of the 前进 arrow under blue's path
START_LABEL_NUDGE = 0.25         # 「同一起点」 moved right, clear of the plot's border
BOTTOM_LABEL_RAISE = 0.17       # ≈15 px: 「谷底在右边」 clear of blue's zigzag peaks
ZIGZAG_STROKE = 7                # 「你看它那串锯齿」: blue's path made the thickest line on screen


def steps_length(path: np.ndarray) -> tuple[float, float]:
    """(Σ|Δx|, Σ‖Δ‖): how far the run moved toward the bottom, and how far it travelled."""
    steps = np.diff(path, axis=0)
    return float(np.abs(steps[:, 0]).sum()), float(np.hypot(steps[:, 0], steps[:, 1]).sum())


class FigOnelr(LectureScene):
    scene_id = "fig-onelr"
    title = "一个全局学习率：一边陡、一边平的谷"
    ledger_keys = ("onelr.run_count", "onelr.red_over_blue", "onelr.lr_gap_cheng", "onelr.blue_progress_share")

    def construct(self):
        self.two_runs_panel()

    def two_runs_panel(self):
        # The first stop is the cue's own instruction (先说清楚坐标), said before the script starts.
        self.start_panel("A", "一个谷，{onelr.run_count}条轨迹")
        self.show_axes()
        self.beat(says="这是一个一边陡、一边平的谷。两条轨迹， 同一个谷、同一套规则，唯一的差别是学习率")
        self.show_start_and_legend()
        self.beat(says="先看红色。它每弹一次幅度更大，弹着弹着就出画面了")
        self.red_run()
        self.beat(says="再看蓝色。它弹幅在收，最后是走到谷底了")
        self.blue_run()
        self.beat(says="现在我告诉你这两个学习率差多少 —— 差一成",
                  takeaway="学习率只差{onelr.lr_gap_cheng}：红 = {onelr.red_over_blue} × 蓝")
        self.reveal_ratio()
        self.beat(says="红色比蓝色大百分之十。就这么点，一个炸了，一个没炸")
        self.outcomes()
        self.beat(says="你能下手的区间，就这么窄", replaces=True,
                  takeaway="只差{onelr.lr_gap_cheng}，一个炸了，一个没炸 —— 能下手的区间就这么窄")
        self.beat(says="可蓝色也不好。你看它那串锯齿")
        self.look_at_blue()
        self.beat(says="每一步大半的力气，都花在左右横跳上了")
        self.travelled_bar()
        self.beat(says="真正朝谷底去的，只有那一丁点横向的位移")
        self.forward_measure()
        # The zigzag block's ⭐ takes the bottom line's place: the biggest text, never a second line.
        self.beat(says="它不是在走，它是在蹭", takeaway="它不是在走，它是在蹭", replaces=True)

    # ---- the valley and its axes ---------------------------------------------------------------

    def show_axes(self):
        plot = place(Plot(x_range=(X0, X1), y_range=(Y0, Y1), width=PLOT_W, height=PLOT_H, frame=True), PLOT_CORNER)
        curvatures = (onelr.LAMBDA_STEEP.value / onelr.KAPPA_FIGURE.value, onelr.LAMBDA_STEEP.value)
        levels = quadratic_levels(WINDOW, curvatures, LEVELS)
        steep = words("↕ 竖着弹：陡的参数", size="label", color="muted")
        steep.next_to(plot.y_axis, UP, buff=theme.space("small")).align_to(plot.y_axis, LEFT)
        flat = words("横着爬：平的参数 →", size="label", color="muted")
        flat.next_to(plot.x_axis, DOWN, buff=theme.space("small")).align_to(plot.x_axis, RIGHT)
        self.bottom = Dot(WINDOW.point(0, 0), radius=0.09, color=theme.color(FORWARD))
        # Raised clear of blue's zigzag peaks; kept in front of every run (see blue_run).
        bottom_label = on_plot("谷底在右边", color=FORWARD).next_to(self.bottom, UP + LEFT, buff=theme.space("tight"))
        bottom_label.shift(UP * BOTTOM_LABEL_RAISE)
        self.bottom_label = bottom_label
        self.play(Create(plot), Create(levels), run_time=1.0)
        self.play(FadeIn(steep, shift=DOWN * 0.1), run_time=0.5)
        self.play(FadeIn(flat, shift=LEFT * 0.1), run_time=0.5)
        self.play(FadeIn(self.bottom), FadeIn(bottom_label), run_time=0.5)
        self.plot = plot

    def show_start_and_legend(self):
        start = Dot(WINDOW.point(*onelr.START.value), radius=0.08, color=theme.color("ink"))
        # Up and to the right of the dot: its halo stays inside the plot's left border.
        start_label = on_plot("同一起点", size="small").next_to(start, UP, buff=theme.space("tight"))
        start_label.shift(RIGHT * START_LABEL_NUDGE)
        self.legend = legend([(DIVERGING, "红：学习率大一点", "line"), (SETTLING, "蓝：学习率小一点", "line")],
                             direction=DOWN, size="label", gap="small")
        self.legend.move_to([COLUMN_X, LEGEND_TOP, 0], aligned_edge=UP + LEFT)
        self.play(FadeIn(start), FadeIn(start_label), run_time=0.5)
        self.play(FadeIn(self.legend), run_time=0.6)

    # ---- the two runs ----------------------------------------------------------------------------

    def red_run(self):
        path_xy = onelr.RED_PATH.value
        path, dots = run_path(WINDOW, path_xy[:-1], color=DIVERGING)
        self.play(Create(path), LaggedStart(*(FadeIn(d) for d in dots), lag_ratio=0.6), run_time=2.2,
                  rate_func=linear)
        gone = exit_arrow(WINDOW, path_xy[-2], path_xy[-1], color=DIVERGING)
        gone_label = words("出画面", size="label", color=DIVERGING)
        gone_label.next_to(gone.get_end(), DOWN, buff=theme.space("small")).align_to(gone.get_end(), RIGHT)
        self.play(GrowArrow(gone), run_time=0.6)
        self.play(FadeIn(gone_label), run_time=0.3)
        self.red = VGroup(path, dots, gone)
        self.red_label = gone_label

    def blue_run(self):
        # Red steps back, so the two zigzags never overlap at full strength.
        self.play(self.red.animate.set_opacity(DIMMED), run_time=0.4)
        self.blue_path, self.blue_dots = run_path(WINDOW, onelr.BLUE_PATH.value, color=SETTLING, dot_radius=0.04)
        self.play(Create(self.blue_path), LaggedStart(*(FadeIn(d) for d in self.blue_dots), lag_ratio=0.3),
                  run_time=2.6, rate_func=linear)
        self.bring_to_front(self.bottom_label)

    def reveal_ratio(self):
        old = self.legend[0][1]
        new = line("红：学习率 = {onelr.red_over_blue} × 蓝", size="label").move_to(old, aligned_edge=LEFT)
        self.play(FadeOut(old, shift=UP * 0.1), FadeIn(new, shift=UP * 0.1), run_time=0.6)
        self.legend[0].remove(old).add(new)

    def outcomes(self):
        # Red back at full strength, the run the speaker names; its label becomes one: 「炸了：出画面」.
        blown = words("炸了：出画面", size="label", color=DIVERGING).move_to(self.red_label, aligned_edge=RIGHT)
        settled = on_plot("没炸", color=SETTLING).next_to(self.bottom, DOWN + LEFT, buff=theme.space("small"))
        self.play(self.red.animate.set_opacity(1.0), FadeOut(self.red_label), FadeIn(blown), run_time=0.4)
        self.red_label = blown
        self.play(FadeIn(settled), run_time=0.4)

    # ---- blue's zigzag, measured -------------------------------------------------------------------

    def look_at_blue(self):
        """The finger's target: red all but gone, blue's zigzag the thickest line on screen."""
        self.play(self.red.animate.set_opacity(0.15), self.blue_path.animate.set_stroke(width=ZIGZAG_STROKE),
                  run_time=0.6)

    def _bar(self, value: float, color: str) -> StackedBar:
        total = steps_length(onelr.BLUE_PATH.value)[1]
        return StackedBar([(value, color)], scale=BAR_LENGTH / total, thickness=BAR_THICKNESS, opacity=0.85)

    def travelled_bar(self):
        title = words("蓝走过的路程", size="label", color=SETTLING)
        title.move_to([COLUMN_X, MEASURE_TOP, 0], aligned_edge=UP + LEFT)
        bar = self._bar(steps_length(onelr.BLUE_PATH.value)[1], SETTLING)
        bar.next_to(title, DOWN, buff=theme.space("small")).align_to(title, LEFT)
        note = words("大半是在竖着弹", size="small", color="muted").next_to(bar, DOWN, buff=theme.space("tight"))
        note.align_to(bar, LEFT)
        self.play(FadeIn(title), GrowFromEdge(bar, LEFT), run_time=0.8)
        self.play(FadeIn(note), run_time=0.4)
        self.travelled = VGroup(title, bar, note)

    def forward_measure(self):
        forward, _ = steps_length(onelr.BLUE_PATH.value)
        path = onelr.BLUE_PATH.value
        along = arrow(WINDOW.point(path[0, 0], FORWARD_Y), WINDOW.point(path[-1, 0], FORWARD_Y), FORWARD,
                      weight="bold", buff=None)
        along_label = on_plot("前进", color=FORWARD).next_to(along, UP, buff=theme.space("tight"))
        self.play(GrowArrow(along), run_time=0.8)
        self.play(FadeIn(along_label), run_time=0.3)
        title = line("其中前进：只占 {onelr.blue_progress_share}", size="label", color=FORWARD)
        title.next_to(self.travelled, DOWN, buff=theme.space("large")).align_to(self.travelled, LEFT)
        bar = self._bar(forward, FORWARD).next_to(title, DOWN, buff=theme.space("small")).align_to(title, LEFT)
        self.play(FadeIn(title), GrowFromEdge(bar, LEFT), run_time=0.8)
