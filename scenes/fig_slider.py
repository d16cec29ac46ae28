"""fig-slider: the three words the lecture stands on, as 兑换率 (exchange rates).

Ⓐ 导数: push one fader by 0.01, the readout ticks 5.00 → 5.03 (原来 5.00 stays beside it); 0.03 ÷ 0.01 = 3
   — a rate, not a value.
Ⓑ 偏导数: only the middle fader moves, the others are held (lightly: the one that moves carries
   the weight); the desk's 三千亿 (示意) in the ⭐⭐⭐ line; under the desk one titled row,
   各自的兑换率, and beside it the column it stacks into, entry by entry = 梯度.
Ⓒ 链式法则: 推子 → 甲 → 乙 → 难听程度, each arrow carrying its own stage's rate (×2, ×0.5, ×3),
   multiplied to 3 — like changing money; then the three sentences the lecture keeps, the
   panel's largest words (the lines said before them step back to gray).
"""

from __future__ import annotations

from manim import (DOWN, LEFT, RIGHT, UP, Create, Dot, FadeIn, FadeOut, GrowArrow, LaggedStart, Line, Mobject,
                   MoveAlongPath, MoveToTarget, VGroup, Write, linear)

from lecture_numerics import quantity, slider
from scenes.kit import theme
from scenes.kit.annotate import boxed
from scenes.kit.arrows import arrow
from scenes.kit.base import LectureScene
from scenes.kit.slider_widgets import TICK_COUNT, Fader, chain_node, held_mark, push_marks, rate_arrow, readout_box
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
VALUE, RATE = "ink", "gradients"   # values in black, rates (gradients) in red, like the notes

# Geometry (scene units; the frame is 14.2 × 8; content stays above -2.9, the takeaways' line).
FADER_AT, FADER_HEIGHT = LEFT * 5.0 + UP * 0.1, 4.2
READOUT_SCALE = 1.6                # the readout's digits, larger than any theme size
DISPLAY_AT = RIGHT * 1.2 + UP * 1.35
RATE_LINE_AT, READ_AS_AT, CONTRAST_AT = RIGHT * 1.2 + DOWN * 0.3, RIGHT * 1.2 + DOWN * 0.95, RIGHT * 1.2 + DOWN * 2.05
DESK_HEIGHT, DESK_AT = 2.7, LEFT * 3.05 + UP * 0.75
HELD_OPACITY = 0.35
RATES_ROW_Y, RATES_TITLE_GAP = -2.2, 0.15   # Ⓑ: the titled row 各自的兑换率 under the desk
STACK_FROM, STACK_TO = RIGHT * 0.55 + DOWN * 0.4, RIGHT * 2.7 + DOWN * 0.4
COLUMN_AT, COLUMN_GAP = RIGHT * 4.3 + DOWN * 0.55, 0.26
BRACKET_OUT, BRACKET_OVER, BRACKET_ARM = 0.45, 0.15, 0.25
CHAIN_GAP, CHAIN_AT = 1.75, UP * 1.55
PULSE_RADIUS = 0.11
TOTAL_AT, MONEY_AT = DOWN * 0.15, DOWN * 1.55
MONEY_GAP, VERDICT_GAP = 1.7, 0.7
TOTAL_LEAD = "总兑换率="          # the glyphs of the total's left-hand side
RECAP_GAP, RECAP_AT = 0.16, DOWN * 0.8
RECAP_SIZE, RECAP_SCALE = "title", 0.88   # about 10 % above the takeaways: the panel closes on these three
COLUMN_LAG = 0.25                 # Ⓑ: the gradient's entries come in one after another
COUNT = "accent"                  # 三千亿 in the ⭐⭐⭐ line: the one highlight of panel Ⓑ


