"""fig-precision: why the master weights must stay fp32, with bf16 rounding done live.

Ⓐ a number stored in two parts (the sign aside): fp32 1|8|23; bf16 1|8|7 in the middle row (its
   exponent as long as fp32's: the same range; the mantissa bits it drops drawn as gone); fp16
   1|5|10 in the bottom row, opened when the speaker names it: three exponent cells move to the
   mantissa's end and stay framed (finer, but a tiny gradient becomes 0).
Ⓑ the run: the bf16 line near 1.0 (only these ticks; nothing between them can be stored), one
   gap magnified to full width — the +0.0003 sliver, 3.8 % of it, the value rounded back past
   the midpoint it cannot reach; the naive question alone as the panel's key line; a counter
   running to 1000 with the value still 1.0; the fp32 control in the right-hand card going
   1.0 → 1.3. Every value comes from precision_run.
Ⓒ the criterion as curves: how much of one step's contribution is still there k updates later —
   the master weight keeps it all, gradients and activations drop it at once (two lines, each in
   its own colour); V3's card (its §3.3.3) says why it still keeps gradients in fp32: they sum
   micro-batches inside one update; m and v let it decay.

Colours: bit fields are told apart by fill (exponent filled, mantissa open, the sign muted); the
bits bf16 drops are muted and dashed (gone); the highlight is accent; the +0.0003 update is a
gradient's red; what cannot be stored, and 0, are bad; the fp32 control that works is good;
master weights, m and v are optimizer state.
"""

from __future__ import annotations

import numpy as np
from manim import DL, DOWN, LEFT, PI, RIGHT, UL, UP, UR, Create, FadeIn, FadeOut, Indicate, VGroup

from lecture_numerics import precision_run as run, quantity
from lecture_numerics.precision import FP32_AFTER, INCREMENT, SPACING, START
from scenes.kit import marks, theme, widgets
from scenes.kit.annotate import label_after, on_plot
from scenes.kit.arrows import arrow
from scenes.kit.base import LectureScene
from scenes.kit.format_widgets import format_label, format_name
from scenes.kit.plots import Plot, curve, dashed, level, place
from scenes.kit.text import ledger_text, line, number, words

# ---- Ⓐ geometry ----
BIT_W, BIT_H = 0.29, 0.5
ROW_LEFT = -4.9
ROW_YS = {"fp32": 2.2, "bf16": 0.67, "fp16": -0.45}   # fp32's field names clear of the bf16 row under them
SIGN, EXPONENT, MANTISSA = range(3)
FIELD_ROLES = ("muted", "ink", "ink")          # told apart by fill: exponent filled, mantissa open
MOVED_DROP = 0.75                              # the three exponent cells pass under the fp16 row as they move
TINY_Y = -1.5                                  # the tiny-gradient line, under fp16's moved-bits brace, above the takeaways
NOTE_GAP = theme.space("edge")                 # a row's notes, right of it

# ---- Ⓑ geometry: the bf16 line near 1.0 on top, one gap magnified, two cards, the takeaways ----
# The coarse line starts right of the header, so the brace over its first gap has the sky to itself.
LINE_Y, LINE_LEFT, LINE_W = 2.5, -2.6, 8.6
NAME_Y = 3.42                                  # the line's name, level with the header
LINE_RANGE = (0.9975, 1.0265)                  # the four bf16 ticks with margin
ZOOM_Y, ZOOM_LEFT, ZOOM_RIGHT = 0.8, -6.0, 6.0    # one gap over the safe width: +0.0003 is 42 px at 1280×720
ZOOM_PAD = 0.4                                 # the frame's margin round the magnified axis
ZOOM_BOX = (-0.05, 1.8)                        # bottom and top of the magnified view
SLIVER_H = 0.4
SLIVER_LABEL_RISE = 0.7                        # the sliver's label, over the axis right of it
SNAP_LEN = 0.55                                # the snap-back arrow, right of the 1.0 under the axis
CANNOT_RISE = 0.25                             # 「跨不过去」 just over the axis, right of the midline, under its label
BALL = "accent"
HOP_ANGLE, HOP_LIFT = -0.85 * PI, 0.05         # B.9's hop: an arc over the sliver, from 1.0 out to 1.0003
CARD_TOP, CARD_W, CARD_GAP = -0.25, 5.9, 0.3   # the two cards under the zoom, their tops level
CARD_PAD, CARD_ROW_GAP = "small", "small"      # tight cards: the takeaways below them reach up to -1.8
FP32_LINE_W = 4.2
COUNTER_BUFF = 0.2

