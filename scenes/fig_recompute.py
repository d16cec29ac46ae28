"""fig-recompute: recompute — the short bar grows a little, the long bar nearly vanishes (第二节).

Ⓐ Two groups of bars, each drawn so that its 不开重算 bar has one length: 算力 grows from fig-3x's
   three tiles to four — a second 前向 tile, tagged 重算, slides in between the forward and the
   backward tiles (re-run from each layer's entrance, before its backward); 激活显存 shrinks to a
   sliver (the 存档点). Shapes first, numbers after (the notes' 4.15 TiB counts the dense first
   layers as MoE; the errata tells the speaker), with the ratio written as said (约四十倍). The ⭐
   sentence and the one said after it are takeaways: the later one stands under the ⭐ line.
"""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, UP, FadeIn, GrowFromEdge, Transform, VGroup

from lecture_numerics import quantity
from scenes.kit import theme, widgets
from scenes.kit.bars import Segment, StackedBar, stacked_bar
from scenes.kit.base import LectureScene
from scenes.kit.matmul_widgets import TallyRow
from scenes.kit.text import ledger_text, words

# Geometry (scene units; the frame is 14.2 × 8). Content ends above two stacked takeaways.
BAR_LEFT = -3.9                     # where every bar starts
ROW_NAME_RIGHT = -4.2               # right edge of the row names
TILE = (1.7, 0.62)                  # one equal-cost tile of the compute bar
TILE_GAP = 0.08
COMPUTE_ROWS_Y = (2.0, 1.2)         # 不开重算, 开了重算
MEMORY_ROWS_Y = (-0.3, -1.1)
GROUP_NAME_DY = 0.72                # group name above its first row
BASIS_DY = 0.55                     # the bill's basis, under the last row
STORED = "activations"              # stored activations, and the checkpoints recompute keeps (as in fig-act-bill)
RECOMPUTE_SLOT = 1                  # the recomputed forward runs before the backward it serves