class FigSlider(LectureScene):
    scene_id = "fig-slider"
    title = "推子与兑换率：导数、偏导数、链式法则"
    ledger_keys = (
        "slider.push", "slider.readout_before", "slider.readout_tick_1", "slider.readout_tick_2",
        "slider.readout_after", "slider.readout_change", "slider.derivative",
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
        display = readout_box(words("读数 = loss：现在有多难听", size="body"), reading)
        display.move_to(DISPLAY_AT)
        self.play(FadeIn(display), run_time=0.8)

        self.beat(says="现在我把这个推子往上推一点点，推了零点零一")
        self.push(fader)

        # The readout is read on the next sentence: it flips to 5.03 only when it is named.
        self.beat(says="读数从 5.00 变成了 5.03，变了零点零三")
        # The value it left stays beside the box, muted: 「5.00 是值」 (A.8) points at a 5.00 on screen.
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
        value, not_same, rate = self.value_versus_rate()
        self.beat(says="注意 —— 导数不是「读数是 5.00」")
        self.play(FadeIn(value, shift=UP * theme.space("close")), run_time=0.6)
        self.beat(says="5.00 是值。3 是兑换率。这是两件完全不同的事")
        self.play(FadeIn(not_same), FadeIn(rate, shift=UP * theme.space("close")), run_time=0.7)
        self.beat(says="本讲后面每次说「这个梯度大」，说的都是兑换率大， 不是说这个参数本身大",
                  takeaway="说「梯度大」，是兑换率大，不是参数本身大")

    def push(self, fader: Fader) -> None:
        """The push: the knob travels by the drawn share of the track, the push is named."""
        pushed_level = START_LEVEL + PUSH_DRAWN
        ghost, push_arrow = push_marks(fader, START_LEVEL, pushed_level)
        push_label = ledger_text("推了 {slider.push}", size="body", color="accent")
        push_label.next_to(push_arrow, RIGHT, buff=theme.space("small"))
        self.play(FadeIn(ghost), GrowArrow(push_arrow), FadeIn(push_label), run_time=0.6)
        self.play(fader.knob.animate.move_to(fader.level_point(pushed_level)), run_time=1.2, rate_func=linear)

    def read_out(self, display) -> None:
        """The readout ticks through its steps to the pushed value, 5.00 → 5.03."""
        for key in READOUT_TICKS[1:]:
            ticked = number(key, size="title", color=VALUE).scale(READOUT_SCALE).move_to(display.frame)
            # A digital readout flips, it does not morph: swap the digits in one frame.
            self.remove(display.value)
            self.add(ticked)
            display.value = ticked
            self.wait(0.35)

    def value_versus_rate(self) -> tuple[VGroup, VGroup, VGroup]:
        """5.00 is a value, 3 is a rate: two unboxed tags in two colours, never the same thing.
        Only the readout wears a box, so the value tag is not read as a second readout."""
        value = ledger_text("{slider.readout_before} 是值", size="heading", color=VALUE)
        rate = ledger_text("{slider.derivative} 是兑换率", size="heading", color=RATE)
        not_same = words("≠", size="heading", color="muted")
        VGroup(value, not_same, rate).arrange(RIGHT, buff=theme.space("wide")).move_to(CONTRAST_AT)
        return VGroup(value), VGroup(not_same), VGroup(rate)

    # ---- Ⓑ a row of faders, all but one held ------------------------------------------------

    def partial_panel(self):
        self.start_panel("B", "偏导数：其余全按住", says="那「偏导数」的「偏」是什么意思？就三个字：按住不动")
        faders = VGroup(*(Fader(level, height=DESK_HEIGHT) for level in slider.DESK_POSITIONS)).arrange(RIGHT, buff=theme.space("wide"))
        faders.move_to(DESK_AT)
        middle = faders[slider.MIDDLE]
        held = [i for i in range(len(faders)) if i != slider.MIDDLE]
        self.play(FadeIn(faders), run_time=0.8)

        self.beat(says="你看这一排推子 —— 我只动中间这一个，其余全按住")
        instruction = words("只动中间这一个", size="body", color="accent").next_to(faders, UP, buff=theme.space("edge"))
        clamps = VGroup(*(held_mark(faders[i]) for i in held))
        self.play(*(faders[i].animate.set_opacity(HELD_OPACITY) for i in held), FadeIn(clamps),
                  FadeIn(instruction), run_time=0.8)
        ghost, push_arrow = push_marks(middle, START_LEVEL, START_LEVEL + PUSH_DRAWN)
        self.play(FadeIn(ghost), GrowArrow(push_arrow),
                  middle.knob.animate.move_to(middle.level_point(START_LEVEL + PUSH_DRAWN)), run_time=0.8)

        self.beat(says="在这个前提下量出来的兑换率，就叫偏导数")
        partials = VGroup(*(number(key, size="body", color=RATE) for key in PARTIALS))
        for value, fader in zip(partials, faders):
            value.move_to([fader.get_x(), RATES_ROW_Y, 0])
        partial_name = words("= 偏导数", size="label", color=RATE).next_to(partials[slider.MIDDLE], RIGHT, buff=theme.space("small"))
        self.play(FadeIn(partials[slider.MIDDLE], shift=DOWN * theme.space("close")), FadeIn(partial_name), run_time=0.7)

        # ⭐⭐⭐: the desk's size is the panel's takeaway, its largest text, until the gradient's
        # sentence (which repeats the count) takes its place.
        self.beat(says="而这台调音台有三千亿个推子", takeaway="这台调音台有{slider.desk_faders}个推子")
        self.show_takeaway()
        desk_line = self.newest_takeaway()
        sketch = self.example_tag(desk_line)
        # The line is recoloured as a whole (its target), so it stays one tagged takeaway on screen.
        desk_line.generate_target()
        self.glyphs_of(desk_line.target, quantity("slider.desk_faders").display).set_color(theme.text_color(COUNT))
        self.play(MoveToTarget(desk_line), FadeIn(sketch), run_time=0.5)

        self.beat(says="把它们各自的那个数排成一列 —— 那一列，就叫「梯度」")
        # The row is titled as what it is, a rate per fader, so it is not read as the knobs' heights.
        row_title = words("各自的兑换率", size="label", color=RATE)
        row_title.next_to(partials, UP, buff=RATES_TITLE_GAP)
        row = boxed(VGroup(row_title, partials.copy()), RATE, pad="small")
        self.play(FadeOut(partial_name), run_time=0.3)
        self.play(FadeIn(row.box), FadeIn(row_title), *(FadeIn(partials[i]) for i in held), run_time=0.7)
        column, gradient_name = self.gradient_column()
        stack = arrow(STACK_FROM, STACK_TO, "muted", weight="bold", buff=None)
        stack_label = words("排成一列", size="label", color="muted").next_to(stack, UP, buff=theme.space("small"))
        self.play(GrowArrow(stack), FadeIn(stack_label), run_time=0.6)
        # The numbers land first; the brackets and the name 梯度 come once there is a column to name.
        # The column grows in place, entry by entry: copies flying from the row would cross the
        # row's title and the arrow on their way.
        self.play(LaggedStart(*(FadeIn(entry, shift=DOWN * theme.space("small")) for entry in column[:-1]),
                              lag_ratio=COLUMN_LAG), run_time=1.2)
        self.play(FadeIn(column[-1]), FadeIn(gradient_name), run_time=0.6)

        self.beat(says="所以记住：梯度不是一个数，是三千亿个数",
                  takeaway="梯度不是一个数，是{slider.desk_faders}个数", replaces=True)
        self.play(FadeOut(sketch), run_time=0.2)
        self.show_takeaway()
        self.play(FadeIn(self.example_tag(self.newest_takeaway())), run_time=0.3)

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
    def bracket(body, side) -> VGroup:
        """A square bracket on ``side`` of ``body``."""
        x = body.get_left()[0] - BRACKET_OUT if side is LEFT else body.get_right()[0] + BRACKET_OUT
        top = [x, body.get_top()[1] + BRACKET_OVER, 0]
        bottom = [x, body.get_bottom()[1] - BRACKET_OVER, 0]
        inward = -side * BRACKET_ARM
        style = {"stroke_width": theme.stroke("bold"), "color": theme.color(RATE)}
        return VGroup(Line(top, bottom, **style), Line(top, top + inward, **style),
                      Line(bottom, bottom + inward, **style))

    # ---- Ⓒ the chain: rates multiply ---------------------------------------------------------

    def chain_panel(self):
        self.start_panel("C", "链式法则：中间隔着好几级", says="最后一个词：链式法则")

        self.beat(says="问题在于，推子不直接连到喇叭，中间隔着好几级")
        nodes = VGroup(*(chain_node(name, size="heading") for name in ("推子", "甲", "乙", "难听程度")))
        nodes.arrange(RIGHT, buff=CHAIN_GAP).move_to(CHAIN_AT)
        hops = [rate_arrow(a, b, ledger_text("×{" + key + "}", size="heading", color=RATE))
                for a, b, key in zip(nodes, nodes[1:], STAGE_RATES)]
        self.play(FadeIn(nodes), *(Create(h.arrow) for h in hops), run_time=1.0)

        # Each stage is read by itself: its own rate on its own arrow, never a running total.
        for hop, key, says in zip(hops, STAGE_RATES, STAGE_SAYS):
            self.beat(says=says)
            stage = VGroup(words("进一格", size="small", color=VALUE),
                           ledger_text("出 {" + key + "} 格", size="small", color=VALUE)).arrange(DOWN, buff=theme.space("hair"))
            stage.next_to(hop.arrow, DOWN, buff=theme.space("small"))
            pulse = Dot(hop.arrow.get_start(), radius=PULSE_RADIUS, color=theme.color("accent"))
            self.play(MoveAlongPath(pulse, Line(hop.arrow.get_start(), hop.arrow.get_end())), run_time=0.8)
            self.remove(pulse)
            self.play(FadeIn(hop.label, shift=DOWN * theme.space("small")), FadeIn(stage), run_time=0.6)

        # The question is put to the room, the product comes on the next beat: 「总兑换率 =」
        # stays put and only the ？ gives way to the product (no text fades through another).
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

        names, money_hops, verdict, frame = self.exchange_picture()
        self.beat(says="这件事你其实天天在做：换汇")
        self.play(FadeIn(frame), FadeIn(names), run_time=0.7)
        self.beat(says="人民币换港币一个汇率，港币换美元一个汇率 ——  人民币到美元的总汇率是多少？当然是乘起来")
        self.play(*(GrowArrow(h.arrow) for h in money_hops), *(FadeIn(h.label) for h in money_hops), run_time=0.8)
        self.play(FadeIn(verdict, shift=LEFT * theme.space("close")), run_time=0.6)
        self.beat(says="链式法则就这一件事，没有别的", takeaway="链式法则就这一件事：每一级的兑换率乘起来")

        self.beat(says="这一串数，从哪一头开始乘？", takeaway="这一串数，从哪一头开始乘？")
        # ⛔ the live line is the question: the chain rule's line above it steps back to gray first.
        self.play(*self.dim_takeaways(), run_time=0.4)

        # 收这一格: the three sentences the rest of the lecture stands on take the money's place.
        self.beat(says="导数，是你动一格它动几格； 偏导数，是其余全按住时的那个数； 链式法则，是中间每一级乘起来")
        # They are the panel's last and largest words: the two lines said before them step back to gray.
        recap = VGroup(words("导数：你动一格，它动几格", size=RECAP_SIZE),
                       words("偏导数：其余全按住时的那个数", size=RECAP_SIZE),
                       words("链式法则：中间每一级乘起来", size=RECAP_SIZE)).arrange(DOWN, buff=RECAP_GAP, aligned_edge=LEFT)
        recap = boxed(recap.scale(RECAP_SCALE), "panel", fill=1, pad="medium").move_to(RECAP_AT)
        self.play(FadeOut(VGroup(total, names, *money_hops, verdict, frame)), FadeIn(recap),
                  *self.dim_takeaways(), run_time=0.8)

    def exchange_picture(self):
        """人民币 → 港币 → 美元: two exchange rates, multiplied. Words only, no real rates."""
        names = VGroup(*(words(n, size="body") for n in ("人民币", "港币", "美元"))).arrange(RIGHT, buff=MONEY_GAP)
        hops = [rate_arrow(a, b, words("汇率", size="small", color=RATE)) for a, b in zip(names, names[1:])]
        verdict = words("总汇率：乘起来", size="body", color=RATE).next_to(names, RIGHT, buff=VERDICT_GAP)
        picture = boxed(VGroup(names, *hops, verdict), "panel", fill=1, pad="edge")
        VGroup(picture).move_to(MONEY_AT)
        return names, hops, verdict, picture.box
