"""fig-act-bill: the activation mountain of one 128K-token step (第一节, end).

Projected whole (「那座山要一眼看完」); the speaker points and reads, so the frame is built in
the order he says it: the summit line (「峰值在这儿」), 不开重算's number with its basis in grey
(the first layers dense: the notes' 4.15 counts them as MoE, and the errata tells the speaker),
the inset of what full recompute keeps (the 存档点) on its own GiB scale, the warning badge,
and the one sentence that stays: 装不下. Drawn from the memory-timeline simulator that
anim-memtime uses.
"""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, UP, UR, Create, DashedLine, FadeIn, RoundedRectangle, VGroup, Write

from lecture_numerics import act_bill, quantity
from lecture_numerics.models import GIB, TIB
from scenes.kit import theme
from scenes.kit.arrows import arrow
from scenes.kit.base import LectureScene
from scenes.kit.panels import EDGE_BUFF
from scenes.kit.plots import Plot, area, place
from scenes.kit.text import ledger_text, line, words

# Plot areas (scene units; the frame is 14.2 × 8). Everything stays above the takeaway (y ≈ −2.9).
MAIN_CORNER, MAIN_W, MAIN_H = (-5.9, -2.1), 7.8, 3.4
INSET_CORNER, INSET_W, INSET_H = (3.35, -2.1), 3.0, 1.9
BADGE_Y = 1.25           # the warning badge, above the inset, right of the correction
SUMMIT_RISE = 1.3        # the summit line runs above the axis to carry its labels
MOUNTAIN, CHECKPOINTS = "activations", "accent"
BASIS = "muted"          # what the number counts: a quiet aside, not a warning


