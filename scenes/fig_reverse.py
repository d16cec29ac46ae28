"""fig-reverse: forward mode vs reverse mode — the same chain, seeded at opposite ends (第一节).

Ⓐ+Ⓑ (section A) Both rows in one frame, at anim-reverse's places (the clip between them does not jump),
   under the question 为什么是从后往前？, with the ring on the perturbed block and the seed at the loss
   from the start and nothing said about their sameness: the audience is left to see it.
   Ⓐ 正向模式, arrows right: one block perturbed, one ball trip to the loss, that one block ticked.
   Ⓑ 反向模式, arrows left: one seed at the loss, one ball trip back, each block lit and ticked
   as the ball passes it — from the loss leftward (trips.trip_schedule's order).
Ⓒ The rule, 从窄的那一头起步 (said large and alone, then the header), and its guard (不是「反向传播永远更好」, as loud as a heading): the
   counterexample (10 in, a million out) favours forward; our chain (三千亿 in, one out) favours reverse.
"""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, UL, UP, UR, Circle, Dot, FadeIn, Indicate, Polygon, Transform, VGroup, Write

from lecture_numerics import quantity
from lecture_numerics.trips import trip_schedule
from scenes.anim_reverse import CHAIN_LEFT_X, ROW_Y
from scenes.kit import theme
from scenes.kit.arrows import arrow
from scenes.kit.base import LectureScene
from scenes.kit.chain_widgets import BallTrip, ParameterChain, ball, passing_share
from scenes.kit.panels import EDGE_BUFF, PANEL_MARKS, panel_header
from scenes.kit.reveal import show_fraction
from scenes.kit.text import ledger_text, line, words

