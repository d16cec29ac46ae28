"""fig-onelr: one global learning rate in a valley steep one way and flat the other.

Ⓐ 一个谷，两条轨迹, in the notes' order: the axes first (陡 · 竖着弹, 平 · 横着爬, 谷底在右边),
   then red bounces harder each time until it leaves the framed plot, blue's bounce shrinks
   until it reaches the bottom; the reveal that red's learning rate is only 1.1 × blue's (差一成),
   drawn on a learning-rate axis where the threshold 2 stands between them, magnified under it
   with the range one 成 under the wall highlighted (再大一成就炸: 区间就这么窄); and
   last, blue itself: every step cut into its bounce (竖着弹) and its move toward the bottom
   (前进), in the plot and as one bar of blue's whole path.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, Create, FadeIn, FadeOut, GrowArrow, GrowFromEdge, LaggedStart, VGroup,
                   VMobject, linear)

from lecture_numerics import onelr, quantity
from scenes.kit import marks, theme, widgets
from scenes.kit.annotate import legend, on_plot
from scenes.kit.base import LectureScene
from scenes.kit.data_window import DataWindow, exit_arrow, quadratic_levels, run_path, step_parts
from scenes.kit.plots import Plot, place
from scenes.kit.text import line, words

# The notes call the diverging run 红 (the `bad` crimson: it blows up) and the settling one 蓝 (the
# parameters' own blue: it is the weights' path). Each step's move toward the bottom is the
# highlight of the last beats (accent), its bounce stays blue.
DIVERGING, SETTLING, FORWARD, BOTTOM = "bad", "weights", "accent", "ink"
# The plot: the valley at equal scale both ways (29 × 12 data units), framed on all sides,
# so 「出画面」 has an edge to leave; a column on its right holds the legend and the measures.
(X0, X1), (Y0, Y1) = onelr.WINDOW
PLOT_W = 8.4
PLOT_H = PLOT_W * (Y1 - Y0) / (X1 - X0)
PLOT_CORNER = (-6.4, -1.2)      # high enough that three takeaway lines fit under its labels
WINDOW = DataWindow(onelr.WINDOW, screen_center=(PLOT_CORNER[0] + PLOT_W / 2, PLOT_CORNER[1] + PLOT_H / 2),
                    screen_size=(PLOT_W, PLOT_H))
# Level curves: steep half-widths 1 … 6 (½·λ_steep·y² with y = 1 … 6).
LEVELS = [0.5 * h * h for h in (1, 2, 3, 4, 5, 6)]
COLUMN_X = 2.6                  # left edge of the right-hand column
COLUMN_W = 3.8                  # its width: the η axis and the bar (30 px clear of the right edge)
LEGEND_TOP = 2.6
ETA_Y = 0.55                    # the η axis's line, under the legend, high enough for the inset and its 「2」
ETA_HIGH = 2.5                  # the axis runs 0 … 2.5: the wall at 2 and red's 2.09 past it
BAR_TOP = 0.75                  # blue's split bar takes the η axis's place once the speaker moves on
BAR_H = 0.6                     # tall enough for its labels inside
DIMMED, GONE = 0.3, 0.12        # a run the speaker has moved on from; one the finger must not find
# The window that magnifies the η axis around the wall: blue (1.9), the wall (2) and red (2.09)
# stand 14 px apart on the axis from zero, 64 px apart in it. It stays right of the axis's tick
# label 1, so the zoom lines pass no label.
INSET_LOW, INSET_HIGH = 1.8, 2.1
INSET_LEFT, INSET_W = 4.43, 2.14
INSET_Y = -0.95                 # low enough that the main axis's 「2」 stands clear above the inset's frame
RUN_MARK = 0.44                 # a run's mark across the axis, as NumberAxis.mark draws it
WALL_REACH = 0.32               # the wall's half-height: past the runs' marks (half of RUN_MARK)
WALL_FOOT = 0.1                 # on the axis from zero the wall stops just under the line: its 「2」 is under it
START_LABEL_NUDGE = 0.25        # 「同一起点」 moved right, clear of the plot's border
BOTTOM_LABEL_RAISE = 0.17       # ≈15 px: 「谷底在右边」 clear of blue's zigzag peaks


class FigOnelr(LectureScene):
    scene_id = "fig-onelr"
    title = "一个全局学习率：一边陡、一边平的谷"
    ledger_keys = ("onelr.run_count", "onelr.red_over_blue", "onelr.lr_gap_cheng", "beststep.threshold",
                   "onelr.axis.lr_ticks")

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
        self.rate_axis()
        self.beat(says="红色比蓝色大百分之十。就这么点，一个炸了，一个没炸")
        self.outcomes()
        # The ⛔ line stands alone: 差一成 is now drawn in the window (再大一成就炸).
        self.beat(says="你能下手的区间，就这么窄", takeaway="能下手的区间，就这么窄", replaces=True)
        self.threshold_wall()
        # 「这一句是这张图真正的收获」: the rates leave, and their two takeaways with them
        # (clear_takeaways): blue's zigzag is all there is, and the panel ends on its one line.
        self.beat(says="可蓝色也不好。你看它那串锯齿")
        self.look_at_blue()
        self.beat(says="每一步大半的力气，都花在左右横跳上了")
        self.bounces()
        self.beat(says="真正朝谷底去的，只有那一丁点横向的位移")
        self.forward_moves()
        self.beat(says="它不是在走，它是在蹭", takeaway="它不是在走，它是在蹭", replaces=True)

    # ---- the valley and its axes ---------------------------------------------------------------

    def show_axes(self):
        plot = place(Plot(x_range=(X0, X1), y_range=(Y0, Y1), width=PLOT_W, height=PLOT_H, frame=True), PLOT_CORNER)
        curvatures = (onelr.LAMBDA_STEEP.value / onelr.KAPPA_FIGURE.value, onelr.LAMBDA_STEEP.value)
        levels = quadratic_levels(WINDOW, curvatures, LEVELS)
        steep = words("↕ 陡 · 竖着弹", size="label", color="muted")
        steep.next_to(plot.y_axis, UP, buff=theme.space("small")).align_to(plot.y_axis, LEFT)
        flat = words("平 · 横着爬 →", size="label", color="muted")
        flat.next_to(plot.x_axis, DOWN, buff=theme.space("small")).align_to(plot.x_axis, RIGHT)
        self.bottom = marks.dot(WINDOW.point(0, 0), BOTTOM, size="large")
        # Raised clear of blue's zigzag peaks; kept in front of every run (see blue_run).
        bottom_label = on_plot("谷底在右边", color=BOTTOM).next_to(self.bottom, UP + LEFT, buff=theme.space("tight"))
        self.bottom_label = bottom_label.shift(UP * BOTTOM_LABEL_RAISE)
        self.play(Create(plot), Create(levels), run_time=1.0)
        self.play(FadeIn(steep, shift=DOWN * 0.1), run_time=0.5)
        self.play(FadeIn(flat, shift=LEFT * 0.1), run_time=0.5)
        self.play(FadeIn(self.bottom), FadeIn(bottom_label), run_time=0.5)

    def show_start_and_legend(self):
        start = marks.dot(WINDOW.point(*onelr.START.value), "ink")
        # Up and to the right of the dot: its halo stays inside the plot's left border.
        start_label = on_plot("同一起点", size="small").next_to(start, UP, buff=theme.space("tight"))
        start_label.shift(RIGHT * START_LABEL_NUDGE)
        # 「唯一的差别是学习率」: the legend names that one difference, its rows arriving with their runs.
        rows = legend([(DIVERGING, "红：大一点", "line"), (SETTLING, "蓝：小一点", "line")],
                      direction=DOWN, size="label", gap="small")
        self.legend = VGroup(words("学习率", size="label", color="muted"), rows)
        self.legend.arrange(DOWN, aligned_edge=LEFT, buff=theme.space("small"))
        self.legend.move_to([COLUMN_X, LEGEND_TOP, 0], aligned_edge=UP + LEFT)
        # Each row waits for its run: no label before the thing it labels.
        self.red_row, self.blue_row = rows.submobjects
        self.play(FadeIn(start), FadeIn(start_label), run_time=0.5)

    # ---- the two runs ----------------------------------------------------------------------------

    def red_run(self):
        path_xy = onelr.RED_PATH.value
        path, dots = run_path(WINDOW, path_xy[:-1], color=DIVERGING)
        # The legend's title comes with its first row: no heading over an empty legend.
        self.play(FadeIn(self.legend[0]), FadeIn(self.red_row), run_time=0.4)
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
        # Red steps back, its 「出画面」 with it (in muted ink, which keeps the text's contrast), so the
        # two zigzags never overlap at full strength.
        self.play(self.red.animate.set_opacity(DIMMED), self.red_label.animate.set_color(theme.text_color("muted")),
                  run_time=0.4)
        self.blue_path, self.blue_dots = run_path(WINDOW, onelr.BLUE_PATH.value, color=SETTLING, dot_radius=0.04)
        self.play(FadeIn(self.blue_row), run_time=0.4)
        self.play(Create(self.blue_path), LaggedStart(*(FadeIn(d) for d in self.blue_dots), lag_ratio=0.3),
                  run_time=2.6, rate_func=linear)
        self.bring_to_front(self.bottom_label)

    # ---- 差一成, on a learning-rate axis -------------------------------------------------------------

    def rate_axis(self):
        """The two rates on one axis from zero, a hair apart (1.9 and 2.09: the takeaway says 1.1 ×)."""
        axis = widgets.number_line(0.0, ETA_HIGH, ticks="onelr.axis.lr_ticks", width=COLUMN_W)
        axis.shift(np.array([COLUMN_X, ETA_Y, 0.0]) - axis.line.get_start())
        # Labels above the axis, pulled apart from the shared middle: blue ends at its mark, red starts at its.
        blue = axis.mark(onelr.BLUE_LR.value, "蓝", color=SETTLING)
        red = axis.mark(onelr.RED_LR.value, "红", color=DIVERGING)
        for (stroke, label), side in ((blue.submobjects, LEFT), (red.submobjects, RIGHT)):
            label.next_to(stroke, UP, buff=theme.space("tight")).align_to(stroke, -side).shift(side * theme.space("hair"))
        self.eta_axis = axis
        self.rates = VGroup(axis, blue, red)
        self.play(FadeIn(axis), run_time=0.5)
        self.play(FadeIn(blue), FadeIn(red), run_time=0.6)

    def outcomes(self):
        # Red back at full strength, the run the speaker names; its label becomes one: 「炸了：出画面」.
        blown = words("炸了：出画面", size="label", color=DIVERGING).move_to(self.red_label, aligned_edge=RIGHT)
        settled = on_plot("没炸", color=SETTLING).next_to(self.bottom, DOWN + LEFT, buff=theme.space("small"))
        self.play(self.red.animate.set_opacity(1.0), FadeOut(self.red_label), FadeIn(blown), run_time=0.4)
        self.red_label = blown
        self.play(FadeIn(settled), run_time=0.4)

    def threshold_wall(self):
        """The wall at 2 between them: everything past it blows up. On the axis from zero the two
        rates and the wall are a hair apart, so a magnified window under it shows the narrow
        range the speaker names: from blue up to the wall."""
        axis = self.eta_axis
        threshold = quantity("beststep.threshold").value
        wall = widgets.axis_range(axis, "beststep.threshold", ETA_HIGH, role="bad")
        stroke = self.wall_stroke(axis.point(threshold), below=WALL_FOOT)
        # The wall's value as a tick label of its own, level with the axis's 0 and 1.
        value = line("{beststep.threshold}", size="label", color="muted").next_to(stroke, DOWN, buff=theme.space("tight"))
        wall.add(stroke, value)
        inset = self.magnified_window(threshold)
        self.rates.add(wall, inset)
        self.play(FadeIn(wall), run_time=0.5)
        self.play(Create(inset.zoom), FadeIn(inset.frame), FadeIn(inset.axis), run_time=0.7)
        self.play(FadeIn(inset.room), run_time=0.5)

    @staticmethod
    def wall_stroke(at: np.ndarray, below: float = WALL_REACH) -> VMobject:
        """The threshold: a dashed stroke in ink, taller than the runs' marks, so it never reads
        as a third rate; ``below`` is how far it reaches under the axis (its label may be there)."""
        return marks.segment(at + DOWN * below, at + UP * WALL_REACH, "ink", weight="regular", dashed=True)

    def magnified_window(self, threshold: float) -> VGroup:
        """The η axis from INSET_LOW to INSET_HIGH, drawn under the axis and joined to its stretch
        of it: blue's mark, the wall (named), red's mark past it, and the range where one step of
        一成 more crosses the wall (threshold ÷ 1.1 up to it) highlighted and named: blue is in it."""
        axis = self.eta_axis
        near = widgets.number_line(INSET_LOW, INSET_HIGH, width=INSET_W)
        near.shift(np.array([INSET_LEFT, INSET_Y, 0.0]) - near.line.get_start())
        # The runs' marks in their colours, named on the axis above; here only the wall is named.
        blue = marks.tick(near.point(onelr.BLUE_LR.value), SETTLING, length=RUN_MARK, weight="bold")
        red = marks.tick(near.point(onelr.RED_LR.value), DIVERGING, length=RUN_MARK, weight="bold")
        beyond = widgets.axis_range(near, "beststep.threshold", INSET_HIGH, role="bad")
        wall = self.wall_stroke(near.point(threshold))
        # The wall named over it; each band named under it, the wall's foot standing between the
        # two names (the window's name stops short of it, so the dashed stroke cuts no glyph).
        wall_name = line("门槛 {beststep.threshold}", size="label").next_to(wall, UP, buff=theme.space("tight"))
        room = near.span(threshold / onelr.RED_OVER_BLUE.value, threshold, "accent")
        room_name = VGroup(line("再大{onelr.lr_gap_cheng}", size="label", color="accent"),
                           words("就炸", size="label", color="accent"))
        room_name.arrange(DOWN, aligned_edge=RIGHT, buff=theme.space("hair"))
        room_name.next_to(near.line, DOWN, buff=theme.space("medium"))
        room_name.align_to(near.point(threshold) + LEFT * theme.space("small"), RIGHT)
        beyond_name = words("发散", size="label", color="bad").next_to(near.line, DOWN, buff=theme.space("medium"))
        beyond_name.align_to(near.point(threshold) + RIGHT * theme.space("small"), LEFT)
        near_axis = VGroup(near, beyond, blue, red, wall, wall_name, beyond_name)
        frame = marks.frame_around(VGroup(near_axis, room_name), "muted", pad="small", weight="thin")
        top_left, top_right = frame.get_corner(UP + LEFT), frame.get_corner(UP + RIGHT)
        zoom = VGroup(marks.segment(axis.point(INSET_LOW), top_left, "muted", weight="hairline"),
                      marks.segment(axis.point(INSET_HIGH), top_right, "muted", weight="hairline"))
        inset = VGroup(zoom, frame, near_axis, room, room_name)
        inset.zoom, inset.frame, inset.axis, inset.room = zoom, frame, near_axis, VGroup(room, room_name)
        return inset

    # ---- blue's zigzag, measured -------------------------------------------------------------------

    def look_at_blue(self):
        """The finger's target: red all but gone, the rates and their takeaways gone, blue's
        zigzag the heaviest line on screen."""
        self.play(self.red.animate.set_opacity(GONE), FadeOut(self.red_label), FadeOut(self.rates),
                  self.blue_path.animate.set_stroke(width=theme.stroke("heavy")), *self.clear_takeaways(),
                  run_time=0.6)

    def bounces(self):
        """Every step cut in two: its bounce drawn over the zigzag in blue, heavy; the bar
        of blue's whole path grows its bounce part — most of it."""
        forward, bounce = step_parts(WINDOW, onelr.BLUE_PATH.value, across=FORWARD, up=SETTLING)
        bounce.set_stroke(width=theme.stroke("heavy"), opacity=1.0)
        forward.set_stroke(width=theme.stroke("heavy"), opacity=1.0)
        # Lengths only, no number printed: the bar shows 大半, the speaker says it. Its track (the
        # whole path) is there from the start, so the bounce is seen as most of it.
        bounce_len, forward_len = onelr.BLUE_BOUNCE_PATH.value, onelr.BLUE_FORWARD_PATH.value
        self.bar = widgets.split_bar([("竖着弹", bounce_len, SETTLING), ("前进", forward_len, FORWARD)], COLUMN_W,
                                     BAR_H, whole=bounce_len + forward_len)
        title = words("蓝走的路", size="label", color=SETTLING)
        VGroup(title, self.bar).arrange(DOWN, aligned_edge=LEFT, buff=theme.space("small"))
        VGroup(title, self.bar).move_to([COLUMN_X, BAR_TOP, 0], aligned_edge=UP + LEFT)
        self.play(self.blue_path.animate.set_stroke(width=theme.stroke("thin"), opacity=DIMMED),
                  self.blue_dots.animate.set_opacity(DIMMED), run_time=0.4)
        self.play(LaggedStart(*(Create(b) for b in bounce), lag_ratio=0.15), run_time=1.6)
        self.play(FadeIn(title), FadeIn(self.bar.bar.track), run_time=0.4)
        self.play(GrowFromEdge(self.bar.part(0), LEFT), run_time=0.8)
        self.forward = forward

    def forward_moves(self):
        """What is left of each step: the short move toward the bottom, gold, and the bar's rest."""
        self.play(LaggedStart(*(Create(f) for f in self.forward), lag_ratio=0.15), run_time=1.4)
        self.play(GrowFromEdge(self.bar.part(1), LEFT), run_time=0.6)
