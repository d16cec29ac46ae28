"""fig-zero: ZeRO's three cuts, read off the bill (第四节).

Ⓐ One bar cut three times: 120 → 31.4 → 16.6 → 1.9 GB per device, the model unchanged; the price column.
Ⓑ Size × how often it is used: the biggest, least-used item is cut first — the order is not history.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, ORIGIN, RIGHT, UP, DR, FadeIn, GrowFromEdge, Indicate, VGroup, Write

from lecture_numerics.zero_figure import segments
from scenes.kit import theme
from scenes.kit.annotate import boxed, brace_label, legend
from scenes.kit.arrows import arrow
from scenes.kit.bars import StackedBar
from scenes.kit.base import LectureScene
from scenes.kit.layout import safe_bounds
from scenes.kit.plots import Plot, place
from scenes.kit.text import ledger_text, line, words

# Ⓐ geometry (scene units; the frame is 14.2 × 8).
BAR_LEFT, BAR_WIDTH, BAR_HEIGHT = -6.6, 8.6, 0.42
ROW_TOP, ROW_GAP = 1.55, 1.12
BAR_FILL = 0.95
PRICE_X = 3.9
PRICE_TITLE_RISE = 0.42           # the column title above the first row
BADGES_Y = 2.55
LEGEND_DROP = 0.75                # legend row under the last bar
SEGMENT_COLORS = ("weights", "gradients", "optimizer")
ROW_LABELS = (
    "基线 {zero.baseline_gb} GB",
    "① 切优化器状态（{zero.stage_names[0]}）{zero.pos_gb} GB",
    "② 再切梯度（{zero.stage_names[1]}）{zero.pos_g_gb} GB",
    "③ 连权重也切（{zero.stage_names[2]}）{zero.pos_g_p_gb} GB = 基线 ÷ {zero.baseline_over_stage3}",
)
# Ⓑ geometry: the size × frequency map.
MAP_LEFT, MAP_RIGHT, MAP_BOTTOM, MAP_TOP = -6.0, 2.6, -2.55, 2.0
SMALL_AT, BIG_AT = 0.19, 0.8                       # where 2 and 12 bytes sit along the size axis
TOKENS_AT = {"optimizer": (BIG_AT, 0.2), "weights": (0.3, 0.89), "gradients": (0.3, 0.42)}   # (size, frequency)
LOW_AT, HIGH_AT = 0.09, 0.87                       # the 低 / 高 marks up the frequency axis
SIDE_RISE = 1.6
TOKEN_TINT = 0.08


class FigZero(LectureScene):
    scene_id = "fig-zero"
    title = "ZeRO 的三刀：从账单上读出来"
    ledger_keys = (
        "zero.psi", "zero.n_d", "zero.k", "zero.baseline_gb", "zero.pos_gb", "zero.pos_g_gb", "zero.pos_g_p_gb",
        "zero.stage_names", "zero.baseline_over_stage3", "zero.comm_psi", "zero.comm_stage3_over_baseline",
        "zero.gb_bytes", "zero.cut_count", "bytes.weights_bf16", "bytes.gradients_bf16", "bytes.optimizer_sum",
    )

    def construct(self) -> None:
        self.start_panel("A", "对答案：同样这根条，被削掉{zero.cut_count}次")
        self.one_bar_cut_three_times()
        self.start_panel("B", "大小 × 用到的频率")
        self.size_times_frequency()

    # ---- Ⓐ ----

    def row_y(self, row: int) -> float:
        return ROW_TOP - row * ROW_GAP

    def bar(self, row: int, seg: np.ndarray) -> StackedBar:
        """One row: the faint outline of the baseline and the three segments, weights first."""
        bar = StackedBar(list(zip(seg, SEGMENT_COLORS)), scale=BAR_WIDTH / segments()[0].sum(),
                         thickness=BAR_HEIGHT, opacity=BAR_FILL, track=BAR_WIDTH)
        return bar.start_at((BAR_LEFT, self.row_y(row)))

    def one_bar_cut_three_times(self) -> None:
        setting = ledger_text("Ψ = {zero.psi} 参数 · N_d = {zero.n_d} 张卡 · K = {zero.k}", size="small")
        unchanged = words("模型：一个字节都没变小", size="small", color="accent")
        badges = VGroup(boxed(setting, pad="small"), boxed(unchanged, pad="small")).arrange(RIGHT, buff=theme.space("large"))
        badges.to_edge(RIGHT, buff=theme.space("safe")).shift(UP * BADGES_Y)
        self.play(FadeIn(badges), run_time=0.5)

        segs = segments()
        rows = []
        for row, (seg, template) in enumerate(zip(segs, ROW_LABELS)):
            bar = self.bar(row, seg)
            label = line(template, size="small").next_to(bar, UP, buff=theme.space("tight")).align_to([BAR_LEFT, 0, 0], LEFT)
            self.play(FadeIn(bar.track), GrowFromEdge(bar.blocks, LEFT), FadeIn(label), run_time=0.7)
            rows.append(VGroup(bar, label))
        self.play(Indicate(badges[1], color=theme.color("accent")), run_time=0.6)

        # The price column: communication volume per step, from ZeRO §7; no derivation on screen.
        title = words("通信量", size="label").move_to([PRICE_X, self.row_y(0) + PRICE_TITLE_RISE, 0])
        cells = VGroup(*[ledger_text(f"{{zero.comm_psi[{i}]}}", size="label",
                                     color="warm" if i == 3 else "ink").move_to([PRICE_X, self.row_y(i), 0])
                         for i in range(4)])
        same = brace_label(cells[:3], "跟不切时一样", RIGHT, color="muted", size="small")
        same.label.set_color(theme.text_color("ink"))
        more = ledger_text("{zero.comm_stage3_over_baseline}", size="label", color="warm").next_to(
            cells[3], RIGHT, buff=theme.space("wide") - theme.space("tight"))
        self.play(FadeIn(title), FadeIn(cells), run_time=0.6)
        self.play(FadeIn(same), FadeIn(more), run_time=0.6)

        key = legend([("weights", "权重 {bytes.weights_bf16}Ψ"), ("gradients", "梯度 {bytes.gradients_bf16}Ψ"),
                      ("optimizer", "优化器状态 KΨ")], tinted=True)
        key.next_to([BAR_LEFT, self.row_y(3) - LEGEND_DROP, 0], RIGHT, buff=0)
        note = ledger_text("GB = {zero.gb_bytes} 字节（和 ZeRO 论文相同，不是 GiB）", size="small",
                           color="muted").to_corner(DR, buff=theme.space("safe"))
        self.play(FadeIn(key), FadeIn(note), run_time=0.5)
        self.wait(1.5)

    # ---- Ⓑ ----

    def size_times_frequency(self) -> None:
        plot = place(Plot(x_range=(0, 1), y_range=(0, 1), width=MAP_RIGHT - MAP_LEFT, height=MAP_TOP - MAP_BOTTOM,
                          arrows=True, x_title="大小（每参数字节数）"), (MAP_LEFT, MAP_BOTTOM))
        y_name = words("一步里被用到的频率", size="small", color="muted").rotate(np.pi / 2).next_to(
            plot.y_axis, LEFT, buff=theme.space("small"))
        ticks = VGroup(plot.x_mark(SMALL_AT, "{bytes.weights_bf16}"), plot.x_mark(BIG_AT, "{bytes.optimizer_sum}"))
        plot.x_title.next_to(ticks, DOWN, buff=theme.space("small"))
        low = words("低", size="small", color="muted").next_to(plot.point(0, LOW_AT), RIGHT, buff=theme.space("tight"))
        high = words("高", size="small", color="muted").next_to(plot.point(0, HIGH_AT), RIGHT, buff=theme.space("tight"))
        self.play(FadeIn(VGroup(plot, y_name, ticks, low, high)), run_time=0.6)

        # Tokens in the order the speaker listed the bill; unnumbered, so ①–④ are not ZeRO's.
        tokens = {
            "optimizer": self.token("优化器状态 {bytes.optimizer_sum} 字节", "只在更新时用到", "optimizer",
                                    plot.point(*TOKENS_AT["optimizer"])),
            "weights": self.token("权重 {bytes.weights_bf16} 字节", "每一层前向都要用", "weights",
                                  plot.point(*TOKENS_AT["weights"])),
            "gradients": self.token("梯度 {bytes.gradients_bf16} 字节", "反向结束时才要完整的一份", "gradients",
                                    plot.point(*TOKENS_AT["gradients"])),
        }
        side = VGroup(words("激活 · 随 batch × 序列长度涨", size="small", color="activations"),
                      words("→ 重算 / 上下文并行", size="small", color="activations"),
                      words("offload：切的是「哪段时间」", size="small", color="muted"))
        side.arrange(DOWN, aligned_edge=LEFT, buff=theme.space("small"))
        card = boxed(side)
        card.to_edge(RIGHT, buff=theme.space("safe")).shift(UP * SIDE_RISE)
        self.play(FadeIn(tokens["optimizer"]), run_time=0.5)
        self.play(FadeIn(card), run_time=0.5)
        self.play(FadeIn(tokens["weights"]), FadeIn(tokens["gradients"]), run_time=0.6)

        sweep = arrow(tokens["optimizer"].get_corner(UP + LEFT) + RIGHT * theme.space("medium"),
                      tokens["weights"].get_corner(DOWN + RIGHT) + RIGHT * theme.space("tight"), "accent", weight="bold")
        rule = words("谁最大、谁最少被用到，就先切谁", size="label", color="accent")
        rule.move_to([safe_bounds()[2] - rule.width / 2, safe_bounds()[1] + rule.height / 2, 0])
        self.play(GrowFromEdge(sweep, DOWN), Write(rule), run_time=0.9)
        for i, (name, side) in enumerate((("optimizer", RIGHT), ("gradients", UP), ("weights", RIGHT))):
            stamp = ledger_text(f"{{zero.stage_names[{i}]}}", size="small", color="accent").next_to(
                tokens[name], side, buff=theme.space("small"), aligned_edge=LEFT if side is UP else ORIGIN)
            self.play(FadeIn(stamp, scale=1.3), run_time=0.35)
        self.wait(1.5)

    def token(self, name: str, use: str, color: str, at) -> VGroup:
        text = VGroup(line(name, size="label", color=color), words(use, size="small")).arrange(
            DOWN, aligned_edge=LEFT, buff=theme.space("tight"))
        return boxed(text, color, fill=TOKEN_TINT, weight="thin", pad="small").move_to(at)