PERTURBED = 2                 # which block the forward row perturbs (any one would do)
PERTURBED_RING = 0.40         # the ring round it: just clear of the block's rounded corners
RING_CLEAR = 0.07             # the arrows into and out of the ringed block stop this far short of the ring
TICK_UNDER_RING = 0.1         # the ringed block's ✓ sits this much lower, clear of the ring
SEED_OUT = 0.21               # the seed (radius 0.13) sits on the arrow's tail, about 7 px clear of the loss box
NOTE_BELOW_CHAIN = 1.05       # the row's finding, under its ticks
TRIP_SECONDS = {"forward": 1.4, "reverse": 2.6}   # the backward walk is slow enough to follow block by block
FUNNEL_X = {"ours": -3.6, "counter": 3.6}
FUNNEL_Y = 0.2
FUNNEL_WIDE, FUNNEL_NARROW, FUNNEL_LENGTH = 2.2, 0.35, 3.6
ROWS = {"forward": ("A", "正向模式", "accent"), "reverse": ("B", "反向模式", "backward")}


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
        # Rows Ⓐ and Ⓑ together: the cue sheet names sections by one letter (config/cues.yaml, L270).
        self.panel("A", says="还有一个问题很少有人问：为什么是从后往前？")
        self.clear()
        forward, reverse = self.chain("forward"), self.chain("reverse")
        names = {mode: self.row_name(mode) for mode in ROWS}
        # The opening still is read unaided (「让人自己看出来」): the two rows differ only in their
        # arrows and in where each is seeded, a ring on one block above, a dot at the loss below.
        # The words for the two marks (扰动, 种子) wait for the sentences that name them.
        marker = Circle(radius=PERTURBED_RING, color=theme.color("accent"), stroke_width=5)
        marker.move_to(forward.block_center(PERTURBED))
        self.clear_ring(forward, marker)
        seed = Dot(reverse.loss_entry() + LEFT * SEED_OUT, radius=0.13, color=theme.color("backward"))
        question = words("为什么是从后往前？", size="heading").to_corner(UR, buff=EDGE_BUFF)
        self.play(FadeIn(forward), FadeIn(reverse), FadeIn(names["forward"]), FadeIn(names["reverse"]),
                  FadeIn(marker), FadeIn(seed), FadeIn(question), run_time=0.8)

        self.beat(says="区别只有一个 —— 你得把整条链走多少遍",
                  takeaway="算出来的结果相同：区别只在整条链要走多少遍")

        self.beat(says="看上面这排。这叫正向模式：你想知道某个参数的梯度， 就在它身上插一个扰动，顺着链走到 loss")
        handed = self.forward_trip(forward, names["forward"], marker)

        # The one gradient (its block lit, its ✓) is handed over when the speaker names it.
        self.beat(says="可这一遍走完，你只拿到了这一个参数的梯度")
        self.play(FadeIn(handed), run_time=0.5)
        only = words("走一遍 → 只拿到这一个参数的梯度", size="label", color="accent")
        only.move_to([0, ROW_Y["forward"] - NOTE_BELOW_CHAIN, 0]).align_to([CHAIN_LEFT_X, 0, 0], LEFT)
        self.play(FadeIn(only), run_time=0.5)

        self.beat(says="三千亿个参数，就是三千亿遍")
        cost = ledger_text("{slider.desk_faders}个参数 ＝ {slider.desk_faders}遍", size="body", color="accent")
        cost.next_to(only, RIGHT, buff=0.8)
        # 三千亿 is the speaker's round figure for a large model, not V3's count: marked as such.
        sketch = words("（示意）", size="label", color="muted").next_to(cost, RIGHT, buff=theme.space("tight"))
        self.play(Write(cost), FadeIn(sketch), run_time=0.7)

        self.beat(says="再看下面这排。种子插在右边 ——  而右边只有一个数，就是 loss")
        seed_label = words("种子 · 只有一个数", size="label", color="backward").next_to(reverse.loss, UP, buff=theme.space("small"))
        seed_label.align_to(reverse.loss, RIGHT)
        self.play(Indicate(seed, color=theme.color("backward"), scale_factor=1.5), FadeIn(seed_label),
                  FadeIn(self.row_gloss("reverse", names["reverse"])), run_time=0.6)

        # ⭐⭐⭐: the panel's key sentence stands alone at takeaway size (it takes A.2's place).
        self.beat(says="关键在每个方块底下那个勾：往回走的路上，每一层的梯度顺手就到手了",
                  takeaway="每一层的梯度顺手就到手了 —— 不是走完再统一算", replaces=True)
        self.reverse_trip(reverse, seed)

        self.beat(says="走到最左边的时候，三千亿个梯度已经全部在手里了。而你只走了一遍")
        done = words("走到最左边：全部梯度已在手里 —— 只走了一遍", size="label", color="backward")
        done.move_to([0, ROW_Y["reverse"] - NOTE_BELOW_CHAIN, 0]).align_to([CHAIN_LEFT_X, 0, 0], LEFT)
        self.play(FadeIn(done), run_time=0.5)

    def forward_trip(self, chain: ParameterChain, name, marker: Circle) -> VGroup:
        """The ring (on screen from the start) is named 扰动, one ball runs to the loss; returns the
        one gradient it buys (that block lit, and its tick), for the next sentence to hand over."""
        poke = words("扰动", size="label", color="accent").next_to(marker, UP, buff=theme.space("fine"))
        path = VGroup(*chain.arrows[PERTURBED:]).copy().set_color(theme.color("accent"))
        self.play(FadeIn(poke), FadeIn(self.row_gloss("forward", name)), run_time=0.6)
        trip = trip_schedule(len(chain.blocks), "forward")[PERTURBED]
        runner = ball("accent")
        handed = [VGroup(chain.lit_block(i), chain.tick(i).shift(DOWN * TICK_UNDER_RING)) for i in trip.gradients_in_order]
        self.add(runner)
        self.play(FadeIn(path), run_time=0.4)
        self.play(BallTrip(runner, chain.block_center(trip.seed), chain.loss_entry(),
                           run_time=TRIP_SECONDS["forward"]))
        self.remove(runner)
        for part in handed:
            show_fraction(part, 1.0)         # the kit hides reveals; FadeIn brings them in from here
        return VGroup(*handed)

    @staticmethod
    def clear_ring(chain: ParameterChain, marker: Circle) -> None:
        """The arrows into and out of the ringed block end at the ring, not under it."""
        into, out = chain.arrows[PERTURBED - 1], chain.arrows[PERTURBED]
        reach = PERTURBED_RING + RING_CLEAR
        into.become(arrow(into.get_start(), marker.get_center() + LEFT * reach, "muted", buff=None))
        out.become(arrow(marker.get_center() + RIGHT * reach, out.get_end(), "muted", buff=None))

    def reverse_trip(self, chain: ParameterChain, seed: Dot) -> None:
        """One ball from the seed back to the first block; each block lights, with its tick, as the
        ball passes it, so the row fills from the loss side leftward."""
        trip = trip_schedule(len(chain.blocks), "reverse")[0]
        start, end = seed.get_center(), chain.block_center(trip.gradients_in_order[-1])
        runner = ball("backward")
        passing = [(passing_share(start, end, chain.block_center(i)), VGroup(chain.lit_block(i), chain.tick(i)))
                   for i in trip.gradients_in_order]
        self.add(*[mob for _, mob in passing], runner)
        self.play(BallTrip(runner, start, end, passing=passing, run_time=TRIP_SECONDS["reverse"]))
        self.remove(runner)

    def chain(self, mode: str) -> ParameterChain:
        """anim-reverse's chain at anim-reverse's place; reverse mode's arrows point left."""
        chain = ParameterChain(quantity("trips.parameters").value)
        chain.move_to([0, ROW_Y[mode], 0]).align_to([CHAIN_LEFT_X, 0, 0], LEFT)
        return chain.point_back() if mode == "reverse" else chain

    @staticmethod
    def row_name(mode: str):
        """Ⓐ 正向模式 / Ⓑ 反向模式, where anim-reverse puts its row headers."""
        panel, name, colour = ROWS[mode]
        header = words(f"{PANEL_MARKS[panel]} {name}", size="heading", color=colour)
        return header.to_corner(UL, buff=EDGE_BUFF).shift(DOWN * (ROW_Y["forward"] - ROW_Y[mode]))

    @staticmethod
    def row_gloss(mode: str, name):
        """What the row does, said when the speaker gets to it."""
        gloss = {"forward": "插一个扰动，顺着链走到 loss", "reverse": "种子插在 loss 那头，往回走"}[mode]
        return words(gloss, size="body").next_to(name, RIGHT, buff=theme.space("edge"), aligned_edge=DOWN)

    # ---- Ⓒ start from the narrow end ----

    def narrow_end(self) -> None:
        heading = "规则只有一句：从窄的那一头起步"
        # The rule is said first, large and alone; it becomes the panel's header on the next beat.
        self.panel("C", says="所以规则只有一句：从窄的那一头起步")
        self.clear()
        rule = words(heading, size="takeaway")
        self.play(FadeIn(rule), run_time=0.6)

        self.beat(says="注意不是「反向传播永远更好」")
        header = panel_header("C", heading)
        mark, title = header
        # In ink: red here would read as the reverse mode's own colour, and the guard takes no side.
        guard = words("不是「反向传播永远更好」", size="heading", color="ink")
        guard.next_to(header, DOWN, buff=theme.space("gap"), aligned_edge=LEFT)
        self.play(Transform(rule, title), FadeIn(mark), run_time=0.7)
        self.play(FadeIn(guard), run_time=0.5)

        self.beat(says="右边那个反例：十个参数、一百万维输出 ——  这时候你该从前往后，反向传播反而亏",
                  takeaway="反例：窄的一头在输入 —— 这时该从前往后，反向反而亏")
        counter = self.funnel("counter", wide_at=RIGHT, color="accent",
                              label="{reverse.counterexample.inputs} 个参数 → {reverse.counterexample.outputs}维输出",
                              tally=("正向 {reverse.counterexample.forward_passes} 遍",
                                     "反向{reverse.counterexample.reverse_passes}遍"),
                              winner=0, verdict="正向赢")
        self.play(FadeIn(counter), run_time=0.8)

        self.beat(says="我们之所以用反向，只是因为我们这一边正好是三千亿进、一个出",
                  takeaway="我们用反向，只因为这一边正好是{slider.desk_faders}进、{trips.outputs} 个出")
        ours = self.funnel("ours", wide_at=LEFT, color="backward",
                           label="我们：{slider.desk_faders}进 → {trips.outputs} 个出",
                           tally=("正向{reverse.ours.forward_passes}遍", "反向 {reverse.ours.reverse_passes} 遍"),
                           winner=1, verdict="反向赢")
        # 三千亿 is the speaker's round figure (示例取值), tagged as in Ⓐ; the counterexample's line
        # steps back to gray, so this beat's sentence leads.
        sketch = words("（示意）", size="label", color="muted").next_to(ours[3], RIGHT, buff=theme.space("tight"))
        self.play(FadeIn(ours), FadeIn(sketch), *self.dim_takeaways(), run_time=0.8)
        self.play(Indicate(ours[0], color=theme.color("backward")), run_time=0.8)

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
        counts.next_to(shape, DOWN, buff=0.3)
        result = words(verdict, size="heading", color=color).next_to(counts, RIGHT, buff=theme.space("large"))
        return VGroup(shape, seed, seed_label, title, counts, result)
