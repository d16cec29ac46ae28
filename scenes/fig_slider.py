"""fig-slider: the three words the lecture stands on, as 兑换率 (exchange rates).

Ⓐ 导数: push one fader by 0.01, the readout ticks 5.00 → 5.03; 0.03 ÷ 0.01 = 3 — a rate, not a value.
Ⓑ 偏导数: only the middle fader moves, the others are held; every fader's number in a column = 梯度.
Ⓒ 链式法则: 推子 → 甲 → 乙 → 难听程度, rates 2, 0.5, 3 multiply to 3 — like changing money.
"""

from __future__ import annotations

from manim import (DOWN, LEFT, RIGHT, UP, Create, Dot, FadeIn, GrowArrow, Line, MoveAlongPath, SurroundingRectangle,
                   TransformFromCopy, VGroup, Write, linear)

from lecture_numerics import slider
from scenes.kit import theme
from scenes.kit.annotate import boxed
from scenes.kit.arrows import arrow
from scenes.kit.base import LectureScene
from scenes.kit.panels import EDGE_BUFF, caption
from scenes.kit.slider_widgets import Fader, chain_node, held_mark, push_marks, rate_arrow, readout_box
from scenes.kit.text import ledger_text, number, words

# The readout's ticks while the fader travels (numerics: slider.readout_ticks).
READOUT_TICKS = ("slider.readout_before", "slider.readout_tick_1", "slider.readout_tick_2",
                 "slider.readout_after")
PARTIALS = ("slider.partial_1", "slider.partial_2", "slider.partial_3", "slider.partial_4",
            "slider.partial_5")
# The 0.01 push is drawn enlarged so the eye can follow it: this is its share of the track.
PUSH_DRAWN = 0.2
# Knobs sit where the numerics put them (0 bottom … 1 top of the travel).
START_LEVEL = slider.FADER_AT
VALUE, RATE = "ink", "gradients"   # values in black, rates (gradients) in red, like the notes

# Geometry (scene units; the frame is 14.2 × 8).
FADER_AT, FADER_HEIGHT = LEFT * 5.0 + DOWN * theme.space("hair"), 4.4
READOUT_SCALE = 1.6                # the readout's digits, larger than any theme size
DISPLAY_AT = RIGHT * 1.2 + UP * 1.0
RATE_LINE_AT, CONTRAST_AT = RIGHT * 1.2 + DOWN * 0.75, RIGHT * 1.2 + DOWN * 2.1
TAG_PAD = 0.18                     # around the value / rate tags
DESK_HEIGHT, DESK_AT = 3.2, LEFT * 3.05 + UP * theme.space("small")
HELD_OPACITY = 0.35
PARTIALS_DROP = 0.75               # the partials under their faders
STACK_FROM, STACK_TO = RIGHT * 0.95, RIGHT * 2.9
COLUMN_AT, COLUMN_GAP = RIGHT * 4.3 + DOWN * theme.space("close"), 0.28
BRACKET_OUT, BRACKET_OVER, BRACKET_ARM = 0.45, 0.15, 0.25
CHAIN_GAP, CHAIN_AT = 2.0, UP * 1.5
PULSE_RADIUS = 0.11
TOTAL_AT, MONEY_AT = DOWN * 0.45, DOWN * 2.05
MONEY_GAP, VERDICT_GAP = 1.7, 0.7


