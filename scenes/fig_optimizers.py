"""fig-optimizers: what the 16 bytes per parameter are, and the lineage counted in state copies.

Ⓑ (shown first) the ruler, in the notes' order: bf16 weight 2 and bf16 gradient 2, then the
   three fp32 copies (master, m, v); weights 2 against optimizer 12, six times; the question
   「为什么三格 fp32、两格 bf16」 with a mark on every segment, the marks gathered into one
   (「不用一格一格记」), and the one criterion kept on screen (fig-precision answers it).
Ⓐ the lineage ordered by state copies per parameter: SGD 0 → momentum 1 → AdaGrad, RMSProp 1
   → Adam, AdamW 2, then one step back down: Muon drops v, and the ruler closes up, 16 → 12.

Colours are the concept roles fig-step and fig-zero use for the same 2 + 2 + 12: weights,
gradients, optimizer (m and v are optimizer state).
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, AnimationGroup, Brace, Circle, Create, Dot, FadeIn, Indicate, LaggedStart,
                   Line, Rectangle, ReplacementTransform, Transform, VGroup, Write)

from lecture_numerics.optimizer_state import LINEAGE, STATE_COPIES, YEARS
from scenes.kit import theme
from scenes.kit.base import LectureScene
from scenes.kit.format_widgets import byte_bar, format_label, stacked_label
from scenes.kit.layout import keep_inside
from scenes.kit.panels import content_area_top
from scenes.kit.plots import Plot
from scenes.kit.text import ledger_text, line, number, words

# Ⓑ geometry: one cell per byte, the bar and its total centred with room to the safe edge.
CELL_W, CELL_H = 0.56, 0.75
BAR_Y = 0.75
WEIGHTS, GRADIENTS, OPTIMIZER = "weights", "gradients", "optimizer"
RULER = [("bytes.weights_bf16", WEIGHTS), ("bytes.gradients_bf16", GRADIENTS), ("bytes.master_fp32", OPTIMIZER),
         ("bytes.momentum_fp32", OPTIMIZER), ("bytes.variance_fp32", OPTIMIZER)]
V_SEGMENT = 4
# Cells are thin lines; a segment (one stored value) has a heavy outline, so 「三格」 counts segments.
CELL_STROKE, SEGMENT_STROKE = theme.stroke("hairline"), theme.stroke("heavy")

# Ⓐ geometry: x is the order in the lineage, y the state copies (the plot's ledger ticks).
PLOT_LEFT, PLOT_BOTTOM, PLOT_W, PLOT_H = -5.7, -2.25, 11.9, 3.4
COPIES_RANGE = (-0.4, 2.4)          # the levels 0 … 2 with room for a node's label above the top one
NAMES = {"sgd": "SGD", "momentum": "＋动量", "adagrad": "AdaGrad", "rmsprop": "RMSProp", "adam": "Adam",
         "adamw": "AdamW", "muon": "Muon"}
DATED = [name for name in LINEAGE if name in YEARS and YEARS[name].status == ""]   # 待核 years stay off
MINI_CELL_W, MINI_CELL_H = 0.22, 0.32


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

        self.beat(says="权重只占 2，优化器那边占 12 —— 六倍。",
                  takeaway="权重只占 {bytes.weights_bf16}，优化器那边占 {bytes.optimizer_sum} —— "
                           "{bill.optimizer_over_weights}倍")
        self.weights_against_optimizer(bar)
        self.one_criterion(bar)

    def one_criterion(self, bar) -> None:
        """The question on every segment, gathered into one: a single criterion answers them all."""
        self.beat(says="有人会问：为什么有三格是 fp32、两格是 bf16？")
        marks = [self.question_mark(bar.segment(j)) for j in range(len(RULER))]
        question = ledger_text("为什么{optimizers.ruler.fp32_segments}格 fp{format.fp32.total_bits}、"
                               "{optimizers.ruler.bf16_segments}格 bf{format.bf16.total_bits}？", size="body")
        question.move_to([0, -1.35, 0])
        self.play(LaggedStart(*[FadeIn(m, scale=1.4) for m in marks], lag_ratio=0.15), run_time=1.0)
        self.play(FadeIn(question), run_time=0.5)

        self.beat(says="不用一格一格记，它们服从同一条判据：")
        one = self.question_mark(question).next_to(question, RIGHT, buff=theme.space("close"))
        self.play(*[Transform(m, one.copy()) for m in marks], run_time=1.2)
        self.remove(*marks[1:])       # five marks, now in one place: one question
        one = marks[0]

        self.beat(says="看这个量，老的贡献走不走。", takeaway="看这个量，老的贡献走不走")
        self.play(Indicate(one, color=theme.color("backward")), run_time=0.8)

    @staticmethod
    def segment_outline(segment: VGroup) -> Rectangle:
        """A heavy frame around one stored value's cells: the segment is the unit the notes count."""
        frame = Rectangle(width=segment.width, height=segment.height, stroke_width=SEGMENT_STROKE,
                          stroke_color=theme.color("ink"), fill_opacity=0)
        return frame.move_to(segment)

    @staticmethod
    def question_mark(target) -> VGroup:
        """A 「?」 on a background disc, so no cell border runs through it."""
        mark = words("?", size="heading", color="backward")
        disc = Circle(radius=0.27, stroke_width=theme.stroke("thin"), stroke_color=theme.color("backward"),
                      fill_color=theme.background(), fill_opacity=1)
        return VGroup(disc, mark.move_to(disc)).move_to(target)

    def weights_against_optimizer(self, bar) -> None:
        weights_brace = Brace(bar.segment(0), DOWN, color=theme.color(WEIGHTS))
        weights = ledger_text("权重 {bytes.weights_bf16}", size="body", color=WEIGHTS)
        weights.next_to(weights_brace, DOWN, buff=theme.space("tight"))
        opt_brace = Brace(bar.segments_between(2, 4), DOWN, color=theme.color(OPTIMIZER))
        optimizer = ledger_text("优化器 {bytes.optimizer_sum}（主权重 + m + v）", size="body", color=OPTIMIZER)
        optimizer.next_to(opt_brace, DOWN, buff=theme.space("tight"))
        self.play(FadeIn(weights_brace), FadeIn(weights), run_time=0.5)
        self.play(FadeIn(opt_brace), FadeIn(optimizer),
                  Indicate(bar.segments_between(2, 4), color=theme.color(OPTIMIZER)), run_time=0.9)

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
        up.move_to(plot.point(1.6, 1.78))
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
        """Ⓑ's ruler in miniature loses its v segment: the v cells drop out, the row stays one
        row (v is its last segment), and the total moves in with the bar's end: 16 → 12."""
        bar = byte_bar(RULER, cell_width=MINI_CELL_W, cell_height=MINI_CELL_H, stroke_width=CELL_STROKE)
        outlines = VGroup(*[self.segment_outline(bar.segment(j)) for j in range(len(RULER))])
        ruler = VGroup(bar, outlines)
        total = ledger_text("＝ {bytes.per_param_total} 字节", size="label")
        row = VGroup(ruler, total.next_to(ruler, RIGHT, buff=theme.space("close")))
        row.move_to([plot.x_axis.get_end()[0] - row.width / 2, content_area_top() - row.height / 2, 0])
        keep_inside(row)
        footnote = words("Muon 只管隐藏层的矩阵；嵌入和输出头仍用 AdamW —— 整个模型省得更少",
                         size="small", color="muted")
        keep_inside(footnote.next_to(row, DOWN, buff=theme.space("small")).align_to(row, RIGHT))
        self.play(FadeIn(row), run_time=0.5)
        v_cells = VGroup(bar.segment(V_SEGMENT), outlines[V_SEGMENT])
        after = ledger_text("＝ {bytes.muon_per_param} 字节", size="label", color="good")
        after.next_to(VGroup(*bar.segments_between(0, V_SEGMENT - 1), *outlines[:V_SEGMENT]), RIGHT,
                      buff=theme.space("close"))
        # The total follows v out, so the row closes as the cells leave: no gap is ever left standing.
        self.play(AnimationGroup(v_cells.animate.shift(DOWN * 0.5).set_opacity(0), ReplacementTransform(total, after),
                                 lag_ratio=0.4), run_time=1.2)
        self.remove(v_cells)
        self.play(FadeIn(footnote), run_time=0.4)
        self.show_takeaway()
