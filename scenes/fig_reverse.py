"""fig-reverse: forward mode vs reverse mode — the same chain, seeded at opposite ends (第一节).

Ⓐ+Ⓑ (section A) Both rows in one frame, at anim-reverse's places (the clip between them does not jump):
   Ⓐ 正向模式, arrows right, one block perturbed, only its gradient in hand;
   Ⓑ 反向模式, arrows left, the seed at the loss, a tick under every block.
Ⓒ The rule, 从窄的那一头起步: the counterexample (10 in, a million out) favours forward;
   our chain (三千亿 in, one out) favours reverse.
"""

from __future__ import annotations

from manim import (DOWN, LEFT, PI, RIGHT, UL, UP, Circle, Dot, FadeIn, FadeOut, Indicate, Polygon,
                   VGroup, Write)

from lecture_numerics import quantity
from scenes.anim_reverse import CHAIN_LEFT_X, ROW_Y
from scenes.kit import theme
from scenes.kit.base import LectureScene
from scenes.kit.chain_widgets import ParameterChain
from scenes.kit.panels import EDGE_BUFF, caption, panel_header
from scenes.kit.reveal import show_fraction
from scenes.kit.text import ledger_text, line, words

PERTURBED = 2                 # which block the forward row perturbs (any one would do)
NOTE_BELOW_CHAIN = 1.05       # the row's finding, under its ticks
FUNNEL_X = {"ours": -3.6, "counter": 3.6}
FUNNEL_Y = -0.2
FUNNEL_WIDE, FUNNEL_NARROW, FUNNEL_LENGTH = 2.4, 0.35, 3.6