class FigSlider(LectureScene):
    scene_id = "fig-slider"
    title = "推子与兑换率：导数、偏导数、链式法则"
    ledger_keys = (
        "slider.push", "slider.readout_before", "slider.readout_tick_1", "slider.readout_tick_2",
        "slider.readout_after", "slider.readout_change", "slider.derivative",
        "slider.partial_1", "slider.partial_2", "slider.partial_3", "slider.partial_4",
        "slider.partial_5", "slider.desk_faders",
        "slider.rate_fader_to_jia", "slider.rate_jia_to_yi", "slider.rate_yi_to_loss",
        "slider.rate_fader_to_yi", "slider.chain_rate",
    )

    def construct(self):
        self.derivative_panel()
        self.partial_panel()
        self.chain_panel()

    # ---- Ⓐ one fader, one readout -----------------------------------------------------------

    def derivative_panel(self):
        self.start_panel("A", "导数：你动一格，它动几格")
        fader = Fader(START_LEVEL, height=FADER_HEIGHT).move_to(FADER_AT)
        fader_label = words("推子 = 一个参数", size="label", color="muted").next_to(fader, DOWN, buff=theme.space("gap"))
        reading = number(READOUT_TICKS[0], size="title", color=VALUE).scale(READOUT_SCALE)
        display = readout_box(words("读数 = loss：现在有多难听", size="body"), reading)
        display.move_to(DISPLAY_AT)
        self.play(FadeIn(fader), FadeIn(fader_label), FadeIn(display), run_time=1.0)
        self.wait(0.5)

        # The push: the knob travels, the readout ticks once per third of the travel.
        pushed_level = START_LEVEL + PUSH_DRAWN
        ghost, push_arrow = push_marks(fader, START_LEVEL, pushed_level)
        push_label = ledger_text("推了 {slider.push}", size="body", color="accent").next_to(push_arrow, RIGHT, buff=theme.space("small"))
        self.play(FadeIn(ghost), GrowArrow(push_arrow), FadeIn(push_label), run_time=0.6)
        steps = len(READOUT_TICKS) - 1
        for i, key in enumerate(READOUT_TICKS[1:], start=1):
            level = START_LEVEL + PUSH_DRAWN * i / steps
            ticked = number(key, size="title", color=VALUE).scale(READOUT_SCALE).move_to(display.frame)
            self.play(fader.knob.animate.move_to(fader.level_point(level)), run_time=0.45, rate_func=linear)
            # A digital readout flips, it does not morph: swap the digits in one frame.
            self.remove(display.value)
            self.add(ticked)
            display.value = ticked
            self.wait(0.15)
        change = ledger_text("变了 {slider.readout_change}", size="heading", color=VALUE)
        change.next_to(display.frame, RIGHT, buff=theme.space("large"))
        self.play(FadeIn(change, shift=LEFT * theme.space("close")), run_time=0.6)

        rate_line = ledger_text("导数 = {slider.readout_change} ÷ {slider.push} = {slider.derivative}",
                                size="heading", color=RATE).move_to(RATE_LINE_AT)
        self.play(Write(rate_line), run_time=1.2)
        self.wait(0.6)

        contrast = self.value_versus_rate().move_to(CONTRAST_AT)
        self.play(FadeIn(contrast, shift=UP * theme.space("close")), run_time=0.8)
        self.play(FadeIn(caption("说「梯度大」，是兑换率大，不是参数本身大")), run_time=0.6)
        self.wait(2.0)

    def value_versus_rate(self) -> VGroup:
        """5.00 is a value, 3 is a rate: two tags in two colours, never the same thing."""
        value = ledger_text("值：{slider.readout_before}", size="heading", color=VALUE)
        rate = ledger_text("兑换率：{slider.derivative}", size="heading", color=RATE)
        not_same = words("≠", size="heading", color="muted")
        row = VGroup(value, not_same, rate).arrange(RIGHT, buff=theme.space("wide"))
        value_box = SurroundingRectangle(value, buff=TAG_PAD, color=theme.color(VALUE), stroke_width=theme.stroke("regular"))
        rate_box = SurroundingRectangle(rate, buff=TAG_PAD, color=theme.color(RATE), stroke_width=theme.stroke("regular"))
        return VGroup(value_box, rate_box, row)

    # ---- Ⓑ a row of faders, all but one held ------------------------------------------------

    def partial_panel(self):
        self.start_panel("B", "偏导数：其余全按住")
        faders = VGroup(*(Fader(level, height=DESK_HEIGHT) for level in slider.DESK_POSITIONS)).arrange(RIGHT, buff=theme.space("wide"))
        faders.move_to(DESK_AT)
        middle = faders[slider.MIDDLE]
        held = [i for i in range(len(faders)) if i != slider.MIDDLE]
        instruction = words("只动中间这一个", size="body", color="accent").next_to(faders, UP, buff=theme.space("edge"))
        self.play(FadeIn(faders), run_time=0.8)

        clamps = VGroup(*(held_mark(faders[i]) for i in held))
        self.play(*(faders[i].animate.set_opacity(HELD_OPACITY) for i in held), FadeIn(clamps),
                  FadeIn(instruction), run_time=0.8)
        ghost, push_arrow = push_marks(middle, START_LEVEL, START_LEVEL + PUSH_DRAWN)
        self.play(FadeIn(ghost), GrowArrow(push_arrow),
                  middle.knob.animate.move_to(middle.level_point(START_LEVEL + PUSH_DRAWN)), run_time=0.8)

        partials = VGroup(*(number(key, size="label", color=RATE) for key in PARTIALS))
        for value, fader in zip(partials, faders):
            value.next_to(fader, DOWN, buff=PARTIALS_DROP)
        partial_name = words("偏导数", size="label", color=RATE).next_to(partials[slider.MIDDLE], DOWN, buff=theme.space("close"))
        self.play(FadeIn(partials[slider.MIDDLE], shift=DOWN * theme.space("close")), FadeIn(partial_name), run_time=0.7)
        self.wait(0.6)
        others = [partials[i] for i in held]
        self.play(*(FadeIn(v) for v in others), run_time=0.7)

        column, gradient_name = self.gradient_column(partials)
        stack = arrow(STACK_FROM, STACK_TO, "muted", weight="bold", buff=None)
        stack_label = words("排成一列", size="label", color="muted").next_to(stack, UP, buff=theme.space("small"))
        self.play(GrowArrow(stack), FadeIn(stack_label), FadeIn(column[-1]), FadeIn(gradient_name), run_time=0.6)
        self.play(*(TransformFromCopy(src, dst) for src, dst in zip(partials, column[:-1])), run_time=1.2)
        landing = ledger_text("梯度不是一个数，是{slider.desk_faders}个数", size="body", color=RATE)
        self.play(FadeIn(landing.to_edge(DOWN, buff=EDGE_BUFF)), run_time=0.6)
        self.wait(2.0)

    def gradient_column(self, partials: VGroup) -> tuple[VGroup, VGroup]:
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
        self.start_panel("C", "链式法则：中间隔着好几级")
        nodes = VGroup(*(chain_node(name, size="heading") for name in ("推子", "甲", "乙", "难听程度")))
        nodes.arrange(RIGHT, buff=CHAIN_GAP).move_to(CHAIN_AT)
        rate_keys = ("slider.rate_fader_to_jia", "slider.rate_jia_to_yi", "slider.rate_yi_to_loss")
        arrows = [rate_arrow(a, b, ledger_text("×{" + key + "}", size="heading", color=RATE))
                  for a, b, key in zip(nodes, nodes[1:], rate_keys)]
        moved_keys = ("slider.rate_fader_to_jia", "slider.rate_fader_to_yi", "slider.chain_rate")
        moves = [words("动一格", size="label", color=VALUE).next_to(nodes[0], DOWN, buff=theme.space("gap"))]
        moves += [ledger_text("动 {" + key + "} 格", size="label", color=VALUE).next_to(node, DOWN, buff=theme.space("gap"))
                  for key, node in zip(moved_keys, nodes[1:])]
        self.play(FadeIn(nodes), *(Create(a.arrow) for a in arrows), run_time=1.0)
        self.play(FadeIn(moves[0]), run_time=0.5)

        # A pulse runs down the chain; each stage multiplies what arrives by its rate.
        for hop, label, moved in zip(arrows, [a.label for a in arrows], moves[1:]):
            pulse = Dot(hop.arrow.get_start(), radius=PULSE_RADIUS, color=theme.color("accent"))
            self.play(MoveAlongPath(pulse, Line(hop.arrow.get_start(), hop.arrow.get_end())),
                      FadeIn(label, shift=DOWN * theme.space("small")), run_time=0.8)
            self.play(FadeIn(moved, shift=DOWN * theme.space("small")), pulse.animate.set_opacity(0), run_time=0.6)
            self.remove(pulse)

        total = ledger_text(
            "总兑换率 = {slider.rate_fader_to_jia} × {slider.rate_jia_to_yi} × {slider.rate_yi_to_loss}"
            " = {slider.chain_rate}", size="heading", color=RATE).move_to(TOTAL_AT)
        self.play(Write(total), run_time=1.2)
        self.wait(0.6)
        money = self.exchange_picture().move_to(MONEY_AT)
        self.play(FadeIn(money, shift=UP * theme.space("close")), run_time=0.9)
        self.play(FadeIn(caption("链式法则就这一件事：每一级的兑换率乘起来")), run_time=0.6)
        self.wait(2.5)

    def exchange_picture(self) -> VGroup:
        """人民币 → 港币 → 美元: two exchange rates, multiplied. Words only, no real rates."""
        names = VGroup(*(words(n, size="body") for n in ("人民币", "港币", "美元"))).arrange(RIGHT, buff=MONEY_GAP)
        hops = VGroup()
        for a, b in zip(names, names[1:]):
            hops.add(rate_arrow(a, b, words("汇率", size="small", color=RATE)))
        verdict = words("总汇率：乘起来", size="body", color=RATE).next_to(names, RIGHT, buff=VERDICT_GAP)
        return boxed(VGroup(names, hops, verdict), "panel", fill=1, pad="edge")
