"""fig-slider: the three words the lecture stands on, as 兑换率 (exchange rates).

Ⓐ 导数: push one fader (a parameter, blue) by 0.01, the readout ticks 5.00 → 5.03 (原来 5.00 stays
   beside it); 0.03 ÷ 0.01 = 3 — a rate, not a value: 「5.00 是值」 comes out of 原来 5.00, 「3 是
   兑换率」 out of the division, and the parameter's own value (0.51) is named by the knob.
Ⓑ 偏导数: a desk of five faders and one meter of how far the readout moved. Only the middle one
   (Ⓐ's) moves, the others held: the meter's bar is its rate, 3, dropped under it = 偏导数. On
   三千亿 the desk pulls back into a sliver of an endless bank. Back at the desk, each other fader
   is moved alone in turn (the rest held), its meter bar read and its rate dropped into the row;
   the row stacks into one column = 梯度.
Ⓒ 链式法则: 推子 → 甲 → 乙 → 难听程度, ink arrows (what moves what) each carrying its stage's
   rate in red (×2, ×0.5, ×3), counted under it on two tick rulers (进 one 格, 出 rate 格),
   multiplied to 3 — Ⓐ's measured 3; then the money picture, two
   汇率 multiplied, the ⭐⭐⭐ lines largest; the question with both ends of the chain marked; the
   panel closes on the three sentences the lecture keeps.
"""

from __future__ import annotations

import numpy as np
from manim import (BOLD, DOWN, LEFT, ORIGIN, RIGHT, UP, Arrow, Create, FadeIn, FadeOut, GrowArrow, GrowFromEdge, LaggedStart,
                   MarkupText, Mobject, MoveAlongPath, MoveToTarget, ReplacementTransform, Restore, Text, TransformFromCopy,
                   VGroup, Write, linear)

from lecture_numerics import quantity, slider
from scenes.kit import marks, theme
from scenes.kit.annotate import boxed
from scenes.kit.arrows import arrow
from scenes.kit.base import LectureScene
from scenes.kit.slider_widgets import (TICK_COUNT, ChangeMeter, Fader, chain_node, held_mark, mini_fader, push_marks,
                                       rate_arrow, readout_box, shade)
from scenes.kit.text import ledger_text, number, words

# The readout's ticks while the fader travels (numerics: slider.readout_ticks).
READOUT_TICKS = ("slider.readout_before", "slider.readout_tick_1", "slider.readout_tick_2",
                 "slider.readout_after")
PARTIALS = ("slider.partial_1", "slider.partial_2", "slider.partial_3", "slider.partial_4",
            "slider.partial_5")
STAGE_RATES = ("slider.rate_fader_to_jia", "slider.rate_jia_to_yi", "slider.rate_yi_to_loss")
STAGE_SAYS = ("第一级：推子动一格，中间量甲动两格 —— 兑换率 2",
              "第二级：甲动一格，乙只动半格 —— 兑换率 0.5",
              "第三级：乙动一格，难听程度动三格 —— 兑换率 3")
# The 0.01 push is drawn enlarged so the eye can follow it: exactly one tick of the track
# (「你动一格」).
PUSH_DRAWN = 1 / (TICK_COUNT - 1)
# Knobs sit where the numerics put them (0 bottom … 1 top of the travel).
START_LEVEL = slider.FADER_AT
VALUE, RATE, PARAMETER = "ink", "gradients", "weights"   # values black, rates red, a parameter blue

