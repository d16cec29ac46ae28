"""fig-saddle: three kinds of flat ground, and why high dimension rarely traps you.

Ⓐ three cells, two perpendicular cuts through each flat point: the valley floor (both up,
   red), the hilltop (both down, green), the pass (one up, one down) — anim-saddle's surface;
   then the mountain-pass reading of the pass cell: its two cuts renamed ridge (lowest) and trail
   (highest), a pictogram of the trail's hump crossing the ridge's dip at the pass, and the way
   out along the trail.
Ⓑ the argument, one line per beat, in one encoding: each direction is an arrow tilted the way
   the ground goes along it — up and red, or down and green (Ⓐ's colours). A floor needs every
   direction up; one parameter has two; a model has hundreds of billions, and one going down
   makes it a pass. Then the brake: a statement about the definition, not a probability.
Ⓒ the share of up-directions, by definition: 0 on a hilltop, 1 only on a true valley floor, and
   everything between is a pass; the measurement sketched as scattered stopping points left of 1
   (「那个比例从来没到过 1」, Dauphin et al. 2014, whose figure has not been read: the dots are
   labelled 示意 and the claim carries the kit's 待核 mark), the gap before 1 braced as what still
   goes down; then the turn, one line per sentence in places fixed from the start: hard to get
   stuck, but slow near a pass, and the hand-off to the optimizers as the panel's takeaway.
Colour code shared with anim-saddle: red = rises along this cut, green = falls, black = flat point.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, Circle, Create, Dot, FadeIn, FadeOut, GrowArrow,
                   Line, RoundedRectangle, Transform, VGroup, VMobject)

from lecture_numerics import flat_points as flat
from scenes.kit import theme
from scenes.kit.annotate import brace_label
from scenes.kit.arrows import arrow
from scenes.kit.base import LectureScene
from scenes.kit.panels import EDGE_BUFF
from scenes.kit.plots import NumberAxis, Plot, curve
from scenes.kit.text import ledger_text, line, words

UP_COLOUR, DOWN_COLOUR = "backward", "good"     # red: the ground rises this way; green: it falls

# Ⓐ: three cells, each with two small cut plots. The cells end above two stacked takeaways.
CELL_XS = (-4.55, 0.0, 4.55)
CELL_W, CELL_H, CELL_Y = 4.2, 3.8, -0.225
CUT_W, CUT_H, CUT_GAP = 1.55, 1.3, 0.45
CUT_Y = 0.35                      # height of the flat points inside the cells
CELLS = (("valley", "真谷底", ("往哪走都变差", "真卡住了")),
         ("peak", "山顶", ("推一下就走", "训练里基本遇不到")),
         ("pass", "最要紧的", ("一个方向往上", "另一个方向往下")))
DOT_R, TICK_HALF = 0.08, 0.32
WAY_OUT_AT = 0.85                 # where the way-out arrow ends along the pass's falling cut
FLAT_NOTE_AT = np.array([-2.275, 2.45, 0])   # over the first two cells: the band over the pass is the pictogram's
# The pass pictogram, above the pass cell: a ridge seen from the front, dipping at the pass (red:
# along it the pass is the lowest point), and the trail over it, a hump whose top is the pass
# (green: along it the pass is the highest point). Points relative to PICTO_AT, in scene units.
PICTO_AT = np.array([4.25, 2.5, 0])
RIDGE = ((-1.7, -0.2), (-0.95, 0.5), (0.0, -0.1), (0.95, 0.5), (1.7, -0.2))
TRAIL = ((-0.8, -0.62), (-0.4, -0.22), (0.0, -0.1), (0.4, -0.22), (0.8, -0.62))
PICTO_LABEL_BUFF = 0.12
PICTO_SCALE = 0.85                # shrunk about its top: the trail's ends clear the pass cell's border

# Ⓑ: the three lines, each with its picture of directions under it.
ARG_LEFT, PICTURE_LEFT = -6.4, -6.0
ROW_Y = {"floor": 2.3, "floor_pic": 1.75, "one": 1.05, "one_pic": 0.45, "many": -0.25, "many_pic": -0.85,
         "miss": -1.9, "brake": -2.6, "brake_why": -3.1}
ROW_ARROWS, MISSED = 12, 7        # arrows drawn for "every direction" (the rest trail off in ⋯), the one that falls
SLOPE_ARROW = (0.42, 0.3)         # run and rise of one direction's arrow

# Ⓒ: one axis, the share of up-directions; labels under it, above two takeaways.
AXIS_Y, AXIS_W = 2.2, 10.0
# The stopping points sit on the axis, where their shares read; the axis title (left) and the
# brace's label (right) share the row under the ticks.
C_ROWS = {"names": 2.82, "title": 1.28, "measured": 0.8, "way_down": 1.28, "flat": -0.45}
# The turn: its lines' places are fixed from the start (each only appears, none moves), under the
# reason and above the one takeaway, the hand-off to the optimizers.
TURN_ROWS = {"good": -1.01, "bad": -1.57, "slow": -2.13}
GAP_BRACE_BUFF = 0.12             # the brace over the gap before 1 keeps clear of the dots
STOP_JITTER = 0.04                # the sketched stopping points scatter this far above and below the axis
TICK_LABEL_CLEAR = 0.07           # the 0 and 1 tick labels step clear of the end markers' rings


def cut_colour(heights: np.ndarray) -> str:
    """Red if the ground rises along the cut (no way out), green if it falls (a way out)."""
    return UP_COLOUR if heights[0] > heights[len(heights) // 2] else DOWN_COLOUR


def slope_arrow(rises: bool, sense: float = 1.0):
    """One direction: an arrow tilted the way the ground goes along it (up red, down green)."""
    run, rise = SLOPE_ARROW
    end = np.array([sense * run, rise if rises else -rise, 0.0])
    return arrow(np.zeros(3), end, UP_COLOUR if rises else DOWN_COLOUR, weight="bold", buff=None)


class FigSaddle(LectureScene):
    scene_id = "fig-saddle"
    title = "坡度为零的地方不止一种：垭口与高维"
    loop = False
    ledger_keys = ("flat.slopes_at_centre", "flat.directions_one_parameter", "flat.model_directions",
                   "flat.up_fraction_ticks", "flat.measurement_paper.year", "flat.measured_up_share_below")

    def construct(self) -> None:
        self.three_flat_points()
        self.three_lines()
        self.share_of_up_directions()

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

    def show_cell(self, cell: VGroup) -> None:
        self.play(FadeIn(cell[0]), FadeIn(cell[1]), Create(cell[2]), run_time=0.9)
        self.play(FadeIn(cell[3], shift=UP * 0.1), run_time=0.5)

    def three_flat_points(self) -> None:
        self.start_panel("A", "脚下平的地方，不只谷底", says="看这三格。坡度为零的地方，其实不止一种")
        flat_note = line("黑点：坡度 {flat.slopes_at_centre[0]}（横着、竖着切开，看剖面）", size="small", color="muted")
        flat_note.move_to(FLAT_NOTE_AT)
        cells = [self.cell(x, *spec) for x, spec in zip(CELL_XS, CELLS)]
        self.play(FadeIn(flat_note), *(FadeIn(c[0]) for c in cells), run_time=0.6)

        self.beat(says="第一种，两个方向都往上 —— 这才是真谷底，往哪走都变差，真卡住了")
        self.show_cell(cells[0])
        self.beat(says="第二种，两个方向都往下，那是山顶，一推就走，训练里基本遇不到")
        self.show_cell(cells[1])
        self.beat(says="第三种最要紧：一个方向往上，另一个方向往下")
        self.show_cell(cells[2])
        highlight = cells[2][0].copy().set_stroke(theme.color("accent"), width=6)
        self.play(Create(highlight), run_time=0.6)

        self.beat(says="第三种有个特别贴切的名字：垭口")
        # The name replaces the placeholder title: the old word leaves before the new one comes
        # (a cross-fade would show both words on top of each other; a Transform, glyph soup).
        placeholder = cells[2][1]
        name = words("垭口", size="heading", color="accent").move_to(placeholder)
        self.play(FadeOut(placeholder, shift=UP * 0.15), run_time=0.3)
        self.play(FadeIn(name, shift=UP * 0.15), run_time=0.4)

        self.beat(says="沿着翻山的那条路走，它是整条路的最高点； 可你要是横过来、沿着山脊走，它又是最低点")
        # The pass cell's two cuts take the mountain's names, each in its own cut's place.
        ridge_cut, trail_cut = cells[2][2]
        ridge = words("山脊：最低", size="small", color=UP_COLOUR).move_to(ridge_cut[4])
        trail = words("翻山：最高", size="small", color=DOWN_COLOUR).move_to(trail_cut[4])
        picto = self.pass_pictogram()
        self.play(FadeIn(picto.ridge), FadeIn(picto.dip), run_time=0.4)
        self.play(FadeIn(picto.ridge_label), run_time=0.3)
        self.play(Create(picto.trail), run_time=0.6)
        self.play(FadeIn(picto.trail_label), run_time=0.3)
        self.play(FadeOut(ridge_cut[4]), run_time=0.25)
        self.play(FadeIn(ridge, shift=UP * 0.1), run_time=0.4)
        self.play(FadeOut(trail_cut[4]), run_time=0.25)
        self.play(FadeIn(trail, shift=UP * 0.1), run_time=0.4)

        self.beat(says="站在那儿，脚下确实是平的。但它根本没封死，路就在旁边",
                  takeaway="站在那儿，脚下确实是平的。但它根本没封死，路就在旁边")
        # The way out: from the black dot down the trail cut, the green one.
        trail_plot, at = trail_cut[0], trail_cut[3].get_center()
        s = WAY_OUT_AT
        way_out = arrow(at, trail_plot.point(s, float(flat.height("pass", 0.0, s))), DOWN_COLOUR, weight="heavy",
                        buff="hair")
        way_out.shift(UP * 0.16 + RIGHT * 0.06)     # beside the cut it follows, not on it
        self.play(GrowArrow(way_out), run_time=0.7)

        self.beat(says="中文管这种地形，就叫鞍部。数学上这个点就叫鞍点", takeaway="中文管这种地形叫鞍部 —— 数学上叫鞍点")

    @staticmethod
    def pass_pictogram() -> VGroup:
        """A ridge seen from the front (red: along it the pass is the lowest point), the trail
        over it as a hump (green: along it the pass is the highest point), the black flat point,
        and the two lines' names at their outer ends. ``.ridge``, ``.trail`` … name the parts."""
        def at(x: float, y: float) -> np.ndarray:
            return PICTO_AT + np.array([x, y, 0])

        def path(points) -> VMobject:
            return VMobject().set_points_smoothly([at(x, y) for x, y in points])

        ridge = path(RIDGE).set_stroke(theme.color(UP_COLOUR), width=theme.stroke("bold"))
        trail = path(TRAIL).set_stroke(theme.color(DOWN_COLOUR), width=theme.stroke("bold"))
        dip = Dot(at(*RIDGE[2]), radius=DOT_R, color=theme.color("ink"))
        ridge_label = words("山脊", size="label", color=UP_COLOUR)
        ridge_label.next_to(at(*RIDGE[0]), LEFT, buff=PICTO_LABEL_BUFF)
        trail_label = words("翻山的路", size="label", color=DOWN_COLOUR)
        trail_label.next_to(at(*TRAIL[-1]), RIGHT, buff=PICTO_LABEL_BUFF).align_to(at(*TRAIL[-1]), DOWN)
        picto = VGroup(ridge, trail, dip, ridge_label, trail_label).scale(PICTO_SCALE, about_point=at(0, 0.5))
        picto.ridge, picto.trail, picto.dip = ridge, trail, dip
        picto.ridge_label, picto.trail_label = ridge_label, trail_label
        return picto

    # ---- Ⓑ the argument, one line at a time ----

    def arrow_row(self, falls_at: int | None = None) -> VGroup:
        return VGroup(*[slope_arrow(i != falls_at) for i in range(ROW_ARROWS)]).arrange(RIGHT, buff=0.12)

    def legend(self) -> tuple[VGroup, VGroup]:
        """The key, as its two halves: 「往上」 comes with the first line, 「往下」 only when a
        direction first goes down."""
        up = VGroup(slope_arrow(True), words("这个方向往上", size="small", color=UP_COLOUR)).arrange(RIGHT, buff=0.15)
        down = VGroup(slope_arrow(False), words("往下", size="small", color=DOWN_COLOUR)).arrange(RIGHT, buff=0.15)
        VGroup(up, down).arrange(RIGHT, buff=0.45).to_edge(RIGHT, buff=EDGE_BUFF + 0.45).set_y(ROW_Y["floor"])
        return up, down

    def place_row(self, mob, key: str, left: float = ARG_LEFT):
        return mob.move_to([left, ROW_Y[key], 0], aligned_edge=LEFT)

    def three_lines(self) -> None:
        self.start_panel("B", "为什么高维里很难真卡住", says="接下来这一步，是这一整格的关键")

        self.beat(says="要当真谷底，条件是「所有方向都得往上」")
        floor = self.place_row(line("真谷底 ＝ 所有方向都得往上", size="body"), "floor")
        every = VGroup(self.arrow_row(), words("⋯", size="heading", color=UP_COLOUR)).arrange(RIGHT, buff=0.2)
        self.place_row(every, "floor_pic", PICTURE_LEFT)
        key_up, key_down = self.legend()
        self.play(FadeIn(floor, shift=RIGHT * 0.2), FadeIn(key_up), run_time=0.6)
        self.play(FadeIn(every, lag_ratio=0.1), run_time=0.8)

        self.beat(says="一维图上只有两个方向 —— 两个都往上，很容易凑齐。 所以图上才会坑一个接一个")
        one = self.place_row(line("只有一个参数：{flat.directions_one_parameter}个方向 → 都往上很容易凑齐 → 坑一个接一个",
                                  size="body"), "one")
        centre = Dot(radius=DOT_R, color=theme.color("ink"))
        both = VGroup(slope_arrow(True, -1.0), slope_arrow(True, 1.0), centre)
        self.place_row(both, "one_pic", PICTURE_LEFT)
        centre.move_to(both[0].get_start())
        self.play(FadeIn(one, shift=RIGHT * 0.2), run_time=0.6)
        self.play(GrowArrow(both[0]), GrowArrow(both[1]), FadeIn(centre), run_time=0.6)

        self.beat(says="可我们谈的是几千亿个参数，那就是几千亿个方向")
        many = self.place_row(line("{flat.model_directions}个参数 ＝ {flat.model_directions}个方向", size="body"), "many")
        row = self.arrow_row()
        picture = VGroup(row, words("⋯", size="heading", color=UP_COLOUR)).arrange(RIGHT, buff=0.2)
        self.place_row(picture, "many_pic", PICTURE_LEFT)
        self.play(FadeIn(many, shift=RIGHT * 0.2), run_time=0.6)
        self.play(FadeIn(picture, lag_ratio=0.1), run_time=0.8)

        self.beat(says="要它们全都往上 —— 只要漏掉一个，它就只是个垭口，还能接着走")
        missed = slope_arrow(False).move_to(row[MISSED])
        self.play(Transform(row[MISSED], missed), run_time=0.6)
        point = words("↑ 漏掉的这一个：往下", size="small", color=DOWN_COLOUR)
        point.next_to(row[MISSED], DOWN, buff=0.08).align_to(row[MISSED], LEFT)
        # The ⭐⭐⭐ line: the biggest in the panel, with a row of air above and below.
        verdict = line("只要漏掉一个，它就只是个垭口，还能接着走", size="takeaway", color="accent")
        self.place_row(verdict, "miss")
        self.play(FadeIn(point), FadeIn(key_down), FadeIn(verdict, shift=RIGHT * 0.2), run_time=0.6)

        self.beat(says="我得说清楚：这是定义层面的话，不是概率论证")
        brake = self.place_row(words("说清楚：这是定义层面的话，不是概率论证", size="label", color="ink"), "brake")
        self.play(FadeIn(brake), run_time=0.5)

        self.beat(says="各个方向的弯曲方向并不彼此独立，所以我不会给你一个 「罕见到十的负多少次方」那种数字 —— 那个数是编的")
        why = self.place_row(words("各方向的弯曲并不独立 —— 不给「罕见到多少」那种数：那个数是编的", size="small",
                                   color="muted"), "brake_why")
        self.play(FadeIn(why), run_time=0.5)

    # ---- Ⓒ the share of up-directions ----

    def share_of_up_directions(self) -> None:
        self.start_panel("C", "往上的方向占多少", says="而且这不只是推理，有人真去量过")
        axis = NumberAxis(0, 1, width=AXIS_W, ticks_key="flat.up_fraction_ticks").move_to([0, AXIS_Y, 0])
        title = words("往上的方向 ÷ 全部方向", size="label", color="muted").move_to([0, C_ROWS["title"], 0])
        title.align_to(axis.point(0.0) + LEFT * 0.3, LEFT)
        self.play(FadeIn(axis), FadeIn(title), run_time=0.6)

        self.beat(says="把训练一直跑到梯度为零，然后数一数：这个点有多少方向是往上的？")
        low, high = axis.point(0.0), axis.point(1.0)
        hilltop = Dot(low, radius=0.1, color=theme.color(DOWN_COLOUR))
        floor = Dot(high, radius=0.1, color=theme.color(UP_COLOUR))
        # A pass is every share strictly between: the band runs between two open ends.
        band = Line(low, high, stroke_width=18, color=theme.color("accent"), stroke_opacity=0.35)
        ends = VGroup(*(Circle(radius=0.14, stroke_width=3, color=theme.color("accent")).move_to(p) for p in (low, high)))
        names = VGroup(words("山顶：全往下", size="label", color=DOWN_COLOUR).next_to(low, UP, buff=0.35),
                       words("垭口：中间这整段", size="label", color="accent").move_to([0, C_ROWS["names"], 0]),
                       words("真谷底：全往上", size="label", color=UP_COLOUR).next_to(high, UP, buff=0.35))
        names[0].align_to(low + LEFT * 0.3, LEFT)
        names[2].align_to(high + RIGHT * 0.3, RIGHT)
        for name in names:
            name.set_y(C_ROWS["names"])
        for _, tick_label in axis.ticks:
            tick_label.shift(DOWN * TICK_LABEL_CLEAR)
        self.play(FadeIn(band), Create(ends), FadeIn(hilltop), FadeIn(floor), FadeIn(names), run_time=0.8)

        self.beat(says="结果是 —— 那个比例从来没到过 1")
        measured = self.sketched_stops(axis)
        self.play(FadeIn(measured[0], lag_ratio=0.15), run_time=0.9)
        self.play(FadeIn(measured[1]), run_time=0.5)

        self.beat(says="换句话说：训练停下来的那些地方，总还剩一批方向是往下的")
        # The gap between the last stopping point and 1 is the share that still goes down.
        last_stop = axis.point(max(flat.SKETCHED_STOPS.value))[0]
        stops_bottom = min(measured[0].get_bottom()[1], axis.ticks.get_bottom()[1])   # under the tick labels
        gap = brace_label(((last_stop, stops_bottom), (high[0], stops_bottom)), "总还剩一批方向往下",
                          DOWN, color=DOWN_COLOUR, buff=GAP_BRACE_BUFF)
        gap.label.set_y(C_ROWS["way_down"]).align_to(high + RIGHT * 0.3, RIGHT)
        self.play(Create(gap.brace), run_time=0.5)
        self.play(FadeIn(gap.label), run_time=0.4)

        self.beat(says="它没走，不是因为没路，是因为坡太平了")
        flat_reason = words("它没走：不是没路，是坡太平了", size="body")
        self.play(FadeIn(self.c_row(flat_reason, "flat"), shift=UP * 0.1), run_time=0.5)

        # The turn, one line per sentence, top to bottom in the order they are said; the
        # ⭐⭐⭐ hand-off is the panel's takeaway, the biggest line.
        self.beat(says="参数越多，它反而越不容易真卡住")
        self.turn_line("✔ 参数越多，它反而越不容易真卡住", "good")
        self.beat(says="可坏消息是：卡不住，不等于走得快")
        self.turn_line("✘ 可坏消息是：卡不住，不等于走得快", "bad")
        self.beat(says="垭口附近坡极平、梯度极小，而我们的步长又是「跟坡度成正比」的 —— 那就会在那儿磨很久很久")
        self.turn_line("垭口附近：坡极平 → 梯度极小 → 步子极小 → 磨很久很久", "slow")
        self.beat(says="记住这句 —— 我们接下来一整节要讲的那些优化器， 一多半就是在治这个",
                  takeaway="→ 接下来整节的优化器，多半就是在治这个")

    def turn_line(self, sentence: str, row: str) -> None:
        """One line of the turn, in its fixed place."""
        mob = words(sentence, size="body").move_to([0, TURN_ROWS[row], 0])
        self.play(FadeIn(mob, shift=UP * 0.1), run_time=0.5)

    def sketched_stops(self, axis) -> VGroup:
        """Where training stops, as a sketch (示意: the paper's figure is not read): points
        scattered on the axis, all clearly left of 1, and what they say under them."""
        shares = flat.SKETCHED_STOPS.value
        wobble = STOP_JITTER * np.resize([1.0, -0.6, 0.2, -1.0, 0.7], len(shares))
        dots = VGroup(*(Dot(axis.point(share) + UP * dy, radius=0.09,
                            color=theme.color("ink")) for share, dy in zip(shares, wobble)))
        label = ledger_text("示意 · Dauphin 等 {flat.measurement_paper.year}：停点从来没到过 "
                            "{flat.measured_up_share_below}", size="label")
        label.move_to([0, C_ROWS["measured"], 0]).align_to(axis.point(0.0) + LEFT * 0.3, LEFT)
        return VGroup(dots, label)

    @staticmethod
    def c_row(mob, key: str):
        return mob.move_to([0, C_ROWS[key], 0])
