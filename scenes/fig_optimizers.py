"""fig-optimizers: what the 16 bytes per parameter are, and the lineage counted in state copies.

Ⓑ (shown first) the ruler, in the notes' order: bf16 weight 2 and bf16 gradient 2, then the
   three fp32 copies (master, m, v); weights 2 against optimizer 12, six times, said by the
   braces; then the three ⭐⭐⭐ lines as the panel's takeaways, each the largest text as it is
   said: the question 「为什么三份 fp32、两份 bf16？」 (a mark on every segment), 「不用一份一份记」
   (the five marks step back on their segments, the question's own 「？」 lights up) and the one
   criterion (fig-precision Ⓒ answers the marks one by one).
Ⓐ the lineage ordered by state copies per parameter: SGD 0 → momentum 1 → AdaGrad, RMSProp 1
   → Adam, AdamW 2, then one step back down: Muon drops v, which leaves an empty slot marked
   「− v」 in the ruler, 16 → 12 bytes.

Colours are the concept roles fig-step and fig-zero use for the same 2 + 2 + 12: weights,
gradients, optimizer (m and v are optimizer state). The 「？」 marks and Muon's step back are
highlights (accent); the emptied v slot is gone (muted).
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, AnimationGroup, Create, FadeIn, FadeOut, Indicate, LaggedStart, VGroup,
                   Write)

from lecture_numerics.optimizer_state import LINEAGE, STATE_COPIES, YEARS
from scenes.kit import marks, theme, widgets
from scenes.kit.base import LectureScene
from scenes.kit.format_widgets import byte_bar, format_label, stacked_label
from scenes.kit.layout import keep_inside
from scenes.kit.panels import content_area_top
from scenes.kit.plots import Plot
from scenes.kit.text import ledger_text, line, number, words

# Ⓑ geometry: one cell per byte, the bar and its total centred with room to the safe edge; the
# cells are as large as the frame allows, so the ruler (not the empty page) carries the panel.
CELL_W, CELL_H = 0.6, 0.95
BAR_Y = 0.55
WEIGHTS, GRADIENTS, OPTIMIZER = "weights", "gradients", "optimizer"
RULER = [("bytes.weights_bf16", WEIGHTS), ("bytes.gradients_bf16", GRADIENTS), ("bytes.master_fp32", OPTIMIZER),
         ("bytes.momentum_fp32", OPTIMIZER), ("bytes.variance_fp32", OPTIMIZER)]
V_SEGMENT = 4
# Cells are thin lines; a segment (one stored value) has a heavy outline, so 「三份」 counts segments.
CELL_STROKE, SEGMENT_WEIGHT = theme.stroke("hairline"), "heavy"
MARK_ROLE = "accent"      # the 「？」 badges: a highlight, not the gradients' red
MARK_DISC_R = 0.3         # the disc that blanks the cell borders behind a 「？」
# The three ⭐⭐⭐ lines, as the panel's takeaways: the question (its counts from the ruler), the
# turn to one criterion, the criterion itself.
QUESTION = ("为什么{optimizers.ruler.fp32_segments}份 fp{format.fp32.total_bits}、"
            "{optimizers.ruler.bf16_segments}份 bf{format.bf16.total_bits}？")
ONE_RULE = "不用一份一份记：同一条判据"
CRITERION = "看这个量，老的贡献走不走"

# Ⓐ geometry: x is the order in the lineage, y the state copies (the plot's ledger ticks).
# Its top leaves Ⓐ.4's mini ruler room; its x title clears the takeaway standing on the ※ footnote.
PLOT_LEFT, PLOT_BOTTOM, PLOT_W, PLOT_H = -5.7, -1.7, 11.9, 2.75
# The levels 0 … 2, with room above the top one for its nodes' labels and, left of them, the open
# space where 「一路往上加」 stands clear of the labels below.
COPIES_RANGE = (-0.25, 2.75)
CLIMB_LABEL_AT = (1.6, 2.4)         # (order, copies): above the staircase, between SGD's column and Adam's
TURN_LABEL_AT = 0.5                 # copies: 「往回走一步」 half-way between the 0 and 1 gridlines
NAMES = {"sgd": "SGD", "momentum": "＋动量", "adagrad": "AdaGrad", "rmsprop": "RMSProp", "adam": "Adam",
         "adamw": "AdamW", "muon": "Muon"}
DATED = [name for name in LINEAGE if name in YEARS]     # every node but SGD carries its year (a 待核 one is marked ※)
BACK = "accent"          # Muon's step back: the one move the speaker points at
# Tall enough to hold 「− v」 in the emptied slot; the footnote keeps a clear gap below the ruler.
MINI_CELL_W, MINI_CELL_H = 0.25, 0.38
MINI_RULER_TO_FOOTNOTE = theme.space("gap")


class FigOptimizers(LectureScene):
    scene_id = "fig-optimizers"
    title = "每个参数十六字节：优化器状态，以及按状态份数排的谱系"
    loop = False
    ledger_keys = (
        "bytes.weights_bf16", "bytes.gradients_bf16", "bytes.master_fp32", "bytes.momentum_fp32",
        "bytes.variance_fp32", "bytes.per_param_total", "bytes.optimizer_sum", "bill.optimizer_over_weights",
        "optimizers.ruler.fp32_segments", "optimizers.ruler.bf16_segments", "optim.m.moment_order",
        "optim.v.moment_order", "format.bf16.total_bits", "format.fp32.total_bits",
        "optimizers.state_copies.sgd", "optimizers.state_copies.momentum", "optimizers.state_copies.adagrad",
        "optimizers.state_copies.rmsprop", "optimizers.state_copies.adam", "optimizers.state_copies.adamw",
        "optimizers.state_copies.muon", "optimizers.state_levels", "optimizers.year.adagrad", "optimizers.year.adam",
        "optimizers.year.adamw", "optimizers.year.momentum", "optimizers.year.muon", "lineage.year_rmsprop",
        "bytes.muon_per_param",
    )

    def construct(self) -> None:
        self.the_ruler()
        self.the_lineage()

    # ---- Ⓑ the 16-byte ruler ----

    def the_ruler(self) -> None:
        self.start_panel("B", "每个参数，训练时挂着{bytes.per_param_total}个字节",
                         says="两字节 bf16 权重、两字节 bf16 梯度")
        bar = byte_bar(RULER, cell_width=CELL_W, cell_height=CELL_H, stroke_width=CELL_STROKE)
        total = ledger_text("＝ {bytes.per_param_total} 字节", size="heading")
        VGroup(bar, total.next_to(bar, RIGHT, buff=theme.space("close"))).move_to([0, BAR_Y, 0])
        keep_inside(total)
        outlines = [self.segment_outline(bar.segment(j)) for j in range(len(RULER))]
        names = self.segment_names(bar)
        # Short: the ruler is ZeRO's generic recipe, not V3's own layout (fig-precision Ⓒ has that).
        recipe = words("ZeRO 通用配方（非 V3）", size="small", color="muted")
        recipe.next_to(VGroup(*names), UP, buff=theme.space("medium")).align_to(bar, LEFT)
        self.play(FadeIn(recipe), run_time=0.4)
        for j in (0, 1):
            self.play(FadeIn(VGroup(bar.segment(j), outlines[j])), FadeIn(names[j]), run_time=0.6)

        self.beat(says="再加十二字节 fp32 的三份： 主权重、动量、二阶矩。")
        self.play(LaggedStart(*[FadeIn(VGroup(bar.segment(j), outlines[j], names[j])) for j in (2, 3, 4)],
                              lag_ratio=0.5), run_time=1.6)
        self.play(Write(total), run_time=0.6)

        self.beat(says="权重只占 2，优化器那边占 12 —— 六倍。")
        self.weights_against_optimizer(bar)
        self.one_criterion(bar)

    def one_criterion(self, bar) -> None:
        """The question on every segment, gathered into the question's own 「？」: one criterion
        answers them all. Each of the three ⭐⭐⭐ lines is the takeaway of its beat."""
        self.beat(says="有人会问：为什么有三格是 fp32、两格是 bf16？", takeaway=QUESTION)
        badges = [self.question_mark(bar.segment(j)) for j in range(len(RULER))]
        self.play(LaggedStart(*[FadeIn(b, scale=1.4) for b in badges], lag_ratio=0.15), run_time=1.0)
        self.show_takeaway()

        self.beat(says="不用一格一格记，它们服从同一条判据：", takeaway=ONE_RULE)
        its_mark = self.takeaway_on_screen("B.4")[-1]   # the question's own 「？」: five become this one
        highlight = theme.text_color(MARK_ROLE)
        # The five 「？」 stay on their segments, stepped back (fig-precision Ⓒ answers them one by
        # one); the question's own 「？」 lights up: one criterion for all five. Nothing flies.
        self.play(*[b.mark.animate.set_color(theme.text_color("muted")) for b in badges],
                  *[b.disc.animate.set_stroke(theme.color("muted")) for b in badges],
                  its_mark.animate.set_color(highlight), run_time=0.8)
        self.play(Indicate(its_mark, color=highlight, scale_factor=1.3), run_time=0.6)

        self.beat(says="看这个量，老的贡献走不走。", takeaway=CRITERION)

    def takeaway_on_screen(self, beat_name: str):
        """The takeaway line a beat left on screen (the kit tags it with the beat's name)."""
        return next(m for m in self.mobjects if getattr(m, "takeaway_of", None) == beat_name)

    @staticmethod
    def segment_outline(segment: VGroup):
        """A heavy frame around one stored value's cells: the segment is the unit the notes count."""
        frame = marks.box(segment.width, segment.height, "ink", weight=SEGMENT_WEIGHT, corner="square")
        return frame.move_to(segment)

    @staticmethod
    def question_mark(target) -> VGroup:
        """A 「？」 on a background disc, so no cell border runs through it; in the highlight
        role, since red is the gradients' colour on this very ruler. ``.disc``, ``.mark``."""
        mark = words("？", size="heading", color=MARK_ROLE)
        disc = marks.ring(target.get_center(), MARK_ROLE, radius=MARK_DISC_R, weight="thin",
                          fill="background", fill_opacity=1)
        badge = VGroup(disc, mark.move_to(disc))
        badge.disc, badge.mark = disc, mark
        return badge

    def weights_against_optimizer(self, bar) -> None:
        """Two braces under the ruler: weights 2, optimizer 12, and then 「六倍」 beside the 12.
        No swell on the optimizer group: a pulse of the highlight, the cells keep their size."""
        weights = widgets.labelled_brace(bar.segment(0), "权重 {bytes.weights_bf16}", DOWN, WEIGHTS, size="body")
        optimizer = ledger_text("优化器 {bytes.optimizer_sum}", size="body", color=OPTIMIZER)
        times = ledger_text("—— 权重的{bill.optimizer_over_weights}倍", size="body", color=OPTIMIZER)
        said = VGroup(optimizer, times).arrange(RIGHT, buff=theme.space("close"))
        opt = widgets.labelled_brace(bar.segments_between(2, 4), said, DOWN, OPTIMIZER)
        self.play(FadeIn(weights), run_time=0.5)
        self.play(FadeIn(opt.brace), FadeIn(optimizer),
                  Indicate(bar.segments_between(2, 4), color=theme.color("accent"), scale_factor=1.0), run_time=0.9)
        self.play(FadeIn(times, shift=LEFT * 0.15), run_time=0.5)

    def segment_names(self, bar) -> list[VGroup]:
        """Each segment's name above it; the narrow bf16 ones on two lines."""
        v = "{optim.v.moment_order}阶矩"
        specs = [(["bf16", "权重"], WEIGHTS), (["bf16", "梯度"], GRADIENTS),
                 (["fp32", "主权重"], OPTIMIZER), (["fp32", "动量 m"], OPTIMIZER), (["fp32", f"{v} v"], OPTIMIZER)]
        names = []
        for j, (lines, colour) in enumerate(specs):
            texts = [self.format_words(text, colour) for text in lines]
            names.append(stacked_label(texts).next_to(bar.segment(j), UP, buff=theme.space("close")))
        top = max(name.get_top()[1] for name in names)
        for name in names:     # one row of names: tops level, whatever the glyphs' heights
            name.shift(UP * (top - name.get_top()[1]))
        return names

    @staticmethod
    def format_words(text: str, colour: str):
        """"bf16" → the format's width from the ledger; other words as they are."""
        if text in ("bf16", "fp32", "fp16"):
            return format_label(text, size="label", color=colour)
        return line(text, size="label", color=colour)

    # ---- Ⓐ the lineage, counted in state copies ----

    def the_lineage(self) -> None:
        self.start_panel("A", "按每个参数挂多少份状态排", says="这张图不按算法怎么算排，按每个参数挂几份状态排。")
        # Axis titles short: the header already says what y counts.
        plot = Plot(x_range=(-0.35, len(LINEAGE) - 0.65), y_range=COPIES_RANGE, width=PLOT_W, height=PLOT_H,
                    y_ticks_key="optimizers.state_levels", grid=True,
                    x_title="先后，非年份", y_title="状态份数")
        plot.shift([PLOT_LEFT, PLOT_BOTTOM, 0] - plot.x_axis.get_start())
        plot.y_title.align_to(plot.y_axis, LEFT).shift(LEFT * theme.space("large"))
        self.play(FadeIn(plot), run_time=0.6)

        self.beat(says="SGD 零份 → 加动量一份 → AdaGrad、RMSProp 各一份 →  Adam 和 AdamW 两份都要。")
        points = {name: plot.point(i, STATE_COPIES[name].value) for i, name in enumerate(LINEAGE)}
        climb = [n for n in LINEAGE if n != "muon"]
        # Built as they come on: Muon's year is 待核, and its ※ footnote must wait for it.
        nodes = {name: self.node(name, points[name]) for name in climb}
        self.play(FadeIn(nodes[climb[0]]), run_time=0.4)
        for a, b in zip(climb, climb[1:]):
            self.play(Create(self.step_line(points[a], points[b], "ink")), run_time=0.45)
            self.play(FadeIn(nodes[b]), run_time=0.3)

        # 「三十年一路往上加 —— 直到 2024 年…」: the climb is named as this beat opens, as said.
        self.beat(says="直到 2024 年，有人往回走了一步。")
        up = words("一路往上加", size="body", color="ink")
        up.move_to(plot.point(*CLIMB_LABEL_AT))
        self.play(FadeIn(up), run_time=0.5)
        back = self.step_line(points["adamw"], points["muon"], BACK)
        self.play(Create(back), run_time=0.7)
        muon = self.node("muon", points["muon"])
        self.play(FadeIn(muon), run_time=0.3)
        # Left of the step's riser, between the 0 and 1 gridlines: on no line, inside the plot.
        riser_x = (points["adamw"][0] + points["muon"][0]) / 2
        turn = words("往回走一步", size="body", color=BACK)
        turn.move_to([riser_x - theme.space("small") - turn.width / 2, plot.point(0, TURN_LABEL_AT)[1], 0])
        self.play(FadeIn(turn), run_time=0.4)

        self.beat(says="Muon 把二阶矩那一整份拿掉了，十六字节变十二。",
                  takeaway="Muon 把{optim.v.moment_order}阶矩那整份拿掉了，"
                           "{bytes.per_param_total} 字节变 {bytes.muon_per_param}")
        self.muon_ruler(plot)

    @staticmethod
    def node(name: str, point) -> VGroup:
        """A dot at the optimizer's level, its name above and its year below (Muon's marked ※)."""
        dot = marks.dot(point, BACK if name == "muon" else OPTIMIZER, size="large")
        label = words(NAMES[name], size="label", color="ink").next_to(dot, UP, buff=theme.space("small"))
        parts = [dot, label]
        if name in DATED:
            year = number(YEARS[name].key, size="small", color="muted").next_to(dot, DOWN, buff=theme.space("small"))
            parts.append(year)
        return VGroup(*parts)

    @staticmethod
    def step_line(a, b, colour: str):
        """Across, a riser half-way, across: a staircase that keeps clear of the nodes' labels."""
        mid = (a[0] + b[0]) / 2
        return marks.polyline([a, [mid, a[1], 0], [mid, b[1], 0], b], colour, weight="bold")

    def muon_ruler(self, plot) -> None:
        """Ⓑ's ruler in miniature loses its v segment: the v cells drop out and leave an empty
        dashed slot marked 「− v」, so what was removed stays visible, and the total reads 16 → 12."""
        bar = byte_bar(RULER, cell_width=MINI_CELL_W, cell_height=MINI_CELL_H, stroke_width=CELL_STROKE)
        outlines = VGroup(*[self.segment_outline(bar.segment(j)) for j in range(len(RULER))])
        ruler = VGroup(bar, outlines)
        total = ledger_text("＝ {bytes.per_param_total} 字节", size="label")
        after = ledger_text("{bytes.per_param_total} → {bytes.muon_per_param} 字节", size="label")
        # Placed for the wider count it ends with: that row ends where the plot does.
        gap = theme.space("close")
        ruler.move_to([plot.x_axis.get_end()[0] - after.width - gap - ruler.width / 2,
                       content_area_top() - ruler.height / 2, 0])
        total.next_to(ruler, RIGHT, buff=gap)
        slot = self.removed_slot(bar.segment(V_SEGMENT))
        after.next_to(slot, RIGHT, buff=gap)
        keep_inside(VGroup(ruler, total, slot, after))
        footnote = words("Muon 只管隐藏层矩阵，嵌入和输出头仍用 AdamW", size="small", color="muted")
        keep_inside(footnote.next_to(ruler, DOWN, buff=MINI_RULER_TO_FOOTNOTE).align_to(after, RIGHT))
        self.play(FadeIn(ruler), FadeIn(total), run_time=0.5)
        v_cells = VGroup(bar.segment(V_SEGMENT), outlines[V_SEGMENT])
        # The slot shows where v was as its cells leave. The old count fades rather than morphs:
        # no glyph soup between two different totals.
        self.play(AnimationGroup(AnimationGroup(v_cells.animate.shift(DOWN * 0.5).set_opacity(0), FadeOut(total)),
                                 AnimationGroup(Create(slot.frame), FadeIn(slot.label), FadeIn(after)),
                                 lag_ratio=0.4), run_time=1.4)
        self.remove(v_cells)
        self.play(FadeIn(footnote), run_time=0.4)
        self.show_takeaway()

    @staticmethod
    def removed_slot(segment: VGroup) -> VGroup:
        """An empty dashed frame the size of a removed segment, with 「− v」 inside it: gone, so
        muted. ``.frame``, ``.label``."""
        frame = marks.box(segment.width, segment.height, "muted", weight="thin", corner="square", dashed=True)
        label = words("− v", size="label", color="muted")
        slot = VGroup(frame.move_to(segment), label.move_to(segment))
        slot.frame, slot.label = frame, label
        return slot
