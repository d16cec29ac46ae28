"""fig-saddle: three kinds of flat ground, and why high dimension rarely traps you.

Ⓐ three cells, two perpendicular cuts through each flat point: the valley floor (both up,
   red), the hilltop (both down, green), the pass (one up, one down) — anim-saddle's surface.
Ⓑ the argument in three lines: a floor needs every direction up; one parameter has two
   directions; a model has hundreds of billions, and missing one makes it a pass.
Ⓒ the share of up-directions, by definition: 0 on a hilltop, ½ on this pass, 1 only on a true
   valley floor; the turn: hard to get stuck, but slow near a pass. What the measurement found
   (「那个比例从来没到过 1」, Dauphin et al. 2014) is spoken, not projected: its passage has not
   been read (待核, one footnote).
Colour code shared with anim-saddle: red = rises along this cut, green = falls, black = flat point.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, Arrow, Create, Dot, FadeIn, FadeOut, Line, RoundedRectangle, VGroup)

from lecture_numerics import flat_points as flat
from scenes.kit import theme
from scenes.kit.base import LectureScene
from scenes.kit.panels import EDGE_BUFF
from scenes.kit.plots import NumberAxis, Plot, curve
from lecture_numerics.provenance import UNCONFIRMED
from scenes.kit.text import UNCONFIRMED_MARK, ledger_text, line, words

# Ⓐ: three cells, each with two small cut plots.
CELL_XS = (-4.55, 0.0, 4.55)
CELL_W, CELL_H, CELL_Y = 4.2, 4.3, -0.25
CUT_W, CUT_H, CUT_GAP = 1.55, 1.3, 0.45
CELLS = (("valley", "真谷底", ("往哪走都变差", "真卡住了")),
         ("peak", "山顶", ("推一下就走", "训练里基本遇不到")),
         ("pass", "垭口", ("一个方向往上", "另一个方向往下")))
DOT_R, TICK_HALF = 0.08, 0.32
CUT_Y = 0.2                       # height of the flat points inside the cells

# Ⓑ: the three lines, each with its pictogram on the right.
ARG_LEFT, ARG_YS, PICTURE_X = -6.4, (2.0, 0.8, -0.4), 3.3
ROW_ARROWS = 11                  # arrows drawn for "every direction" (the rest trail off in ⋯)

# Ⓒ: one axis, the share of up-directions.
AXIS_Y, AXIS_W = 1.2, 10.0


def cut_colour(heights: np.ndarray) -> str:
    """Red if the ground rises along the cut (no way out), green if it falls (a way out)."""
    return "backward" if heights[0] > heights[len(heights) // 2] else "good"


class FigSaddle(LectureScene):
    scene_id = "fig-saddle"
    title = "坡度为零的地方不止一种：垭口与高维"
    loop = False
    ledger_keys = ("flat.slopes_at_centre", "flat.directions_one_parameter", "slider.desk_faders",
                   "flat.up_fraction_ticks", "flat.measurement_paper.year")

    def construct(self) -> None:
        self.three_flat_points()
        self.three_lines()
        self.someone_measured()

    def say(self, current, template: str, color: str = "ink"):
        new = line(template, size="body", color=color).to_edge(DOWN, buff=EDGE_BUFF)
        self.play(*([FadeOut(current)] if current is not None else []), FadeIn(new, shift=UP * 0.2), run_time=0.5)
        return new

    # ---- Ⓐ three cells of two cuts ----

    def cut_plot(self, s: np.ndarray, z: np.ndarray, centre: np.ndarray, name: str) -> VGroup:
        """One cut through the flat point: its profile, the black dot, a flat tangent tick."""
        plot = Plot(x_range=(-1, 1), y_range=(-0.6, 0.6), width=CUT_W, height=CUT_H)
        plot.shift(centre - plot.point(0, 0))
        plot.x_axis.set_opacity(0)          # only the profile matters; the frame would read as an axis
        plot.y_axis.set_opacity(0)
        profile = curve(plot, s, z, cut_colour(z), smooth=True, stroke_width=6)
        at = plot.point(0, 0)
        tangent = Line(at + LEFT * TICK_HALF, at + RIGHT * TICK_HALF, color=theme.color("ink"), stroke_width=3)
        dot = Dot(at, radius=DOT_R, color=theme.color("ink"))
        label = words(name, size="small", color="muted").next_to(plot.point(0, -0.6), DOWN, buff=0.1)
        return VGroup(plot, profile, tangent, dot, label)

    def cell(self, x: float, kind: str, name: str, phrase: tuple[str, str]) -> VGroup:
        s, along_x, along_y = flat.cuts(kind)
        frame = RoundedRectangle(width=CELL_W, height=CELL_H, corner_radius=0.15, stroke_width=2,
                                 stroke_color=theme.color("muted")).move_to([x, CELL_Y, 0])
        title = words(name, size="heading").next_to(frame.get_top(), DOWN, buff=0.2)
        cuts = VGroup(self.cut_plot(s, along_x, np.array([x - (CUT_W + CUT_GAP) / 2, CUT_Y, 0]), "横着切"),
                      self.cut_plot(s, along_y, np.array([x + (CUT_W + CUT_GAP) / 2, CUT_Y, 0]), "竖着切"))
        saying = VGroup(*[words(p, size="small") for p in phrase]).arrange(DOWN, buff=0.1)
        saying.next_to(frame.get_bottom(), UP, buff=0.25)
        return VGroup(frame, title, cuts, saying)

    def three_flat_points(self) -> None:
        self.start_panel("A", "脚下平的地方，不只谷底")
        flat_note = line("黑点：坡度 {flat.slopes_at_centre[0]}（横着、竖着切开，看剖面）", size="small", color="muted")
        flat_note.move_to([0, 2.55, 0])
        self.play(FadeIn(flat_note), run_time=0.5)
        cells = [self.cell(x, *spec) for x, spec in zip(CELL_XS, CELLS)]
        caption = None
        for cell, sentence in zip(cells, ("横竖都往上 —— 这才是真谷底", "横竖都往下 —— 山顶",
                                          "最要紧的：一个方向往上，另一个方向往下")):
            self.play(FadeIn(cell[0]), FadeIn(cell[1]), Create(cell[2]), FadeIn(cell[3]), run_time=0.9)
            caption = self.say(caption, sentence)
            self.wait(0.5)
        highlight = cells[2][0].copy().set_stroke(theme.color("accent"), width=6)
        self.play(Create(highlight), run_time=0.6)
        caption = self.say(caption, "站在那儿，脚下确实是平的。但它根本没封死，路就在旁边", "good")
        self.wait(0.8)
        self.say(caption, "中文管这种地形叫鞍部 —— 数学上叫鞍点")
        self.wait(1.5)

    # ---- Ⓑ the argument, one line at a time ----

    def arrow_row(self, colours: list[str], length: float = 0.42, buff: float = 0.08) -> VGroup:
        return VGroup(*[Arrow(LEFT * length / 2, RIGHT * length / 2, buff=0, color=theme.color(c),
                              stroke_width=5, max_tip_length_to_length_ratio=0.4).rotate(np.pi / 2)
                        for c in colours]).arrange(RIGHT, buff=buff)

    def three_lines(self) -> None:
        self.start_panel("B", "为什么高维里很难真卡住")
        first = line("真谷底 ＝ 所有方向都得往上", size="body")
        second = line("只有一个参数：{flat.directions_one_parameter}个方向 → 很容易凑齐 → 坑一个接一个", size="body")
        third = line("{slider.desk_faders}个参数 ＝ {slider.desk_faders}个方向 → 只要漏掉一个，它就只是个垭口",
                     size="body")
        rows = [first, second, third]
        for row, y in zip(rows, ARG_YS):
            row.move_to([ARG_LEFT, y, 0], aligned_edge=LEFT)

        both = VGroup(Arrow(RIGHT * 0.3, LEFT * 0.6, buff=0, color=theme.color("backward")),
                      Arrow(LEFT * 0.3, RIGHT * 0.6, buff=0, color=theme.color("backward")))
        both.arrange(RIGHT, buff=0.4).next_to(second, DOWN, buff=0.15).set_x(PICTURE_X - 2.0)
        many = ["backward"] * ROW_ARROWS
        many[7] = "good"                        # the one that goes down: a way out
        row = self.arrow_row(many)
        trail = words("⋯", size="heading", color="backward")
        picture = VGroup(row, trail).arrange(RIGHT, buff=0.2).next_to(third, DOWN, buff=0.2).set_x(PICTURE_X - 2.0)
        self.play(FadeIn(first, shift=RIGHT * 0.2), run_time=0.6)
        self.wait(0.8)
        self.play(FadeIn(second, shift=RIGHT * 0.2), FadeIn(both), run_time=0.7)
        self.wait(0.8)
        self.play(FadeIn(third, shift=RIGHT * 0.2), FadeIn(picture, lag_ratio=0.1), run_time=1.0)
        self.wait(0.8)
        brake = VGroup(words("这是定义层面的话，不是概率论证", size="label", color="backward"),
                       words("各方向的弯曲并不独立 —— 不给「罕见到多少」那种数，那个数是编的", size="small",
                             color="muted")).arrange(DOWN, aligned_edge=LEFT, buff=0.15)
        brake.move_to([ARG_LEFT, -2.45, 0], aligned_edge=LEFT)
        self.play(FadeIn(brake), run_time=0.6)
        self.wait(2.0)

    # ---- Ⓒ someone measured it ----

    def someone_measured(self) -> None:
        self.start_panel("C", "有人真去量过")
        axis = NumberAxis(0, 1, width=AXIS_W, ticks_key="flat.up_fraction_ticks")
        axis.move_to([0, AXIS_Y, 0])
        title = words("往上的方向占多少", size="label", color="muted").next_to(axis, DOWN, buff=0.15)
        names = VGroup(*[words(name, size="small", color=colour).next_to(axis.point(value), UP, buff=0.3)
                         for name, colour, value in (("山顶", "good", 0.0), ("垭口", "accent", 0.5),
                                                     ("真谷底", "backward", 1.0))])
        self.play(FadeIn(axis), FadeIn(title), FadeIn(names), run_time=0.7)
        caption = None
        lines = VGroup(words("✔ 参数越多，越不容易真卡住（显存算力那件事，各论各的）", size="label", color="good"),
                       words("✘ 卡不住 ≠ 走得快：垭口附近坡极平、梯度极小，步长又跟坡度成正比 → 在那儿磨很久",
                             size="small", color="backward"))
        lines.arrange(DOWN, aligned_edge=LEFT, buff=0.25).move_to([0, -1.3, 0])
        for part in lines:
            self.play(FadeIn(part, shift=UP * 0.1), run_time=0.5)
            self.wait(0.5)
        # The measurement itself (where training stops, the share never reaching 1) is not
        # projected: its passage in the paper has not been read, so it is spoken, with one mark.
        pending = ledger_text(f"{UNCONFIRMED_MARK} {UNCONFIRMED}：那次测量（Dauphin 等，{{flat.measurement_paper.year}}）"
                              "的结果尚未读到原文，只口述", size="small", color="muted")
        pending.next_to(lines, DOWN, buff=0.35).align_to(lines, LEFT)
        self.play(FadeIn(pending), run_time=0.4)
        self.say(caption, "接下来整节的优化器，多半就是在治这个")
        self.wait(1.5)
