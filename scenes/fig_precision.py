"""fig-precision: why the master weights must stay fp32, with bf16 rounding done live.

Ⓐ a number stored in two parts: fp32 1|8|23, bf16 1|8|7 (same exponent, same range), fp16
   1|5|10: three exponent cells lift out of the bf16 layout and move to the mantissa's end
   (finer, but a tiny gradient becomes 0).
Ⓑ the run: the bf16 line near 1.0, then one gap magnified to full width — the +0.0003
   sliver, the rounding midpoint it would have to cross, the value snapping back; the naive
   count as its own question; a counter running to 1000 with the value still 1.0; the fp32
   control in the right-hand card going 1.0 → 1.3. Every value comes from precision_run.
Ⓒ the criterion as curves: how much of one step's contribution is still there k steps later.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, PI, RIGHT, UP, ArcBetweenPoints, Brace, Create, DashedLine, DashedVMobject, Dot,
                   FadeIn, FadeOut, Indicate, Line, Rectangle, RoundedRectangle, Transform, VGroup)

from lecture_numerics import precision_run as run, quantity
from lecture_numerics.precision import FP32_AFTER, INCREMENT, SPACING, START
from scenes.kit import theme
from scenes.kit.annotate import label_after, on_plot
from scenes.kit.arrows import arrow
from scenes.kit.base import LectureScene
from scenes.kit.format_widgets import ScreenAxis, bit_row, format_label, format_name
from scenes.kit.plots import Plot, curve, dashed, level, place
from scenes.kit.text import ledger_text, number, words

FIELD_COLOURS = ("muted", "accent", "warm")       # sign, exponent, mantissa
BIT_W, BIT_H = 0.29, 0.5
ROW_LEFT = -4.9
ROW_YS = {"fp32": 1.75, "bf16": 0.3, "fp16": -1.15}
MOVED_LIFT = 0.75                                  # Ⓐ: how high the three exponent cells rise while they move
TINY_Y = -2.35                                     # Ⓐ's tiny-gradient line, above the takeaway
SIDE_NOTE_RISE = 0.17                              # the notes right of a bit row sit a little high

# Ⓑ: the bf16 line near 1.0 along the top, one gap of it magnified below, two cards at the bottom.
LINE_Y, LINE_LEFT, LINE_RIGHT = 2.45, -6.0, 6.0   # high enough that the brace's label clears the zoom frame
NAME_Y = 3.42                                      # Ⓑ: the line's name, level with the header
LINE_RANGE = (0.9975, 1.0265)                      # the four bf16 ticks with margin
ZOOM_Y, ZOOM_LEFT, ZOOM_RIGHT = 0.3, -6.2, 6.2     # one gap over the safe width: +0.0003 is 43 px at 1280×720
ZOOM_PAD = 0.5                                     # the frame leaves room for the naive 27th sliver past the gap
ZOOM_BOX = (-0.72, 1.35)                           # bottom and top of the magnified view (the snap-back row inside)
SLIVER_H = 0.4
ZOOM_LABEL_Y = 0.95
CARD_TOP, CARD_BOTTOM, CARD_GAP = -0.82, -2.8, 0.3
CARD_ROWS = (-1.1, -1.56, -2.03, -2.48)          # left card: setup, question, counter, result
FP32_Y = -1.6                                      # right card: the fp32 strip
BALL_RADIUS = 0.1
SNAP_DROP = 0.66                                   # the snap-back arrow, under the end values
HOP_TIME = 0.12                                    # one counter step: out to +0.0003 and back
STORED_BUFF = 0.2                                  # the counter and what is stored, one line
HOP_ANGLE, HOP_LIFT = -0.85 * PI, 0.05             # B.9's hop: an arc over the sliver, from 1.0 out to 1.0003
TIMES_RISE = 0.27                                  # its 「×1000」 sits over the axis, right of the arc
TIMES_CLEAR = 0.15                                 # and this far right of the +increment sliver (no touching)
CARD_PAD = 0.28                                    # the bf16 card ends this far under its last row (it grows row by row)
MOVED_DASHES = 24                                  # Ⓐ: the dashed outline round the three cells fp16 moved

PLOT_LEFT, PLOT_RIGHT, PLOT_BOTTOM, PLOT_TOP = -5.6, 3.0, -1.8, 0.95   # the curve tags fit the safe area
SHARE_TOP = 1.05                                   # the share axis runs a little past "all of it"
M_TAG_AT, V_TAG_AT = (13.5, 0.44), (4200, 0.48)    # (step, share) of the tags' top-left corners: right of each curve, under the half line
DEFAULTS_AT = (4200, 0.62)                          # the 「Adam 默认值」 note, over the v tag, above the half line
ONCE_TAG_RISE = 0.75                               # the 「用完就扔」 tag sits clear of the x axis
HALF = 0.5                                         # the half-life line
ONCE_STEPS = [1.0, 1.999, 2.0]                     # used once: all of it in step 1, nothing from step 2
CARD_Y = 2.7                                      # Ⓒ: the DeepSeek-V3 card
HALF_DOT_RADIUS = 0.07
LABEL_GAP = theme.space("small")
ROW_GAP = theme.space("tight")


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
        "precision.bf16.first_stored", "precision.adds_to_one_spacing", "precision.bf16.rounding_midpoint",
        "precision.counter_stops", "precision.bf16.stored_at_stops", "precision.bf16.steps_moved",
        "precision.adds", "precision.bf16.after_1000_adds", "precision.fp32.after_1000_adds",
        "precision.criterion_ticks", "optim.adam.beta1", "optim.adam.beta2", "optim.adam.half_life_m",
        "optim.adam.half_life_v", "model.v3.generation", "optim.v.moment_order",
    )

    def construct(self) -> None:
        self.two_parts()
        self.live_rounding()
        self.the_criterion()

    # ---- Ⓐ the bit layouts ----

    @staticmethod
    def fields(name: str) -> list[tuple[str, str]]:
        return [("format.sign_bits", FIELD_COLOURS[0]), (f"format.{name}.exponent_bits", FIELD_COLOURS[1]),
                (f"format.{name}.mantissa_bits", FIELD_COLOURS[2])]

    def bit_layout(self, name: str, at: str | None = None):
        """A format's bit row (at the height of row ``at``, default its own), its name and field counts."""
        fields = self.fields(name)
        row = bit_row(fields, bit_width=BIT_W, height=BIT_H)
        row.move_to([ROW_LEFT + row.width / 2, ROW_YS[at or name], 0])
        label = format_label(name, size="heading").next_to(row, LEFT, buff=theme.space("edge"))
        counts = VGroup(*[number(key, size="small", color=colour).next_to(row.segment(j), DOWN, buff=theme.space("fine"))
                          for j, (key, colour) in enumerate(fields)])
        return row, label, counts

    def side_note(self, row, first: str, second: str, first_colour: str, second_colour: str) -> VGroup:
        top = ledger_text(first, size="label", color=first_colour)
        top.next_to(row, RIGHT, buff=theme.space("edge")).shift(UP * SIDE_NOTE_RISE)
        below = ledger_text(second, size="label", color=second_colour)
        below.next_to(top, DOWN, buff=theme.space("fine")).align_to(top, LEFT)
        return VGroup(top, below)

    def two_parts(self) -> None:
        self.start_panel("A", "一个小数在机器里怎么存", says="先看一个小数在机器里是怎么存的：分成两段")
        fp32, fp32_name, fp32_counts = self.bit_layout("fp32")
        self.play(FadeIn(fp32), FadeIn(fp32_name), FadeIn(fp32_counts), run_time=0.8)

        self.beat(says="指数那段管「能多大」，尾数那段管「能多细」")
        range_tag = words("指数：管能多大", size="label", color="accent").next_to(fp32.segment(1), UP, buff=theme.space("small"))
        fine_tag = words("尾数：管能多细", size="label", color="warm").next_to(fp32.segment(2), UP, buff=theme.space("small"))
        self.play(Indicate(fp32.segment(1), color=theme.color("accent")), FadeIn(range_tag), run_time=0.7)
        self.play(Indicate(fp32.segment(2), color=theme.color("warm")), FadeIn(fine_tag), run_time=0.7)

        self.beat(says="现在看中间这行 bf16 —— 它的指数段跟上面 fp32 一样长")
        bf16, bf16_name, bf16_counts = self.bit_layout("bf16")
        self.play(FadeIn(bf16, shift=UP * theme.space("gap")), FadeIn(bf16_name), FadeIn(bf16_counts), run_time=0.8)
        edges = VGroup(*[DashedLine([x, fp32.get_top()[1], 0], [x, bf16.get_bottom()[1], 0], color=theme.color("accent"),
                                    stroke_width=theme.stroke("thin"), dash_length=0.06)
                         for x in (fp32.segment(1).get_left()[0], fp32.segment(1).get_right()[0])])
        self.play(Create(edges), Indicate(fp32.segment(1), color=theme.color("accent")),
                  Indicate(bf16.segment(1), color=theme.color("accent")), run_time=1.0)

        self.beat(says="所以 bf16 能表示的范围跟 fp32 一模一样，掉的只是精细程度")
        bf16_note = self.side_note(bf16, "指数段跟 " + format_name("fp32") + " 一样长 → 范围一样", "掉的只是精细程度",
                                   "accent", "warm")
        self.play(FadeIn(bf16_note[0]), run_time=0.5)
        self.play(FadeIn(bf16_note[1]), Indicate(bf16.segment(2), color=theme.color("warm")), run_time=0.7)

        self.beat(says="再看最下面 fp16。同样是十六位，可它把三位从指数挪给了尾数")
        moved = self.move_three_bits(bf16)
        fp16 = self.fp16_row
        fp16_note = self.side_note(fp16, "把{precision.exponent_bits_moved}位从指数挪给了尾数", "更精细，但范围小了一大截",
                                   "warm", "backward")
        outline = DashedVMobject(Rectangle(width=moved.width, height=moved.height, stroke_width=theme.stroke("bold"),
                                           stroke_color=theme.color("warm")).move_to(moved), num_dashes=MOVED_DASHES)
        self.play(Create(outline), FadeIn(fp16_note[0]), run_time=0.6)    # which three moved, and the words for it

        self.beat(says="于是它更精细，但范围小了一大截 —— 小的梯度直接掉到零")
        self.play(FadeIn(fp16_note[1]), run_time=0.5)
        tiny = ledger_text("一个小梯度 {precision.tiny_gradient}：" + format_name("fp16") + " 存成 "
                           "{precision.tiny_gradient_fp16}，" + format_name("bf16") + " 存成 {precision.tiny_gradient_bf16}",
                           size="body", color="ink").move_to([0, TINY_Y, 0])
        self.play(FadeIn(tiny), run_time=0.7)

        self.beat(says="这才是 fp16 需要 loss scaling 的原因， 跟「十六位不够用」一点关系都没有",
                  takeaway=format_name("fp16") + " 要 loss scaling，是因为范围 —— 跟「{format.fp16.total_bits} 位不够用」无关")

    def move_three_bits(self, bf16) -> VGroup:
        """A copy of the bf16 layout drops to the fp16 row; three exponent cells lift out, travel to
        the mantissa's end and turn mantissa-coloured, the mantissa closing up behind them: 1|5|10."""
        fp16, fp16_name, fp16_counts = self.bit_layout("fp16")
        moving = bit_row(self.fields("bf16"), bit_width=BIT_W, height=BIT_H).move_to(fp16)
        cells = moving.submobjects
        exponent_end = len(moving.segments_between(0, 1))            # sign + bf16 exponent
        moved = VGroup(*cells[exponent_end - int(quantity("precision.exponent_bits_moved").value):exponent_end])
        mantissa = moving.segment(2)
        self.play(FadeIn(moving, shift=DOWN * theme.space("gap")), FadeIn(fp16_name), run_time=0.7)
        self.play(moved.animate.shift(UP * MOVED_LIFT), run_time=0.5)
        self.play(moved.animate.shift(RIGHT * BIT_W * len(mantissa)).set_fill(theme.color("warm")),
                  mantissa.animate.shift(LEFT * BIT_W * len(moved)), run_time=1.0)
        self.play(moved.animate.shift(DOWN * MOVED_LIFT), run_time=0.4)
        self.play(FadeIn(fp16_counts), run_time=0.5)    # `moving` now is the fp16 layout; `fp16` only places things
        self.fp16_row = fp16
        return moved

    # ---- Ⓑ the live rounding run ----

    def live_rounding(self) -> None:
        self.start_panel("B", "大数吃小数，当场做一遍",
                         says="假设一个权重是 1.0， 每一步要给它加 万分之三 —— 训练后期这是很典型的量级")
        bf16_card, fp32_card = self.cards()
        self.bf16_card = bf16_card
        setup = VGroup(ledger_text("权重 {precision.start_weight}，每步加 {precision.increment}", size="label"),
                       words("（量级示意）", size="small", color="muted")).arrange(RIGHT, buff=theme.space("fine"))
        setup.move_to([bf16_card.get_x(), CARD_ROWS[0], 0])
        bf16_card.become(self.card_to_row(0))             # the card holds what is in it: it grows row by row
        self.play(FadeIn(bf16_card), FadeIn(setup), run_time=0.6)

        self.beat(says="看这根数轴：bf16 在 1.0 附近，相邻两个能表示的数之间隔着零点零零七八")
        coarse = ScreenAxis(*LINE_RANGE, LINE_LEFT, LINE_RIGHT)
        at = lambda v: np.array([coarse(v), LINE_Y, 0])
        ticks = run.TICKS.value
        axis = Line(at(LINE_RANGE[0]), at(LINE_RANGE[1]), color=theme.color("muted"), stroke_width=3)
        marks = VGroup(*[Line(at(t) + DOWN * theme.space("small"), at(t) + UP * theme.space("small"),
                              color=theme.color("ink"), stroke_width=4) for t in ticks])
        labels = VGroup(*[number(f"precision.bf16.ticks_near_1[{i}]", size="small").next_to(marks[i], UP, buff=theme.space("snug"))
                          for i in range(len(ticks))])
        name = format_label("bf16", " 能存的数：只有这些刻度", size="label", color="muted")
        name.move_to([0, NAME_Y, 0]).align_to(axis, RIGHT)         # the header row's free right end
        self.play(Create(axis), FadeIn(marks), FadeIn(labels), FadeIn(name), run_time=0.9)
        gap = Brace(VGroup(marks[0], marks[1]), DOWN, buff=theme.space("fine"), color=theme.color("accent"))
        gap_label = ledger_text("一格 = {precision.bf16.spacing_at_1}", size="label", color="accent")
        gap_label.next_to(gap, DOWN, buff=theme.space("fine"))
        self.play(FadeIn(gap), FadeIn(gap_label), run_time=0.6)

        self.beat(says="中间什么都没有 —— 不是精度差，是那些数压根存不下来")
        gaps = VGroup(*[Line(at(a) + RIGHT * theme.space("small"), at(b) + LEFT * theme.space("small"),
                             color=theme.color("bad"), stroke_width=theme.stroke("bold"))
                        for a, b in zip(ticks, ticks[1:])])
        empty = VGroup(*[words("存不下", size="small", color="bad").move_to([g.get_x(), labels.get_y(), 0])
                         for g in gaps[1:]])          # between the tick values; the first gap carries its brace
        self.play(Create(gaps), run_time=0.7)
        self.play(FadeIn(empty), gaps.animate.set_stroke(opacity=0.35), run_time=0.6)

        self.beat(says="而我们要加的那个万分之三，只有一格的百分之三点八")
        zoom = self.magnified_gap(at(ticks[0]), at(ticks[1]))
        self.play(Create(zoom.frame), FadeIn(zoom.rays), run_time=0.7)
        self.play(Create(zoom.axis), FadeIn(zoom.ends), FadeIn(zoom.ball), run_time=0.6)
        self.play(label_after(zoom.midline, zoom.mid_label, run_time=0.5, label_time=0.4))
        self.play(zoom.ball.animate.move_to(zoom.point(run.FIRST_SUM.value)), FadeIn(zoom.sliver), run_time=0.7)
        self.play(FadeIn(zoom.sliver_label), run_time=0.4)

        self.beat(says="四舍五入 —— 直接舍回原地")
        back = arrow(zoom.point(run.FIRST_SUM.value) + DOWN * SNAP_DROP, zoom.point(run.FIRST_STORED.value) + DOWN * SNAP_DROP,
                     "backward", weight="regular", buff=None)
        snapped = ledger_text("{precision.bf16.first_sum} 舍回 {precision.bf16.first_stored}", size="label",
                              color="backward").next_to(back, RIGHT, buff=theme.space("small"))
        self.play(zoom.ball.animate.move_to(zoom.point(run.FIRST_STORED.value)),
                  zoom.sliver.animate.set_fill(opacity=0.15).set_stroke(opacity=0.5), Create(back), run_time=0.6)
        self.play(FadeIn(snapped), run_time=0.4)

        self.beat(says="有人会想：那多加几次不就行了？加二十六次就够一格了嘛")
        question = ledger_text("按算术：加 {precision.adds_to_one_spacing} 次就够一格？",
                               size="label").move_to([bf16_card.get_x(), CARD_ROWS[1], 0])
        ghosts = self.naive_slivers(zoom)
        self.play(Transform(self.bf16_card, self.card_to_row(1)), FadeIn(question), run_time=0.5)
        self.play(*[FadeIn(g, run_time=0.15) for g in ghosts], run_time=1.6, lag_ratio=0.06)   # lagged: stacked one by one

        self.beat(says="—— 我真的跑了一千次")
        self.play(FadeOut(ghosts), run_time=0.5)
        # The count runs alone; what is stored comes with the answer (B.8). Left-aligned where
        # the whole line will sit, so the growing digits and the answer push nothing.
        last = len(run.COUNTER_STOPS.value) - 1
        counter_left = VGroup(self.counter_text(last), self.stored_text(last)).arrange(RIGHT, buff=STORED_BUFF)
        counter_left = counter_left.move_to([bf16_card.get_x(), CARD_ROWS[2], 0]).get_left()
        counter = self.counter_text(0).move_to(counter_left, aligned_edge=LEFT)
        self.play(Transform(self.bf16_card, self.card_to_row(2)), FadeIn(counter), run_time=0.3)
        for i in range(1, len(run.COUNTER_STOPS.value)):              # each stop: out to +0.0003, rounded back
            nxt = self.counter_text(i).move_to(counter_left, aligned_edge=LEFT)
            self.play(zoom.ball.animate.move_to(zoom.point(run.FIRST_SUM.value)), run_time=HOP_TIME)
            self.play(zoom.ball.animate.move_to(zoom.point(run.FIRST_STORED.value)), run_time=HOP_TIME)
            self.remove(counter)                                      # the digits change at once: a morph is glyph soup
            self.add(nxt)
            counter = nxt

        self.beat(says="结果是 1.0。一步都没动")
        # The ⭐⭐⭐ result: the biggest line in the card.
        result = ledger_text("{precision.adds} 次后还是 {precision.bf16.after_1000_adds}：动了 "
                             "{precision.bf16.steps_moved} 步", size="heading", color="backward")
        result.move_to([bf16_card.get_x(), CARD_ROWS[3], 0])
        stored = self.stored_text(last).next_to(counter, RIGHT, buff=STORED_BUFF)
        self.play(Transform(self.bf16_card, self.card_to_row(3)), FadeIn(stored), FadeIn(result),
                  Indicate(zoom.ball, color=theme.color("backward")), run_time=0.8)

        self.beat(says="因为每一次都是从 1.0 开始加，每一次都被舍回 1.0。它跨不过去")
        # Each time a short hop out to 1.0003 (the arc) and the snap back under the axis (B.5's
        # arrow), a thousand times over; the midpoint, far off, is never reached.
        hop = ArcBetweenPoints(zoom.point(START.value) + UP * HOP_LIFT, zoom.point(run.FIRST_SUM.value) + UP * HOP_LIFT,
                               angle=HOP_ANGLE, color=theme.color("backward"), stroke_width=theme.stroke("regular"))
        hop.add_tip(tip_length=theme.space("small"), tip_width=theme.space("small"))
        times = ledger_text("×{precision.adds}", size="small", color="backward")
        # Right of the arc and of the sliver under it (it ends where the sliver does), under the sliver's label.
        times.next_to(zoom.sliver, RIGHT, buff=TIMES_CLEAR).set_y(ZOOM_Y + TIMES_RISE)
        cannot = words("跨不过去", size="label", color="bad")
        cannot.next_to(zoom.point(run.ROUNDING_MIDPOINT.value), DOWN + LEFT, buff=theme.space("small"))
        self.play(Create(hop), FadeIn(times), run_time=0.7)
        self.play(Indicate(zoom.midline, color=theme.color("bad"), scale_factor=1.05), FadeIn(cannot), run_time=0.8)

        self.beat(says="右边那格是对照：同样一千次，改用 fp32 —— 1.0 变成 1.3")
        self.fp32_contrast(fp32_card)

        self.beat(says="所以「主权重要留一份 fp32」不是保险起见",
                  takeaway="所以「主权重要留一份 " + format_name("fp32") + "」不是保险起见")
        self.show_takeaway()

        self.beat(says="是画这张图的脚本里真写了一个 bf16 舍入函数当场算的， 还有三条断言盯着")
        footer = words("数是脚本当场算的，有断言盯着", size="label", color="muted")
        footer.move_to([fp32_card.get_x(), CARD_ROWS[3], 0])
        self.play(FadeIn(footer), run_time=0.4)

    def cards(self):
        """The two bottom cards: the bf16 run on the left, the fp32 control on the right (「右边那格」)."""
        width = (ZOOM_RIGHT - ZOOM_LEFT - CARD_GAP) / 2
        made = []
        for centre in (ZOOM_LEFT + width / 2, ZOOM_RIGHT - width / 2):
            card = RoundedRectangle(width=width, height=CARD_TOP - CARD_BOTTOM, corner_radius=theme.space("tight"),
                                    stroke_width=0, fill_color=theme.color("panel"), fill_opacity=1.0)
            made.append(card.move_to([centre, (CARD_TOP + CARD_BOTTOM) / 2, 0]))
        return made

    def card_to_row(self, row: int) -> RoundedRectangle:
        """The bf16 card as tall as its rows up to ``row`` (its top stays put)."""
        left_card, _ = self.cards()
        bottom = CARD_ROWS[row] - CARD_PAD
        card = RoundedRectangle(width=left_card.width, height=CARD_TOP - bottom, corner_radius=theme.space("tight"),
                                stroke_width=0, fill_color=theme.color("panel"), fill_opacity=1.0)
        return card.move_to([left_card.get_x(), (CARD_TOP + bottom) / 2, 0])

    def magnified_gap(self, low, high) -> "ZoomedGap":
        return ZoomedGap(low, high)

    def naive_slivers(self, zoom) -> VGroup:
        """The naive picture: the increment stacked end to end until it covers one gap."""
        count = int(run.ADDS_TO_ONE_SPACING.value)
        width = zoom.point(INCREMENT.value + START.value)[0] - zoom.point(START.value)[0]
        ghosts = VGroup()
        for k in range(count):
            # The sliver's own size, in grey: one box repeated, not a bar chart of different lengths.
            ghost = Rectangle(width=width, height=SLIVER_H, stroke_width=1.2, stroke_color=theme.color("muted"),
                              fill_color=theme.color("muted"), fill_opacity=0.12)
            ghosts.add(ghost.move_to(zoom.point(START.value), aligned_edge=LEFT + DOWN).shift(RIGHT * k * width))
        return ghosts

    @staticmethod
    def counter_text(i: int):
        return ledger_text(format_name("bf16") + " 第 {precision.counter_stops[%d]} 次" % i, size="body", color="ink")

    @staticmethod
    def stored_text(i: int):
        return ledger_text("→ 存下 {precision.bf16.stored_at_stops[%d]}" % i, size="body", color="ink")

    def fp32_contrast(self, card) -> None:
        """The same additions in fp32, in the right-hand card: the ball glides from 1.0 to 1.3."""
        left, right = card.get_left()[0] + 0.7, card.get_right()[0] - 0.7
        fine = ScreenAxis(START.value, FP32_AFTER.value, left, right)
        title = format_label("fp32", " 对照：同样 {precision.adds} 次", size="label", color="good")
        title.move_to([card.get_x(), CARD_ROWS[0], 0])
        axis = Line([fine(START.value) - 0.3, FP32_Y, 0], [right + 0.3, FP32_Y, 0], color=theme.color("muted"), stroke_width=3)
        start = number("precision.start_weight", size="small").next_to([fine(START.value), FP32_Y, 0], DOWN, buff=theme.space("small"))
        end = number("precision.fp32.after_1000_adds", size="heading", color="good")
        end.next_to([fine(FP32_AFTER.value), FP32_Y, 0], DOWN, buff=theme.space("small"))
        ball = Dot([fine(START.value), FP32_Y, 0], radius=BALL_RADIUS, color=theme.color("good"))
        self.play(FadeIn(card), FadeIn(title), Create(axis), FadeIn(start), FadeIn(ball), run_time=0.7)
        self.play(ball.animate.move_to([fine(FP32_AFTER.value), FP32_Y, 0]), run_time=1.4)
        self.play(FadeIn(end), run_time=0.4)

    # ---- Ⓒ the criterion ----

    def the_criterion(self) -> None:
        self.start_panel("C", "判据：老的贡献会不会永远不走", says="看这个量，老的贡献会不会永远不走")
        horizon = run.HORIZON.value
        plot = place(Plot(x_range=(1, horizon), y_range=(0, SHARE_TOP), x_log=True,
                          width=PLOT_RIGHT - PLOT_LEFT, height=(PLOT_TOP - PLOT_BOTTOM) * SHARE_TOP,
                          x_ticks_key="precision.criterion_ticks", x_title="过了多少步", y_title="这一步的贡献还剩多少"),
                     (PLOT_LEFT, PLOT_BOTTOM))
        plot.y_title.align_to(plot.y_axis, LEFT)
        plot.x_title.next_to(plot.x_ticks, DOWN, buff=ROW_GAP).align_to(plot.x_axis, RIGHT)
        half = dashed(level(plot, HALF, "muted", stroke_width=theme.stroke("thin")))
        half_tag = words("半衰线", size="small", color="muted").next_to(half, LEFT, buff=ROW_GAP)
        self.play(FadeIn(plot), FadeIn(half), FadeIn(half_tag), run_time=0.6)

        steps = np.logspace(0, np.log10(horizon), 240)
        def share_curve(kind, role, beta=None, samples=steps):
            return curve(plot, samples, run.remaining(kind, samples - 1, beta), role)   # step 1: the step it was added

        self.beat(says="主权重 —— 跨十万步不断加进微小增量，老的一直在里面。必须 fp32")
        master = share_curve("kept", "weights")
        master_tag = ledger_text("主权重：一直在 → " + format_name("fp32"), size="small", color="weights")
        master_tag.next_to(master.get_end(), RIGHT, buff=LABEL_GAP)
        self.play(label_after(master, master_tag, run_time=0.9, label_time=0.3))

        self.beat(says="梯度和激活 —— 算出来、用掉、扔掉，根本没有「老的」。bf16 就够")
        # Gradients' red, not a second blue beside the master weights' line.
        once = share_curve("used_once", "gradients", samples=np.concatenate([ONCE_STEPS, steps[steps > 2]]))
        # Activations and their gradients are used once; the weights' gradients, summed over
        # micro-batches, are what the V3 report keeps in fp32 (the card below says which).
        once_tag = VGroup(words("激活及其梯度：用完就扔", size="small", color="gradients"),
                          ledger_text("→ " + format_name("bf16"), size="small", color="gradients")).arrange(DOWN, aligned_edge=LEFT, buff=ROW_GAP)
        once_tag.next_to(once.get_end(), RIGHT, buff=LABEL_GAP).shift(UP * ONCE_TAG_RISE)
        self.play(label_after(once, once_tag, run_time=0.9, label_time=0.3))

        self.beat(says="DeepSeek-V3 的报告里明写：他们把一阶矩和二阶矩都放成了 bf16，没有可观察的性能退化； 而主权重和梯度仍然保 fp32")
        card = ledger_text("DeepSeek-V{model.v3.generation}：m、v 放成 " + format_name("bf16") + "，无可观察退化；"
                           "主权重和权重梯度仍 " + format_name("fp32"), size="label")     # a citation: ink (green is fp32 here)
        card.move_to([0, CARD_Y, 0])
        self.play(FadeIn(card), run_time=0.6)

        self.beat(says="因为动量和二阶矩是滑动平均 —— 每一步都乘一个小于一的系数再掺新值，老的贡献会被衰减掉")
        # m and v are optimizer state (fig-optimizers' brown): one role, dashes tell them apart.
        m = share_curve("ema", "optimizer", run.BETA1.value)
        v = dashed(share_curve("ema", "optimizer", run.BETA2.value))
        # β at label size: its subscript is a 75 % glyph, which at small size falls under 14 px.
        m_tag = VGroup(on_plot("动量 m，β₁ = {optim.adam.beta1}", size="label", color="optimizer"),
                       on_plot("半衰期 {optim.adam.half_life_m} 步", size="small", color="optimizer")).arrange(DOWN, aligned_edge=RIGHT, buff=ROW_GAP)
        # Right-aligned: the m curve leans right as it falls, the v curve is just right of the first line.
        m_tag.move_to(plot.point(*M_TAG_AT), aligned_edge=UP + LEFT)
        v_tag = VGroup(on_plot("{optim.v.moment_order}阶矩 v", size="small", color="optimizer"),
                       on_plot("β₂ = {optim.adam.beta2}", size="label", color="optimizer"),
                       on_plot("半衰期 {optim.adam.half_life_v} 步", size="small", color="optimizer")).arrange(DOWN, aligned_edge=LEFT, buff=ROW_GAP)
        v_tag.move_to(plot.point(*V_TAG_AT), aligned_edge=UP + LEFT)
        # The curves use Adam's defaults, not the V3 card's settings: said over them.
        defaults = VGroup(words("曲线按 Adam 默认值画", size="small", color="muted"),
                          words("（不是 DeepSeek 的设置）", size="small", color="muted")).arrange(DOWN, aligned_edge=LEFT,
                                                                                            buff=ROW_GAP)
        defaults.move_to(plot.point(*DEFAULTS_AT), aligned_edge=DOWN + LEFT)
        v_tag.add(defaults)
        halves = VGroup(*[Dot(plot.point(1 + h.value, HALF), radius=HALF_DOT_RADIUS, color=theme.color("optimizer"))
                          for h in (run.HALF_LIFE_M, run.HALF_LIFE_V)])
        self.play(label_after(m, VGroup(m_tag, halves[0]), run_time=0.8, label_time=0.3))
        self.play(label_after(v, VGroup(v_tag, halves[1]), run_time=0.8, label_time=0.3))

        self.beat(says="真正的分界不是「累不累加」， 是「老的贡献会不会永远不走」",
                  takeaway="真正的分界不是「累不累加」，是「老的贡献会不会永远不走」")
        self.play(Indicate(VGroup(master, master_tag), color=theme.color("weights")), run_time=0.8)