class FigActBill(LectureScene):
    scene_id = "fig-act-bill"
    title = "激活的山：一条 128K 序列的一步"
    ledger_keys = ("act.v3.no_recompute_tib", "act.v3.full_recompute_gib",
                   "act_bill.axis.ticks_tib", "act_bill.axis.inset_ticks_gib", "model.v3.n_layers",
                   "model.v3.n_dense_layers", "recompute.seq_len_label")

    def construct(self) -> None:
        # Beat 1 is the cue's stage direction (「指一下山顶那一竖说「峰值在这儿」」): the 🖥 line is
        # not a script line, so it quotes nothing; the next beats quote the lines as read.
        self.start_panel("A", "一步之内，存着的激活")
        self.scope()
        main = self.mountain()
        top = self.summit_line(main)

        self.beat(says="一条十二万八千长度的序列，不开重算，激活要 4.15 TiB")
        self.summit_value(top)

        self.beat(says="开了重算还要 106.75 GiB")
        self.recompute_inset(main)

        self.beat(says="这两个数是我们自己按算子推的，没有第三方背书，当量级听")
        self.badge()

        self.beat(says="但就算差一倍，结论也不变：这个规模上，装不下",
                  takeaway="数就算不准，结论也不变：这个规模上，装不下")

    def scope(self) -> None:
        """What the bill is for, on the header's row (top right)."""
        scope = line("DeepSeek-V3 · {model.v3.n_layers} 层 · 一条 {recompute.seq_len_label} 序列 · bf16",
                     size="small", color="muted")
        scope.to_corner(UR, buff=EDGE_BUFF).shift(DOWN * 0.12)
        self.play(FadeIn(scope), run_time=0.4)

    def mountain(self) -> Plot:
        n = quantity("model.v3.n_layers").value
        axes = place(Plot(x_range=(0, 2 * n), y_range=(0, act_bill.AXIS_TOP_TIB.value), width=MAIN_W, height=MAIN_H,
                          y_ticks_key="act_bill.axis.ticks_tib"), MAIN_CORNER)
        # The unit sits beside the top tick, clear of the summit's number above the plot.
        unit = words("TiB", size="small", color="muted").next_to(axes.point(0, act_bill.AXIS_TOP_TIB.value), RIGHT,
                                                                 buff=0.2)
        forward = words("前向：逐层存下 →", size="small", color="ink").next_to(axes.point(n / 2, 0), DOWN, buff=0.2)
        backward = words("← 反向：逐层释放", size="small", color="backward").next_to(axes.point(1.5 * n, 0), DOWN, buff=0.2)
        xs, ys = act_bill.layer_steps(act_bill.simulate("none"))
        hill = area(axes, xs, ys / TIB, MOUNTAIN)
        self.play(FadeIn(axes), FadeIn(unit), FadeIn(forward), FadeIn(backward), run_time=0.5)
        self.play(Create(hill), run_time=1.5)
        return axes

    def summit_line(self, axes: Plot):
        step, top_tib = act_bill.peak_step("none"), act_bill.AXIS_TOP_TIB.value
        top = axes.point(step, top_tib) + UP * SUMMIT_RISE
        summit = DashedLine(axes.point(step, 0), top, color=theme.color("ink"), stroke_width=3)
        where = words("峰值在这儿 · 前向末尾", size="label").next_to(top, RIGHT, buff=0.15).align_to(top, UP)
        self.play(Create(summit), FadeIn(where), run_time=0.6)
        return top, where

    def summit_value(self, summit) -> None:
        """不开重算's number, and what it counts (the config's dense first layers), in grey under
        「峰值在这儿」, above the mountain's falling side."""
        top, where = summit
        value = ledger_text("不开重算：{act.v3.no_recompute_tib} TiB", size="heading", color=MOUNTAIN)
        value.next_to(top, LEFT, buff=0.2).align_to(top, UP)
        what = words("激活的峰值", size="label", color="muted").next_to(value, DOWN, buff=0.12, aligned_edge=RIGHT)
        basis = ledger_text("前 {model.v3.n_dense_layers} 层 dense，其余 MoE", size="small", color=BASIS)
        basis.next_to(where, DOWN, buff=0.15, aligned_edge=LEFT)
        self.play(Write(value), FadeIn(what), run_time=0.7)
        self.play(FadeIn(basis), run_time=0.4)

    def recompute_inset(self, main: Plot) -> None:
        n = quantity("model.v3.n_layers").value
        inset = place(Plot(x_range=(0, 2 * n), y_range=(0, act_bill.INSET_TOP_GIB.value), width=INSET_W,
                           height=INSET_H, y_ticks_key="act_bill.axis.inset_ticks_gib"), INSET_CORNER)
        top = inset.point(0, act_bill.INSET_TOP_GIB.value)
        unit = words("GiB", size="small", color="muted").next_to(top, RIGHT, buff=0.2)
        title = words("开了重算（放大）", size="label", color=CHECKPOINTS).next_to(inset, UP, buff=0.25)
        title.align_to(inset.y_axis, LEFT)
        xs, ys = act_bill.layer_steps(act_bill.simulate("full"), working_sets=False)
        trace = area(inset, xs, ys / GIB, CHECKPOINTS, opacity=0.3)
        sliver = area(main, xs, ys / TIB, CHECKPOINTS, opacity=0.8)
        kept = quantity("act.v3.full_recompute_gib").value
        value = VGroup(words("存档点", size="small", color=CHECKPOINTS),
                       ledger_text("{act.v3.full_recompute_gib} GiB", size="label", color=CHECKPOINTS))
        value.arrange(RIGHT, buff=0.15).next_to(inset.point(n, kept), UP, buff=0.12)
        pointer = arrow(main.point(2 * n, 0) + UP * 0.1, inset.point(0, 0) + LEFT * 0.6 + UP * 0.1, CHECKPOINTS,
                        buff="tight")
        self.play(FadeIn(sliver), Create(pointer), run_time=0.6)
        self.play(FadeIn(inset), FadeIn(unit), FadeIn(title), run_time=0.5)
        self.play(Create(trace), run_time=1.0)
        self.play(FadeIn(value), run_time=0.5)

    def badge(self) -> None:
        """The speaker's warning, framed (a derived number with no third-party check)."""
        badge_text = VGroup(words("按算子推算 · 无第三方背书", size="small", color="warm"),
                            words("当量级看", size="small", color="warm")).arrange(DOWN, buff=0.1)
        frame = RoundedRectangle(width=badge_text.width + 0.4, height=badge_text.height + 0.25, corner_radius=0.1,
                                 stroke_color=theme.color("warm"), stroke_width=3)
        badge = VGroup(frame, badge_text.move_to(frame))
        badge.move_to([0, BADGE_Y, 0]).to_edge(RIGHT, buff=EDGE_BUFF)
        self.play(FadeIn(badge), run_time=0.5)
