"""fig-act-bill: the activation mountain of one 128K-token step (第一节, end).

One frame, projected whole: the stored activations rise one step per layer through forward and
fall one step per layer through backward; the summit (end of forward) carries 不开重算's number;
an inset shows what full recompute keeps (the 存档点) on its own GiB scale. Drawn from the
memory-timeline simulator that anim-memtime uses; the badge repeats the speaker's warning.
"""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, UP, Arrow, Create, DashedLine, FadeIn, RoundedRectangle, VGroup, Write

from lecture_numerics import act_bill, quantity
from lecture_numerics.models import GIB, TIB
from scenes.kit import theme
from scenes.kit.base import LectureScene
from scenes.kit.panels import EDGE_BUFF
from scenes.kit.plots import Plot, area, place
from scenes.kit.text import ledger_text, line, words

# Plot areas (scene units; the frame is 14.2 × 8).
MAIN_CORNER, MAIN_W, MAIN_H = (-5.9, -2.45), 7.8, 3.75
INSET_CORNER, INSET_W, INSET_H = (3.35, -2.45), 3.2, 2.0
SUMMIT_RISE = 1.3        # the summit line runs above the axis to carry its labels
MOUNTAIN, CHECKPOINTS = "activations", "accent"


class FigActBill(LectureScene):
    scene_id = "fig-act-bill"
    title = "激活的山：一条 128K 序列的一步"
    ledger_keys = ("act.v3.no_recompute_tib", "act.v3.full_recompute_gib", "act.v3.no_recompute_all_moe_tib",
                   "act_bill.axis.ticks_tib", "act_bill.axis.inset_ticks_gib", "model.v3.n_layers",
                   "model.v3.n_dense_layers", "recompute.seq_len_label")

    def construct(self) -> None:
        self.start_panel("A", "一步之内，存着的激活")
        self.basis()
        main = self.mountain()
        self.summit(main)
        self.recompute_inset(main)
        self.wait(3.0)

    def basis(self) -> None:
        """What the bill is for, and the speaker's warning about it."""
        scope = line("DeepSeek-V3 · {model.v3.n_layers} 层 · 一条 {recompute.seq_len_label} 序列 · bf16",
                      size="small", color="muted")
        scope.to_corner(DOWN + LEFT, buff=EDGE_BUFF)
        badge_text = words("按算子推算 · 无外部背书 · 当量级看", size="small", color="warm")
        frame = RoundedRectangle(width=badge_text.width + 0.4, height=badge_text.height + 0.25, corner_radius=0.1,
                                 stroke_color=theme.color("warm"), stroke_width=3)
        badge = VGroup(frame, badge_text.move_to(frame)).to_corner(DOWN + RIGHT, buff=EDGE_BUFF)
        self.add(scope, badge)

    def mountain(self) -> Plot:
        n = quantity("model.v3.n_layers").value
        axes = place(Plot(x_range=(0, 2 * n), y_range=(0, act_bill.AXIS_TOP_TIB.value), width=MAIN_W, height=MAIN_H,
                          y_ticks_key="act_bill.axis.ticks_tib"), MAIN_CORNER)
        unit = words("TiB", size="small", color="muted").next_to(axes.y_axis, UP, buff=0.25)
        forward = words("前向：逐层存下 →", size="small", color="ink").next_to(axes.point(n / 2, 0), DOWN, buff=0.2)
        backward = words("← 反向：逐层释放", size="small", color="backward").next_to(axes.point(1.5 * n, 0), DOWN, buff=0.2)
        xs, ys = act_bill.layer_steps(act_bill.simulate("none"))
        hill = area(axes, xs, ys / TIB, MOUNTAIN)
        self.play(FadeIn(axes), FadeIn(unit), FadeIn(forward), FadeIn(backward), run_time=0.5)
        self.play(Create(hill), run_time=1.5)
        return axes

    def summit(self, axes: Plot) -> None:
        step, top_tib = act_bill.peak_step("none"), act_bill.AXIS_TOP_TIB.value
        line = DashedLine(axes.point(step, 0), axes.point(step, top_tib) + UP * SUMMIT_RISE, color=theme.color("ink"), stroke_width=3)
        top = axes.point(step, top_tib) + UP * SUMMIT_RISE
        where = words("峰值在这儿 · 前向末尾", size="label").next_to(top, RIGHT, buff=0.15).align_to(top, UP)
        assumption = ledger_text("前 {model.v3.n_dense_layers} 层 dense；全按 MoE 算是 {act.v3.no_recompute_all_moe_tib} TiB",
                                 size="small", color="muted")
        assumption.next_to(where, DOWN, buff=0.12, aligned_edge=LEFT)
        value = ledger_text("不开重算：{act.v3.no_recompute_tib} TiB", size="heading", color=MOUNTAIN)
        value.next_to(top, LEFT, buff=0.2).align_to(top, UP)
        what = words("激活的峰值", size="label", color="muted").next_to(value, DOWN, buff=0.12, aligned_edge=RIGHT)
        self.play(Create(line), FadeIn(where), run_time=0.5)
        self.play(Write(value), FadeIn(what), FadeIn(assumption), run_time=0.7)

    def recompute_inset(self, main: Plot) -> None:
        n = quantity("model.v3.n_layers").value
        inset = place(Plot(x_range=(0, 2 * n), y_range=(0, act_bill.INSET_TOP_GIB.value), width=INSET_W,
                           height=INSET_H, y_ticks_key="act_bill.axis.inset_ticks_gib"), INSET_CORNER)
        unit = words("GiB", size="small", color="muted").next_to(inset.y_axis, UP, buff=0.25)
        title = words("开了重算（放大）", size="label", color=CHECKPOINTS).next_to(unit, UP, buff=0.2, aligned_edge=LEFT)
        xs, ys = act_bill.layer_steps(act_bill.simulate("full"), working_sets=False)
        trace = area(inset, xs, ys / GIB, CHECKPOINTS, opacity=0.3)
        sliver = area(main, xs, ys / TIB, CHECKPOINTS, opacity=0.8)
        kept = quantity("act.v3.full_recompute_gib").value
        value = ledger_text("{act.v3.full_recompute_gib} GiB", size="label", color=CHECKPOINTS)
        value.next_to(inset.point(n, kept), UP, buff=0.12)
        stored = words("存档点", size="small", color=CHECKPOINTS).next_to(value, LEFT, buff=0.15)
        pointer = Arrow(main.point(2 * n, 0) + UP * 0.1, inset.point(0, 0) + LEFT * 0.55 + UP * 0.1, buff=0.1,
                        stroke_width=3, color=theme.color(CHECKPOINTS))
        self.play(FadeIn(sliver), FadeIn(inset), FadeIn(unit), FadeIn(title), Create(pointer), run_time=0.6)
        self.play(Create(trace), run_time=1.0)
        self.play(FadeIn(value), FadeIn(stored), run_time=0.5)