class ZoomedGap:
    """One bf16 gap, [1.0, next bf16], magnified over the width of the safe area.

    Parts: the frame and the rays back to the gap on the coarse line, the axis with its two end
    values, the rounding midpoint (a dashed line, labelled as the line a sum must cross), the
    +increment sliver (tagged ``figure_part = "zoom.sliver"`` for the tests) and the ball.
    """

    def __init__(self, low, high):
        self.scale = ScreenAxis(START.value, START.value + SPACING.value, ZOOM_LEFT, ZOOM_RIGHT)
        bottom, top = ZOOM_BOX
        self.frame = RoundedRectangle(width=ZOOM_RIGHT - ZOOM_LEFT + 2 * ZOOM_PAD, height=top - bottom,
                                      corner_radius=theme.space("tight"), stroke_color=theme.color("accent"),
                                      stroke_width=theme.stroke("thin")).move_to([0, (top + bottom) / 2, 0])
        ray = dict(color=theme.color("accent"), stroke_width=theme.stroke("thin"), dash_length=0.07)
        self.rays = VGroup(DashedLine(low, self.frame.get_corner(UP + LEFT), **ray),
                           DashedLine(high, self.frame.get_corner(UP + RIGHT), **ray))
        self.axis = Line(self.point(START.value), self.point(START.value + SPACING.value), color=theme.color("muted"),
                         stroke_width=3)
        ends = VGroup()
        for i, side in ((0, LEFT), (1, RIGHT)):
            tick = Line(UP * theme.space("small"), DOWN * theme.space("small"), color=theme.color("ink"), stroke_width=4)
            tick.move_to(self.point(run.TICKS.value[i]))
            value = number(f"precision.bf16.ticks_near_1[{i}]", size="small").next_to(tick, DOWN, buff=theme.space("snug"))
            ends.add(tick, value.align_to(tick, side))
        self.ends = ends
        mid = self.point(run.ROUNDING_MIDPOINT.value)
        self.midline = DashedLine(mid + DOWN * theme.space("small"), [mid[0], ZOOM_BOX[1] - theme.space("small"), 0],
                                  color=theme.color("ink"), stroke_width=theme.stroke("regular"), dash_length=0.08)
        self.mid_label = ledger_text("舍入中点 {precision.bf16.rounding_midpoint}：越过它才进下一格", size="label")
        self.mid_label.next_to(self.midline, RIGHT, buff=theme.space("small")).set_y(ZOOM_LABEL_Y)
        assert self.mid_label.get_top()[1] < ZOOM_BOX[1], "the midpoint label must stay inside the zoom frame"
        left, right = self.point(START.value), self.point(run.FIRST_SUM.value)
        self.sliver = Rectangle(width=right[0] - left[0], height=SLIVER_H, stroke_width=2,
                                stroke_color=theme.color("backward"), fill_color=theme.color("backward"), fill_opacity=0.55)
        self.sliver.move_to(left, aligned_edge=LEFT + DOWN)
        self.sliver.figure_part = "zoom.sliver"
        self.sliver_label = ledger_text("+{precision.increment}：只有一格的 {precision.increment_over_spacing}",
                                        size="label", color="backward")
        self.sliver_label.next_to(self.sliver, RIGHT, buff=theme.space("small")).set_y(ZOOM_LABEL_Y)
        self.ball = Dot(left, radius=BALL_RADIUS, color=theme.color("accent"))
        self.ball.z_index = 2

    def point(self, value: float) -> np.ndarray:
        return np.array([self.scale(value), ZOOM_Y, 0])
