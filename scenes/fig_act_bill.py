"""fig-act-bill: the activation mountain of one 128K-token step (第一节, end).

Projected whole (「那座山要一眼看完」) and not explained (「这张图不用讲…念两个数就走」), so it
has two stops only:
1. the mountain grows layer by layer, the summit line (「峰值在这儿」) with 不开重算's number, and
   the inset of what full recompute keeps (the 存档点) on its own GiB scale: the two numbers the
   speaker reads (the notes' 4.15 counts the dense first layers as MoE; the errata tells him);
   then the speaker's warning (L328, said right after them) as a badge;
2. one card's memory drawn across both charts: the mountain and even the checkpoints stand
   over it. 装不下 is seen, then said.
Drawn from the memory-timeline simulator that anim-memtime uses.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, UR, Create, FadeIn, UpdateFromAlphaFunc, VGroup, Write, linear

from lecture_numerics import act_bill, quantity
from lecture_numerics.models import GIB, TIB
from scenes.kit import marks, theme, widgets
from scenes.kit.base import LectureScene
from scenes.kit.panels import EDGE_BUFF
from scenes.kit.plots import Plot, area, place
from scenes.kit.text import ledger_text, line, words

# Plot areas (scene units; the frame is 14.2 × 8). The main chart leaves room on its right for
# the card line's label, under the inset; everything stays above the takeaway (y ≈ −2.9).
MAIN_CORNER, MAIN_W, MAIN_H = (-5.9, -2.0), 7.1, 3.5
INSET_CORNER, INSET_W, INSET_H = (3.7, -0.45), 2.7, 2.2
BADGE_Y = -1.2           # under the inset, above the card line's label
SUMMIT_RISE = 1.2        # the summit line runs above the axis to carry its labels
MOUNTAIN = "activations"             # activations kept for backward, in both charts
MOUNTAIN_OPACITY, CHECKPOINT_OPACITY = 0.45, 0.85   # the checkpoints are what stays: solid
CARD = "bad"             # one card's memory: what the bill overflows


class FigActBill(LectureScene):
    scene_id = "fig-act-bill"
    title = "激活的山：一条 128K 序列的一步"
    ledger_keys = ("act.v3.no_recompute_tib", "act.v3.full_recompute_gib",
                   "act_bill.axis.ticks_tib", "act_bill.axis.inset_ticks_gib", "model.v3.n_layers",
                   "model.v3.n_dense_layers", "recompute.seq_len_label", "hardware.gpu_memory_gib")

    def construct(self) -> None:
        # The cue's stage direction (「指一下山顶那一竖说「峰值在这儿」，然后念两个数就走」): one
        # build-in over the two numbers, then the one sentence that stays.
        self.start_panel("A", "激活的山",
                         says="一条十二万八千长度的序列，不开重算，激活要 4.15 TiB； 开了重算还要 106.75 GiB")
        self.scope()
        main = self.mountain()
        self.summit(main)
        inset = self.recompute_inset()
        self.badge()            # L328's warning is said right after the two numbers, in this beat

        self.beat(says="但就算差一倍，结论也不变：这个规模上，装不下", takeaway="这个规模上，装不下")
        self.one_card(main, inset)

    def scope(self) -> None:
        """What the bill is for, on the header's row (top right)."""
        scope = line("DeepSeek-V3 · {model.v3.n_layers} 层（前 {model.v3.n_dense_layers} 层 dense）"
                     " · {recompute.seq_len_label} 序列 · bf16", size="small", color="muted")
        scope.to_corner(UR, buff=EDGE_BUFF).shift(DOWN * theme.space("snug"))
        self.play(FadeIn(scope), run_time=0.4)

    # ---- 1. the mountain, its summit, the checkpoints ----

    def mountain(self) -> Plot:
        n = quantity("model.v3.n_layers").value
        axes = place(Plot(x_range=(0, 2 * n), y_range=(0, act_bill.AXIS_TOP_TIB.value), width=MAIN_W, height=MAIN_H,
                          y_ticks_key="act_bill.axis.ticks_tib", y_title="存着的激活（TiB）"), MAIN_CORNER)
        axes.y_title.align_to(axes.y_ticks, LEFT)
        # Both halves read left to right, as time runs.
        halves = VGroup(words("前向：存下 →", size="small").next_to(axes.point(n / 2, 0), DOWN, buff=theme.space("close")),
                        words("反向：释放 →", size="small", color="backward")
                        .next_to(axes.point(1.5 * n, 0), DOWN, buff=theme.space("close")))
        self.play(FadeIn(axes), FadeIn(halves), run_time=0.5)
        xs, ys = act_bill.layer_steps(act_bill.simulate("none"))
        self.grow_area(axes, xs, ys / TIB, MOUNTAIN_OPACITY, run_time=2.0)
        return axes

    def grow_area(self, axes: Plot, xs: np.ndarray, ys: np.ndarray, opacity: float, run_time: float) -> None:
        """The filled run revealed left to right, layer step by layer step: the area under the
        run so far, never a wedge closed along a chord."""
        hill = area(axes, xs[:2], ys[:2], MOUNTAIN, opacity=opacity)

        def reveal(mob, alpha: float) -> None:
            upto = max(alpha * xs[-1], xs[1])
            keep = xs < upto
            run_x, run_y = np.append(xs[keep], upto), np.append(ys[keep], np.interp(upto, xs, ys))
            mob.become(area(axes, run_x, run_y, MOUNTAIN, opacity=opacity))

        self.play(UpdateFromAlphaFunc(hill, reveal), run_time=run_time, rate_func=linear)

    def summit(self, axes: Plot) -> None:
        """The summit line (「峰值在这儿」) and 不开重算's number at its top."""
        step, top_tib = act_bill.peak_step("none"), act_bill.AXIS_TOP_TIB.value
        top = axes.point(step, top_tib) + UP * SUMMIT_RISE
        summit = marks.segment(axes.point(step, 0), top, "ink", weight="regular", dashed=True)
        here = words("峰值在这儿", size="label").next_to(top, RIGHT, buff=theme.space("small")).align_to(top, UP)
        value = ledger_text("不开重算：{act.v3.no_recompute_tib} TiB", size="heading", color=MOUNTAIN)
        value.next_to(top, LEFT, buff=theme.space("medium")).align_to(top, UP)
        self.play(Create(summit), FadeIn(here), run_time=0.6)
        self.play(Write(value), run_time=0.7)

    def recompute_inset(self) -> Plot:
        n = quantity("model.v3.n_layers").value
        inset = place(Plot(x_range=(0, 2 * n), y_range=(0, act_bill.INSET_TOP_GIB.value), width=INSET_W,
                           height=INSET_H, y_ticks_key="act_bill.axis.inset_ticks_gib", y_title="GiB"), INSET_CORNER)
        title = words("开了重算", size="label", color=MOUNTAIN).next_to(inset, UP, buff=theme.space("small"))
        title.align_to(inset.x_axis, RIGHT)
        self.play(FadeIn(inset), FadeIn(title), run_time=0.5)
        xs, ys = act_bill.layer_steps(act_bill.simulate("full"), working_sets=False)
        self.grow_area(inset, xs, ys / GIB, CHECKPOINT_OPACITY, run_time=1.0)
        kept = quantity("act.v3.full_recompute_gib").value
        # Two short lines over the summit: one would reach past the inset's axis.
        value = VGroup(words("存档点", size="small", color=MOUNTAIN),
                       ledger_text("{act.v3.full_recompute_gib} GiB", size="label", color=MOUNTAIN))
        value.arrange(DOWN, buff=theme.space("fine")).next_to(inset.point(n, kept), UP, buff=theme.space("snug"))
        self.play(FadeIn(value), run_time=0.5)
        return inset

    # ---- 2. the warning, and one card against both charts ----

    def badge(self) -> None:
        """The speaker's warning: a number we derived, with no third-party check."""
        warning = widgets.badge("自己推的 · 当量级看", "ink")
        warning.move_to([0, BADGE_Y, 0]).to_edge(RIGHT, buff=EDGE_BUFF)
        self.play(FadeIn(warning), run_time=0.5)

    def one_card(self, main: Plot, inset: Plot) -> None:
        """One accelerator's memory across both charts: the mountain dwarfs it, and even the
        checkpoints stand over it (装不下, shown before it is said)."""
        card_gib = quantity("hardware.gpu_memory_gib").value
        in_main = widgets.limit_line(main, card_gib * GIB / TIB, "一张卡 {hardware.gpu_memory_gib} GiB", CARD)
        in_inset = widgets.limit_line(inset, card_gib, VGroup(), CARD)
        self.play(Create(in_main.line), Create(in_inset.line), run_time=0.8)
        self.play(FadeIn(in_main.label), run_time=0.4)
        self.add(in_main, in_inset)
