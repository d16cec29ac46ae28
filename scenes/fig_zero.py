"""fig-zero: ZeRO's three cuts, read off the bill (第四节).

Ⓐ One bar cut three times: 120 → 31.4 → 16.6 → 1.9 GB per device, the model unchanged; the price column.
Ⓑ Size × how often it is used: the biggest, least-used item is cut first — the order is not history.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, Arrow, Brace, FadeIn, GrowFromEdge, Indicate, Line, Rectangle,
                   RoundedRectangle, VGroup, Write)

from lecture_numerics.zero_figure import segments
from scenes.kit import theme
from scenes.kit.base import LectureScene
from scenes.kit.text import ledger_text, line, words

# Ⓐ geometry (scene units; the frame is 14.2 × 8).
BAR_LEFT, BAR_WIDTH, BAR_HEIGHT = -6.6, 8.6, 0.42
ROW_TOP, ROW_GAP = 1.55, 1.12
PRICE_X = 3.9
SEGMENT_COLORS = ("weights", "gradients", "optimizer")
ROW_LABELS = (
    "基线 {zero.baseline_gb} GB",
    "① 切优化器状态（{zero.stage_names[0]}）{zero.pos_gb} GB",
    "② 再切梯度（{zero.stage_names[1]}）{zero.pos_g_gb} GB",
    "③ 连权重也切（{zero.stage_names[2]}）{zero.pos_g_p_gb} GB = 基线 ÷ {zero.baseline_over_stage3}",
)
# Ⓑ geometry: the size × frequency map.
MAP_LEFT, MAP_RIGHT, MAP_BOTTOM, MAP_TOP = -6.0, 2.6, -2.7, 2.0


class FigZero(LectureScene):
    scene_id = "fig-zero"
    title = "ZeRO 的三刀：从账单上读出来"
    ledger_keys = (
        "zero.psi", "zero.n_d", "zero.k", "zero.baseline_gb", "zero.pos_gb", "zero.pos_g_gb", "zero.pos_g_p_gb",
        "zero.stage_names", "zero.baseline_over_stage3", "zero.comm_psi", "zero.comm_stage3_over_baseline",
        "zero.gb_bytes", "zero.cut_count", "bytes.weights_bf16", "bytes.gradients_bf16", "bytes.optimizer_fp32",
    )

    def construct(self) -> None:
        self.start_panel("A", "对答案：同样这根条，被削掉{zero.cut_count}次")
        self.one_bar_cut_three_times()
        self.start_panel("B", "大小 × 用到的频率")
        self.size_times_frequency()

    # ---- Ⓐ ----

    def row_y(self, row: int) -> float:
        return ROW_TOP - row * ROW_GAP

    def bar(self, row: int, seg: np.ndarray) -> VGroup:
        """One row: the faint outline of the baseline and the three segments, weights first."""
        scale = BAR_WIDTH / segments()[0].sum()
        y = self.row_y(row)
        ghost = Rectangle(width=BAR_WIDTH, height=BAR_HEIGHT, stroke_width=1.5,
                          stroke_color=theme.color("muted"), stroke_opacity=0.6)
        ghost.move_to([BAR_LEFT + BAR_WIDTH / 2, y, 0])
        parts, x = VGroup(), BAR_LEFT
        for width_gb, color in zip(seg, SEGMENT_COLORS):
            w = max(width_gb * scale, 0.004)
            parts.add(Rectangle(width=w, height=BAR_HEIGHT, stroke_width=0, fill_color=theme.color(color),
                                fill_opacity=0.95).move_to([x + w / 2, y, 0]))
            x += w
        return VGroup(ghost, parts)

    def one_bar_cut_three_times(self) -> None:
        setting = ledger_text("Ψ = {zero.psi} 参数 · N_d = {zero.n_d} 张卡 · K = {zero.k}", size="small")
        unchanged = words("模型：一个字节都没变小", size="small", color="accent")
        badges = VGroup(*[VGroup(RoundedRectangle(corner_radius=0.1, width=t.width + 0.4, height=t.height + 0.25,
                                                  stroke_width=1.5, stroke_color=theme.color("muted")), t)
                          for t in (setting, unchanged)]).arrange(RIGHT, buff=0.35)
        badges.to_edge(RIGHT, buff=0.35).shift(UP * 2.55)
        for box, text in badges:
            text.move_to(box)
        self.play(FadeIn(badges), run_time=0.5)

        segs = segments()
        rows = []
        for row, (seg, template) in enumerate(zip(segs, ROW_LABELS)):
            bar = self.bar(row, seg)
            label = line(template, size="small").next_to(bar, UP, buff=0.08).align_to([BAR_LEFT, 0, 0], LEFT)
            self.play(FadeIn(bar[0]), GrowFromEdge(bar[1], LEFT), FadeIn(label), run_time=0.7)
            rows.append(VGroup(bar, label))
        self.play(Indicate(badges[1], color=theme.color("accent")), run_time=0.6)

        # The price column: communication volume per step, from ZeRO §7; no derivation on screen.
        title = words("通信量", size="label").move_to([PRICE_X, self.row_y(0) + 0.42, 0])
        cells = VGroup(*[ledger_text(f"{{zero.comm_psi[{i}]}}", size="label",
                                     color="warm" if i == 3 else "ink").move_to([PRICE_X, self.row_y(i), 0])
                         for i in range(4)])
        same = Brace(cells[:3], RIGHT, color=theme.color("muted"))
        same_text = words("跟不切时一样", size="small").next_to(same, RIGHT, buff=0.1)
        more = ledger_text("{zero.comm_stage3_over_baseline}", size="label", color="warm").next_to(
            cells[3], RIGHT, buff=0.5)
        self.play(FadeIn(title), FadeIn(cells), run_time=0.6)
        self.play(FadeIn(same), FadeIn(same_text), FadeIn(more), run_time=0.6)

        legend = VGroup(*[VGroup(Rectangle(width=0.28, height=0.28, stroke_width=0, fill_color=theme.color(c),
                                           fill_opacity=0.95), line(t, size="small", color=c)).arrange(RIGHT, buff=0.12)
                          for t, c in (("权重 {bytes.weights_bf16}Ψ", "weights"),
                                       ("梯度 {bytes.gradients_bf16}Ψ", "gradients"),
                                       ("优化器状态 KΨ", "optimizer"))]).arrange(RIGHT, buff=0.5)
        legend.next_to([BAR_LEFT, self.row_y(3) - 0.75, 0], RIGHT, buff=0)
        note = ledger_text("GB = {zero.gb_bytes} 字节（和 ZeRO 论文相同，不是 GiB）", size="small",
                           color="muted").to_corner(DOWN + RIGHT, buff=0.35)
        self.play(FadeIn(legend), FadeIn(note), run_time=0.5)
        self.wait(1.5)

    # ---- Ⓑ ----

    def size_times_frequency(self) -> None:
        muted = theme.color("muted")
        x_axis = Arrow([MAP_LEFT, MAP_BOTTOM, 0], [MAP_RIGHT, MAP_BOTTOM, 0], buff=0, color=muted, stroke_width=3)
        y_axis = Arrow([MAP_LEFT, MAP_BOTTOM, 0], [MAP_LEFT, MAP_TOP, 0], buff=0, color=muted, stroke_width=3)
        x_name = words("大小（每参数字节数）", size="small", color="muted").next_to(x_axis, DOWN, buff=0.5)
        y_name = words("一步里被用到的频率", size="small", color="muted").rotate(np.pi / 2).next_to(
            y_axis, LEFT, buff=0.15)
        small_x, big_x = MAP_LEFT + 1.6, MAP_RIGHT - 1.7
        ticks = VGroup(*[VGroup(Line([x, MAP_BOTTOM, 0], [x, MAP_BOTTOM - 0.1, 0], color=muted, stroke_width=3),
                                ledger_text(t, size="small", color="muted").next_to([x, MAP_BOTTOM - 0.1, 0], DOWN, buff=0.06))
                         for x, t in ((small_x, "{bytes.weights_bf16}"), (big_x, "{bytes.optimizer_fp32}"))])
        low = words("低", size="small", color="muted").next_to([MAP_LEFT, MAP_BOTTOM + 0.4, 0], RIGHT, buff=0.12)
        high = words("高", size="small", color="muted").next_to([MAP_LEFT, MAP_TOP - 0.6, 0], RIGHT, buff=0.12)
        self.play(FadeIn(VGroup(x_axis, y_axis, x_name, y_name, ticks, low, high)), run_time=0.6)

        # Tokens in the order the speaker listed the bill; unnumbered, so ①–④ are not ZeRO's.
        tokens = {
            "optimizer": self.token("优化器状态 {bytes.optimizer_fp32} 字节", "只在更新时用到", "optimizer",
                                    [big_x, MAP_BOTTOM + 0.9, 0]),
            "weights": self.token("权重 {bytes.weights_bf16} 字节", "每一层前向都要用", "weights",
                                  [small_x + 1.0, MAP_TOP - 0.5, 0]),
            "gradients": self.token("梯度 {bytes.gradients_bf16} 字节", "反向结束时才要完整的一份", "gradients",
                                    [small_x + 1.0, MAP_BOTTOM + 1.9, 0]),
        }
        side = VGroup(words("激活 · 随 batch × 序列长度涨", size="small", color="activations"),
                      words("→ 重算 / 上下文并行", size="small", color="activations"),
                      words("offload：切的是「哪段时间」", size="small", color="muted"))
        side.arrange(DOWN, aligned_edge=LEFT, buff=0.18).to_edge(RIGHT, buff=0.35).shift(UP * 1.6)
        frame = RoundedRectangle(corner_radius=0.12, width=side.width + 0.4, height=side.height + 0.35,
                                 stroke_width=1.5, stroke_color=muted).move_to(side)
        self.play(FadeIn(tokens["optimizer"]), run_time=0.5)
        self.play(FadeIn(VGroup(frame, side)), run_time=0.5)
        self.play(FadeIn(tokens["weights"]), FadeIn(tokens["gradients"]), run_time=0.6)

        sweep = Arrow(tokens["optimizer"].get_corner(UP + LEFT) + RIGHT * 0.2,
                      tokens["weights"].get_corner(DOWN + RIGHT) + RIGHT * 0.1,
                      color=theme.color("accent"), stroke_width=5, buff=0.1)
        rule = words("谁最大、谁最少被用到，就先切谁", size="label", color="accent").to_edge(DOWN, buff=0.3).to_edge(
            RIGHT, buff=0.35)
        self.play(GrowFromEdge(sweep, DOWN), Write(rule), run_time=0.9)
        for i, (name, side) in enumerate((("optimizer", RIGHT), ("gradients", UP), ("weights", RIGHT))):
            stamp = ledger_text(f"{{zero.stage_names[{i}]}}", size="small", color="accent").next_to(
                tokens[name], side, buff=0.15, aligned_edge=LEFT if side is UP else np.array([0, 0, 0]))
            self.play(FadeIn(stamp, scale=1.3), run_time=0.35)
        self.wait(1.5)

    def token(self, name: str, use: str, color: str, at) -> VGroup:
        text = VGroup(line(name, size="label", color=color), words(use, size="small")).arrange(
            DOWN, aligned_edge=LEFT, buff=0.08)
        box = RoundedRectangle(corner_radius=0.12, width=text.width + 0.35, height=text.height + 0.3,
                               stroke_width=2, stroke_color=theme.color(color), fill_color=theme.color(color),
                               fill_opacity=0.08)
        return VGroup(box, text).move_to(at)
