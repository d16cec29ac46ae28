"""fig-recompute: recompute — the short bar grows a little, the long bar nearly vanishes (第二节).

Ⓐ Two groups of bars, each drawn so that its 不开重算 bar has one length: 算力 grows from fig-3x's
   three tiles to four (one more forward, re-run from each layer's entrance); 激活显存 shrinks to a
   sliver (the 存档点, in fig-act-bill's inset colour). Shapes first, numbers after (the notes'
   4.15 TiB counts the dense first layers as MoE; the errata tells the speaker). The ⭐ sentence
   stays along the bottom, the biggest text; the one said after it sits above it, smaller, with
   room to either side.
"""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, UP, FadeIn, GrowFromEdge, Transform, VGroup

from lecture_numerics import quantity
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
STORED, KEPT = "activations", "accent"   # the stored activations; what recompute keeps (as in fig-act-bill)
THEN_LINE_Y = -2.4                  # 「默认就是开着的」: midway between the basis line and the ⭐ takeaway


class FigRecompute(LectureScene):
    scene_id = "fig-recompute"
    title = "重算：不存过程，只存存档点"
    ledger_keys = ("threex.train_over_inference", "threex.forward_matmuls_zh", "recompute.compute_multiple_after",
                   "recompute.compute_extra_fraction", "act.v3.no_recompute_tib", "act.v3.full_recompute_gib",
                   "recompute.activation_shrink", "model.v3.n_dense_layers",
                   "recompute.seq_len_label")

    def construct(self) -> None:
        self.start_panel("A", "重算：不存过程，只存存档点", says="重算是什么？一句话：不存过程，只存存档点")
        compute_before, compute_after = self.compute_bars()
        memory_before, memory_after = self.memory_bars(compute_before.width)
        self.play(FadeIn(compute_before), FadeIn(compute_after[:-1]), FadeIn(memory_before),
                  FadeIn(memory_after), run_time=0.6)

        self.beat(says="反向要用的时候，从这一层的入口再往前跑一遍")
        self.play(GrowFromEdge(compute_after[-1], LEFT), run_time=0.9)

        self.beat(says="代价是多跑一次前向，算力从三倍变四倍 —— 多三分之一")
        self.play(FadeIn(self.compute_numbers(compute_after)), run_time=0.6)

        self.beat(says="换回来的是：4.15 TiB 变成 106.75 GiB，四十倍")
        sliver = self.memory_bar(compute_before.width / quantity("recompute.activation_shrink").value,
                                 MEMORY_ROWS_Y[1], KEPT)
        self.play(Transform(memory_after, sliver), run_time=1.2)
        self.wait(0.4)                      # the shape settles before its numbers come
        self.play(FadeIn(self.memory_numbers(memory_before)), run_time=0.6)

        self.beat(says="这个兑换比例夸张到不像是个权衡", takeaway="这个兑换比例夸张到不像是个权衡")

        # Not starred in the notes: it follows the ⭐ line, above it and smaller, so the ⭐ stays biggest.
        self.beat(says="所以在大模型训练里，它默认就是开着的 —— 值得讨论的从来不是开不开，是开到哪一档")
        # 「哪一档」 as said would read as a numeral to the ledger check: 「哪个档位」 says the same.
        then = words("所以它默认就是开着的 —— 值得讨论的从来不是开不开，是开到哪个档位", size="label")
        self.play(FadeIn(then.move_to([0, THEN_LINE_Y, 0]), shift=UP * 0.1), run_time=0.6)

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
        terms = [("前向", forward, "ink"), ("反向", backward, "backward")]
        before = self.tiles(terms, COMPUTE_ROWS_Y[0])
        after = self.tiles(terms + [("重算", extra, "accent")], COMPUTE_ROWS_Y[1])
        self.add(self.row_names("算力", COMPUTE_ROWS_Y))
        return before, after

    def tiles(self, terms, y: float) -> VGroup:
        row = TallyRow(terms, tile=TILE, gap=TILE_GAP, group_gap=TILE_GAP)
        row.move_to([0, y, 0]).align_to([BAR_LEFT, 0, 0], LEFT)
        return VGroup(*[VGroup(tile, name) for group in row.groups for tile, name in zip(*group)])

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
            ledger_text("÷{recompute.activation_shrink}", size="heading", color=KEPT),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.15)
        memory.next_to(memory_before, RIGHT, buff=0.3).set_y((MEMORY_ROWS_Y[0] + MEMORY_ROWS_Y[1]) / 2)
        basis = ledger_text("一条 {recompute.seq_len_label} 序列 · 前 {model.v3.n_dense_layers} 层 dense · DeepSeek-V3",
                            size="small", color="muted")
        basis.move_to([0, MEMORY_ROWS_Y[1] - BASIS_DY, 0]).align_to([BAR_LEFT, 0, 0], LEFT)
        return VGroup(memory, basis)