class FigRecompute(LectureScene):
    scene_id = "fig-recompute"
    title = "重算：不存过程，只存存档点"
    ledger_keys = ("threex.train_over_inference", "threex.forward_matmuls_zh", "recompute.compute_multiple_after",
                   "recompute.compute_extra_fraction", "act.v3.no_recompute_tib", "act.v3.full_recompute_gib",
                   "recompute.activation_shrink", "recompute.activation_shrink_said", "model.v3.n_dense_layers",
                   "recompute.seq_len_label")

    def construct(self) -> None:
        self.start_panel("A", "重算：不存过程，只存存档点", says="重算是什么？一句话：不存过程，只存存档点")
        compute_before, compute_after = self.compute_bars()
        memory_before, memory_after = self.memory_bars(compute_before.width)
        recomputed, backward = compute_after[RECOMPUTE_SLOT], compute_after[RECOMPUTE_SLOT + 1:]
        backward.shift(LEFT * (TILE[0] + TILE_GAP))         # closed up until the extra forward slides in
        self.play(FadeIn(compute_before), FadeIn(compute_after[:RECOMPUTE_SLOT]), FadeIn(backward),
                  FadeIn(memory_before), FadeIn(memory_after), run_time=0.6)

        self.beat(says="反向要用的时候，从这一层的入口再往前跑一遍")
        # The tile grows into its slot; its name and tag come once it has its full size.
        self.play(backward.animate.shift(RIGHT * (TILE[0] + TILE_GAP)), GrowFromEdge(recomputed.box, LEFT),
                  run_time=0.9)
        tag = widgets.badge("重算", "ink").next_to(recomputed, DOWN, buff=theme.space("tight"))
        self.play(FadeIn(recomputed.name), FadeIn(tag, shift=UP * theme.space("tight")), run_time=0.4)

        self.beat(says="代价是多跑一次前向，算力从三倍变四倍 —— 多三分之一")
        self.play(FadeIn(self.compute_numbers(compute_after)), run_time=0.6)

        self.beat(says="换回来的是：4.15 TiB 变成 106.75 GiB，四十倍")
        sliver = self.memory_bar(compute_before.width / quantity("recompute.activation_shrink").value,
                                 MEMORY_ROWS_Y[1])
        self.play(Transform(memory_after, sliver), run_time=1.2)
        self.wait(0.4)                      # the shape settles before its numbers come
        self.play(FadeIn(self.memory_numbers(memory_before)), run_time=0.6)

        self.beat(says="这个兑换比例夸张到不像是个权衡", takeaway="这个兑换比例夸张到不像是个权衡")

        # Said after the ⭐ line: a takeaway under it, so the panel reads top to bottom in order.
        # 「哪一档」 would read as a numeral to the ledger check: 「哪档」 says the same.
        self.beat(says="所以在大模型训练里，它默认就是开着的 —— 值得讨论的从来不是开不开，是开到哪一档",
                  takeaway="默认开着 —— 值得讨论的是开到哪档")

    def row_names(self, group: str, ys: tuple[float, float]) -> VGroup:
        name = words(group, size="body").move_to([0, ys[0] + GROUP_NAME_DY, 0])
        name.align_to([ROW_NAME_RIGHT - 1.9, 0, 0], LEFT)
        rows = VGroup(*[words(w, size="label", color="muted").move_to([0, y, 0]).align_to([ROW_NAME_RIGHT, 0, 0], RIGHT)
                        for w, y in zip(("不开重算", "开了重算"), ys)])
        return VGroup(name, rows)

    # ---- 算力: 3 tiles → 4 tiles ----

    def compute_bars(self) -> tuple[VGroup, VGroup]:
        forward = round(quantity("threex.forward_matmuls").value)
        backward = round(quantity("threex.backward_matmuls").value)
        extra = round(quantity("recompute.compute_multiple_after").value - quantity("threex.train_over_inference").value)
        before = self.tiles([("前向", forward, "ink"), ("反向", backward, "backward")], COMPUTE_ROWS_Y[0])
        after = self.tiles([("前向", forward + extra, "ink"), ("反向", backward, "backward")], COMPUTE_ROWS_Y[1])
        self.add(self.row_names("算力", COMPUTE_ROWS_Y))
        return before, after

    @staticmethod
    def tiles(terms, y: float) -> VGroup:
        """One (tile, name) pair per equal-cost unit, left to right; each pair's parts by name."""
        row = TallyRow(terms, tile=TILE, gap=TILE_GAP, group_gap=TILE_GAP)
        row.move_to([0, y, 0]).align_to([BAR_LEFT, 0, 0], LEFT)
        pairs = VGroup()
        for group in row.groups:
            for box, name in zip(*group):
                pair = VGroup(box, name)
                pair.box, pair.name = box, name
                pairs.add(pair)
        return pairs

    # ---- 激活显存: full length → a sliver ----

    def memory_bars(self, full_width: float) -> tuple[StackedBar, StackedBar]:
        self.add(self.row_names("激活显存", MEMORY_ROWS_Y))
        return self.memory_bar(full_width, MEMORY_ROWS_Y[0]), self.memory_bar(full_width, MEMORY_ROWS_Y[1])

    @staticmethod
    def memory_bar(width: float, y: float, color: str = STORED) -> StackedBar:
        """One kit bar, ``width`` scene units long (the lengths are the figure's shapes; the
        numbers come after them)."""
        return stacked_bar([Segment(width, color)], scale=1.0, thickness=TILE[1]).start_at((BAR_LEFT, y))

    # ---- the numbers, once the shapes have settled ----

    @staticmethod
    def compute_numbers(compute_after: VGroup) -> VGroup:
        compute = ledger_text("{threex.train_over_inference}× → {recompute.compute_multiple_after}×"
                              "（多 {recompute.compute_extra_fraction}）", size="label")
        compute.next_to(compute_after, RIGHT, buff=0.3).set_y((COMPUTE_ROWS_Y[0] + COMPUTE_ROWS_Y[1]) / 2)
        return VGroup(compute)

    @staticmethod
    def memory_numbers(memory_before: StackedBar) -> VGroup:
        memory = VGroup(
            ledger_text("{act.v3.no_recompute_tib} TiB → {act.v3.full_recompute_gib} GiB", size="label"),
            ledger_text("÷{recompute.activation_shrink}（约 {recompute.activation_shrink_said} 倍）", size="heading"),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.15)
        memory.next_to(memory_before, RIGHT, buff=0.3).set_y((MEMORY_ROWS_Y[0] + MEMORY_ROWS_Y[1]) / 2)
        basis = ledger_text("DeepSeek-V3 · {recompute.seq_len_label} 序列 · 前 {model.v3.n_dense_layers} 层 dense"
                            " · 按算子推算", size="small", color="muted")
        basis.move_to([0, MEMORY_ROWS_Y[1] - BASIS_DY, 0]).align_to([BAR_LEFT, 0, 0], LEFT)
        return VGroup(memory, basis)
