"""fig-onelr: one global learning rate in a valley steep one way and flat the other.

Ⓐ 一个谷，两条轨迹: red (1.1 × blue) bounces out of the picture, blue settles at the bottom —
   and even blue spends most of each step bouncing, only a sliver of it goes toward the bottom.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, BackgroundRectangle, Create, Dot, FadeIn, FadeOut, GrowArrow, LaggedStart, VGroup,
                   linear)

from lecture_numerics import onelr
from scenes.kit import theme
from scenes.kit.base import LectureScene
from scenes.kit.panels import EDGE_BUFF, caption
from scenes.kit.data_window import DataWindow, exit_arrow, quadratic_levels, run_path, step_parts
from scenes.kit.text import ledger_text, words

# The two runs by what they do; the notes call the diverging one 红 and the settling one 蓝.
DIVERGING, SETTLING = "bad", "accent"
# The valley drawn at equal scale in both directions, so its true elongation shows.
WINDOW = DataWindow(onelr.WINDOW, screen_center=(0.0, 0.05), screen_size=(12.3, 5.1))
# Level curves: steep half-widths 1 … 6 (½·λ_steep·y² with y = 1 … 6).
LEVELS = [0.5 * h * h for h in (1, 2, 3, 4, 5, 6)]
CUE_Y = -2.95          # the coordinate cue, just under the plot
LEGEND_AT = (4.6, 2.2)


class FigOnelr(LectureScene):
    scene_id = "fig-onelr"
    title = "一个全局学习率：一边陡、一边平的谷"
    ledger_keys = ("onelr.run_count", "onelr.red_over_blue", "onelr.red_steep_factor", "onelr.blue_steep_factor",
                   "onelr.blue_progress_share")

    def construct(self):
        self.two_runs_panel()

    def two_runs_panel(self):
        self.start_panel("A", "一个谷，{onelr.run_count}条轨迹")
        curvatures = (onelr.LAMBDA_STEEP.value / onelr.KAPPA_FIGURE.value, onelr.LAMBDA_STEEP.value)
        levels = quadratic_levels(WINDOW, curvatures, LEVELS)
        bottom = Dot(WINDOW.point(0, 0), radius=0.09, color=theme.color("good"))
        bottom_label = words("谷底", size="label", color="good").next_to(bottom, UP, buff=theme.space("snug"))
        cue = words("竖着弹：陡的参数 · 横着爬：平的参数 · 谷底在右边", size="label", color="muted")
        cue.move_to(UP * CUE_Y)
        self.play(Create(levels), FadeIn(bottom), FadeIn(bottom_label), FadeIn(cue), run_time=1.0)
        now = caption("同样的谷、同样的规则，唯一的差别是学习率")
        self.play(FadeIn(now), run_time=0.5)
        self.wait(0.6)

        now = self.swap_caption(now, "先看红色：每弹一下幅度更大，弹着弹着就出画面了", DIVERGING)
        self.red_run()
        now = self.swap_caption(now, "再看蓝色：弹幅在收，最后走到了谷底", SETTLING)
        blue_path, blue_dots = self.blue_run()
        now = self.swap_caption(now, "学习率之比：红 = {onelr.red_over_blue} × 蓝 —— 能下手的区间，就这么窄")
        self.wait(1.0)
        now = self.swap_caption(now, "可蓝色也不好：前进只占路程的 {onelr.blue_progress_share} —— 它不是在走，它是在蹭")
        self.split_blue(blue_path, blue_dots)
        self.wait(1.5)

    def swap_caption(self, old, sentence: str, color: str = "ink"):
        new = caption(sentence, color=color)
        self.play(FadeOut(old), FadeIn(new), run_time=0.5)
        return new

    def red_run(self):
        path_xy = onelr.RED_PATH.value
        path, dots = run_path(WINDOW, path_xy[:-1], color=DIVERGING)
        self.play(Create(path), LaggedStart(*(FadeIn(d) for d in dots), lag_ratio=0.6), run_time=2.0,
                  rate_func=linear)
        gone = exit_arrow(WINDOW, path_xy[-2], path_xy[-1], color=DIVERGING)
        gone_label = words("出画面", size="label", color=DIVERGING).next_to(gone.get_end(), RIGHT, buff=theme.space("small"))
        self.play(GrowArrow(gone), FadeIn(gone_label), run_time=0.6)
        self.red = VGroup(path, dots, gone)
        legend = ledger_text("红：每弹 ×{onelr.red_steep_factor}", size="label", color=DIVERGING)
        legend.move_to(np.array([*LEGEND_AT, 0]))
        self.add(BackgroundRectangle(legend, color=theme.background(), fill_opacity=0.9, buff=0.06), legend)
        self.legend = legend
        self.wait(0.4)

    def blue_run(self):
        path, dots = run_path(WINDOW, onelr.BLUE_PATH.value, color=SETTLING, dot_radius=0.04)
        self.play(Create(path), LaggedStart(*(FadeIn(d) for d in dots), lag_ratio=0.3), run_time=2.5,
                  rate_func=linear)
        legend = ledger_text("蓝：每弹 ×{onelr.blue_steep_factor}", size="label", color=SETTLING)
        legend.next_to(self.legend, DOWN, buff=theme.space("small")).align_to(self.legend, LEFT)
        backing = BackgroundRectangle(legend, color=theme.background(), fill_opacity=0.9, buff=0.06)
        self.play(FadeIn(backing), FadeIn(legend), run_time=0.4)
        return path, dots

    def split_blue(self, blue_path, blue_dots):
        """Each blue step as an L: the thick green part goes toward the bottom, the faint part bounces."""
        across, up = step_parts(WINDOW, onelr.BLUE_PATH.value, across="good", up=SETTLING)
        self.play(blue_path.animate.set_stroke(opacity=0.15), blue_dots.animate.set_opacity(0.3),
                  self.red.animate.set_opacity(0.2), run_time=0.5)
        self.play(Create(up), run_time=1.0)
        self.play(Create(across), run_time=1.0)
        key = VGroup(words("前进", size="label", color="good"), words("横跳", size="label", color=SETTLING))
        key.arrange(RIGHT, buff=theme.space("large")).next_to(self.legend, DOWN, buff=theme.space("wide")).align_to(self.legend, LEFT)
        backing = BackgroundRectangle(key, color=theme.background(), fill_opacity=0.9, buff=0.06)
        self.play(FadeIn(backing), FadeIn(key), run_time=0.4)
