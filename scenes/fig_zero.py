"""fig-zero: ZeRO's three cuts, read off the bill (第四节).

Ⓐ One bar cut three times, one beat per cut: 120 → 31.4 → 16.6 → 1.9 GB per device, the model
   unchanged (the ÷ N_d shards redrawn magnified past the track, at the bar's own strength); then
   the price column (communication per step, ZeRO §7) beside it; then the bill's four columns under
   the bar, each with its cure: the three ZeRO stages, then 重算, offload (an ink band across all
   the columns: it cuts a stretch of time, not an item — one stretch, the optimizer state's idle
   time, lit and moved away) and 上下文并行, each as the speaker names it. The bar itself comes
   first, with no number (「同一根条」); its 120 GB and legend with the next sentence.
Ⓑ Size × how often it is used: each item a dot at (bytes per parameter, frequency), its name beside
   it, the frequency read on the y axis; one arrow passes optimizer state → gradients → weights,
   each stamped with its ZeRO stage as the arrow reaches it: the biggest, least-used is cut
   first — the order is not history.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, FadeIn, FadeOut, GrowArrow, GrowFromEdge, Indicate, LaggedStart,
                   TransformFromCopy, VGroup)

from lecture_numerics import quantity
from lecture_numerics.zero_figure import segments
from scenes.kit import marks, theme, widgets
from scenes.kit.annotate import boxed, brace_label, legend
from scenes.kit.arrows import arrow
from scenes.kit.bars import StackedBar
from scenes.kit.base import LectureScene
from scenes.kit.charts import guide
from scenes.kit.plots import Plot, place
from scenes.kit.text import ledger_text, line, words

# Ⓐ geometry (scene units; the frame is 14.2 × 8).
BAR_LEFT, BAR_WIDTH, BAR_HEIGHT = -6.6, 8.6, 0.42
# Each row's label sits close over its own bar (LABEL_BUFF) and well clear of the bar above.
ROW_TOP, ROW_GAP, LABEL_BUFF = 1.72, 0.87, 0.05
BAR_FILL = 0.95
PRICE_X = 3.9
PRICE_TITLE_RISE = 0.42           # the column title above the first row
BADGES_Y = 2.75
SEGMENT_COLORS = ("weights", "gradients", "optimizer")
# Which segments each row splits ÷ N_d (weights, gradients, optimizer): those shards are about
# 1.5 px at full scale, so rows 2 and 3 redraw them magnified just past the right end of their
# track, at the bar's own strength (they are kept memory: pale would mean gone). The empty
# track, the baseline's ghost, holds only the leader; the magnification is written over the inset.
SHARDED = {2: (1, 2), 3: (0, 1, 2)}
INSET_GAP = 0.2                   # the inset starts this far past the track's right end
INSET_THICKNESS = 0.55            # of the bar's
ROW_LABELS = (
    "基线 {zero.baseline_gb} GB",
    "{zero.stage_names[0]}：切优化器状态 {zero.pos_gb} GB",
    "{zero.stage_names[1]}：再切梯度 {zero.pos_g_gb} GB",
    "{zero.stage_names[2]}：连权重也切 {zero.pos_g_p_gb} GB",
)
CUT_SAYS = ("切完优化器状态：31.4", "再切梯度：16.6", "最后连权重也切：1.9")
# The bill's four columns under the bar (「摆回这张账单上」), as wide as the bar together: each
# item's name in its own colour, its cure under it. ZeRO's stages sit under the three it splits.
BILL = (("权重", "weights", 2), ("梯度", "gradients", 1), ("优化器状态", "optimizer", 0), ("激活", "activations", None))
BILL_TOP = -1.22                  # the column names' top, under the last bar (before the block rises)
# 「其它名词」 (A.10): the setting badges leave and the bars, their labels and the price column rise
# by BLOCK_RISE, the price column and the insets paled (said, no longer the subject); the bill's
# rows under them get the room: chips, cures, the offload band and the takeaway each clear.
BLOCK_RISE = 0.45
SAID_OPACITY = 0.35
BILL_RIGHT = 6.6                  # the columns span the frame from the bar's left edge (the safe area's)
CURE_DROP = 0.46                  # a cure's row under its column's name
OFFLOAD_DROP = 0.42               # the offload band under the cures' row (well clear of the takeaway under it)
OFFLOAD_HEIGHT = 0.4
IDLE_STRETCH = 2                  # the column whose idle stretch offload moves away: the optimizer state's
IDLE_WIDTH = 0.92                 # of its column: the stretch between two updates
# 「模型一个字节都没变小」 drawn: N_d copies of ZeRO-3's sliver (one per card) laid end to end under
# the bars, exactly as long as the baseline; there until the bill's columns take the band (A.10).
TILE_Y = -2.05

# Ⓑ geometry: the size × frequency map, centred (its y levels are labelled left of the axis).
# Size is a true linear axis in bytes per parameter.
MAP_LEFT, MAP_RIGHT, MAP_BOTTOM, MAP_TOP = -2.6, 5.0, -1.68, 2.45   # the axis name well clear of the takeaway
SIZE_RANGE = (0.0, 14.0)
# Frequency has no unit: it is an order, so each item sits at its rank and the axis names the level.
FREQUENCY = {"optimizer": 0.2, "gradients": 0.52, "weights": 0.88}
SIZES = {"optimizer": "bytes.optimizer_sum", "gradients": "bytes.gradients_bf16", "weights": "bytes.weights_bf16"}
USE = {"optimizer": "更新时才用", "gradients": "反向末才齐", "weights": "前向每层用"}
NAMES = {"optimizer": "优化器状态", "gradients": "梯度", "weights": "权重"}
ROLES = {"optimizer": "optimizer", "gradients": "gradients", "weights": "weights"}
CUT_ORDER = ("optimizer", "gradients", "weights")     # ZeRO-1, -2, -3
CUT_ROLE = "ink"                  # the cut order's arrow and stamps: an operation, no concept's colour
PRICE_ROLE = "accent"             # the one price cell the speaker points at: 3Ψ, 1.5 ×


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

    def show_row(self, row: int, bar: StackedBar | None = None):
        """Row ``row``: its bar (grown here unless ``bar``, already drawn, is given) and its label."""
        drawn = bar is not None
        bar = bar if drawn else self.bar(row, segments()[row])
        label = line(ROW_LABELS[row], size="small").next_to(bar, UP, buff=LABEL_BUFF)
        label.align_to([BAR_LEFT, 0, 0], LEFT)
        if row == len(ROW_LABELS) - 1:      # the last cut: every state split N_d ways, the baseline ÷ N_d
            ratio = ledger_text("= 基线 ÷ {zero.baseline_over_stage3}", size="small", color="muted")
            label = VGroup(label, ratio.next_to(label, RIGHT, buff=theme.space("small")))
        if drawn:
            self.play(FadeIn(label), run_time=0.5)
        else:
            self.play(FadeIn(bar.track), GrowFromEdge(bar.blocks, LEFT), FadeIn(label), run_time=0.8)
        if row in SHARDED:
            inset = self.inset(row, bar)
            self.play(FadeIn(inset), run_time=0.5)
            self.insets = [*getattr(self, "insets", []), inset]
        self.bars = [*getattr(self, "bars", []), bar]
        self.row_labels = [*getattr(self, "row_labels", []), label]
        return label

    def inset(self, row: int, bar: StackedBar) -> VGroup:
        """The row's ÷ N_d shards drawn again, magnified, in a dashed frame just past its track's
        end, with a dashed leader from the real (hair-thin) shards and the magnification over it."""
        zoom = quantity("zero.inset_zoom").value
        seg = segments()[row]
        shards = [(seg[i], SEGMENT_COLORS[i]) for i in SHARDED[row]]
        big = StackedBar(shards, scale=zoom * BAR_WIDTH / segments()[0].sum(), thickness=BAR_HEIGHT * INSET_THICKNESS,
                         opacity=BAR_FILL)
        y = self.row_y(row)
        big.start_at((BAR_LEFT + BAR_WIDTH + INSET_GAP, y))
        frame = marks.frame_around(big.blocks, "muted", pad="hair", weight="thin", corner="square", dashed=True)
        tag = ledger_text("放大 {zero.inset_zoom} 倍", size="small", color="muted")
        tag.next_to(frame, UP, buff=theme.space("hair")).align_to(frame, LEFT)
        leader = guide([bar.blocks.get_right()[0] + theme.space("hair"), y, 0],
                       [frame.get_left()[0] - theme.space("hair"), y, 0], "muted")
        return VGroup(leader, tag, big, frame)

    def one_bar_cut_three_times(self) -> None:
        self.start_panel("A", "对答案：ZeRO 的{zero.cut_count}刀", says="对一下答案。同一根条，被削掉三次")
        setting = boxed(ledger_text("Ψ = {zero.psi} 参数 · {zero.n_d} 张卡 · K = {zero.k}", size="small"),
                        pad="small")
        note = ledger_text("GB = {zero.gb_bytes} 字节，非 GiB", size="small", color="muted")
        badges = VGroup(setting, note).arrange(RIGHT, buff=theme.space("large"))
        badges.move_to([BAR_LEFT, BADGES_Y, 0], aligned_edge=LEFT)
        # 「同一根条」: the bar itself first, in its three colours, no number yet.
        base = self.bar(0, segments()[0])
        self.play(FadeIn(badges), run_time=0.5)
        self.play(FadeIn(base.track), GrowFromEdge(base.blocks, LEFT), run_time=0.8)

        self.beat(says="基线每张卡要装 120 GB —— 这还只是七十五亿参数的模型")
        key = legend([("weights", "权重 {bytes.weights_bf16}Ψ"), ("gradients", "梯度 {bytes.gradients_bf16}Ψ"),
                      ("optimizer", "优化器状态 KΨ")], tinted=True, gap="medium")
        base_label = self.show_row(0, bar=base)
        # The legend shares the baseline's label line, at the track's right end: the bottom stays free.
        key.match_y(base_label).align_to([BAR_LEFT + BAR_WIDTH, 0, 0], RIGHT)
        self.play(FadeIn(key), Indicate(setting, color=theme.color("accent"), scale_factor=1.05), run_time=0.6)
        self.badges, self.key = badges, key

        for row, says in enumerate(CUT_SAYS, start=1):
            self.beat(says=says)
            self.show_row(row)

        self.beat(says="从 120 到 1.9，而模型一个字节都没变小",
                  takeaway="从 {zero.baseline_gb} 到 {zero.pos_g_p_gb} GB，而模型一个字节都没变小")
        self.tiles = self.every_card_together()
        self.price_column()
        self.other_names()

    def every_card_together(self) -> VGroup:
        """ZeRO-3's sliver copied down and laid end to end once per card: the copies fill the
        baseline's length exactly (the model did not shrink, it was spread), named above."""
        seg = segments()[3]
        scale = BAR_WIDTH / segments()[0].sum()
        cards = int(quantity("zero.n_d").value)
        slivers = VGroup(*(StackedBar(list(zip(seg, SEGMENT_COLORS)), scale=scale, thickness=BAR_HEIGHT,
                                      opacity=BAR_FILL).start_at((BAR_LEFT + k * seg.sum() * scale, TILE_Y))
                           for k in range(cards)))
        name = ledger_text("{zero.n_d} 张卡加起来：还是 {zero.baseline_gb} GB", size="label")
        name.next_to(slivers, UP, buff=theme.space("tight")).align_to([BAR_LEFT, 0, 0], LEFT)
        last = self.bars[-1].blocks
        self.play(TransformFromCopy(last, slivers[0].blocks), run_time=0.6)
        self.play(LaggedStart(*(FadeIn(s) for s in slivers[1:]), lag_ratio=0.04), run_time=1.2)
        self.play(FadeIn(name), run_time=0.4)
        return VGroup(slivers, name)

    def price_column(self) -> None:
        """Communication volume per step, from ZeRO §7; no derivation on screen."""
        self.beat(says="右边那一列是价签 —— 通信量")
        title = words("通信量", size="label").move_to([PRICE_X, self.row_y(0) + PRICE_TITLE_RISE, 0])
        cells = VGroup(*[ledger_text(f"{{zero.comm_psi[{i}]}}", size="label",
                                     color=PRICE_ROLE if i == 3 else "ink").move_to([PRICE_X, self.row_y(i), 0])
                         for i in range(4)])
        # 3Ψ waits for its own sentence.
        self.play(FadeIn(title), FadeIn(cells[:3], lag_ratio=0.2), run_time=0.8)

        self.beat(says="前三行都是 2Ψ，跟不切的时候一模一样： 所以前两级基本是白捡的")
        same = brace_label(cells[:3], "和不切一样", RIGHT, color="muted", size="small")
        same.label.set_color(theme.text_color("ink"))
        self.play(FadeIn(same), run_time=0.6)

        self.beat(says="只有最后一级涨到 3Ψ，也就是 1.5 倍")
        more = ledger_text("{zero.comm_stage3_over_baseline}", size="label", color=PRICE_ROLE).next_to(
            cells[3], RIGHT, buff=theme.space("wide") - theme.space("tight"))
        self.play(FadeIn(cells[3]), run_time=0.4)
        self.play(FadeIn(more, shift=LEFT * 0.15), Indicate(cells[3], color=theme.color(PRICE_ROLE)), run_time=0.7)
        self.price = VGroup(title, cells, same, more)

    # -- the bill's columns, each with its cure --

    @staticmethod
    def paled(group: VGroup) -> list:
        """Said, no longer the subject: texts go muted (still readable), shapes pale."""
        from manim import Text
        anims = []

        def walk(part) -> None:
            if isinstance(part, Text):
                anims.append(part.animate.set_color(theme.text_color("muted")))
            elif part.submobjects:
                for sub in part.submobjects:
                    walk(sub)
            elif part.has_points():
                anims.append(part.animate.set_fill(opacity=SAID_OPACITY * part.get_fill_opacity())
                             .set_stroke(opacity=SAID_OPACITY * part.get_stroke_opacity()))

        walk(group)
        return anims

    def bill_columns(self) -> list[VGroup]:
        """Four columns as wide as the bar together: each item's name, tinted in its colour."""
        width = (BILL_RIGHT - BAR_LEFT) / len(BILL)
        columns = []
        for k, (name, role, _) in enumerate(BILL):
            head = widgets.badge(name, role, size="small", weight="thin", fill_opacity=0.08)
            head.move_to([BAR_LEFT + (k + 0.5) * width, BILL_TOP + BLOCK_RISE - head.height / 2, 0])
            columns.append(head)
        return columns

    def cure(self, column: VGroup, *texts: str) -> VGroup:
        """One or more cures under a column's name, side by side (each its own word)."""
        parts = VGroup(*(line(t, size="small") for t in texts)).arrange(RIGHT, buff=theme.space("small"))
        return parts.move_to([column.get_x(), BILL_TOP + BLOCK_RISE - CURE_DROP - column.height / 2, 0])

    def other_names(self) -> None:
        """「摆回这张账单上」: the bill's four columns under the bar, ZeRO's stages under the three
        it splits; then each other name under what it targets, as the speaker says it."""
        self.beat(says="顺手把其它几个常听见的名词也摆回这张账单上")
        # The setting and the tiles leave; the bars rise into the badges' row, the price column and the
        # magnified shards go pale: the bill below gets the room.
        block = VGroup(*(bar for bar in self.bars), *self.row_labels, self.key, *self.insets, self.price)
        self.play(FadeOut(self.tiles), FadeOut(self.badges), run_time=0.4)
        self.play(block.animate.shift(UP * BLOCK_RISE), run_time=0.5)
        self.play(*self.paled(VGroup(self.price, *self.insets)), run_time=0.4)
        columns = self.bill_columns()
        stages = [self.cure(col, f"{{zero.stage_names[{stage}]}}") for col, (_, _, stage) in zip(columns, BILL)
                  if stage is not None]
        self.play(*(FadeIn(c, shift=DOWN * 0.1) for c in columns), run_time=0.6)
        self.play(*(FadeIn(s) for s in stages), run_time=0.5)

        activations = columns[-1]
        self.beat(says="重算，针对激活那一项")
        recompute = self.cure(activations, "重算")
        self.play(FadeIn(recompute), Indicate(activations, color=theme.color("activations"), scale_factor=1.05),
                  run_time=0.6)

        self.beat(says="offload，针对「暂时用不到」的那些项")
        # Across every column: it targets no one item but the stretch of the step an item sits idle.
        # An active remedy, so drawn in ink (an outline), not pale.
        top = BILL_TOP + BLOCK_RISE - CURE_DROP - activations.height / 2 - OFFLOAD_DROP
        band = marks.box(BILL_RIGHT - BAR_LEFT, OFFLOAD_HEIGHT, "ink", weight="thin")
        band.move_to([(BAR_LEFT + BILL_RIGHT) / 2, top - OFFLOAD_HEIGHT / 2, 0])
        offload = words("offload", size="small")   # the lit stretch says 「这段用不到」
        offload.next_to(band.get_left(), RIGHT, buff=theme.space("small"))
        self.play(FadeIn(band), FadeIn(offload), run_time=0.6)
        # 「切的是哪一段时间」: the band runs along time; one stretch of it (the optimizer state's idle
        # time between two updates) lights up, moved away; time flows past it on either side.
        self.beat(says="注意它切的不是「哪一类」，是「哪一段时间」")
        time_name = words("时间", size="small")
        time_name.next_to(band.get_right(), LEFT, buff=theme.space("small"))
        idle_x, idle_w = columns[IDLE_STRETCH].get_x(), (BILL_RIGHT - BAR_LEFT) / len(BILL) * IDLE_WIDTH
        idle = marks.shade([idle_x - idle_w / 2, band.get_bottom()[1]], [idle_x + idle_w / 2, band.get_top()[1]],
                           "accent", opacity=0.35)
        moved = words("这段用不到 → 挪走", size="small").move_to(idle)
        gap = theme.space("small")
        before = arrow(offload.get_right() + RIGHT * gap, [idle.get_left()[0] - gap, band.get_y(), 0], "ink",
                       weight="thin", buff=None)
        after = arrow([idle.get_right()[0] + gap, band.get_y(), 0], time_name.get_left() + LEFT * gap, "ink",
                      weight="thin", buff=None)
        self.play(GrowArrow(before), FadeIn(idle), FadeIn(moved), run_time=0.6)
        self.play(GrowArrow(after), FadeIn(time_name), run_time=0.4)

        self.beat(says="上下文并行，针对激活里随序列长度涨的那一块")
        both = self.cure(activations, "重算", "/", "上下文并行")
        self.play(recompute.animate.move_to(both[0]), FadeIn(both[1:]), run_time=0.6)

        self.beat(says="所以这几个名词不是几种优化技巧", takeaway="不是优化技巧，是账单各栏的对策", replaces=True)

    # ---- Ⓑ ----

    def size_times_frequency(self) -> None:
        # Ⓑ's cue (「平移到 fig-zero 的 Ⓑ 收尾」) has no lines of its own to quote: one beat, no says.
        self.start_panel("B", "大小 × 用到的频率", takeaway="谁最大、谁最少被用到，就先切谁")
        plot = place(Plot(x_range=SIZE_RANGE, y_range=(0, 1), width=MAP_RIGHT - MAP_LEFT,
                          height=MAP_TOP - MAP_BOTTOM, arrows=True), (MAP_LEFT, MAP_BOTTOM))
        ticks = VGroup(plot.x_mark(2, "{bytes.weights_bf16}"), plot.x_mark(12, "{bytes.optimizer_sum}"))
        x_name = words("每参数字节", size="small", color="muted").next_to(ticks, DOWN, buff=theme.space("tight"))
        x_name.set_x(plot.point(7, 0)[0])
        y_name = words("用到的频率", size="small", color="muted").next_to(plot.y_axis, UP, buff=theme.space("tight"))
        self.play(FadeIn(VGroup(plot, ticks, x_name, y_name)), run_time=0.6)

        # The bill's fourth item, not on the map (its size is no per-parameter constant): a side box,
        # in its colour, with what it grows with and its cures.
        side = VGroup(words("激活", size="label", color="activations"),
                      words("随 batch × 序列长度涨", size="small", color="activations"),
                      words("→ 重算 / 上下文并行", size="small", color="activations"))
        side.arrange(DOWN, buff=theme.space("fine"), aligned_edge=LEFT)
        side_box = VGroup(marks.frame_around(side, "activations", pad="small", weight="thin"), side)
        side_box.to_edge(RIGHT, buff=theme.space("wide")).set_y(MAP_TOP - side_box.height / 2)
        self.play(FadeIn(side_box), run_time=0.4)

        points = {name: plot.point(quantity(SIZES[name]).value, FREQUENCY[name]) for name in SIZES}
        items = {name: self.item(name, points[name], plot) for name in SIZES}
        for name in ("optimizer", "weights", "gradients"):     # in the order the bill listed them
            self.play(FadeIn(items[name]), run_time=0.45)

        for i, name in enumerate(CUT_ORDER):
            if i:
                leg = arrow(points[CUT_ORDER[i - 1]], points[name], CUT_ROLE, weight="bold", buff="snug")
                self.play(GrowArrow(leg), run_time=0.7)
            stamp = ledger_text(f"{{zero.stage_names[{i}]}}", size="label", color=CUT_ROLE)
            stamp.next_to(items[name].name, RIGHT, buff=theme.space("small"))
            self.play(FadeIn(stamp, scale=1.3), Indicate(items[name].dot, color=theme.color(CUT_ROLE)), run_time=0.5)

    @staticmethod
    def item(name: str, at: np.ndarray, plot: Plot) -> VGroup:
        """A dot at the item's true point, its name beside it (short: a label, not an extent), its
        use level named on the y axis with a dashed guide across to the dot."""
        role = ROLES[name]
        dot = marks.dot(at, role, size="large")
        label = words(NAMES[name], size="label", color=role)
        # Each name sits where the cut-order arrow does not pass: under the optimizer's dot (near the
        # axis' right end; the arrow leaves it up and to the left), above-right of the gradients' (the arrow comes in from below right and
        # leaves straight up), right of the weights'.
        if name == "optimizer":
            label.next_to(dot, DOWN, buff=theme.space("tight")).align_to(dot, RIGHT)
        elif name == "gradients":
            label.next_to(dot, UP + RIGHT, buff=theme.space("tight"))
        else:
            label.next_to(dot, RIGHT, buff=theme.space("small"))
        axis_x = plot.y_axis.get_x()
        level = guide([axis_x, at[1], 0], at + LEFT * theme.space("snug"), "muted")
        use = words(USE[name], size="small", color="muted").next_to([axis_x, at[1], 0], LEFT,
                                                                    buff=theme.space("small"))
        group = VGroup(level, use, dot, label)
        group.dot, group.name = dot, label
        return group
