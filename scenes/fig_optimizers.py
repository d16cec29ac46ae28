"""fig-optimizers: what the 16 bytes per parameter are, and the lineage counted in state copies.

Ⓑ (shown first) the ruler: bf16 weight 2, bf16 gradient 2, then fp32 master, m, v; weights 2
   against optimizer 12, six times; a question mark on every segment (fig-precision answers).
Ⓐ the lineage ordered by state copies per parameter: SGD 0 → momentum 1 → AdaGrad, RMSProp 1
   → Adam, AdamW 2, then one step back down: Muon drops v, 16 bytes → 12.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, Brace, Create, DashedLine, Dot, FadeIn, FadeOut, GrowFromEdge,
                   Indicate, LaggedStart, Line, VGroup, Write)

from lecture_numerics.optimizer_state import LINEAGE, STATE_COPIES
from scenes.kit import theme
from scenes.kit.base import LectureScene
from scenes.kit.layout import at_bottom, keep_inside
from scenes.kit.panels import EDGE_BUFF, caption
from scenes.kit.format_widgets import byte_bar, format_label, stacked_label
from scenes.kit.text import ledger_text, line, number, words

# Ⓑ geometry: one cell per byte.
CELL_W, CELL_H = 0.7, 0.75
BAR_LEFT, BAR_Y = -6.55, 0.55
MODEL, OPTIMIZER = "muted", "optimizer"   # bf16 model copies grey; the optimizer's fp32 group in its colour
RULER = [("bytes.weights_bf16", MODEL), ("bytes.gradients_bf16", MODEL), ("bytes.master_fp32", OPTIMIZER),
         ("bytes.momentum_fp32", OPTIMIZER), ("bytes.variance_fp32", OPTIMIZER)]

# Ⓐ geometry: x is the order in the lineage, y the state copies.
LINEAGE_LEFT, LINEAGE_STEP = -4.9, 1.72
LEVEL_Y0, LEVEL_DY = -1.55, 1.45
NAMES = {"sgd": "SGD", "momentum": "＋动量", "adagrad": "AdaGrad", "rmsprop": "RMSProp", "adam": "Adam",
         "adamw": "AdamW", "muon": "Muon"}
YEARS = {"momentum", "adagrad", "adam", "adamw"}   # the confirmed ones (optimizer_state.YEARS)


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
        "optimizers.year.adamw", "optimizers.year.momentum", "bytes.muon_per_param",
    )

    def construct(self) -> None:
        self.the_ruler()
        self.the_lineage()

    # ---- Ⓑ the 16-byte ruler ----

    def the_ruler(self) -> None:
        self.start_panel("B", "每个参数，训练时挂着{bytes.per_param_total}个字节")
        bar = byte_bar(RULER, cell_width=CELL_W, cell_height=CELL_H)
        bar.move_to([BAR_LEFT + bar.width / 2, BAR_Y, 0])
        names = self.segment_names(bar)
        self.play(FadeIn(bar.segments_between(0, 1)), FadeIn(names[0]), FadeIn(names[1]), run_time=1.0)
        self.wait(0.3)
        self.play(LaggedStart(*[FadeIn(VGroup(bar.segment(j), names[j])) for j in (2, 3, 4)], lag_ratio=0.5),
                  run_time=1.6)
        total = keep_inside(ledger_text("＝ {bytes.per_param_total} 字节", size="heading").next_to(bar, RIGHT, buff=theme.space("close")))
        self.play(Write(total), run_time=0.6)
        self.wait(0.4)

        weights_brace = Brace(bar.segment(0), DOWN, color=theme.color(MODEL))
        weights = ledger_text("权重 {bytes.weights_bf16}", size="body").next_to(weights_brace, DOWN, buff=theme.space("tight"))
        opt_brace = Brace(bar.segments_between(2, 4), DOWN, color=theme.color(OPTIMIZER))
        optimizer = ledger_text("优化器 {bytes.optimizer_sum}（主权重 + m + v）", size="body",
                                color=OPTIMIZER).next_to(opt_brace, DOWN, buff=theme.space("tight"))
        self.play(FadeIn(weights_brace), FadeIn(weights), FadeIn(opt_brace), FadeIn(optimizer), run_time=0.8)
        ratio = ledger_text("优化器 ÷ 权重 ＝ {bill.optimizer_over_weights}倍", size="heading", color=OPTIMIZER)
        ratio.next_to(VGroup(weights, optimizer), DOWN, buff=theme.space("large")).set_x(0)
        self.play(Write(ratio), Indicate(bar.segments_between(2, 4), color=theme.color(OPTIMIZER)), run_time=1.0)
        self.wait(0.8)

        marks = VGroup(*[words("?", size="heading", color="backward").move_to(bar.segment(j)) for j in range(5)])
        question = ledger_text("为什么{optimizers.ruler.fp32_segments}格 " + "fp{format.fp32.total_bits}、"
                               "{optimizers.ruler.bf16_segments}格 bf{format.bf16.total_bits}？看这个量，老的贡献走不走",
                               size="body").to_edge(DOWN, buff=EDGE_BUFF)
        self.play(LaggedStart(*[FadeIn(m, scale=1.4) for m in marks], lag_ratio=0.15), FadeIn(question), run_time=1.2)
        recipe = words("通用的混合精度 Adam 配方（ZeRO 论文），不是某个模型自己的布局", size="small", color="muted")
        recipe.next_to(question, UP, buff=theme.space("close"))
        self.play(FadeIn(recipe), run_time=0.5)
        self.wait(2.0)

    def segment_names(self, bar) -> list[VGroup]:
        """Each segment's name above it; the narrow bf16 ones on two lines."""
        v = "{optim.v.moment_order}阶矩"
        specs = [(["bf16", "权重"], MODEL), (["bf16", "梯度"], MODEL),
                 (["fp32 主权重"], OPTIMIZER), ([f"fp32 动量 m"], OPTIMIZER), ([f"fp32 {v} v"], OPTIMIZER)]
        names = []
        for j, (lines, colour) in enumerate(specs):
            texts = [self.format_words(text, colour) for text in lines]
            label = stacked_label(texts).next_to(bar.segment(j), UP, buff=theme.space("close"))
            names.append(label)
        return names

    @staticmethod
    def format_words(text: str, colour: str):
        """"bf16 权重" → the format's width from the ledger, then the words."""
        head, _, rest = text.partition(" ")
        if head in ("bf16", "fp32", "fp16"):
            return format_label(head, (" " + rest) if rest else "", size="label", color=colour)
        return line(text, size="label", color=colour)

    # ---- Ⓐ the lineage, counted in state copies ----

    def the_lineage(self) -> None:
        self.start_panel("A", "按每个参数挂多少份状态排")
        axis, levels = self.level_axis()
        self.play(FadeIn(axis), FadeIn(levels), run_time=0.6)

        points = {name: self.node_point(i, name) for i, name in enumerate(LINEAGE)}
        nodes = {name: self.node(name, points[name]) for name in LINEAGE}
        climb = [n for n in LINEAGE if n != "muon"]
        self.play(FadeIn(nodes[climb[0]]), run_time=0.4)
        for a, b in zip(climb, climb[1:]):
            step = self.step_line(points[a], points[b], "ink")
            self.play(Create(step), FadeIn(nodes[b]), run_time=0.55)
        up = words("越往后挂得越多", size="body", color="muted").next_to(points["adagrad"], UP, buff=1.55)
        self.play(FadeIn(up), run_time=0.5)
        self.wait(0.4)

        back = self.step_line(points["adamw"], points["muon"], "good")
        turn = words("有人往回走了一步", size="body", color="good")
        turn.move_to([0, LEVEL_Y0 + 0.75 * LEVEL_DY, 0]).to_edge(RIGHT, buff=EDGE_BUFF)
        self.play(Create(back), FadeIn(nodes["muon"]), FadeIn(turn), run_time=0.9)
        self.muon_ruler(turn)
        self.wait(2.0)

    def level_axis(self):
        bottom = LEVEL_Y0 - 0.55
        x0 = LINEAGE_LEFT - 0.9
        y_axis = Line([x0, bottom, 0], [x0, LEVEL_Y0 + 2 * LEVEL_DY + 0.5, 0], color=theme.color("muted"))
        x_axis = Line([x0, bottom, 0], [LINEAGE_LEFT + 6 * LINEAGE_STEP + 0.6, bottom, 0], color=theme.color("muted"))
        levels = VGroup()
        for i in range(3):
            y = LEVEL_Y0 + i * LEVEL_DY
            levels.add(ledger_text("{optimizers.state_levels[%d]}" % i, size="body", color="muted")
                       .next_to([x0, y, 0], LEFT, buff=theme.space("close")))
            levels.add(DashedLine([x0, y, 0], [x_axis.get_end()[0], y, 0], stroke_width=1.2,
                                  color=theme.color("panel"), dash_length=0.08))
        y_name = words("每个参数挂多少份状态", size="label", color="muted").next_to(y_axis, UP, buff=theme.space("snug"))
        y_name.align_to(y_axis, LEFT).shift(LEFT * theme.space("gap"))
        x_name = words("按顺序排，不是年份刻度", size="label", color="muted").next_to(x_axis, DOWN, buff=theme.space("snug"))
        x_name.align_to(x_axis, RIGHT)
        return VGroup(y_axis, x_axis, y_name, x_name), levels

    @staticmethod
    def node_point(i: int, name: str) -> np.ndarray:
        return np.array([LINEAGE_LEFT + i * LINEAGE_STEP, LEVEL_Y0 + STATE_COPIES[name].value * LEVEL_DY, 0])

    def node(self, name: str, point) -> VGroup:
        colour = "good" if name == "muon" else "optimizer"
        dot = Dot(point, radius=0.11, color=theme.color(colour))
        label = words(NAMES[name], size="label", color="ink").next_to(dot, UP, buff=theme.space("small"))
        parts = [dot, label]
        if name in YEARS:
            parts.append(number(f"optimizers.year.{name}", size="small", color="muted").next_to(dot, DOWN, buff=theme.space("small")))
        return VGroup(*parts)

    @staticmethod
    def step_line(a, b, colour: str) -> VGroup:
        """Across, a riser half-way, across: a staircase that keeps clear of the nodes' labels."""
        mid = (a[0] + b[0]) / 2
        c1, c2 = np.array([mid, a[1], 0]), np.array([mid, b[1], 0])
        style = {"color": theme.color(colour), "stroke_width": 5}
        return VGroup(Line(a, c1, **style), Line(c1, c2, **style), Line(c2, b, **style))

    def muon_ruler(self, anchor) -> None:
        """Ⓑ's ruler in miniature loses its v segment: 16 bytes → 12."""
        bar = byte_bar(RULER, cell_width=0.2, cell_height=0.3)
        bar.next_to(anchor, DOWN, buff=theme.space("gap")).align_to(anchor, RIGHT)
        bytes_line = ledger_text("{bytes.per_param_total} 字节 → {bytes.muon_per_param} 字节", size="label",
                                 color="good").next_to(bar, LEFT, buff=theme.space("gap"))
        drop = ledger_text("Muon：把{optim.v.moment_order}阶矩 v 那一份拿掉了", size="label", color="good")
        drop.next_to(VGroup(bar, bytes_line), DOWN, buff=theme.space("close")).align_to(bar, RIGHT)
        self.play(FadeIn(bar), FadeIn(drop), run_time=0.6)
        self.play(FadeOut(bar.segment(4), shift=DOWN * theme.space("close")), FadeIn(bytes_line), run_time=0.8)
        footnote = words("Muon 只管隐藏层的矩阵；嵌入和输出头仍用 AdamW —— 整个模型省得更少",
                         size="small", color="muted")
        at_bottom(footnote).to_edge(LEFT, buff=EDGE_BUFF)
        self.play(FadeIn(footnote), run_time=0.4)