# Geometry (scene units; the frame is 14.2 × 8; content stays above the takeaways).
FADER_AT, FADER_HEIGHT = LEFT * 5.0 + UP * 0.1, 4.2
READOUT_SCALE = 1.6                # the readout's digits, larger than any theme size
DISPLAY_AT = RIGHT * 1.2 + UP * 1.35
ITSELF_GAP = 0.3                   # Ⓐ: 「参数本身 = 0.51」 this far above 「推了 0.01」
RATE_LINE_AT, READ_AS_AT, CONTRAST_AT = RIGHT * 1.2 + DOWN * 0.3, RIGHT * 1.2 + DOWN * 0.95, RIGHT * 1.2 + DOWN * 2.05
# Ⓑ: the desk at the left, the meter beside it, the gradient's column at the right.
DESK_HEIGHT, DESK_GAP, DESK_AT = 2.6, 0.55, LEFT * 3.2 + UP * 0.75
HELD_OPACITY = 0.35
METER_AT, METER_REACH, METER_UNIT = RIGHT * 1.6 + UP * 0.9, 1.3, 0.4   # METER_UNIT: scene units per unit of rate
RATES_ROW_Y = -1.5                 # each fader's rate, under it (its box clear of the 按住 labels)
COLUMN_AT, COLUMN_GAP = RIGHT * 4.9 + DOWN * 0.05, 0.26
BRACKET_OUT, BRACKET_OVER, BRACKET_ARM = 0.45, 0.15, 0.25
COLUMN_LAG = 0.25                  # the gradient's entries come in one after another
# Ⓑ's pull-back: the desk shrinks into the first five slots of a bank that runs off the frame.
BANK_SCALE, BANK_CORNER = 0.22, LEFT * 6.45 + UP * 2.25
BANK_ROWS, BANK_ROW_PITCH = 5, 0.85
BANK_RIGHT = 6.95                  # the frame's right edge (less a knob's half): the bank runs to it
BANK_SEED = 7                      # knob heights of the bank: a fixed scatter, drawn only
COUNT = "accent"                   # 三千亿 in the ⭐⭐⭐ line: the one highlight of panel Ⓑ
# Ⓒ
CHAIN_GAP, CHAIN_AT = 1.75, UP * 1.75
TOTAL_AT, MONEY_AT = DOWN * 0.15, DOWN * 1.35
MONEY_GAP, VERDICT_GAP = 1.7, 0.7
TOTAL_LEAD = "总兑换率="          # the glyphs of the total's left-hand side
RECAP_GAP, RECAP_AT = 0.16, DOWN * 1.5     # the box well under the rulers: the takeaways have left
# The three sentences and the question before them: larger than the chain rule's line, which
# has been said and steps back (muted) under them.
RECAP_SIZE = QUESTION_SIZE = "title"
STAGE_RULER_DROP = 1.0            # Ⓒ: the 进 / 出 rulers' centre, this far under each stage's arrow
STAGE_TICK = 0.55                  # Ⓒ: one 格 on a stage's ruler
STAGE_TICKS = int(np.ceil(max(quantity(k).value for k in STAGE_RATES)))   # 格 per ruler: the largest rate's
STAGE_TICK_HALF, STAGE_ROW_GAP = 0.1, 0.14
STAGE_MOVE_LIFT, STAGE_MOVE_TIP = 0.0, 0.2
END_MARK_GAP = 0.2                 # Ⓒ.11: the ？ over each end of the chain