class FigReverse(LectureScene):
    scene_id = "fig-reverse"
    title = "正向模式与反向模式：同一条链，种子插在两头"
    ledger_keys = ("trips.parameters", "slider.desk_faders", "reverse.counterexample.inputs",
                   "reverse.counterexample.outputs", "reverse.counterexample.forward_passes",
                   "reverse.counterexample.reverse_passes", "reverse.ours.forward_passes",
                   "reverse.ours.reverse_passes", "trips.outputs")

    def construct(self) -> None:
        self.two_rows()
        self.narrow_end()

    # ---- Ⓐ and Ⓑ: the same chain twice ----

    def two_rows(self) -> None:
        self.panel("A")      # rows Ⓐ and Ⓑ together: the cue sheet names sections by one letter
        self.clear()
        forward, reverse = self.chain("forward"), self.chain("reverse")
        self.add(self.row_header("forward", "正向模式", "插一个扰动，顺着链走到 loss"),
                 self.row_header("reverse", "反向模式", "种子插在 loss 那头，往回走"))
        self.play(FadeIn(forward), FadeIn(reverse), run_time=0.6)
        self.wait(1.5)          # the speaker lets people see for themselves

        # Ⓐ one perturbation, one gradient.
        marker = Circle(radius=0.42, color=theme.color("accent"), stroke_width=5).move_to(forward.block_center(PERTURBED))
        poke = words("扰动", size="label", color="accent").next_to(marker, UP, buff=theme.space("fine"))
        lit = forward.lit_block(PERTURBED)
        show_fraction(lit, 1.0)
        path = VGroup(*forward.arrows[PERTURBED:]).copy().set_color(theme.color("accent"))
        only = words("走一遍 → 只拿到这一个参数的梯度", size="label", color="accent")
        only.move_to([0, ROW_Y["forward"] - NOTE_BELOW_CHAIN, 0]).align_to([CHAIN_LEFT_X, 0, 0], LEFT)
        cost = ledger_text("{slider.desk_faders}个参数 ＝ {slider.desk_faders}遍", size="body", color="accent")
        cost.next_to(only, RIGHT, buff=0.8)
        self.play(FadeIn(marker), FadeIn(poke), run_time=0.5)
        self.play(FadeIn(path), FadeIn(lit), run_time=0.7)
        self.play(FadeIn(only), run_time=0.4)
        self.play(Write(cost), run_time=0.6)

        # Ⓑ one seed at the loss, every gradient on the way back.
        seed = Dot(reverse.loss_entry(), radius=0.13, color=theme.color("backward"))
        seed_label = words("种子 · 只有一个数", size="label", color="backward").next_to(reverse.loss, UP, buff=theme.space("small"))
        seed_label.align_to(reverse.loss, RIGHT)
        ticks = VGroup(*[reverse.tick(i) for i in range(len(reverse.blocks))])
        lits = VGroup(*[reverse.lit_block(i) for i in range(len(reverse.blocks))])
        for mob in (*ticks, *lits):
            show_fraction(mob, 1.0)
        done = words("走到最左边：全部梯度已在手里 —— 只走了一遍", size="label", color="backward")
        done.move_to([0, ROW_Y["reverse"] - NOTE_BELOW_CHAIN, 0]).align_to([CHAIN_LEFT_X, 0, 0], LEFT)
        self.play(FadeIn(seed, scale=1.5), FadeIn(seed_label), run_time=0.5)
        self.play(FadeIn(lits, lag_ratio=0.15), FadeIn(ticks, lag_ratio=0.15), run_time=1.2)
        self.play(FadeIn(done), run_time=0.4)
        self.add(caption("上下是同一条链：只差箭头方向，和种子插在哪一头"))
        self.wait(2.0)

    def chain(self, mode: str) -> ParameterChain:
        """anim-reverse's chain at anim-reverse's place; reverse mode's arrows point left."""
        chain = ParameterChain(quantity("trips.parameters").value)
        chain.move_to([0, ROW_Y[mode], 0]).align_to([CHAIN_LEFT_X, 0, 0], LEFT)
        if mode == "reverse":
            for arrow in chain.arrows:
                arrow.rotate(PI)
            chain.arrows.set_color(theme.color("backward"))
        return chain

    @staticmethod
    def row_header(mode: str, name: str, rest: str) -> VGroup:
        """Where anim-reverse puts its row headers."""
        colour = "accent" if mode == "forward" else "backward"
        header = VGroup(words(name, size="heading", color=colour), words(rest, size="body"))
        header.arrange(RIGHT, buff=theme.space("edge"), aligned_edge=DOWN)
        return header.to_corner(UL, buff=EDGE_BUFF).shift(DOWN * (ROW_Y["forward"] - ROW_Y[mode]))

    # ---- Ⓒ start from the narrow end ----

    def narrow_end(self) -> None:
        self.start_panel("C", "规则只有一句：从窄的那一头起步")
        guard = words("不是「反向传播永远更好」", size="body", color="muted")
        guard.next_to(panel_header("C", "规则只有一句：从窄的那一头起步"), DOWN, buff=theme.space("gap"), aligned_edge=LEFT)
        self.play(FadeIn(guard), run_time=0.4)

        counter = self.funnel("counter", wide_at=RIGHT, color="accent",
                              label="{reverse.counterexample.inputs} 个参数 → {reverse.counterexample.outputs}维输出",
                              tally=("正向 {reverse.counterexample.forward_passes} 遍",
                                     "反向{reverse.counterexample.reverse_passes}遍"),
                              winner=0, verdict="正向赢")
        ours = self.funnel("ours", wide_at=LEFT, color="backward",
                           label="我们：{slider.desk_faders}进 → {trips.outputs} 个出",
                           tally=("正向{reverse.ours.forward_passes}遍", "反向 {reverse.ours.reverse_passes} 遍"),
                           winner=1, verdict="反向赢")
        said = caption("右边那个反例：这时候该从前往后，反向反而亏")
        self.play(FadeIn(counter), FadeIn(said), run_time=0.8)
        self.wait(1.2)
        self.play(FadeOut(said), FadeIn(ours), run_time=0.8)
        self.play(Indicate(ours[0], color=theme.color("backward")), run_time=0.8)
        self.add(caption("我们这一边正好是{slider.desk_faders}进、{trips.outputs} 个出"))
        self.wait(2.0)

    def funnel(self, which: str, *, wide_at, color: str, label: str, tally: tuple[str, str], winner: int,
               verdict: str) -> VGroup:
        """A funnel from the wide end to the narrow end; the seed sits at the narrow end."""
        x, half = FUNNEL_X[which], FUNNEL_LENGTH / 2
        wide_x, narrow_x = x + half * wide_at[0], x - half * wide_at[0]
        shape = Polygon([wide_x, FUNNEL_Y + FUNNEL_WIDE / 2, 0], [narrow_x, FUNNEL_Y + FUNNEL_NARROW / 2, 0],
                        [narrow_x, FUNNEL_Y - FUNNEL_NARROW / 2, 0], [wide_x, FUNNEL_Y - FUNNEL_WIDE / 2, 0],
                        stroke_color=theme.color(color), stroke_width=4, fill_color=theme.color(color),
                        fill_opacity=0.15)
        seed = Dot([narrow_x, FUNNEL_Y, 0], radius=0.14, color=theme.color(color))
        seed_label = words("种子", size="small", color=color).next_to(seed, DOWN, buff=theme.space("gap"))
        title = line(label, size="label", color=color).next_to(shape, UP, buff=theme.space("gap"))
        counts = VGroup(*[line(t, size="label", color=color if i == winner else "muted")
                          for i, t in enumerate(tally)]).arrange(DOWN, aligned_edge=LEFT, buff=theme.space("snug"))
        counts.next_to(shape, DOWN, buff=0.55)
        result = words(verdict, size="heading", color=color).next_to(counts, RIGHT, buff=theme.space("large"))
        return VGroup(shape, seed, seed_label, title, counts, result)
