"""fig-saddle: three kinds of flat ground, and why high dimension rarely traps you.

Ⓐ three cells, two perpendicular cuts through each flat point: the valley floor (both up), the
   hilltop (both down), the pass (one up, one down) — anim-saddle's surface; then the pass as the
   mountain pass, drawn large where the first two cells were: a ridge over its grey mass, dipping
   at the notch (豁口; along the ridge the pass is the lowest point) and the trail coming up over
   it (along it the highest), each named at its far end, and the way out down the trail.
Ⓑ the argument, one line per beat, in one encoding: each direction is an arrow tilted the way
   the ground goes along it, up or down (Ⓐ's colours). A floor needs every direction up; one
   parameter has two; a model has hundreds of billions, and one going down makes it a pass
   (the ⭐⭐⭐ takeaway). Then the brake, two ⛔ takeaways: a statement about the definition, not
   a probability.
Ⓒ the share of up-directions, by definition: 0 on a hilltop, 1 only on a true valley floor, and
   everything between is a pass; 「从来没到过 1」 is drawn as a sketch (示意; its source is 待核 in
   lecture_numerics/flat_points.py, so no source line is projected): black stopping points all short of 1, and the gap between
   the rightmost and 1 is where some direction still goes down.
   Then the turn: a real descent crawling off a nearly flat pass (lecture_numerics/saddle.py),
   its first steps piled at the top, under the ⭐⭐⭐ / ⛔ / ⭐⭐⭐ takeaways.
Colour code shared with anim-saddle: the notes' 红 (rises along this cut: no way out) is the
status 'bad', their 绿 (falls: a way out) the status 'good'; black (ink) is the flat point.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, ORIGIN, RIGHT, UP, Create, FadeIn, FadeOut, GrowArrow, Transform, VGroup

from lecture_numerics import flat_points as flat
from lecture_numerics import saddle
from scenes.kit import marks, theme, widgets
from scenes.kit.annotate import on_plot
from scenes.kit.arrows import arrow
from scenes.kit.base import LectureScene
from scenes.kit.panels import EDGE_BUFF
from scenes.kit.plots import NumberAxis, Plot, curve
from scenes.kit.text import line, words

UP_COLOUR, DOWN_COLOUR = "bad", "good"     # 红: the ground rises this way; 绿: it falls

# ---- Ⓐ: three cells, each with two small cut plots, above the takeaways ----
CELL_XS = (-4.55, 0.0, 4.55)
CELL_W, CELL_H, CELL_Y = 4.2, 3.6, 0.35
CUT_W, CUT_H, CUT_GAP = 1.55, 1.3, 0.45
CUT_Y = 0.55                      # height of the flat points inside the cells
CELLS = (("valley", "真谷底", ("往哪走都差", "真卡住了")),
         ("peak", "山顶", ("推一下就走", "基本遇不到")),
         ("pass", "最要紧的", ("一个往上", "一个往下")))
TICK_HALF = 0.32                  # the flat tangent through each black dot
# The mountain pass, drawn where the first two cells stood: a ridge seen from the front (two
# summits, the pass between) and the trail over the pass, a hump whose top is the pass. Points
# in picture units about PICTO_AT, scaled by PICTO_SCALE.
PICTO_AT, PICTO_SCALE = np.array([-2.3, 0.25, 0]), 2.4
RIDGE = ((-1.75, -0.45), (-0.95, 0.55), (0.0, -0.1), (0.95, 0.55), (1.75, -0.45))
TRAIL = ((-0.85, -0.75), (-0.42, -0.26), (0.0, -0.1), (0.42, -0.26), (0.85, -0.75))
# The way out: from the black point down along the trail's right arm, just under it (above the
# trail lies the ridge, which it must not cross), in picture units.
WAY_OUT = ((0.06, -0.17), (0.72, -0.8))
WAY_OUT_NOTE = (0.98, -0.15)      # its words, in the open ground between the trail's and the ridge's right arms
# The two readings of the pass, each over the open ground on its side of the black point: the
# ridge's above the dip between the summits, the trail's under the trail's hump; each with an
# arrow to the point.
RIDGE_NOTE_Y, TRAIL_NOTE_Y = 0.62, -0.75      # picture units

# ---- Ⓑ: the three lines, each a short label and its picture of directions ----
LABEL_X, PICTURE_X = -6.3, -3.4
ROW_Y = {"floor": 2.2, "one": 0.8, "many": -0.6}
ROW_ARROWS, MISSED = 12, 7        # arrows drawn for "every direction" (the rest trail off in ⋯), the one that falls
SLOPE_ARROW = (0.42, 0.3)         # run and rise of one direction's arrow
NOTE_GAP = "wide"                 # the row's right-hand words, after its picture
# 「坑一个接一个」, drawn: a one-parameter loss with pit after pit (a sketch, no numbers), right of
# the one-parameter row's words, each pit's floor a black flat point; its caption under it.
PITS_W, PITS_H = 2.7, 0.85
PITS_WAVES = ((1.0, 4.0, 0.0), (0.35, 1.3, 0.6))   # (amplitude, cycles over the width, phase in cycles)
PITS_ROOM = 0.15                  # under the lowest pit, a share of the curve's height: its dot clears the axis

# ---- Ⓒ: the share axis on top, the crawl under it, the takeaways at the bottom ----
AXIS_Y, AXIS_W, AXIS_X = 1.75, 9.0, 0.6
NAMES_DY = 0.5                    # the three kinds' names, over the axis
END_RADIUS = 0.14                 # the open ends of the pass's band
PASS_NAME_AT = 0.3                # 垭口's name, over the band's left part (over 0.5 it would read as a value)
CRAWL_PLOT = dict(width=10.0, height=1.7)
CRAWL_CORNER = (-4.6, -1.7)      # bottom left of the crawl's cut
CRAWL_LEFT = -1.2                 # the cut starts a little left of the flat point, so its top reads as a top


def cut_colour(heights: np.ndarray) -> str:
    """Up if the ground rises along the cut (no way out), down if it falls (a way out)."""
    return UP_COLOUR if heights[0] > heights[len(heights) // 2] else DOWN_COLOUR


def slope_arrow(rises: bool, sense: float = 1.0):
    """One direction: an arrow tilted the way the ground goes along it."""
    run, rise = SLOPE_ARROW
    end = np.array([sense * run, rise if rises else -rise, 0.0])
    return arrow(np.zeros(3), end, UP_COLOUR if rises else DOWN_COLOUR, weight="bold", buff=None)


class FigSaddle(LectureScene):
    scene_id = "fig-saddle"
    title = "坡度为零的地方不止一种：垭口与高维"
    loop = False
    ledger_keys = ("flat.slopes_at_centre", "flat.directions_one_parameter", "flat.model_directions",
                   "flat.up_fraction_ticks", "saddle.crawl.steps_near_top")

    def construct(self) -> None:
        self.three_flat_points()
        self.three_lines()
        self.share_of_up_directions()

    # ---- Ⓐ three cells of two cuts ----

    def cut_plot(self, s: np.ndarray, z: np.ndarray, centre: np.ndarray) -> VGroup:
        """One cut through the flat point: its profile, the black dot, a flat tangent tick."""
        plot = Plot(x_range=(-1, 1), y_range=(-0.6, 0.6), width=CUT_W, height=CUT_H)
        plot.shift(centre - plot.point(0, 0))
        plot.set_opacity(0)                 # only the profile matters: its frame would read as axes
        profile = curve(plot, s, z, cut_colour(z), smooth=True, stroke_width=theme.stroke("heavy"))
        at = plot.point(0, 0)
        group = VGroup(profile, marks.segment(at + LEFT * TICK_HALF, at + RIGHT * TICK_HALF, "ink"),
                       marks.dot(at, "ink"))
        group.plot, group.profile, group.dot = plot, profile, group[2]
        return group

    def cell(self, x: float, kind: str, name: str, phrase: tuple[str, str]) -> VGroup:
        s, along_x, along_y = flat.cuts(kind)
        frame = marks.box(CELL_W, CELL_H, "muted", weight="thin").move_to([x, CELL_Y, 0])
        title = words(name, size="heading").next_to(frame.get_top(), DOWN, buff=theme.space("close"))
        cuts = VGroup(self.cut_plot(s, along_x, np.array([x - (CUT_W + CUT_GAP) / 2, CUT_Y, 0])),
                      self.cut_plot(s, along_y, np.array([x + (CUT_W + CUT_GAP) / 2, CUT_Y, 0])))
        saying = VGroup(*[words(p, size="label") for p in phrase]).arrange(DOWN, buff=theme.space("tight"))
        saying.next_to(frame.get_bottom(), UP, buff=theme.space("medium"))
        group = VGroup(frame, title, cuts, saying)
        group.frame, group.title, group.cuts, group.saying = frame, title, cuts, saying
        return group

    def show_cell(self, cell: VGroup) -> None:
        self.play(FadeIn(cell.title), Create(cell.cuts), run_time=0.9)
        self.play(FadeIn(cell.saying, shift=UP * 0.1), run_time=0.5)

    def three_flat_points(self) -> None:
        self.start_panel("A", "脚下平的地方，不只谷底", says="看这三格。坡度为零的地方，其实不止一种")
        cells = [self.cell(x, *spec) for x, spec in zip(CELL_XS, CELLS)]
        self.play(*(FadeIn(c.frame) for c in cells), run_time=0.6)

        self.beat(says="第一种，两个方向都往上 —— 这才是真谷底，往哪走都变差，真卡住了")
        self.show_cell(cells[0])
        # What the black dot and its flat tick mean, said once, now that there is one.
        flat_note = line("黑点：坡度 {flat.slopes_at_centre[0]}", size="small", color="muted")
        flat_note.next_to(cells[0].frame, UP, buff=theme.space("small")).align_to(cells[0].frame, LEFT)
        self.play(FadeIn(flat_note), run_time=0.4)
        self.beat(says="第二种，两个方向都往下，那是山顶，一推就走，训练里基本遇不到")
        self.show_cell(cells[1])
        self.beat(says="第三种最要紧：一个方向往上，另一个方向往下")
        self.show_cell(cells[2])
        self.play(cells[2].frame.animate.set_stroke(theme.color("accent"), width=theme.stroke("heavy")), run_time=0.5)

        self.beat(says="第三种有个特别贴切的名字：垭口")
        # The first two cells have been said: the pass, drawn large, takes their place.
        name = words("垭口", size="heading", color="accent").move_to(cells[2].title)
        self.play(FadeOut(VGroup(cells[0], cells[1], flat_note)), FadeOut(cells[2].title, shift=UP * 0.15), run_time=0.5)
        picto = self.pass_pictogram()
        # 「就是翻山时那个豁口」: the mountain first (the ridge over its grey mass, the notch
        # between its summits), then the trail coming up to the notch, each named at its far end.
        self.play(FadeIn(name, shift=UP * 0.15), FadeIn(picto.mass), Create(picto.ridge), run_time=0.8)
        self.play(FadeIn(picto.dip), FadeIn(picto.notch_name), FadeIn(picto.ridge_name), run_time=0.5)
        self.play(Create(picto.trail), FadeIn(picto.trail_name), run_time=0.7)

        self.beat(says="沿着翻山的那条路走，它是整条路的最高点； 可你要是横过来、沿着山脊走，它又是最低点")
        self.play(FadeOut(picto.notch_name), run_time=0.3)
        self.play(FadeIn(picto.trail_label), picto.trail.animate.set_stroke(width=theme.stroke("strong")), run_time=0.5)
        self.play(picto.trail.animate.set_stroke(width=theme.stroke("heavy")), run_time=0.2)
        self.play(FadeIn(picto.ridge_label), picto.ridge.animate.set_stroke(width=theme.stroke("strong")), run_time=0.5)
        self.play(picto.ridge.animate.set_stroke(width=theme.stroke("heavy")), run_time=0.2)
        # The pass cell's cuts take the mountain's names, in its own cut's colour, where its
        # two phrases stood (the names say the same).
        renamed = VGroup(words("沿山脊", size="label", color=UP_COLOUR), words("沿着路", size="label", color=DOWN_COLOUR))
        for word, cut in zip(renamed, cells[2].cuts):
            word.next_to(cut.plot, DOWN, buff=theme.space("small"))
        self.play(FadeOut(cells[2].saying), run_time=0.3)
        self.play(FadeIn(renamed), run_time=0.4)

        self.beat(says="站在那儿，脚下确实是平的。但它根本没封死，路就在旁边",
                  takeaway="脚下确实是平的。但它根本没封死，路就在旁边")
        self.play(GrowArrow(picto.way_out), run_time=0.7)
        self.play(FadeIn(picto.way_out_label), run_time=0.4)

        self.beat(says="中文管这种地形，就叫鞍部。数学上这个点就叫鞍点", takeaway="中文管这种地形叫鞍部 —— 数学上叫鞍点")

    @staticmethod
    def pass_pictogram() -> VGroup:
        """The ridge (along it the pass is the lowest point: the ground rises both ways), the
        trail over it (along it the highest: it falls both ways), the black flat point, their
        names at their outer ends and the way out down the trail. Parts by name."""
        def at(x: float, y: float) -> np.ndarray:
            return PICTO_AT + np.array([x, y, 0]) * PICTO_SCALE

        ridge = marks.polyline([at(*p) for p in RIDGE], UP_COLOUR, weight="heavy", smooth=True)
        # The mountain's mass under the ridge, down to its feet: a surface, so the notch reads as
        # a notch in a mountain (the trail comes up to it from the foreground, over the mass).
        mass = ridge.copy().add_line_to(ridge.get_start()).set_stroke(width=0)
        mass.set_fill(theme.color("panel"), opacity=1)
        trail = marks.polyline([at(*p) for p in TRAIL], DOWN_COLOUR, weight="heavy", smooth=True)
        dip = marks.dot(at(*RIDGE[2]), "ink", size="ball", halo=True)
        point = at(*RIDGE[2])
        ridge_name = words("山脊", size="label", color=UP_COLOUR).next_to(at(*RIDGE[1]), UP, buff=theme.space("small"))
        # Left of the trail's foot, under the mountain's mass: clear of the takeaways below.
        trail_name = words("翻山的路", size="label", color=DOWN_COLOUR).next_to(at(*TRAIL[0]), LEFT,
                                                                            buff=theme.space("small"))
        notch_name = words("豁口", size="label").next_to(dip, UP, buff=theme.space("close"))
        ridge_note = words("沿山脊：最低", size="label", color=UP_COLOUR).move_to(at(0, RIDGE_NOTE_Y))
        trail_note = words("沿着路：最高", size="label", color=DOWN_COLOUR).move_to(at(0, TRAIL_NOTE_Y))
        gap = theme.space("small") + marks.radius_of("ball")
        ridge_label = VGroup(ridge_note, arrow(ridge_note.get_bottom(), point + UP * gap, UP_COLOUR, weight="regular"))
        trail_label = VGroup(trail_note, arrow(trail_note.get_top(), point + DOWN * gap, DOWN_COLOUR, weight="regular"))
        way_out = arrow(at(*WAY_OUT[0]), at(*WAY_OUT[1]), DOWN_COLOUR, weight="bold", buff=None)
        # Beside the trail's right arm, in the open ground over it: where the way out is.
        way_out_label = words("路就在旁边", size="label", color=DOWN_COLOUR).move_to(at(*WAY_OUT_NOTE))
        picto = VGroup(mass, ridge, trail, dip, ridge_name, trail_name, ridge_label, trail_label, way_out,
                       way_out_label)
        picto.mass, picto.ridge, picto.trail, picto.dip, picto.way_out = mass, ridge, trail, dip, way_out
        picto.ridge_name, picto.trail_name, picto.notch_name = ridge_name, trail_name, notch_name
        picto.ridge_label, picto.trail_label, picto.way_out_label = ridge_label, trail_label, way_out_label
        return picto

    # ---- Ⓑ the argument, one line at a time ----

    def arrow_row(self, falls_at: int | None = None) -> VGroup:
        return VGroup(*[slope_arrow(i != falls_at) for i in range(ROW_ARROWS)]).arrange(RIGHT, buff=0.12)

    def row(self, key: str, label: str, picture, note: str | None = None) -> VGroup:
        """A line of the argument: a short label, its picture of directions, a short note."""
        head = line(label, size="body").move_to([LABEL_X, ROW_Y[key], 0], aligned_edge=LEFT)
        picture.move_to([PICTURE_X, ROW_Y[key], 0], aligned_edge=LEFT)
        parts = VGroup(head, picture)
        if note:
            parts.add(line(note, size="label").next_to(picture, RIGHT, buff=theme.space(NOTE_GAP)))
        parts.head, parts.picture = head, picture
        return parts

    def three_lines(self) -> None:
        self.start_panel("B", "谷底的条件", says="接下来这一步，是这一整格的关键")
        floor_head = line("真谷底", size="body").move_to([LABEL_X, ROW_Y["floor"], 0], aligned_edge=LEFT)
        unknown = words("＝ ？", size="body", color="muted").next_to(floor_head, RIGHT, buff=theme.space("medium"))
        self.play(FadeIn(floor_head), FadeIn(unknown), run_time=0.5)

        self.beat(says="要当真谷底，条件是「所有方向都得往上」")
        every = VGroup(self.arrow_row(), words("⋯", size="heading", color=UP_COLOUR)).arrange(RIGHT, buff=0.2)
        floor = self.row("floor", "真谷底", every, "全都往上")
        self.remove(floor_head)
        self.add(floor.head)
        self.play(FadeOut(unknown), run_time=0.3)
        self.play(FadeIn(every, lag_ratio=0.1), run_time=0.8)
        self.play(FadeIn(floor[2]), run_time=0.4)

        self.beat(says="一维图上只有两个方向 —— 两个都往上，很容易凑齐。 所以图上才会坑一个接一个")
        centre = marks.dot(ORIGIN, "ink")
        both = VGroup(slope_arrow(True, -1.0), slope_arrow(True, 1.0))
        one = self.row("one", "一个参数", VGroup(both, centre), "{flat.directions_one_parameter}个方向 → 很容易凑齐")
        centre.move_to(both[0].get_start())
        pits = self.pits()
        corner = pits.plot.x_axis.get_start()
        pits.shift(np.array([one[2].get_right()[0] + theme.space(NOTE_GAP) - corner[0],
                             ROW_Y["one"] - PITS_H / 2 - corner[1], 0]))
        pits.caption.next_to(pits.plot.x_axis, DOWN, buff=theme.space("tight"))
        self.play(FadeIn(one.head), run_time=0.4)
        self.play(GrowArrow(both[0]), GrowArrow(both[1]), FadeIn(centre), run_time=0.6)
        self.play(FadeIn(one[2]), run_time=0.4)
        self.play(FadeIn(pits.plot), Create(pits.curve), run_time=0.7)
        self.play(FadeIn(pits.floors, lag_ratio=0.3), FadeIn(pits.caption), run_time=0.6)

        self.beat(says="可我们谈的是几千亿个参数，那就是几千亿个方向")
        self.many = VGroup(self.arrow_row(), words("⋯", size="heading", color=UP_COLOUR)).arrange(RIGHT, buff=0.2)
        many = self.row("many", "{flat.model_directions}个参数", self.many, "{flat.model_directions}个方向")
        self.play(FadeIn(many.head), run_time=0.4)
        self.play(FadeIn(self.many, lag_ratio=0.1), FadeIn(many[2]), run_time=0.8)

        self.beat(says="要它们全都往上 —— 只要漏掉一个，它就只是个垭口，还能接着走",
                  takeaway="只要漏掉一个，它就只是个垭口")
        row = self.many[0]
        missed = slope_arrow(False).move_to(row[MISSED])
        self.play(Transform(row[MISSED], missed), run_time=0.6)
        ring = marks.ring(row[MISSED], "accent", weight="bold")
        point = words("漏掉一个", size="label", color=DOWN_COLOUR).next_to(ring, DOWN, buff=theme.space("tight"))
        self.play(Create(ring), FadeIn(point), run_time=0.5)

        self.beat(says="我得说清楚：这是定义层面的话，不是概率论证", takeaway="这是定义层面的话，不是概率论证")
        # The second brake sentence joins the first in one line (it replaces it): the ⭐⭐⭐ line
        # above them keeps its size to the panel's end.
        self.beat(says="各个方向的弯曲方向并不彼此独立，所以我不会给你一个 「罕见到十的负多少次方」那种数字 —— 那个数是编的",
                  takeaway="是定义，不是概率：方向不独立，「罕见到多少」是编的", replaces=True)

    @staticmethod
    def pits() -> VGroup:
        """A one-parameter loss (a sketch) with pit after pit: every pit is a floor, its two
        directions both up, so in one dimension floors are everywhere."""
        xs = np.linspace(0.0, 1.0, 240)
        zs = sum(a * np.cos(2 * np.pi * (k * xs + phase)) for a, k, phase in PITS_WAVES)
        span = float(zs.max() - zs.min())
        plot = Plot(x_range=(0.0, 1.0), y_range=(float(zs.min()) - PITS_ROOM * span, float(zs.max())),
                    width=PITS_W, height=PITS_H)
        drawn = curve(plot, xs, zs, "ink", smooth=True, stroke_width=theme.stroke("regular"))
        lows = [i for i in range(1, len(xs) - 1) if zs[i] < zs[i - 1] and zs[i] < zs[i + 1]]
        floors = VGroup(*(marks.dot(plot.point(xs[i], zs[i]), "ink", size="small") for i in lows))
        caption = words("坑一个接一个", size="label")
        group = VGroup(plot, drawn, floors, caption)
        group.plot, group.curve, group.floors, group.caption = plot, drawn, floors, caption
        return group

    # ---- Ⓒ the share of up-directions, then the crawl ----

    def share_axis(self) -> VGroup:
        axis = NumberAxis(0, 1, width=AXIS_W, ticks_key="flat.up_fraction_ticks").move_to([AXIS_X, AXIS_Y, 0])
        axis.shift(UP * (AXIS_Y - axis.line.get_y()))
        title = words("往上 ÷ 全部", size="label", color="muted").next_to(axis.line, LEFT, buff=theme.space("large"))
        return VGroup(axis, title)

    def share_of_up_directions(self) -> None:
        self.start_panel("C", "往上的方向占多少", says="而且这不只是推理，有人真去量过")
        axis, title = self.share_axis()
        self.play(FadeIn(axis), FadeIn(title), run_time=0.6)

        self.beat(says="把训练一直跑到梯度为零，然后数一数：这个点有多少方向是往上的？")
        low, high = axis.point(0.0), axis.point(1.0)
        # The pass is every share strictly between: a band between two open ends.
        band = widgets.axis_range(axis, 0.0, 1.0, role="accent")
        ends = VGroup(*(marks.ring(p, "accent", radius=END_RADIUS, weight="regular") for p in (low, high)))
        hilltop, floor = marks.dot(low, DOWN_COLOUR, size="large"), marks.dot(high, UP_COLOUR, size="large")
        # 垭口 names the band, over its left part: not a tick of its own.
        names = VGroup(words("山顶", size="label", color=DOWN_COLOUR).next_to(low, UP, buff=NAMES_DY),
                       words("垭口", size="label", color="accent").next_to(axis.point(PASS_NAME_AT), UP, buff=NAMES_DY),
                       words("真谷底", size="label", color=UP_COLOUR).next_to(high, UP, buff=NAMES_DY))
        self.play(FadeIn(band), Create(ends), FadeIn(hilltop), FadeIn(floor), FadeIn(names), run_time=0.8)

        self.beat(says="结果是 —— 那个比例从来没到过 1")
        stops = self.stopping_points(axis)
        self.play(FadeIn(stops.dots, lag_ratio=0.15), run_time=0.9)
        self.play(FadeIn(stops.label), run_time=0.5)

        self.beat(says="换句话说：训练停下来的那些地方，总还剩一批方向是往下的")
        # The gap the stops never cross: from the rightmost one to the true floor's 1.
        rightmost = axis.point(max(flat.SKETCHED_STOPS.value))
        short = widgets.labelled_brace((rightmost, high + LEFT * END_RADIUS), "总还剩一批方向往下", DOWN,
                                       DOWN_COLOUR, gap="large")
        self.play(FadeIn(short), run_time=0.6)

        self.beat(says="它没走，不是因为没路，是因为坡太平了")
        crawl = self.crawl_picture()
        self.play(Create(crawl.cut), run_time=0.8)
        self.play(FadeIn(crawl.ball, shift=DOWN * 0.2), run_time=0.4)
        self.play(FadeIn(crawl.flat_label), run_time=0.4)

        self.beat(says="参数越多，它反而越不容易真卡住", takeaway="参数越多，它反而越不容易真卡住")
        self.play(FadeOut(short), run_time=0.4)     # said: the turn takes over
        self.beat(says="可坏消息是：卡不住，不等于走得快", takeaway="卡不住，不等于走得快")
        self.beat(says="垭口附近坡极平、梯度极小，而我们的步长又是「跟坡度成正比」的 —— 那就会在那儿磨很久很久")
        self.play(FadeOut(crawl.ball), run_time=0.2)
        for dot in crawl.dots:
            self.add(dot)
            self.wait(1 / 15)
        self.play(FadeIn(crawl.pile_label), run_time=0.5)
        self.beat(says="记住这句 —— 我们接下来一整节要讲的那些优化器， 一多半就是在治这个",
                  takeaway="接下来整节的优化器，多半就是在治这个")
        # The ⭐⭐⭐ line stands alone: the pile on the cut says the rest.
        self.play(*self.clear_takeaways(), run_time=0.4)

    @staticmethod
    def stopping_points(axis) -> VGroup:
        """Where training stopped, as black flat points on the share axis: a sketch (示意) of the
        measurement the speaker cites, all clearly short of 1 (flat.sketched_stop_shares). No
        source is projected: the paper's figure is not read yet (flat.measured_up_share_below is
        待核), and the screen never shows 待核; the dots say 示意."""
        dots = VGroup(*(marks.dot(axis.point(s), "ink", size="regular") for s in flat.SKETCHED_STOPS.value))
        # Over the dots, a little left of the leftmost one: well clear of 真谷底's name at 1.
        label = words("训练停下的点（示意）", size="label").next_to(dots, UP, buff=NAMES_DY - theme.space("tight"))
        label.align_to(dots, LEFT).shift(LEFT * theme.space("wide"))
        group = VGroup(dots, label)
        group.dots, group.label = dots, label
        return group

    def crawl_picture(self) -> VGroup:
        """The falling cut of a nearly flat pass, z = −ε·y²/2, and a real descent along it: the
        first steps pile up at the top, then the ball rolls off (lecture_numerics/saddle.py)."""
        eps, end = saddle.CRAWL_CURVATURE.value, saddle.CRAWL_END.value
        lowest = -eps * end ** 2 / 2
        plot = Plot(x_range=(CRAWL_LEFT, end * 1.02), y_range=(lowest * 1.1, -lowest * 0.15), **CRAWL_PLOT)
        plot.shift(np.array([*CRAWL_CORNER, 0]) - plot.x_axis.get_start())
        ys = np.linspace(CRAWL_LEFT, end, 120)
        cut = curve(plot, ys, -eps * ys ** 2 / 2, DOWN_COLOUR, smooth=True, stroke_width=theme.stroke("heavy"))
        path = saddle.CRAWL_PATH.value
        path = path[path <= end]
        dots = VGroup(*(marks.dot(plot.point(y, -eps * y ** 2 / 2), "accent", size="regular") for y in path))
        ball = marks.dot(plot.point(path[0], 0.0), "accent", size="ball")
        # 「坡太平」 over the top's left shoulder; the pile's count over the pile, right of it.
        flat_label = words("坡太平", size="label").next_to(plot.point(CRAWL_LEFT / 2, 0), UP, buff=theme.space("large"))
        near = saddle.CRAWL_STEPS_NEAR.value
        pile_label = line("前 {saddle.crawl.steps_near_top} 步挤在这", size="label", color="accent")
        pile_label.next_to(VGroup(*dots[:near]), UP, buff=theme.space("large")).align_to(dots[0], LEFT)
        group = VGroup(cut, dots, ball, flat_label, pile_label)
        group.cut, group.dots, group.ball, group.flat_label, group.pile_label = cut, dots, ball, flat_label, pile_label
        return group