class FigSlider(LectureScene):
    scene_id = "fig-slider"
    title = "推子与兑换率：导数、偏导数、链式法则"
    ledger_keys = (
        "slider.push", "slider.readout_before", "slider.readout_tick_1", "slider.readout_tick_2",
        "slider.readout_after", "slider.readout_change", "slider.derivative", "slider.fader_after",
        "slider.partial_1", "slider.partial_2", "slider.partial_3", "slider.partial_4",
        "slider.partial_5", "slider.desk_faders",
        "slider.rate_fader_to_jia", "slider.rate_jia_to_yi", "slider.rate_yi_to_loss",
        "slider.chain_rate",
    )

    def construct(self):
        self.derivative_panel()
        self.partial_panel()
        self.chain_panel()

    # ---- Ⓐ one fader, one readout -----------------------------------------------------------

    def derivative_panel(self):
        self.start_panel("A", "导数：你动一格，它动几格", says="把一个参数想象成调音台上的一个推子")
        fader = Fader(START_LEVEL, height=FADER_HEIGHT).move_to(FADER_AT)
        fader_label = words("推子 = 一个参数", size="label", color="muted").next_to(fader, DOWN, buff=theme.space("gap"))
        self.play(FadeIn(fader), FadeIn(fader_label), run_time=0.8)

        self.beat(says="右边那个读数就是 loss —— 你可以理解成「现在有多难听」")
        reading = number(READOUT_TICKS[0], size="title", color=VALUE).scale(READOUT_SCALE)
        display = readout_box(words("读数 = loss：多难听", size="body"), reading)
        display.move_to(DISPLAY_AT)
        self.play(FadeIn(display), run_time=0.8)

        self.beat(says="现在我把这个推子往上推一点点，推了零点零一")
        push = self.push(fader)

        # The readout is read on the next sentence: it flips to 5.03 only when it is named.
        self.beat(says="读数从 5.00 变成了 5.03，变了零点零三")
        # The value it left stays beside the box, muted: 「5.00 是值」 (A.8) comes out of it.
        was = ledger_text("原来 {slider.readout_before}", size="label", color="muted")
        change = ledger_text("变了 {slider.readout_change}", size="heading", color=VALUE)
        VGroup(was, change).arrange(DOWN, buff=theme.space("small"), aligned_edge=LEFT).next_to(
            display.frame, RIGHT, buff=theme.space("large"))
        self.play(FadeIn(was), run_time=0.3)
        self.read_out(display)
        self.play(FadeIn(change, shift=LEFT * theme.space("close")), run_time=0.6)

        self.beat(says="那这个推子的导数就是 0.03 除以 0.01，等于 3")
        rate_line = ledger_text("导数 = {slider.readout_change} ÷ {slider.push} = {slider.derivative}",
                                size="heading", color=RATE).move_to(RATE_LINE_AT)
        self.play(Write(rate_line), run_time=1.2)

        self.beat(says="读作：你动一格，它动三格")
        read_as = ledger_text("读作：你动一格，它动 {slider.derivative} 格", size="body", color=RATE).move_to(READ_AS_AT)
        self.play(FadeIn(read_as, shift=UP * theme.space("close")), run_time=0.6)

        # ⛔⛔ the speaker stops here: the value on the left, the rate on the right, never the same.
        self.value_versus_rate(was, rate_line)
        self.beat(says="本讲后面每次说「这个梯度大」，说的都是兑换率大， 不是说这个参数本身大",
                  takeaway="说「梯度大」，是兑换率大，不是参数本身大")
        # The parameter itself has a value too: the knob's position, which is not its rate. It is
        # named at the knob, above the push (which keeps its own label): 0.51 here, 3 over there.
        itself = ledger_text("参数本身 = {slider.fader_after}", size="body", color=PARAMETER)
        itself.next_to(fader.knob, RIGHT, buff=theme.space("small")).align_to(push.label, LEFT)
        itself.next_to(push.label, UP, buff=ITSELF_GAP, coor_mask=UP)
        self.play(FadeIn(itself, shift=LEFT * theme.space("close")), run_time=0.5)

    def push(self, fader: Fader) -> VGroup:
        """The push: the knob travels one tick, the arrow grows with it, then the push is named."""
        pushed_level = START_LEVEL + PUSH_DRAWN
        marks_ = push_marks(fader, START_LEVEL, pushed_level)
        label = ledger_text("推了 {slider.push}", size="body", color="accent")
        label.next_to(marks_.arrow, RIGHT, buff=theme.space("small"))
        self.add(marks_.ghost)
        self.play(GrowArrow(marks_.arrow), fader.knob.animate.move_to(fader.level_point(pushed_level)),
                  run_time=1.2, rate_func=linear)
        self.play(FadeIn(label), run_time=0.4)
        marks_.label = label
        return marks_

    def read_out(self, display) -> None:
        """The readout ticks through its steps to the pushed value, 5.00 → 5.03."""
        for key in READOUT_TICKS[1:]:
            ticked = number(key, size="title", color=VALUE).scale(READOUT_SCALE).move_to(display.frame)
            # A digital readout flips, it does not morph: swap the digits in one frame.
            self.remove(display.value)
            self.add(ticked)
            display.value = ticked
            self.wait(0.35)

    def value_versus_rate(self, was: Mobject, rate_line: Mobject) -> None:
        """5.00 is a value, 3 is a rate: each tag comes out of the number it names (原来 5.00,
        the division's 3), in its own colour; only the readout wears a box."""
        value = ledger_text("{slider.readout_before} 是值", size="heading", color=VALUE)
        rate = ledger_text("{slider.derivative} 是兑换率", size="heading", color=RATE)
        not_same = words("≠", size="heading", color="muted")
        VGroup(value, not_same, rate).arrange(RIGHT, buff=theme.space("wide")).move_to(CONTRAST_AT)
        value_digits = len(quantity("slider.readout_before").display)
        rate_digits = len(quantity("slider.derivative").display)

        self.beat(says="注意 —— 导数不是「读数是 5.00」")
        # The 5.00 the speaker names is the one the readout left: it is only marked here; what it
        # is (a value) is said on the next sentence, with what 3 is.
        self.play(FadeIn(marks.frame_around(was, "accent", pad="tight", weight="bold")),
                  was.animate.set_color(theme.text_color(VALUE)), run_time=0.4)
        self.beat(says="5.00 是值。3 是兑换率。这是两件完全不同的事")
        # Each tag comes out of the number it names: 5.00 down from 原来 5.00, 3 from the division.
        self.play(TransformFromCopy(was[-value_digits:], value[:value_digits]), run_time=0.8)
        self.play(FadeIn(value[value_digits:]), run_time=0.4)
        self.play(TransformFromCopy(rate_line[-rate_digits:], rate[:rate_digits]), FadeIn(not_same), run_time=0.8)
        self.play(FadeIn(rate[rate_digits:]), run_time=0.4)

    # ---- Ⓑ a desk of faders, one meter; each moved alone ---------------------------------------

    def partial_panel(self):
        self.start_panel("B", "偏导数：按住不动", says="那「偏导数」的「偏」是什么意思？就三个字：按住不动")
        faders = VGroup(*(Fader(level, height=DESK_HEIGHT) for level in slider.DESK_POSITIONS))
        faders.arrange(RIGHT, buff=DESK_GAP).move_to(DESK_AT)
        clamps = [held_mark(f) for f in faders]
        for clamp in clamps:
            VGroup(clamp.clamp, clamp.pin).set_stroke(opacity=0)
        self.add(*(VGroup(c.clamp, c.pin) for c in clamps))
        meter = ChangeMeter(words("读数变了", size="label"), reach=METER_REACH, unit=METER_UNIT).move_to(METER_AT)
        rates = VGroup(*(number(key, size="body", color=RATE).move_to([f.get_x(), RATES_ROW_Y, 0])
                         for key, f in zip(PARTIALS, faders)))
        self.play(FadeIn(faders), FadeIn(meter), run_time=0.8)

        self.beat(says="你看这一排推子 —— 我只动中间这一个，其余全按住")
        self.hold_all_but(faders, clamps, slider.MIDDLE, previous=None)
        bar = self.measure(faders, meter, slider.MIDDLE)
        # It is Ⓐ's fader: the meter reads the same 0.03 as Ⓐ's readout did.
        moved = ledger_text("变了 {slider.readout_change}", size="label").next_to(bar, RIGHT, buff=theme.space("small"))
        self.play(FadeIn(moved), run_time=0.4)

        self.beat(says="在这个前提下量出来的兑换率，就叫偏导数")
        # The rate comes out of the meter's bar and drops under the fader that moved.
        name = words("= 偏导数", size="label", color=RATE).next_to(rates[slider.MIDDLE], RIGHT, buff=theme.space("small"))
        self.drop_rate(bar, rates[slider.MIDDLE])
        self.play(FadeIn(name), run_time=0.4)

        # ⭐⭐⭐: the desk pulls back into a sliver of an endless bank; the count is the panel's
        # largest text, until the gradient's sentence (which repeats it) takes its place.
        self.beat(says="而这台调音台有三千亿个推子", takeaway="这台调音台有{slider.desk_faders}个推子")
        kept = VGroup(rates[slider.MIDDLE], meter, *(c.label for c in clamps if c.label in self.mobjects))
        self.pull_back(faders, clamps, bar, VGroup(moved, name, kept))
        self.show_takeaway()
        self.tag_count()

        self.beat(says="把它们各自的那个数排成一列 —— 那一列，就叫「梯度」")
        self.come_back(faders, clamps, kept)
        self.measure_the_others(faders, clamps, meter, rates)
        # Every rate has been read off it: the empty meter leaves before the row becomes 梯度.
        self.play(FadeOut(meter), run_time=0.3)
        self.stack_into_column(rates)

        self.beat(says="所以记住：梯度不是一个数，是三千亿个数",
                  takeaway="梯度不是一个数，是{slider.desk_faders}个数", replaces=True)
        self.play(FadeOut(self.count_tag), run_time=0.2)
        self.show_takeaway()
        self.play(FadeIn(self.example_tag(self.newest_takeaway())), run_time=0.3)

    def measure_the_others(self, faders: VGroup, clamps: list, meter: ChangeMeter, rates: VGroup) -> None:
        """Every other fader in turn, the rest held: pushed one tick, its bar read off the meter,
        its rate dropped under it, and back to where it was."""
        previous = slider.MIDDLE
        for i in [j for j in range(len(faders)) if j != slider.MIDDLE]:
            self.hold_all_but(faders, clamps, i, previous=previous)
            bar = self.measure(faders, meter, i)
            self.drop_rate(bar, rates[i])
            self.release(faders, i, bar)
            previous = i
        self.hold_all_but(faders, clamps, None, previous=previous)

    def hold_all_but(self, faders: VGroup, clamps: list, free: int | None, *, previous: int | None) -> None:
        """Clamp every fader but ``free`` (None: all) and step the held ones back; ``previous``
        (the fader that was free; None at the start, when every clamp comes in) is clamped again.
        Clamps are always on stage, shown or hidden by opacity, so the desk moves as one."""
        changes = []
        for i, (fader, clamp) in enumerate(zip(faders, clamps)):
            if i == free:
                changes += [VGroup(clamp.clamp, clamp.pin).animate.set_stroke(opacity=0), *shade(fader, 1)]
            elif previous is None or i == previous:
                changes += [VGroup(clamp.clamp, clamp.pin).animate.set_stroke(opacity=1), *shade(fader, HELD_OPACITY)]
                if previous is None:
                    changes.append(FadeIn(clamp.label))
        self.play(*changes, run_time=0.4)

    def measure(self, faders: VGroup, meter: ChangeMeter, i: int) -> Mobject:
        """Push fader ``i`` one tick; the meter's bar grows by its rate (the same push for every
        fader, so the bar's length is the rate). Returns the bar."""
        fader = faders[i]
        level = slider.DESK_POSITIONS[i]
        push = push_marks(fader, level, level + PUSH_DRAWN)
        bar = meter.show(quantity(PARTIALS[i]).value)
        fader.push = push
        self.add(push.ghost)
        self.play(GrowArrow(push.arrow), fader.knob.animate.move_to(fader.level_point(level + PUSH_DRAWN)),
                  GrowFromEdge(bar, DOWN if quantity(PARTIALS[i]).value >= 0 else UP), run_time=0.6)
        return bar

    def drop_rate(self, bar: Mobject, rate: Mobject) -> None:
        """The rate is read off the meter's bar (it appears beside it), then drops into its place
        under the fader that moved: the same text moving, never one text morphing into another."""
        read = rate.copy().next_to(bar, RIGHT, buff=theme.space("small"))
        self.play(FadeIn(read), run_time=0.3)
        self.play(ReplacementTransform(read, rate), run_time=0.5)

    def release(self, faders: VGroup, i: int, bar: Mobject) -> None:
        """The measured fader goes back where it was; its push marks and the meter's bar go."""
        fader = faders[i]
        self.play(fader.knob.animate.move_to(fader.level_point(slider.DESK_POSITIONS[i])),
                  FadeOut(VGroup(fader.push.ghost, fader.push.arrow, bar)), run_time=0.3)

    def pull_back(self, faders: VGroup, clamps: list, bar: Mobject, labels: VGroup) -> None:
        """The desk's words leave, the middle fader returns, and the desk shrinks into the first
        five slots of a bank of faders that runs on past the frame's edge."""
        middle = faders[slider.MIDDLE]
        self.play(FadeOut(labels), FadeOut(VGroup(middle.push.ghost, middle.push.arrow, bar)),
                  middle.knob.animate.move_to(middle.level_point(START_LEVEL)), run_time=0.5)
        desk = VGroup(faders, *(VGroup(c.clamp, c.pin) for c in clamps))
        desk.save_state()
        self.desk = desk
        small = desk.copy().scale(BANK_SCALE).move_to(BANK_CORNER, aligned_edge=LEFT + UP)
        pitch = (small[0][1].get_x() - small[0][0].get_x())
        bank = self.bank(small[0][0].get_center(), pitch, skip=len(faders))
        self.play(desk.animate.scale(BANK_SCALE).move_to(BANK_CORNER, aligned_edge=LEFT + UP), run_time=1.0)
        # the five we were looking at, marked, as the rest of the bank comes in around them
        these = marks.frame_around(faders, "accent", pad="tight", weight="bold")
        self.play(FadeIn(these), LaggedStart(*(FadeIn(row) for row in bank), lag_ratio=0.25), run_time=1.2)
        self.bank_rows = VGroup(these, *bank)

    @staticmethod
    def bank(first, pitch: float, *, skip: int) -> list[VGroup]:
        """Rows of small faders from ``first`` (the desk's first slot) to past the right edge;
        the first ``skip`` slots of the top row are the desk itself."""
        levels = np.random.default_rng(BANK_SEED)
        columns = int((BANK_RIGHT - first[0]) / pitch) + 1
        rows = []
        for r in range(BANK_ROWS):
            row = VGroup()
            for c in range(columns):
                if r == 0 and c < skip:
                    continue
                spot = first + RIGHT * pitch * c + DOWN * BANK_ROW_PITCH * r
                row.add(mini_fader(levels.uniform(0.15, 0.85), scale=BANK_SCALE, height=DESK_HEIGHT * BANK_SCALE)
                        .move_to(spot))
            rows.append(row)
        return rows

    def come_back(self, faders: VGroup, clamps: list, labels: VGroup) -> None:
        """The bank leaves, the desk comes back to full size, with its words."""
        self.play(FadeOut(self.bank_rows), run_time=0.4)
        self.play(Restore(self.desk), run_time=0.8)
        self.play(FadeIn(labels), run_time=0.4)

    def tag_count(self) -> None:
        """三千亿 in the line picked out (the line recoloured as a whole, so it stays one tagged
        takeaway), and the line tagged （示意）: the speaker's round figure, as in fig-reverse."""
        desk_line = self.newest_takeaway()
        self.count_tag = self.example_tag(desk_line)
        desk_line.generate_target()
        self.glyphs_of(desk_line.target, quantity("slider.desk_faders").display).set_color(theme.text_color(COUNT))
        self.play(MoveToTarget(desk_line), FadeIn(self.count_tag), run_time=0.5)

    def stack_into_column(self, rates: VGroup) -> None:
        """The row, titled as what it is (a rate per fader), stacks into one column: 梯度. The
        arrow leaves the row's box; the entries land one after another, then the brackets."""
        row_title = words("各自的兑换率", size="label", color=RATE).next_to(rates, DOWN, buff=theme.space("small"))
        row = boxed(VGroup(rates.copy(), row_title), RATE, pad="small")
        column, gradient_name = self.gradient_column()
        stack = arrow(row.box.get_right(), [column[-1].get_left()[0], row.box.get_y(), 0], "muted", weight="bold",
                      buff="small")
        stack_label = words("排成一列", size="label", color="muted").next_to(stack, UP, buff=theme.space("small"))
        self.play(FadeIn(row.box), FadeIn(row_title), run_time=0.5)
        self.play(GrowArrow(stack), FadeIn(stack_label), run_time=0.5)
        # The column grows in place, entry by entry: copies flying from the row would cross the
        # row's title and the arrow on their way.
        self.play(LaggedStart(*(FadeIn(entry, shift=DOWN * theme.space("small")) for entry in column[:-1]),
                              lag_ratio=COLUMN_LAG), run_time=1.2)
        self.play(FadeIn(column[-1]), FadeIn(gradient_name), run_time=0.5)

    # 三千亿 is the speaker's round figure (示例取值 in the ledger), tagged as in fig-reverse.
    def newest_takeaway(self) -> Mobject:
        """The takeaway line the open beat has just put on screen (the kit tags each line)."""
        return next(m for m in reversed(self.mobjects) if getattr(m, "takeaway_of", None) == self.beats[-1].name)

    @staticmethod
    def glyphs_of(sentence: Mobject, part: str) -> VGroup:
        """The glyphs of ``part`` inside a drawn sentence (a sentence without spaces: one glyph a character)."""
        at = sentence.text.index(part)
        return sentence[at:at + len(part)]

    @staticmethod
    def example_tag(sentence: Mobject) -> Mobject:
        return words("（示意）", size="label", color="muted").next_to(sentence, RIGHT, buff=theme.space("tight"))

    def gradient_column(self) -> tuple[VGroup, VGroup]:
        """The partials stacked into one column between brackets: the gradient."""
        entries = VGroup(*(number(key, size="heading", color=RATE) for key in PARTIALS))
        entries.arrange(DOWN, buff=COLUMN_GAP).move_to(COLUMN_AT)
        more = words("⋮", size="heading", color=RATE).next_to(entries, DOWN, buff=theme.space("small"))
        body = VGroup(entries, more)
        brackets = VGroup(*(self.bracket(body, side) for side in (LEFT, RIGHT)))
        name = words("梯度", size="heading", color=RATE).next_to(brackets, UP, buff=theme.space("gap"))
        return VGroup(*entries, VGroup(brackets, more)), name

    @staticmethod
    def bracket(body, side) -> Mobject:
        """A square bracket on ``side`` of ``body``, its arms turned in."""
        x = body.get_left()[0] - BRACKET_OUT if side is LEFT else body.get_right()[0] + BRACKET_OUT
        top = [x, body.get_top()[1] + BRACKET_OVER, 0]
        bottom = [x, body.get_bottom()[1] - BRACKET_OVER, 0]
        return marks.bracket(top, bottom, -side, RATE, arm=BRACKET_ARM, weight="bold")

    # ---- Ⓒ the chain: rates multiply ---------------------------------------------------------

    def chain_panel(self):
        self.start_panel("C", "链式法则", says="最后一个词：链式法则")

        self.beat(says="问题在于，推子不直接连到喇叭，中间隔着好几级")
        nodes = VGroup(*(chain_node(name, size="heading") for name in ("推子", "甲", "乙", "难听程度")))
        nodes.arrange(RIGHT, buff=CHAIN_GAP).move_to(CHAIN_AT)
        hops = [rate_arrow(a, b, ledger_text("×{" + key + "}", size="heading", color=RATE))
                for a, b, key in zip(nodes, nodes[1:], STAGE_RATES)]
        self.play(FadeIn(nodes), *(Create(h.arrow) for h in hops), run_time=1.0)

        # Each stage is read by itself: its own rate on its own arrow, never a running total.
        stages = VGroup()
        for hop, key, says in zip(hops, STAGE_RATES, STAGE_SAYS):
            self.beat(says=says)
            stages.add(self.read_stage(hop, key))

        total = self.total_rate()
        names, money_hops, verdict, frame = self.exchange_picture()
        # ⭐⭐⭐ the metaphor: while it is up, the chain steps back and the money leads.
        self.beat(says="这件事你其实天天在做：换汇", takeaway="这件事你天天在做：换汇")
        chain = VGroup(nodes, *hops, stages, total)
        chain.save_state()
        self.play(*self.step_back(chain), FadeIn(frame), FadeIn(names), run_time=0.7)
        self.beat(says="人民币换港币一个汇率，港币换美元一个汇率 ——  人民币到美元的总汇率是多少？当然是乘起来",
                  takeaway="总汇率：各段的汇率乘起来", replaces=True)
        self.play(*(GrowArrow(h.arrow) for h in money_hops), *(FadeIn(h.label) for h in money_hops), run_time=0.8)
        self.play(FadeIn(verdict, shift=LEFT * theme.space("close")), run_time=0.6)
        self.beat(says="链式法则就这一件事，没有别的", takeaway="链式法则就这一件事：每一级的兑换率乘起来",
                  replaces=True)
        self.play(Restore(chain), run_time=0.5)

        # ⛔ the question, both ends of the chain marked: which end do we start from? It is the
        # frame's largest text; the chain rule's line, said, steps back.
        self.beat(says="这一串数，从哪一头开始乘？")
        question = self.which_end(nodes)
        self.play(FadeOut(VGroup(names, *money_hops, verdict, frame)), *self.dim_takeaways(), run_time=0.4)
        self.play(FadeIn(question), run_time=0.6)

        # 收这一格: the three sentences the rest of the lecture stands on, the panel's last words;
        # the question (said before them) leaves, the chain rule's line steps back.
        self.beat(says="导数，是你动一格它动几格； 偏导数，是其余全按住时的那个数； 链式法则，是中间每一级乘起来")
        recap = VGroup(words("导数：你动一格，它动几格", size=RECAP_SIZE, weight=BOLD),
                       words("偏导数：其余全按住时的那个数", size=RECAP_SIZE, weight=BOLD),
                       words("链式法则：中间每一级乘起来", size=RECAP_SIZE, weight=BOLD))
        recap.arrange(DOWN, buff=RECAP_GAP, aligned_edge=LEFT)
        recap = boxed(recap, "muted", fill=0.08, pad="medium").move_to(RECAP_AT)
        self.play(FadeOut(VGroup(total, question)), run_time=0.5)
        self.play(FadeIn(recap), run_time=0.8)

    @staticmethod
    def step_back(group: VGroup) -> list:
        """Animations that turn a group muted (pale: not the subject now), text in muted's text
        colour so it stays readable; shapes keep their fills, only their strokes go pale."""
        family = group.get_family()
        texts = [m for m in family if isinstance(m, (Text, MarkupText))]
        arrows = [m for m in family if isinstance(m, Arrow)]
        done = {id(g) for m in texts + arrows for g in m.get_family()}
        shapes = [m for m in family if m.has_points() and id(m) not in done]
        return ([t.animate.set_color(theme.text_color("muted")) for t in texts]
                + [a.animate.set_color(theme.color("muted")) for a in arrows]
                + [m.animate.set_stroke(theme.color("muted")) for m in shapes])

    def read_stage(self, hop: VGroup, key: str) -> VGroup:
        """A pulse runs along the stage's arrow, then its rate appears, and under the arrow two
        tick rulers count it: the input moves one 格 (the push, as Ⓐ's), the output moves rate 格."""
        rate = quantity(key).value
        # The two tracks one above the other, their zero ticks aligned (the labels hang left of them).
        rows = VGroup(*(self.tick_ruler(name) for name in ("进", "出"))).arrange(DOWN, buff=STAGE_ROW_GAP,
                                                                               aligned_edge=RIGHT)
        rows.move_to([hop.arrow.get_center()[0], hop.arrow.get_center()[1] - STAGE_RULER_DROP, 0])
        moves = VGroup(*(self.ruler_move(row, amount, role)
                         for row, amount, role in zip(rows, (1.0, rate), ("accent", VALUE))))
        for move, side in zip(moves, ("进", "出")):
            move.stage_move = (key, side)     # for the tests: which stage, which side
        pulse = marks.dot(hop.arrow.get_start(), "accent", size="ball")
        self.play(MoveAlongPath(pulse, marks.travel_path(hop.arrow.get_start(), hop.arrow.get_end())), run_time=0.8)
        self.remove(pulse)
        self.play(FadeIn(hop.label, shift=DOWN * theme.space("small")), FadeIn(rows), run_time=0.6)
        self.play(GrowArrow(moves[0]), run_time=0.5)
        self.play(GrowArrow(moves[1]), run_time=0.6)
        return VGroup(rows, moves)

    @staticmethod
    def tick_ruler(name: str) -> VGroup:
        """「进」 or 「出」 and a muted track of STAGE_TICKS 格 (ticks one 格 apart); ``.zero`` is
        where a move starts."""
        track = VGroup(marks.segment(ORIGIN, RIGHT * STAGE_TICK * STAGE_TICKS, "muted", weight="regular"),
                       *(marks.segment(RIGHT * STAGE_TICK * i + DOWN * STAGE_TICK_HALF,
                                       RIGHT * STAGE_TICK * i + UP * STAGE_TICK_HALF, "muted", weight="regular")
                         for i in range(STAGE_TICKS + 1)))
        label = words(name, size="small", color=VALUE).next_to(track, LEFT, buff=theme.space("small"))
        ruler = VGroup(label, track)
        ruler.track = track
        return ruler

    @staticmethod
    def ruler_move(ruler: VGroup, amount: float, role: str):
        """An arrow along the ruler from its zero tick, ``amount`` 格 long."""
        start = ruler.track[0].get_start() + UP * STAGE_MOVE_LIFT
        return arrow(start, start + RIGHT * STAGE_TICK * amount, role, weight="heavy", buff=None,
                     max_tip=STAGE_MOVE_TIP)

    def total_rate(self) -> VGroup:
        """The question 总兑换率 = ？ alone, then the product in its place, and Ⓐ's measured 3 beside it."""
        # 「总兑换率 =」 stays put and only the ？ gives way to the product (no text fades through another).
        total = ledger_text(
            "总兑换率 = {slider.rate_fader_to_jia} × {slider.rate_jia_to_yi} × {slider.rate_yi_to_loss}"
            " = {slider.chain_rate}", size="heading", color=RATE).move_to(TOTAL_AT)
        lead, product = total[:len(TOTAL_LEAD)], total[len(TOTAL_LEAD):]
        unknown = words("？", size="heading", color=RATE).next_to(lead, RIGHT, buff=theme.space("small"))
        self.beat(says="那推子到难听程度，总兑换率是多少？")
        self.play(FadeIn(lead), FadeIn(unknown), run_time=0.5)
        self.beat(says="二乘零点五乘三，等于三")
        self.play(FadeOut(unknown, run_time=0.3))
        self.play(FadeIn(product, shift=LEFT * theme.space("close")), run_time=0.7)
        # The same fader and the same loss as Ⓐ: the product is the 3 measured there.
        same = words("= Ⓐ 量出的导数", size="label", color="muted").next_to(total, RIGHT, buff=theme.space("medium"))
        self.play(FadeIn(same), run_time=0.4)
        return VGroup(total, same)

    @staticmethod
    def which_end(nodes: VGroup) -> VGroup:
        """A ？ over each end of the chain, and the question under it."""
        ends = VGroup(*(words("？", size="heading", color="accent").next_to(node, UP, buff=END_MARK_GAP)
                        for node in (nodes[0], nodes[-1])))
        ask = words("从哪一头开始乘？", size=QUESTION_SIZE, weight=BOLD).move_to(MONEY_AT)
        return VGroup(ends, ask)

    def exchange_picture(self):
        """人民币 → 港币 → 美元: two exchange rates, multiplied. Words only, no real rates."""
        names = VGroup(*(words(n, size="heading") for n in ("人民币", "港币", "美元"))).arrange(RIGHT, buff=MONEY_GAP)
        hops = [rate_arrow(a, b, words(f"汇率 {tag}", size="body", color=RATE))
                for a, b, tag in zip(names, names[1:], "ab")]
        verdict = words("总汇率 = a × b", size="heading", color=RATE).next_to(names, RIGHT, buff=VERDICT_GAP)
        picture = boxed(VGroup(names, *hops, verdict), "muted", fill=0.08, pad="edge")
        VGroup(picture).move_to(MONEY_AT)
        return names, hops, verdict, picture.box