# ---- Ⓒ geometry ----
PLOT_LEFT, PLOT_RIGHT, PLOT_BOTTOM, PLOT_TOP = -6.2, 0.3, -1.5, 1.75   # the lines' end tags fit right of it
FIRST_STEP = 0.7                               # the axis starts before the first update: all of it still there
SHARE_TOP = 1.05                               # the share axis runs a little past "all of it"
HALF = 0.5
CARD_RIGHT, CARD_TOP_C = 6.65, 3.55           # Ⓒ.4's V3 card, top right: over the master weight's tag, clear of the plot
# (updates, share) of each tag's lower-left corner, where its curve is not: m's under the half
# line just right of m's tail (a leader ties it to m's dot), v's over its own fall.
M_TAG_AT, V_TAG_AT = (40, 0.07), (1000, 0.55)
LABEL_GAP = theme.space("small")
ROW_GAP = theme.space("tight")
TWIN_OFFSET = (UP + RIGHT) * 0.035             # activations' step beside the gradients' (3 px at 1280×720)


class FigPrecision(LectureScene):
    scene_id = "fig-precision"
    title = "主权重为什么必须 fp32：当场做一遍 bf16 舍入"
    loop = False
    ledger_keys = (
        "format.fp32.total_bits", "format.bf16.total_bits", "format.fp16.total_bits", "format.sign_bits",
        "format.fp32.exponent_bits", "format.fp32.mantissa_bits", "format.bf16.exponent_bits",
        "format.bf16.mantissa_bits", "format.fp16.exponent_bits", "format.fp16.mantissa_bits",
        "precision.exponent_bits_moved", "precision.tiny_gradient", "precision.tiny_gradient_fp16",
        "precision.tiny_gradient_bf16",
        "precision.start_weight", "precision.increment", "precision.bf16.spacing_at_1",
        "precision.bf16.ticks_near_1", "precision.increment_over_spacing", "precision.bf16.first_sum",
        "precision.bf16.first_stored", "precision.spacing_over_increment", "precision.bf16.rounding_midpoint",
        "precision.counter_stops", "precision.bf16.stored_at_stops", "precision.bf16.steps_moved",
        "precision.adds", "precision.bf16.after_1000_adds", "precision.fp32.after_1000_adds",
        "precision.criterion_ticks", "precision.criterion_horizon", "optim.adam.beta1", "optim.adam.beta2",
        "optim.adam.half_life_m", "optim.adam.half_life_v", "model.v3.generation", "optim.v.moment_order",
        "precision.v3.low_precision_section",
    )

    def construct(self) -> None:
        self.two_parts()
        self.live_rounding()
        self.the_criterion()

    # ---- Ⓐ the bit layouts ----

    @staticmethod
    def layout(name: str, *, named: bool = False) -> widgets.BitLayout:
        """A format's bit layout at its row: sign, exponent (filled), mantissa (open cells)."""
        names = ("符号", "指数", "尾数") if named else ("", "", "")
        keys = ("format.sign_bits", f"format.{name}.exponent_bits", f"format.{name}.mantissa_bits")
        fields = [widgets.Field(n, key, role) for n, key, role in zip(names, keys, FIELD_ROLES)]
        row = widgets.bit_layout(fields, bit_width=BIT_W, height=BIT_H, title=format_label(name, size="heading"))
        row.field(MANTISSA).set_fill(opacity=0)
        if named:   # 符号 is wider than its one cell: set it left of the exponent's edge, where a guide runs
            sign = row.names[SIGN]
            sign.shift(RIGHT * (row.field(EXPONENT).get_left()[0] - theme.space("fine") - sign.get_right()[0]))
        return row.shift([ROW_LEFT - row.cells.get_left()[0], ROW_YS[name] - row.cells.get_y(), 0])

    def two_parts(self) -> None:
        self.start_panel("A", "小数怎么存", says="先看一个小数在机器里是怎么存的：分成两段")
        fp32 = self.layout("fp32", named=True)
        self.play(FadeIn(fp32), run_time=0.8)

        self.beat(says="指数那段管「能多大」，尾数那段管「能多细」")
        range_tag = words("指数：能多大", size="label").next_to(fp32.field(EXPONENT), UP, buff=theme.space("small"))
        fine_tag = words("尾数：能多细", size="label").next_to(fp32.field(MANTISSA), UP, buff=theme.space("small"))
        highlight = theme.color("accent")
        self.play(Indicate(fp32.field(EXPONENT), color=highlight, scale_factor=1.0), FadeIn(range_tag), run_time=0.7)
        self.play(Indicate(fp32.field(MANTISSA), color=highlight, scale_factor=1.0), FadeIn(fine_tag), run_time=0.7)

        self.beat(says="现在看中间这行 bf16 —— 它的指数段跟上面 fp32 一样长",
                  takeaway=format_name("bf16") + " 的指数段跟 " + format_name("fp32") + " 一样长")
        bf16 = self.layout("bf16")
        self.play(FadeIn(bf16, shift=UP * theme.space("gap")), run_time=0.8)
        edges = VGroup(*[self.guide(x, fp32.cells.get_top()[1], bf16.cells.get_bottom()[1])
                         for x in (fp32.field(EXPONENT).get_left()[0], fp32.field(EXPONENT).get_right()[0])])
        self.play(Create(edges), Indicate(fp32.field(EXPONENT), color=highlight, scale_factor=1.0),
                  Indicate(bf16.field(EXPONENT), color=highlight, scale_factor=1.0), run_time=1.0)

        self.beat(says="所以 bf16 能表示的范围跟 fp32 一模一样，掉的只是精细程度")
        same = words("→ 范围一样", size="label").next_to(edges, RIGHT, buff=theme.space("small"))
        dropped = self.dropped_bits(bf16, fp32)
        self.play(FadeIn(same), run_time=0.5)
        self.play(FadeIn(dropped), run_time=0.8)

        self.beat(says="再看最下面 fp16。同样是十六位，可它把三位从指数挪给了尾数",
                  takeaway="同样 {format.fp16.total_bits} 位：{precision.exponent_bits_moved}位从指数挪给了尾数",
                  replaces=True)            # bf16's 「一样长」 stays drawn: the guides and 「→ 范围一样」
        fp16 = self.move_three_bits(bf16)

        self.beat(says="于是它更精细，但范围小了一大截 —— 小的梯度直接掉到零")
        note = words("更细，范围小一大截", size="label").next_to(fp16.cells, RIGHT, buff=NOTE_GAP)
        self.play(FadeIn(note), run_time=0.5)
        self.play(FadeIn(self.tiny_gradient()), run_time=0.7)

        self.beat(says="这才是 fp16 需要 loss scaling 的原因， 跟「十六位不够用」一点关系都没有",
                  takeaway=format_name("fp16") + " 要 loss scaling：因为范围，不是「{format.fp16.total_bits} 位不够用」")
        self.play(*self.dim_takeaways(), run_time=0.3)   # the three moved bits stay marked: the line said now leads

    @staticmethod
    def guide(x: float, top: float, bottom: float):
        """A dashed alignment guide from ``top`` down to ``bottom`` at ``x``: a field edge, where no
        label stands (符号 is set left of it)."""
        return marks.segment([x, top, 0], [x, bottom, 0], "accent", weight="thin", dashed=True)

    def fp16_slot(self) -> VGroup:
        """The bottom row as fp16 is named: a dashed frame of sixteen bits, the bf16 cells drop into it."""
        width = BIT_W * quantity("format.fp16.total_bits").value
        frame = marks.box(width, BIT_H, "muted", weight="thin", corner="square", dashed=True)
        frame.move_to([ROW_LEFT + width / 2, ROW_YS["fp16"], 0])
        name = format_label("fp16", size="heading", color="muted").next_to(frame, LEFT, buff=theme.space("edge"))
        slot = VGroup(frame, name)
        slot.frame, slot.name = frame, name
        return slot

    def dropped_bits(self, bf16, fp32) -> VGroup:
        """The mantissa bits fp32 has and bf16 does not: dashed, muted cells (gone), under fp32's."""
        kept = len(bf16.field(MANTISSA))
        gone = fp32.field(MANTISSA)[kept:]
        cells = VGroup(*[marks.box(BIT_W, BIT_H, "muted", weight="thin", corner="square", dashed=True)
                         .move_to([c.get_x(), bf16.cells.get_y(), 0]) for c in gone])
        label = words("掉的：精细", size="small", color="muted").next_to(cells, DOWN, buff=theme.space("fine"))
        return VGroup(cells, label)

    def move_three_bits(self, bf16) -> widgets.BitLayout:
        """The bottom row opens (「再看最下面 fp16」) and a copy of the bf16 cells drops into it; three
        exponent cells pass under the row to the mantissa's end and open up (they are mantissa now),
        the mantissa closing up behind them: 1|5|10. Then the row is fp16's own, its counts under
        it, and the three moved cells stay framed and braced: the beat's point, drawn."""
        fp16 = self.layout("fp16")
        slot = self.fp16_slot()
        self.play(FadeIn(slot), run_time=0.4)
        moving = bf16.cells.copy()
        moving.shift([0, ROW_YS["fp16"] - bf16.cells.get_y(), 0])
        moved_count = int(quantity("precision.exponent_bits_moved").value)
        exponent_end = len(bf16.field(SIGN)) + len(bf16.field(EXPONENT))
        moved = VGroup(*moving.submobjects[exponent_end - moved_count:exponent_end])
        mantissa = VGroup(*moving.submobjects[exponent_end:])
        self.play(FadeIn(moving, shift=DOWN * theme.space("gap")), run_time=0.6)
        self.play(moved.animate.shift(DOWN * MOVED_DROP), run_time=0.4)
        self.play(moved.animate.shift(RIGHT * BIT_W * len(mantissa)), mantissa.animate.shift(LEFT * BIT_W * moved_count),
                  run_time=1.0)
        self.play(moved.animate.shift(UP * MOVED_DROP).set_fill(opacity=0), run_time=0.4)
        # The moved copy is now cell for cell the fp16 layout: the real one takes its place.
        self.remove(moving, moved, mantissa, *moving.submobjects)   # animated groups and cells stand on the stage alone
        self.add(fp16.cells)
        self.play(FadeOut(slot), FadeIn(VGroup(fp16.title, fp16.counts)), run_time=0.5)
        landed = VGroup(*fp16.field(MANTISSA)[-moved_count:])
        mark = marks.frame_around(landed, "accent", pad="hair", weight="bold", corner="square")
        brace = marks.brace(landed, DOWN, gap="fine")
        brace = VGroup(brace, ledger_text("挪来的{precision.exponent_bits_moved}位", size="small")
                       .next_to(brace, RIGHT, buff=theme.space("small")))   # beside it: the tiny gradient is below
        self.play(Create(mark), FadeIn(brace), run_time=0.6)
        return fp16

    @staticmethod
    def tiny_gradient() -> VGroup:
        """One tiny gradient cast both ways: fp16 stores 0 (bad), bf16 keeps it."""
        parts = VGroup(ledger_text("小梯度 {precision.tiny_gradient}：" + format_name("fp16") + " →", size="body"),
                       number("precision.tiny_gradient_fp16", size="body", color="bad"),
                       ledger_text("，" + format_name("bf16") + " → {precision.tiny_gradient_bf16}", size="body"))
        return parts.arrange(RIGHT, buff=theme.space("fine")).move_to([0, TINY_Y, 0])

    # ---- Ⓑ the live rounding run ----

    def live_rounding(self) -> None:
        self.start_panel("B", "大数吃小数",
                         says="假设一个权重是 1.0， 每一步要给它加 万分之三 —— 训练后期这是很典型的量级")
        bf16_card = widgets.card([self.setup_row()], "muted", width=CARD_W, weight=None, fill="panel", fill_opacity=1,
                                 pad=CARD_PAD, gap=CARD_ROW_GAP)
        bf16_card.move_to([ZOOM_LEFT, CARD_TOP, 0], aligned_edge=UP + LEFT)
        self.play(FadeIn(bf16_card), run_time=0.6)

        self.beat(says="看这根数轴：bf16 在 1.0 附近，相邻两个能表示的数之间隔着零点零零七八")
        coarse, name = self.coarse_line()

        self.beat(says="中间什么都没有 —— 不是精度差，是那些数压根存不下来")
        self.nothing_between(coarse, name)

        self.beat(says="而我们要加的那个万分之三，只有一格的百分之三点八")
        # The rays start under the coarse line's value row, so they cross none of its labels.
        under = coarse.get_bottom()[1] - theme.space("fine")
        zoom = ZoomedGap(*([coarse.point(t)[0], under, 0] for t in run.TICKS.value[:2]))
        self.play(Create(zoom.frame), FadeIn(zoom.rays), run_time=0.7)
        self.play(Create(zoom.axis.line), FadeIn(zoom.ends), FadeIn(zoom.ball), run_time=0.6)
        self.play(zoom.ball.animate.move_to(zoom.point(run.FIRST_SUM.value)), FadeIn(zoom.sliver), run_time=0.7)
        self.play(FadeIn(zoom.sliver_label), run_time=0.4)

        self.beat(says="四舍五入 —— 直接舍回原地")
        self.snap_back(zoom)

        self.beat(says="有人会想：那多加几次不就行了？加二十六次就够一格了嘛",
                  takeaway="那多加不就行了？加约 {precision.spacing_over_increment} 次就够一格？")
        ghosts = self.naive_slivers(zoom)
        self.play(*[FadeIn(g, run_time=0.15) for g in ghosts], run_time=1.6, lag_ratio=0.06)   # stacked one by one

        # The run answers the question by doing it: its line takes the question's place.
        self.beat(says="—— 我真的跑了一千次", takeaway="我真的跑了 {precision.adds} 次", replaces=True)
        self.play(FadeOut(ghosts), run_time=0.5)
        counter = self.run_the_counter(bf16_card, zoom)

        self.beat(says="结果是 1.0。一步都没动",
                  takeaway="结果是 {precision.bf16.after_1000_adds}：动了 {precision.bf16.steps_moved} 步")
        stored = self.stored_text(len(run.COUNTER_STOPS.value) - 1).next_to(counter, RIGHT, buff=COUNTER_BUFF)
        self.play(FadeIn(stored), Indicate(zoom.ball, color=theme.color("bad")), run_time=0.8)

        self.beat(says="因为每一次都是从 1.0 开始加，每一次都被舍回 1.0。它跨不过去")
        self.cannot_cross(zoom, self.snapped)

        self.beat(says="右边那格是对照：同样一千次，改用 fp32 —— 1.0 变成 1.3")
        self.fp32_contrast(bf16_card)

        self.beat(says="所以「主权重要留一份 fp32」不是保险起见",
                  takeaway="所以「主权重要留一份 " + format_name("fp32") + "」不是保险起见")
        self.show_takeaway()

        self.beat(says="是画这张图的脚本里真写了一个 bf16 舍入函数当场算的， 还有三条断言盯着",
                  takeaway="数是脚本里真写的 " + format_name("bf16") + " 舍入函数当场算的，有断言盯着")

    @staticmethod
    def setup_row() -> VGroup:
        return VGroup(ledger_text("权重 {precision.start_weight}，每步加 {precision.increment}", size="label"),
                      words("（量级示意）", size="small", color="muted")).arrange(RIGHT, buff=theme.space("fine"))

    def coarse_line(self):
        """bf16's values near 1.0 on a number line, the first gap braced: 一格 = 0.0078."""
        coarse = widgets.number_line(*LINE_RANGE, ticks="precision.bf16.ticks_near_1", width=LINE_W)
        coarse.shift([LINE_LEFT, LINE_Y, 0] - coarse.line.get_start())
        values = VGroup(*[marks.tick(coarse.point(t), "ink", weight="bold") for t in run.TICKS.value])
        name = format_label("bf16", " 能存的数", size="label")
        name.move_to([0, NAME_Y, 0]).align_to(coarse.line, RIGHT)          # the header row's free right end
        self.play(Create(coarse.line), FadeIn(coarse.ticks), FadeIn(values), FadeIn(name), run_time=0.9)
        first, second = (coarse.point(t) for t in run.TICKS.value[:2])
        gap = widgets.labelled_brace((first, second), "一格 = {precision.bf16.spacing_at_1}", UP, "accent")
        self.play(FadeIn(gap), run_time=0.6)
        return coarse, name

    def nothing_between(self, coarse, name) -> None:
        """Every gap but the braced one struck in bad: 存不下; the line's name says 只有这些刻度."""
        ticks = run.TICKS.value
        inset = theme.space("small")
        gaps = VGroup(*[marks.segment(coarse.point(a) + RIGHT * inset, coarse.point(b) + LEFT * inset, "bad",
                                      weight="bold") for a, b in zip(ticks, ticks[1:])])
        empty = VGroup(*[words("存不下", size="small", color="bad").next_to(g, UP, buff=theme.space("small"))
                         for g in gaps[1:]])          # the first gap carries its brace
        only = words("：只有这些刻度", size="label").next_to(name, RIGHT, buff=theme.space("hair"))
        self.play(name.animate.shift(LEFT * (only.width + theme.space("hair"))), run_time=0.3)
        only.next_to(name, RIGHT, buff=theme.space("hair"))
        self.play(Create(gaps), FadeIn(only), run_time=0.7)
        self.play(FadeIn(empty), run_time=0.5)

    def snap_back(self, zoom: "ZoomedGap") -> None:
        """Rounding sends 1.0003 back: the midpoint it would have to pass, and the arrow home."""
        self.play(label_after(zoom.midline, zoom.mid_label, run_time=0.5, label_time=0.4))
        # Level with the 1.0 under the axis, pointing at it from its right: the arrow ends where 1.0 is written.
        home = zoom.ends[1]
        end = home.get_right() + RIGHT * theme.space("tight")
        start = end + RIGHT * SNAP_LEN
        back = arrow(start, end, "bad", weight="regular", buff=None)
        snapped = ledger_text("{precision.bf16.first_sum} 舍回 {precision.bf16.first_stored}", size="label", color="bad")
        snapped.next_to(start, RIGHT, buff=theme.space("small"))
        self.play(zoom.ball.animate.move_to(zoom.point(run.FIRST_STORED.value)),
                  zoom.sliver.animate.set_fill(opacity=0.15).set_stroke(opacity=0.5), Create(back), run_time=0.6)
        self.play(FadeIn(snapped), run_time=0.4)
        self.snapped = snapped

    def naive_slivers(self, zoom) -> VGroup:
        """The naive picture: the increment stacked end to end, as many as fit in one gap."""
        count = int(SPACING.value // INCREMENT.value)       # whole increments in one gap: the speaker's 26
        width = zoom.point(INCREMENT.value + START.value)[0] - zoom.point(START.value)[0]
        ghosts = VGroup()
        for k in range(count):
            # The sliver's own size, in grey: one box repeated, not a bar chart of different lengths.
            ghost = marks.box(width, SLIVER_H, "muted", weight="hairline", fill_opacity=0.12, corner="square")
            ghosts.add(ghost.move_to(zoom.point(START.value), aligned_edge=LEFT + DOWN).shift(RIGHT * k * width))
        return ghosts

    def run_the_counter(self, card, zoom):
        """The count runs alone in the card; what is stored comes with the answer (B.8). Each
        stop: the ball hops out to +0.0003 and is rounded back."""
        # Left-aligned in the card: the growing digits push nothing.
        counter = self.counter_text(0)
        self.play(card.add_row(counter), run_time=0.4)
        for i in range(1, len(run.COUNTER_STOPS.value)):
            self.play(zoom.ball.animate.move_to(zoom.point(run.FIRST_SUM.value)), run_time=run_time_hop())
            self.play(zoom.ball.animate.move_to(zoom.point(run.FIRST_STORED.value)), run_time=run_time_hop())
            counter.become(self.counter_text(i).move_to(counter, aligned_edge=LEFT))   # at once: no glyph soup
        return counter

    def cannot_cross(self, zoom, snapped) -> None:
        """A short hop out to 1.0003 (the arc) and the snap back — a thousand times, written on the
        snap-back line; the midpoint, far off, is never reached."""
        hop = marks.arc_arrow(zoom.point(START.value) + UP * HOP_LIFT, zoom.point(run.FIRST_SUM.value) + UP * HOP_LIFT,
                              "bad", angle=HOP_ANGLE, weight="regular")
        times = ledger_text("×{precision.adds}", size="label", color="bad")
        times.next_to(snapped, RIGHT, buff=theme.space("small"))
        cannot = words("跨不过去", size="label", color="bad")
        cannot.next_to(zoom.midline, RIGHT, buff=theme.space("small")).set_y(zoom.point(START.value)[1] + CANNOT_RISE)
        self.play(Create(hop), FadeIn(times), run_time=0.7)
        self.play(Indicate(zoom.midline, color=theme.color("bad"), scale_factor=1.0), FadeIn(cannot), run_time=0.8)

    @staticmethod
    def counter_text(i: int):
        return ledger_text(format_name("bf16") + " 第 {precision.counter_stops[%d]} 次" % i, size="label")

    @staticmethod
    def stored_text(i: int):
        return ledger_text("→ 存下 {precision.bf16.stored_at_stops[%d]}" % i, size="label", color="bad")

    def fp32_contrast(self, bf16_card) -> None:
        """The same additions in fp32, in the right-hand card: the ball glides from 1.0 to 1.3."""
        title = format_label("fp32", " 对照：同样 {precision.adds} 次", size="label", color="good")
        fine = widgets.number_line(START.value, FP32_AFTER.value, width=FP32_LINE_W)
        # The ends labelled beside the line, not over it: the card stays one line tall.
        start = fine.mark(START.value, "{precision.start_weight}", color="ink", side=LEFT, size="small")
        fine.add(start)
        card = widgets.card([title, fine], "muted", width=CARD_W, weight=None, fill="panel", fill_opacity=1,
                            pad=CARD_PAD, gap=CARD_ROW_GAP)
        card.move_to([ZOOM_RIGHT, CARD_TOP, 0], aligned_edge=UP + RIGHT)
        ball = marks.dot(fine.point(START.value), "good", size="ball")
        self.play(FadeIn(card), FadeIn(ball), run_time=0.7)
        self.play(ball.animate.move_to(fine.point(FP32_AFTER.value)), run_time=1.4)
        end = fine.mark(FP32_AFTER.value, "{precision.fp32.after_1000_adds}", color="good", side=RIGHT, size="heading")
        end[1].next_to(ball, RIGHT, buff=theme.space("tight"))      # clear of the ball, not touching it
        self.play(FadeIn(end), run_time=0.4)

    # ---- Ⓒ the criterion ----

    def the_criterion(self) -> None:
        self.start_panel("C", "判据，画出来", says="看这个量，老的贡献会不会永远不走")
        horizon = run.HORIZON.value
        plot = place(Plot(x_range=(FIRST_STEP, horizon), y_range=(0, SHARE_TOP), x_log=True,
                          width=PLOT_RIGHT - PLOT_LEFT, height=PLOT_TOP - PLOT_BOTTOM,
                          x_ticks_key="precision.criterion_ticks", x_title="更新次数", y_title="这一步的贡献：还剩多少"),
                     (PLOT_LEFT, PLOT_BOTTOM))
        plot.y_title.align_to(plot.y_axis, LEFT)
        half = dashed(level(plot, HALF, "muted", stroke_width=theme.stroke("thin")))
        half_tag = on_plot("半衰线", size="small", color="muted").next_to(half.get_right(), DL, buff=ROW_GAP)
        self.play(FadeIn(plot), FadeIn(half), FadeIn(half_tag), run_time=0.6)
        steps = np.logspace(np.log10(FIRST_STEP), np.log10(horizon), 240)

        self.beat(says="主权重 —— 跨十万步不断加进微小增量，老的一直在里面。必须 fp32")
        master = curve(plot, steps, run.remaining("kept", steps), "optimizer", stroke_width=theme.stroke("heavy"))
        master_tag = ledger_text("主权重：不走 → " + format_name("fp32"), size="small", color="optimizer")
        master_tag.next_to(master.get_end(), RIGHT, buff=LABEL_GAP)
        self.play(label_after(master, master_tag, run_time=0.9, label_time=0.3))

        self.beat(says="梯度和激活 —— 算出来、用掉、扔掉，根本没有「老的」。bf16 就够")
        # Two lines, one drop: gradients in their red, activations in their teal beside them
        # (each keeps its meaning), named together where they end, each word in its line's colour.
        shares = run.remaining("used_once", steps)
        once = VGroup(self.step_curve(plot, steps, shares, "gradients", edge=1.0),
                      self.step_curve(plot, steps, shares, "activations", edge=1.0).shift(TWIN_OFFSET))
        once_tag = ledger_text("梯度、激活：用完就扔 → " + format_name("bf16"), size="small",
                               t2c={"梯度": theme.text_color("gradients"), "激活": theme.text_color("activations")})
        once_tag.next_to(once[0].get_end(), RIGHT, buff=LABEL_GAP)
        self.play(label_after(once, once_tag, run_time=0.9, label_time=0.3))

        self.beat(says="DeepSeek-V3 的报告里明写：他们把一阶矩和二阶矩都放成了 bf16，没有可观察的性能退化； 而主权重和梯度仍然保 fp32")
        self.first_party()

        self.beat(says="因为动量和二阶矩是滑动平均 —— 每一步都乘一个小于一的系数再掺新值，老的贡献会被衰减掉")
        self.moving_averages(plot, steps)

        self.beat(says="真正的分界不是「累不累加」， 是「老的贡献会不会永远不走」",
                  takeaway="分界不是「累不累加」，是「老的贡献会不会永远不走」")
        # The line that never lets go, pulsed in the highlight: its size, and its tag, stay put.
        self.play(Indicate(master, color=theme.color("accent"), scale_factor=1.0), run_time=0.8)

    @staticmethod
    def step_curve(plot: Plot, steps: np.ndarray, shares: np.ndarray, role: str, *, edge: float):
        """A share that drops at once at ``edge`` updates: drawn with its vertical edge there, not
        as a slope between two samples."""
        before, after = steps < edge, steps > edge
        xs = np.concatenate([steps[before], [edge, edge], steps[after]])
        ys = np.concatenate([shares[before], [1.0, 0.0], shares[after]])
        return curve(plot, xs, ys, role)

    def first_party(self) -> None:
        """V3's report, quoted with its section. Why its gradients stay fp32 is said in the card,
        not drawn: the weight-gradient buffer sums micro-batches inside one update, so on this
        axis (updates) it lives no longer than the red drop at 1 already shows."""
        # The section apart from the model's name: two numbers in one text would read as one.
        source = VGroup(line("DeepSeek-V{model.v3.generation} 报告", size="small", color="muted"),
                        line("§{precision.v3.low_precision_section}", size="small", color="muted"))
        kept = VGroup(line("主权重、梯度 → " + format_name("fp32"), size="small"),
                      words("（梯度只在一步之内累加）", size="small", color="muted"))
        rows = [source.arrange(RIGHT, buff=theme.space("fine")),
                line("一阶矩、二阶矩 → " + format_name("bf16") + "，无可观察退化", size="small"),
                kept.arrange(RIGHT, buff=theme.space("hair"))]
        card = widgets.card(rows, "muted", weight="thin", pad="small", gap="fine")
        card.move_to([CARD_RIGHT, CARD_TOP_C, 0], aligned_edge=UP + RIGHT)
        self.play(FadeIn(card), run_time=0.6)

    def moving_averages(self, plot: Plot, steps: np.ndarray) -> None:
        """m and v: each update multiplies the old part by β — it halves after the half-life."""
        m = curve(plot, steps, run.remaining("ema", steps, run.BETA1.value), "optimizer")
        v = dashed(curve(plot, steps, run.remaining("ema", steps, run.BETA2.value), "optimizer"))
        halves = VGroup(*[marks.dot(plot.point(h.value, HALF), "optimizer", size="regular")
                          for h in (run.HALF_LIFE_M, run.HALF_LIFE_V)])
        # β at label size: its subscript is a 75 % glyph, which at small size falls under 14 px.
        # m's tag in three short rows: it fits under the half line between m's tail and v's fall.
        m_tag = VGroup(on_plot("动量 m", size="label", color="optimizer"),
                       on_plot("β₁ = {optim.adam.beta1}", size="label", color="optimizer"),
                       on_plot("半衰期 {optim.adam.half_life_m} 步", size="small", color="optimizer"))
        m_tag.arrange(DOWN, aligned_edge=LEFT, buff=ROW_GAP).move_to(plot.point(*M_TAG_AT), aligned_edge=DL)
        v_tag = VGroup(on_plot("{optim.v.moment_order}阶矩 v，β₂ = {optim.adam.beta2}", size="label", color="optimizer"),
                       on_plot("半衰期 {optim.adam.half_life_v} 步", size="small", color="optimizer"))
        v_tag.arrange(DOWN, aligned_edge=LEFT, buff=ROW_GAP).move_to(plot.point(*V_TAG_AT), aligned_edge=DL)
        # A leader from m's half-life dot to its tag: the tag sits between m and v, and is m's.
        leader = marks.segment(halves[0].get_center(), m_tag.get_corner(UL) + LEFT * theme.space("fine"),
                               "optimizer", weight="thin")
        self.play(label_after(m, VGroup(m_tag, halves[0], leader), run_time=0.8, label_time=0.3))
        self.play(label_after(v, VGroup(v_tag, halves[1]), run_time=0.8, label_time=0.3))


def run_time_hop() -> float:
    """One counter step's half: out to +0.0003, or back."""
    return 0.12


class ZoomedGap:
    """One bf16 gap, [1.0, next bf16], magnified over the width of the safe area.

    Parts: the frame and the rays back to the gap on the coarse line, the axis (a kit number
    line) with its two end values, the rounding midpoint (a dashed line and its label), the
    +increment sliver (tagged ``figure_part = "zoom.sliver"`` for the tests) and the ball.
    """

    def __init__(self, low, high):
        top, bottom = ZOOM_BOX[1], ZOOM_BOX[0]
        self.axis = widgets.number_line(START.value, START.value + SPACING.value, width=ZOOM_RIGHT - ZOOM_LEFT)
        self.axis.shift([ZOOM_LEFT, ZOOM_Y, 0] - self.axis.line.get_start())
        self.frame = marks.box(ZOOM_RIGHT - ZOOM_LEFT + 2 * ZOOM_PAD, top - bottom, "accent", weight="thin")
        self.frame.move_to([(ZOOM_LEFT + ZOOM_RIGHT) / 2, (top + bottom) / 2, 0])
        # Solid hairlines: the right one runs nearly level, and its dashes would read as legend swatches.
        self.rays = VGroup(marks.segment(low, self.frame.get_corner(UP + LEFT), "accent", weight="hairline"),
                           marks.segment(high, self.frame.get_corner(UP + RIGHT), "accent", weight="hairline"))
        self.ends = VGroup()
        for i, side in ((0, LEFT), (1, RIGHT)):
            tick = marks.tick(self.point(run.TICKS.value[i]), "ink", weight="bold")
            value = number(f"precision.bf16.ticks_near_1[{i}]", size="small").next_to(tick, DOWN, buff=theme.space("snug"))
            self.ends.add(tick, value.align_to(tick, side))
        mid = self.point(run.ROUNDING_MIDPOINT.value)
        self.midline = marks.segment(mid + DOWN * theme.space("small"), [mid[0], top - theme.space("small"), 0], "ink",
                                     dashed=True)
        self.mid_label = ledger_text("进位线 {precision.bf16.rounding_midpoint}", size="label")
        self.mid_label.next_to(self.midline, RIGHT, buff=theme.space("small")).set_y(ZOOM_Y + SLIVER_LABEL_RISE)
        left, right = self.point(START.value), self.point(run.FIRST_SUM.value)
        self.sliver = marks.box(right[0] - left[0], SLIVER_H, "gradients", weight="thin", fill_opacity=0.55,
                                corner="square")
        self.sliver.move_to(left, aligned_edge=LEFT + DOWN)
        self.sliver.figure_part = "zoom.sliver"
        self.sliver_label = ledger_text("+{precision.increment}：只有一格的 {precision.increment_over_spacing}",
                                        size="label", color="gradients")
        self.sliver_label.next_to(self.sliver, RIGHT, buff=theme.space("small")).set_y(ZOOM_Y + SLIVER_LABEL_RISE)
        self.ball = marks.dot(left, BALL, size="ball")
        self.ball.z_index = 2

    def point(self, value: float) -> np.ndarray:
        return self.axis.point(value)
