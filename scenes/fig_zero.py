"""fig-zero: ZeRO's three cuts, read off the bill (第四节).

Ⓐ One bar cut three times, one beat per cut: 120 → 31.4 → 16.6 → 1.9 GB per device, the model
   unchanged; then the price column (communication per step, ZeRO §7) beside it.
Ⓑ Size × how often it is used, each item a dot at its (bytes per parameter, frequency) point with
   its card beside it; one arrow passes optimizer state → gradients → weights, each box stamped
   with its ZeRO stage at the same anchor as the arrow reaches it: the biggest, least-used is cut
   first — the order is not history.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, DashedVMobject, Dot, FadeIn, GrowArrow, GrowFromEdge, Indicate,
                   SurroundingRectangle, VGroup)

from lecture_numerics import quantity
from lecture_numerics.zero_figure import segments
from scenes.kit import theme
from scenes.kit.annotate import boxed, brace_label, legend
from scenes.kit.arrows import arrow
from scenes.kit.bars import StackedBar
from scenes.kit.base import LectureScene
from scenes.kit.charts import guide
from scenes.kit.plots import Plot, dashed, place, upright
from scenes.kit.text import ledger_text, line, words

# Ⓐ geometry (scene units; the frame is 14.2 × 8).
BAR_LEFT, BAR_WIDTH, BAR_HEIGHT = -6.6, 8.6, 0.42
# Each row's label sits close over its own bar (LABEL_BUFF) and well clear of the bar above.
ROW_TOP, ROW_GAP, LABEL_BUFF = 1.72, 0.97, 0.05
BAR_FILL = 0.95
PRICE_X = 3.9
PRICE_TITLE_RISE = 0.42           # the column title above the first row
BADGES_Y = 2.75
SEGMENT_COLORS = ("weights", "gradients", "optimizer")
# Which segments each row splits ÷ N_d (weights, gradients, optimizer): those shards are about
# 1.5 px at full scale, so rows ② and ③ redraw them magnified just past the right end of their
# track (the empty track, the baseline's ghost, holds only the leader and its words).
SHARDED = {2: (1, 2), 3: (0, 1, 2)}
INSET_GAP = 0.2                   # the inset starts this far past the track's right end
# The magnified shards are a view, not memory in the row: lighter, in a dashed frame.
INSET_FILL, INSET_FRAME_PAD, INSET_THICKNESS = 0.4, 0.04, 0.55   # thickness: of the bar's
CARD_DROP = 0.3                  # the other names' card: this far under the last bar and the 3Ψ cell
ROW_LABELS = (
    "基线 {zero.baseline_gb} GB",
    "① 切优化器状态（{zero.stage_names[0]}）{zero.pos_gb} GB",
    "② 再切梯度（{zero.stage_names[1]}）{zero.pos_g_gb} GB",
    "③ 连权重也切（{zero.stage_names[2]}）{zero.pos_g_p_gb} GB = 基线 ÷ {zero.baseline_over_stage3}",
)
CUT_SAYS = ("切完优化器状态：31.4", "再切梯度：16.6", "最后连权重也切：1.9")

# Ⓑ geometry: the size × frequency map. Size is a true linear axis in bytes per parameter.
MAP_LEFT, MAP_RIGHT, MAP_BOTTOM, MAP_TOP = -5.4, 2.2, -1.85, 2.35
SIZE_RANGE = (0.0, 14.0)
# Frequency has no unit: it is an order, so it is drawn as 低 … 高 with the items at their rank.
FREQUENCY = {"optimizer": 0.15, "gradients": 0.52, "weights": 0.88}
LOW_AT, HIGH_AT = 0.08, 0.92
TOKEN_TINT = 0.08
DOT_R = 0.09
# The arrow's route: out of each box's top, into the next one's bottom, where the two boxes overlap.
ROUTE = (("optimizer", "gradients"), ("gradients", "weights"))
STAMP_INSET = 0.1                 # the stage stamp sits over each box's top-right corner, this far in
CUT_ORDER = ("optimizer", "gradients", "weights")     # ZeRO-1, -2, -3
CUT_ROLE = "ink"                  # the cut order's arrow and stamps: not the accent blue, too near 权重's


class FigZero(LectureScene):
    scene_id = "fig-zero"
    title = "ZeRO 的三刀：从账单上读出来"
    ledger_keys = (
        "zero.psi", "zero.n_d", "zero.k", "zero.baseline_gb", "zero.pos_gb", "zero.pos_g_gb", "zero.pos_g_p_gb",
        "zero.stage_names", "zero.baseline_over_stage3", "zero.comm_psi", "zero.comm_stage3_over_baseline",
        "zero.gb_bytes", "zero.cut_count", "zero.inset_zoom", "bytes.weights_bf16", "bytes.gradients_bf16", "bytes.optimizer_sum",
    )

    def construct(self) -> None:
        self.one_bar_cut_three_times()
        self.size_times_frequency()

    # ---- Ⓐ ----

    def row_y(self, row: int) -> float:
        return ROW_TOP - row * ROW_GAP

    def bar(self, row: int, seg: np.ndarray) -> StackedBar:
        """One row: the faint outline of the baseline and the three segments, weights first."""
        bar = StackedBar(list(zip(seg, SEGMENT_COLORS)), scale=BAR_WIDTH / segments()[0].sum(),
                         thickness=BAR_HEIGHT, opacity=BAR_FILL, track=BAR_WIDTH)
        return bar.start_at((BAR_LEFT, self.row_y(row)))

    def show_row(self, row: int) -> None:
        bar = self.bar(row, segments()[row])
        label = line(ROW_LABELS[row], size="small").next_to(bar, UP, buff=LABEL_BUFF)
        label.align_to([BAR_LEFT, 0, 0], LEFT)
        self.play(FadeIn(bar.track), GrowFromEdge(bar.blocks, LEFT), FadeIn(label), run_time=0.8)
        if row in SHARDED:
            self.play(FadeIn(self.inset(row, bar)), run_time=0.5)
        return label

    def inset(self, row: int, bar: StackedBar) -> VGroup:
        """The row's ÷ N_d shards drawn again, magnified, in a dashed frame just past its track's
        end, with a dashed leader from the real (hair-thin) shards and the magnification written on it."""
        zoom = quantity("zero.inset_zoom").value
        seg = segments()[row]
        shards = [(seg[i], SEGMENT_COLORS[i]) for i in SHARDED[row]]
        big = StackedBar(shards, scale=zoom * BAR_WIDTH / segments()[0].sum(), thickness=BAR_HEIGHT * INSET_THICKNESS,
                         opacity=INSET_FILL)
        y = self.row_y(row)
        big.start_at((BAR_LEFT + BAR_WIDTH + INSET_GAP, y))
        frame = DashedVMobject(SurroundingRectangle(big.blocks, buff=INSET_FRAME_PAD, stroke_width=2,
                                                    color=theme.color("muted")), num_dashes=30)
        tag = ledger_text("÷ {zero.n_d} 的部分 · 放大 {zero.inset_zoom} 倍 →", size="small", color="muted")
        tag.move_to([0, y, 0]).align_to([BAR_LEFT + BAR_WIDTH - theme.space("small"), 0, 0], RIGHT)
        leader = guide([bar.blocks.get_right()[0] + 0.05, y, 0], [tag.get_left()[0] - 0.1, y, 0], "muted")
        return VGroup(leader, tag, big, frame)

    def one_bar_cut_three_times(self) -> None:
        self.start_panel("A", "对答案：同样这根条，被削掉{zero.cut_count}次", says="对一下答案。同一根条，被削掉三次")
        setting = boxed(ledger_text("Ψ = {zero.psi} 参数 · {zero.n_d} 张卡 · K = {zero.k}", size="small"),
                        pad="small")
        note = ledger_text("GB = {zero.gb_bytes} 字节（同 ZeRO 论文，不是 GiB）", size="small", color="muted")
        badges = VGroup(setting, note).arrange(RIGHT, buff=theme.space("large"))
        badges.move_to([BAR_LEFT, BADGES_Y, 0], aligned_edge=LEFT)
        self.play(FadeIn(badges), run_time=0.5)

        self.beat(says="基线每张卡要装 120 GB —— 这还只是七十五亿参数的模型")
        key = legend([("weights", "权重 {bytes.weights_bf16}Ψ"), ("gradients", "梯度 {bytes.gradients_bf16}Ψ"),
                      ("optimizer", "优化器状态 KΨ")], tinted=True, gap="medium")
        base_label = self.show_row(0)
        # The legend shares the baseline's label line, at the track's right end: the bottom stays free.
        key.match_y(base_label).align_to([BAR_LEFT + BAR_WIDTH, 0, 0], RIGHT)
        self.play(FadeIn(key), Indicate(setting, color=theme.color("accent"), scale_factor=1.05), run_time=0.6)

        for row, says in enumerate(CUT_SAYS, start=1):
            self.beat(says=says)
            self.show_row(row)

        self.beat(says="从 120 到 1.9，而模型一个字节都没变小",
                  takeaway="从 {zero.baseline_gb} 到 {zero.pos_g_p_gb} GB，而模型一个字节都没变小")

        # The price column: communication volume per step, from ZeRO §7; no derivation on screen.
        self.beat(says="右边那一列是价签 —— 通信量")
        title = words("通信量", size="label").move_to([PRICE_X, self.row_y(0) + PRICE_TITLE_RISE, 0])
        cells = VGroup(*[ledger_text(f"{{zero.comm_psi[{i}]}}", size="label",
                                     color="warm" if i == 3 else "ink").move_to([PRICE_X, self.row_y(i), 0])
                         for i in range(4)])
        # 3Ψ waits for its own sentence.
        self.play(FadeIn(title), FadeIn(cells[:3], lag_ratio=0.2), run_time=0.8)

        self.beat(says="前三行都是 2Ψ，跟不切的时候一模一样： 所以前两级基本是白捡的")
        same = brace_label(cells[:3], "跟不切时一样", RIGHT, color="muted", size="small")
        same.label.set_color(theme.text_color("ink"))
        self.play(FadeIn(same), run_time=0.6)

        self.beat(says="只有最后一级涨到 3Ψ，也就是 1.5 倍")
        more = ledger_text("{zero.comm_stage3_over_baseline}", size="label", color="warm").next_to(
            cells[3], RIGHT, buff=theme.space("wide") - theme.space("tight"))
        self.play(FadeIn(cells[3]), run_time=0.4)
        self.play(FadeIn(more, shift=LEFT * 0.15), Indicate(cells[3], color=theme.color("warm")), run_time=0.7)
        self.other_names(cells)

    def other_names(self, price: VGroup) -> None:
        """The bill's other names, said in Ⓐ's cue: a card under the price column. The starred
        conclusion comes on the next sentence as the takeaway, in place of 120 → 1.9."""
        self.beat(says="顺手把其它几个常听见的名词也摆回这张账单上")
        names = VGroup(words("激活 → 重算 / 上下文并行", size="small", color="activations"),
                       words("offload：切的是「哪段时间」", size="small", color="muted"))
        names.arrange(RIGHT, buff=theme.space("large"))
        card = boxed(names, pad="close").to_edge(RIGHT, buff=theme.space("safe"))
        bars_bottom = self.row_y(3) - BAR_HEIGHT / 2
        card.align_to([0, min(price.get_bottom()[1], bars_bottom) - CARD_DROP, 0], UP)
        self.play(FadeIn(card), run_time=0.5)
        self.beat(says="所以这几个名词不是几种优化技巧", takeaway="不是优化技巧，是账单各栏的对策", replaces=True)

    # ---- Ⓑ ----

    def size_times_frequency(self) -> None:
        # Ⓑ's cue (「平移到 fig-zero 的 Ⓑ 收尾」) has no lines of its own to quote: one beat, no says.
        self.start_panel("B", "大小 × 用到的频率", takeaway="谁最大、谁最少被用到，就先切谁")
        plot = place(Plot(x_range=SIZE_RANGE, y_range=(0, 1), width=MAP_RIGHT - MAP_LEFT,
                          height=MAP_TOP - MAP_BOTTOM, arrows=True), (MAP_LEFT, MAP_BOTTOM))
        ticks = VGroup(plot.x_mark(2, "{bytes.weights_bf16}"), plot.x_mark(12, "{bytes.optimizer_sum}"))
        x_name = words("大小（每参数字节数）", size="small", color="muted").next_to(ticks, DOWN, buff=theme.space("tight"))
        x_name.set_x(plot.point(7, 0)[0])
        low = words("低", size="small", color="muted").next_to(plot.point(0, LOW_AT), RIGHT, buff=theme.space("tight"))
        high = words("高", size="small", color="muted").next_to(plot.point(0, HIGH_AT), RIGHT, buff=theme.space("tight"))
        y_name = words("一步里被用到的频率", size="small", color="muted").rotate(np.pi / 2).next_to(
            plot.y_axis, LEFT, buff=theme.space("small"))
        guides = VGroup(*(dashed(upright(plot, x, "muted", stroke_width=2)).set_opacity(0.5) for x in (2, 12)))
        self.play(FadeIn(VGroup(plot, ticks, x_name, y_name, low, high, guides)), run_time=0.6)

        sizes = {"optimizer": 12, "weights": 2, "gradients": 2}
        points = {name: plot.point(sizes[name], FREQUENCY[name]) for name in sizes}
        tokens = {
            "optimizer": self.token("优化器状态 {bytes.optimizer_sum} 字节", "只在更新时用到", "optimizer",
                                    points["optimizer"], LEFT),
            "weights": self.token("权重 {bytes.weights_bf16} 字节", "每一层前向都要用", "weights",
                                  points["weights"], RIGHT),
            "gradients": self.token("梯度 {bytes.gradients_bf16} 字节", "反向结束时才要完整的一份", "gradients",
                                    points["gradients"], RIGHT),
        }
        for name in ("optimizer", "weights", "gradients"):     # in the order the bill listed them
            self.play(FadeIn(tokens[name]), run_time=0.45)

        legs = [self.leg(tokens[a].box, tokens[b].box) for a, b in ROUTE]
        for i, name in enumerate(CUT_ORDER):
            if i:
                self.play(GrowArrow(legs[i - 1]), run_time=0.6)
            stamp = self.stamp(i, tokens[name].box)
            self.play(FadeIn(stamp, scale=1.3), Indicate(tokens[name].box, color=theme.color(CUT_ROLE)), run_time=0.5)

    @staticmethod
    def leg(lower, upper):
        """One leg of the cut order: from the top of ``lower`` up into the bottom of ``upper``,
        at the middle of the span the two boxes share, so it crosses neither."""
        x = (max(lower.get_left()[0], upper.get_left()[0]) + min(lower.get_right()[0], upper.get_right()[0])) / 2
        return arrow([x, lower.get_top()[1], 0], [x, upper.get_bottom()[1], 0], CUT_ROLE, weight="bold")

    @staticmethod
    def stamp(stage: int, box):
        """The stage's name just above the box's top-right corner, the same place on every box."""
        tag = ledger_text(f"{{zero.stage_names[{stage}]}}", size="small", color=CUT_ROLE)
        return tag.next_to(box, UP, buff=theme.space("fine")).align_to(box, RIGHT).shift(LEFT * STAMP_INSET)

    def token(self, name: str, use: str, color: str, at: np.ndarray, side: np.ndarray) -> VGroup:
        """A dot at the item's true point, its card beside it (``side``: which way the card sits)."""
        text = VGroup(line(name, size="label", color=color), words(use, size="small")).arrange(
            DOWN, aligned_edge=LEFT, buff=theme.space("tight"))
        card = boxed(text, color, fill=TOKEN_TINT, weight="thin", pad="small")
        card.next_to(at, side, buff=theme.space("small"))
        dot = Dot(at, radius=DOT_R, color=theme.color(color))
        group = VGroup(dot, card)
        group.box, group.dot = card.box, dot
        return group
