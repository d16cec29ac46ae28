"""fig-optimizers: what the 16 bytes per parameter are, and the lineage counted in state copies.

Ⓑ (shown first) the ruler, in the notes' order: bf16 weight 2 and bf16 gradient 2, then the
   three fp32 copies (master, m, v); weights 2 against optimizer 12, six times, said by the
   braces; the question 「为什么三份 fp32、两份 bf16？」 with a mark on every segment, the marks
   gathered into the question's own (「不用一格一格记」), and the one criterion as the panel's
   takeaway right under it (fig-precision answers it).
Ⓐ the lineage ordered by state copies per parameter: SGD 0 → momentum 1 → AdaGrad, RMSProp 1
   → Adam, AdamW 2, then one step back down: Muon drops v, which leaves an empty slot marked
   「− v」 in the ruler, 16 → 12 bytes.

Colours are the concept roles fig-step and fig-zero use for the same 2 + 2 + 12: weights,
gradients, optimizer (m and v are optimizer state).
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, AnimationGroup, Brace, Circle, Create, Dot, FadeIn, FadeOut, Indicate,
                   LaggedStart,
                   Line, Rectangle, VGroup, Write)

from lecture_numerics.optimizer_state import LINEAGE, STATE_COPIES, YEARS
from scenes.kit import theme
from scenes.kit.base import LectureScene
from scenes.kit.format_widgets import byte_bar, format_label, stacked_label
from scenes.kit.layout import keep_inside
from scenes.kit.panels import content_area_top
from scenes.kit.plots import Plot, dashed
from scenes.kit.text import ledger_text, line, number, words

# Ⓑ geometry: one cell per byte, the bar and its total centred with room to the safe edge.
CELL_W, CELL_H = 0.56, 0.75
BAR_Y = 0.45
WEIGHTS, GRADIENTS, OPTIMIZER = "weights", "gradients", "optimizer"
RULER = [("bytes.weights_bf16", WEIGHTS), ("bytes.gradients_bf16", GRADIENTS), ("bytes.master_fp32", OPTIMIZER),
         ("bytes.momentum_fp32", OPTIMIZER), ("bytes.variance_fp32", OPTIMIZER)]
V_SEGMENT = 4
# Cells are thin lines; a segment (one stored value) has a heavy outline, so 「三份」 counts segments.
CELL_STROKE, SEGMENT_STROKE = theme.stroke("hairline"), theme.stroke("heavy")
# The question sits just above where the takeaway stack puts the criterion that answers it.
QUESTION_Y = -2.5
MARK_ROLE = "accent"      # the 「？」 badges: a highlight, not the gradients' red

# Ⓐ geometry: x is the order in the lineage, y the state copies (the plot's ledger ticks).
PLOT_LEFT, PLOT_BOTTOM, PLOT_W, PLOT_H = -5.7, -2.25, 11.9, 3.2   # its top leaves Ⓐ.4's mini ruler room
# The levels 0 … 2, with room above the top one for its nodes' labels and, left of them, the open
# space where 「越往后挂得越多」 stands clear of the labels below.
COPIES_RANGE = (-0.25, 2.75)
CLIMB_LABEL_AT = (1.6, 2.4)         # (order, copies): above the staircase, between SGD's column and Adam's
NAMES = {"sgd": "SGD", "momentum": "＋动量", "adagrad": "AdaGrad", "rmsprop": "RMSProp", "adam": "Adam",
         "adamw": "AdamW", "muon": "Muon"}
DATED = [name for name in LINEAGE if name in YEARS and YEARS[name].status == ""]   # 待核 years stay off
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
        "optimizers.year.adamw", "optimizers.year.momentum", "lineage.year_rmsprop", "bytes.muon_per_param",
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
        recipe = words("通用的混合精度 Adam 配方（ZeRO 论文），不是某个模型自己的布局", size="small", color="muted")
        recipe.move_to([0, content_area_top() - 0.2, 0])
        self.play(FadeIn(recipe), run_time=0.4)
        for j in (0, 1):
            self.play(FadeIn(VGroup(bar.segment(j), outlines[j])), FadeIn(names[j]), run_time=0.6)

        self.beat(says="再加十二字节 fp32 的三份： 主权重、动量、二阶矩。")
        self.play(LaggedStart(*[FadeIn(VGroup(bar.segment(j), outlines[j], names[j])) for j in (2, 3, 4)],
                              lag_ratio=0.5), run_time=1.6)
        self.play(Write(total), run_time=0.6)

        # 六倍 is the braces' label, not a takeaway: the panel's one takeaway is the criterion,
        # and it must sit right under the question it answers.
        self.beat(says="权重只占 2，优化器那边占 12 —— 六倍。")
        self.weights_against_optimizer(bar)
        self.one_criterion(bar)

    def one_criterion(self, bar) -> None:
        """The question on every segment, gathered into the question's own 「？」: one criterion
        answers them all, and it comes in right under the question."""
        self.beat(says="有人会问：为什么有三格是 fp32、两格是 bf16？")
        marks = [self.question_mark(bar.segment(j)) for j in range(len(RULER))]
        # The screen counts stored copies (份); the cells are bytes, so 「格」 would count wrong.
        question = ledger_text("为什么{optimizers.ruler.fp32_segments}份 fp{format.fp32.total_bits}、"
                               "{optimizers.ruler.bf16_segments}份 bf{format.bf16.total_bits}？", size="body")
        question.move_to([0, QUESTION_Y, 0])
        self.play(LaggedStart(*[FadeIn(m, scale=1.4) for m in marks], lag_ratio=0.15), run_time=1.0)
        self.play(FadeIn(question), run_time=0.5)

        self.beat(says="不用一格一格记，它们服从同一条判据：")
        its_mark = question[-1]       # the question's own 「？」: five questions become this one
        highlight = theme.text_color(MARK_ROLE)
        # Each badge's disc fades as its 「？」 flies into the question's: visible until it lands.
        self.play(*[FadeOut(disc) for disc, _ in marks],
                  *[mark.animate.scale(its_mark.height / mark.height).move_to(its_mark) for _, mark in marks],
                  its_mark.animate.set_color(highlight), run_time=1.2)
        self.remove(*marks, *[mark for _, mark in marks])    # the discs left as they faded
        self.play(Indicate(its_mark, color=highlight, scale_factor=1.6), run_time=0.8)

        self.beat(says="看这个量，老的贡献走不走。", takeaway="看这个量，老的贡献走不走")

    @staticmethod
    def segment_outline(segment: VGroup) -> Rectangle:
        """A heavy frame around one stored value's cells: the segment is the unit the notes count."""
        frame = Rectangle(width=segment.width, height=segment.height, stroke_width=SEGMENT_STROKE,
                          stroke_color=theme.color("ink"), fill_opacity=0)
        return frame.move_to(segment)

    @staticmethod
    def question_mark(target) -> VGroup:
        """A 「？」 on a background disc, so no cell border runs through it; in the highlight
        role, since red is the gradients' colour on this very ruler."""
        mark = words("？", size="heading", color=MARK_ROLE)
        disc = Circle(radius=0.27, stroke_width=theme.stroke("thin"), stroke_color=theme.color(MARK_ROLE),
                      fill_color=theme.background(), fill_opacity=1)
        return VGroup(disc, mark.move_to(disc)).move_to(target)

    def weights_against_optimizer(self, bar) -> None:
        weights_brace = Brace(bar.segment(0), DOWN, color=theme.color(WEIGHTS))
        weights = ledger_text("权重 {bytes.weights_bf16}", size="body", color=WEIGHTS)
        weights.next_to(weights_brace, DOWN, buff=theme.space("tight"))
        opt_brace = Brace(bar.segments_between(2, 4), DOWN, color=theme.color(OPTIMIZER))
        optimizer = ledger_text("优化器 {bytes.optimizer_sum}", size="body", color=OPTIMIZER)
        times = ledger_text("—— 权重的{bill.optimizer_over_weights}倍", size="body", color=OPTIMIZER)
        VGroup(optimizer, times).arrange(RIGHT, buff=theme.space("close")).next_to(opt_brace, DOWN,
                                                                                 buff=theme.space("tight"))
        self.play(FadeIn(weights_brace), FadeIn(weights), run_time=0.5)
        self.play(FadeIn(opt_brace), FadeIn(optimizer),
                  Indicate(bar.segments_between(2, 4), color=theme.color(OPTIMIZER)), run_time=0.9)
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
        plot = Plot(x_range=(-0.35, len(LINEAGE) - 0.65), y_range=COPIES_RANGE, width=PLOT_W, height=PLOT_H,
                    y_ticks_key="optimizers.state_levels", grid=True,
                    x_title="按顺序排，不是年份刻度", y_title="每个参数挂多少份状态")
        plot.shift([PLOT_LEFT, PLOT_BOTTOM, 0] - plot.x_axis.get_start())
        plot.y_title.align_to(plot.y_axis, LEFT).shift(LEFT * theme.space("large"))
        self.play(FadeIn(plot), run_time=0.6)

        self.beat(says="SGD 零份 → 加动量一份 → AdaGrad、RMSProp 各一份 →  Adam 和 AdamW 两份都要。")
        points = {name: plot.point(i, STATE_COPIES[name].value) for i, name in enumerate(LINEAGE)}
        nodes = {name: self.node(name, points[name]) for name in LINEAGE}
        climb = [n for n in LINEAGE if n != "muon"]
        self.play(FadeIn(nodes[climb[0]]), run_time=0.4)
        for a, b in zip(climb, climb[1:]):
            step = self.step_line(points[a], points[b], "ink")
            self.play(Create(step), run_time=0.45)
            self.play(FadeIn(nodes[b]), run_time=0.3)
        up = words("越往后挂得越多", size="body", color="muted")
        up.move_to(plot.point(*CLIMB_LABEL_AT))
        self.play(FadeIn(up), run_time=0.5)

        self.beat(says="直到 2024 年，有人往回走了一步。")
        back = self.step_line(points["adamw"], points["muon"], "good")
        self.play(Create(back), run_time=0.7)
        self.play(FadeIn(nodes["muon"]), run_time=0.3)
        turn = words("有人往回走了一步", size="body", color="good").next_to(points["muon"], DOWN, buff=theme.space("gap"))
        keep_inside(turn)
        self.play(FadeIn(turn), run_time=0.4)

        self.beat(says="Muon 把二阶矩那一整份拿掉了，十六字节变十二。",
                  takeaway="Muon 把{optim.v.moment_order}阶矩那整份拿掉了，"
                           "{bytes.per_param_total} 字节变 {bytes.muon_per_param}")
        self.muon_ruler(plot)

    @staticmethod
    def node(name: str, point) -> VGroup:
        colour = "good" if name == "muon" else OPTIMIZER
        dot = Dot(point, radius=0.11, color=theme.color(colour))
        label = words(NAMES[name], size="label", color="ink").next_to(dot, UP, buff=theme.space("small"))
        parts = [dot, label]
        if name in DATED:
            year = number(YEARS[name].key, size="small", color="muted").next_to(dot, DOWN, buff=theme.space("small"))
            parts.append(year)
        return VGroup(*parts)

    @staticmethod
    def step_line(a, b, colour: str) -> VGroup:
        """Across, a riser half-way, across: a staircase that keeps clear of the nodes' labels."""
        mid = (a[0] + b[0]) / 2
        c1, c2 = np.array([mid, a[1], 0]), np.array([mid, b[1], 0])
        style = {"color": theme.color(colour), "stroke_width": 5}
        return VGroup(Line(a, c1, **style), Line(c1, c2, **style), Line(c2, b, **style))

    def muon_ruler(self, plot) -> None:
        """Ⓑ's ruler in miniature loses its v segment: the v cells drop out and leave an empty
        dashed slot marked 「− v」, so what was removed stays visible, and the total reads 16 → 12."""
        bar = byte_bar(RULER, cell_width=MINI_CELL_W, cell_height=MINI_CELL_H, stroke_width=CELL_STROKE)
        outlines = VGroup(*[self.segment_outline(bar.segment(j)) for j in range(len(RULER))])
        ruler = VGroup(bar, outlines)
        total = ledger_text("＝ {bytes.per_param_total} 字节", size="label")
        after = ledger_text("{bytes.per_param_total} → {bytes.muon_per_param} 字节", size="label", color="good")
        # Placed for the wider count it ends with: that row ends where the plot does.
        gap = theme.space("close")
        ruler.move_to([plot.x_axis.get_end()[0] - after.width - gap - ruler.width / 2,
                       content_area_top() - ruler.height / 2, 0])
        total.next_to(ruler, RIGHT, buff=gap)
        slot = self.removed_slot(bar.segment(V_SEGMENT))
        after.next_to(slot, RIGHT, buff=gap)
        keep_inside(VGroup(ruler, total, slot, after))
        footnote = words("Muon 只管隐藏层的矩阵；嵌入和输出头仍用 AdamW —— 整个模型省得更少",
                         size="small", color="muted")
        keep_inside(footnote.next_to(ruler, DOWN, buff=MINI_RULER_TO_FOOTNOTE).align_to(after, RIGHT))
        self.play(FadeIn(ruler), FadeIn(total), run_time=0.5)
        v_cells = VGroup(bar.segment(V_SEGMENT), outlines[V_SEGMENT])
        # The slot shows where v was as its cells leave. The old count fades rather than morphs:
        # no glyph soup between two different totals.
        self.play(AnimationGroup(AnimationGroup(v_cells.animate.shift(DOWN * 0.5).set_opacity(0), FadeOut(total)),
                                 AnimationGroup(Create(slot[0]), FadeIn(slot[1]), FadeIn(after)),
                                 lag_ratio=0.4), run_time=1.4)
        self.remove(v_cells)
        self.play(FadeIn(footnote), run_time=0.4)
        self.show_takeaway()

    @staticmethod
    def removed_slot(segment: VGroup) -> VGroup:
        """An empty dashed frame the size of a removed segment, with 「− v」 inside it."""
        frame = dashed(Rectangle(width=segment.width, height=segment.height))
        frame.set_stroke(theme.color("good"), width=theme.stroke("thin"))
        label = words("− v", size="label", color="good")
        return VGroup(frame.move_to(segment), label.move_to(segment))
