"""fig-reverse: forward mode vs reverse mode — the same chain, seeded at opposite ends (第一节).

Ⓐ+Ⓑ (section A) Both rows in one frame, at anim-reverse's places (the clip between them does not jump),
   under the question 为什么是从后往前？. The opening still differs in only the two things the
   notes name: arrow direction, and where the seed (the same gold ball) sits — on one block
   above, at the loss below; both rows' arrows are muted until their walks. Nothing is said
   about their sameness: the audience is left to see it.
   Ⓐ 正向模式: the seed is named 扰动, its path to the loss lights in ink (forward values), one
   ball trip, that one block lit and ticked; 三千亿个参数 ＝ 三千亿遍.
   Ⓑ 反向模式: the seed at the loss is 一个数; one ball trip back, each link turning red and each
   block lit and ticked as the ball passes it — from the loss leftward (trips.trip_schedule's
   order); 三千亿个梯度 ＝ 1 遍. The ⭐⭐⭐ line (顺手就到手了) is the largest text.
Ⓒ The rule, 从窄的那一头起步, said large under its shape (both funnels pale, each with the gold
   seed at its narrow end), then the header; its ⛔ guard (不是「反向传播永远更好」, a takeaway with
   its band); the counterexample (10 in, a million out) turns ink, forward wins; our chain
   (三千亿 in, one out) turns red, reverse wins.
"""

from __future__ import annotations

from manim import (DOWN, LEFT, RIGHT, UL, UP, UR, FadeIn, Indicate, ReplacementTransform, Transform, VGroup, VMobject,
                   Write)

from lecture_numerics import quantity
from lecture_numerics.trips import trip_schedule
from scenes.anim_reverse import CHAIN_LEFT_X, ROW_Y
from scenes.kit import marks, theme
from scenes.kit.base import LectureScene
from scenes.kit.chain_widgets import BallTrip, ParameterChain, ball, passing_share
from scenes.kit.panels import EDGE_BUFF, PANEL_MARKS, panel_header
from scenes.kit.reveal import show_fraction
from scenes.kit.text import line, words

PERTURBED = 2                 # which block the forward row perturbs (any one would do)
MARK_ABOVE = 0.12             # 扰动 / 种子 sit this far above the block or loss they name
NOTE_BELOW_CHAIN = 1.05       # a row's count (三千亿遍, 1 遍), under its ticks, at the right
ONLY_BELOW_TICK = 0.12        # 「只这一个」 under the forward row's one ✓
TRIP_SECONDS = {"forward": 1.4, "reverse": 2.6}   # the backward walk is slow enough to follow block by block
# Ⓒ: two funnels side by side, each from its wide end to its narrow end, above the takeaways.
FUNNEL_X = {"ours": -3.6, "counter": 3.6}
FUNNEL_Y = 1.0
FUNNEL_WIDE, FUNNEL_NARROW, FUNNEL_LENGTH = 1.9, 0.3, 3.6
RULE_Y = -1.3                 # C.1: the rule, large, under the pale funnels, before it becomes the header
# Forward mode is ink (forward values), reverse mode the gradients' red; status colours stay out.
MODE_ROLE = {"forward": "ink", "reverse": "backward"}
ROW_NAMES = {"forward": ("A", "正向模式"), "reverse": ("B", "反向模式")}


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
        # The opening still is read unaided (「让人自己看出来」): the same chain twice, the same
        # muted arrows, the same gold seed; only the arrows' direction and the seed's place differ.
        # The words for the two seeds (扰动, 种子) wait for the sentences that name them.
        seeds = {"forward": marks.dot(forward.block_center(PERTURBED), "accent", size="ball"),
                 "reverse": marks.dot(reverse.loss_entry(), "accent", size="ball")}
        question = words("为什么是从后往前？", size="heading").to_corner(UR, buff=EDGE_BUFF)
        self.play(FadeIn(forward), FadeIn(reverse), *[FadeIn(self.row_name(mode)) for mode in ROW_NAMES],
                  *[FadeIn(seed) for seed in seeds.values()], FadeIn(question), run_time=0.8)

        self.beat(says="区别只有一个 —— 你得把整条链走多少遍", takeaway="区别只在：整条链要走多少遍")

        self.beat(says="看上面这排。这叫正向模式：你想知道某个参数的梯度， 就在它身上插一个扰动，顺着链走到 loss")
        handed = self.forward_trip(forward, seeds["forward"])

        # The one gradient (its block lit, its ✓) is handed over when the speaker names it.
        self.beat(says="可这一遍走完，你只拿到了这一个参数的梯度")
        only = words("只这一个", size="label")
        only.next_to(handed, DOWN, buff=ONLY_BELOW_TICK)
        self.play(FadeIn(handed), run_time=0.5)
        self.play(FadeIn(only), run_time=0.4)

        self.beat(says="三千亿个参数，就是三千亿遍")
        # 三千亿 is the speaker's round figure for a large model, not V3's count: marked 示意.
        self.play(Write(self.row_count("forward", "{slider.desk_faders}个参数 ＝ {reverse.ours.forward_passes}遍")),
                  run_time=0.7)

        self.beat(says="再看下面这排。种子插在右边 ——  而右边只有一个数，就是 loss")
        seed_label = words("种子：一个数", size="label").next_to(reverse.loss, UP, buff=MARK_ABOVE)
        seed_label.align_to(reverse.loss, RIGHT)
        self.play(Indicate(seeds["reverse"], color=theme.color("accent"), scale_factor=1.5), FadeIn(seed_label),
                  run_time=0.6)

        # ⭐⭐⭐: the panel's key sentence takes A.2's place, at key size, the largest text.
        self.beat(says="关键在每个方块底下那个勾：往回走的路上，每一层的梯度顺手就到手了",
                  takeaway="每一层的梯度，顺手就到手了", replaces=True)
        self.reverse_trip(reverse, seeds["reverse"])

        self.beat(says="走到最左边的时候，三千亿个梯度已经全部在手里了。而你只走了一遍")
        self.play(Write(self.row_count("reverse", "{slider.desk_faders}个梯度 ＝ {reverse.ours.reverse_passes} 遍")),
                  run_time=0.7)

    def forward_trip(self, chain: ParameterChain, seed: VMobject) -> VGroup:
        """The seed is named 扰动, its path to the loss lights in ink, one ball runs to the loss;
        returns the one gradient it buys (that block lit, and its tick), for the next sentence."""
        poke = words("扰动", size="label").next_to(chain.blocks[PERTURBED], UP, buff=MARK_ABOVE)
        path = VGroup(*chain.arrows[PERTURBED:]).copy().set_color(theme.color(MODE_ROLE["forward"]))
        self.play(FadeIn(poke), run_time=0.4)
        trip = trip_schedule(len(chain.blocks), "forward")[PERTURBED]
        runner = ball()
        handed = [VGroup(chain.lit_block(i), chain.tick(i)) for i in trip.gradients_in_order]
        self.play(FadeIn(path), run_time=0.4)
        self.add(runner)
        self.remove(seed)                    # the runner starts where the seed sat, as the same ball
        self.play(BallTrip(runner, chain.block_center(trip.seed), chain.loss_entry(),
                           run_time=TRIP_SECONDS["forward"]))
        self.remove(runner)
        for part in handed:
            show_fraction(part, 1.0)         # the kit hides reveals; FadeIn brings them in from here
        return VGroup(*handed)

    def reverse_trip(self, chain: ParameterChain, seed: VMobject) -> None:
        """One ball from the seed back to the first block; each link turns red and each block
        lights, with its tick, as the ball passes it, so the row fills from the loss side leftward."""
        trip = trip_schedule(len(chain.blocks), "reverse")[0]
        start, end = seed.get_center(), chain.block_center(trip.gradients_in_order[-1])
        role = MODE_ROLE["reverse"]
        runner = ball()
        passing = [(passing_share(start, end, chain.block_center(i)), VGroup(chain.lit_block(i), chain.tick(i)))
                   for i in trip.gradients_in_order]
        links = [chain.lit_arrow(i, role) for i in range(len(chain.arrows))]
        passing += [(passing_share(start, end, link.get_center()), link) for link in links]
        self.add(*[mob for _, mob in passing], runner)
        self.remove(seed)
        self.play(BallTrip(runner, start, end, passing=passing, run_time=TRIP_SECONDS["reverse"]))
        self.remove(runner)

    def chain(self, mode: str) -> ParameterChain:
        """anim-reverse's chain at anim-reverse's place; reverse mode's arrows point left."""
        chain = ParameterChain(quantity("trips.parameters").value)
        chain.move_to([0, ROW_Y[mode], 0]).align_to([CHAIN_LEFT_X, 0, 0], LEFT)
        return chain.point_back() if mode == "reverse" else chain

    @staticmethod
    def row_name(mode: str):
        """Ⓐ 正向模式 / Ⓑ 反向模式, in ink both, where anim-reverse puts its row headers."""
        panel, name = ROW_NAMES[mode]
        header = words(f"{PANEL_MARKS[panel]} {name}", size="heading")
        return header.to_corner(UL, buff=EDGE_BUFF).shift(DOWN * (ROW_Y["forward"] - ROW_Y[mode]))

    @staticmethod
    def row_count(mode: str, template: str) -> VGroup:
        """What the row's walking cost, in its mode's colour, under the row at the right, marked
        示意 (三千亿 is the speaker's round figure)."""
        count = line(template, size="body", color=MODE_ROLE[mode])
        sketch = words("（示意）", size="label", color="muted")
        note = VGroup(count, sketch).arrange(RIGHT, buff=theme.space("tight"), aligned_edge=DOWN)
        return note.move_to([0, ROW_Y[mode] - NOTE_BELOW_CHAIN, 0]).to_edge(RIGHT, buff=EDGE_BUFF)

    # ---- Ⓒ start from the narrow end ----

    def narrow_end(self) -> None:
        heading = "规则只有一句：从窄的那一头起步"
        # The rule is said over its shape: both funnels, pale (nothing on them is read yet), each
        # with the gold seed at its narrow end; the rule large under them, then the header.
        self.panel("C", says="所以规则只有一句：从窄的那一头起步")
        self.clear()
        counter = self.funnel("counter", wide_at=RIGHT, mode="forward",
                              label="{reverse.counterexample.inputs} 进 · {reverse.counterexample.outputs}出",
                              tally=("正向 {reverse.counterexample.forward_passes} 遍",
                                     "反向 {reverse.counterexample.reverse_passes}遍"),
                              verdict="正向赢")
        ours = self.funnel("ours", wide_at=LEFT, mode="reverse",
                           label="{slider.desk_faders}进 · {trips.outputs} 出",
                           tally=("正向 {reverse.ours.forward_passes}遍", "反向 {reverse.ours.reverse_passes} 遍"),
                           verdict="反向赢")
        pale = {name: f.shape.copy().set_stroke(color=theme.color("muted")) for name, f in
                (("counter", counter), ("ours", ours))}
        rule = words(heading, size="takeaway").move_to([0, RULE_Y, 0])
        self.play(*[FadeIn(shape) for shape in pale.values()], FadeIn(counter.seed), FadeIn(ours.seed),
                  run_time=0.6)
        self.play(FadeIn(rule), Indicate(VGroup(counter.seed, ours.seed), color=theme.color("accent"),
                                         scale_factor=1.5), run_time=0.8)

        # ⛔ the guard: a takeaway with its bar, in ink (it takes no side), kept to the panel's end.
        self.beat(says="注意不是「反向传播永远更好」", takeaway="不是「反向传播永远更好」")
        mark, title = panel_header("C", heading)
        self.play(Transform(rule, title), FadeIn(mark), run_time=0.7)

        # Each funnel takes its winner's colour, its counts and its verdict when it is read.
        self.beat(says="右边那个反例：十个参数、一百万维输出 ——  这时候你该从前往后，反向传播反而亏",
                  takeaway="窄的一头在输入：该从前往后")
        self.play(ReplacementTransform(pale["counter"], counter.shape), FadeIn(counter.rest), run_time=0.8)

        # Our side's line takes the counterexample's place (its funnel says 正向赢 on its own), so
        # the panel ends on two lines, the ⛔ guard stepped back above ours.
        self.beat(says="我们之所以用反向，只是因为我们这一边正好是三千亿进、一个出",
                  takeaway="我们用反向，只因为正好是{slider.desk_faders}进、{trips.outputs} 个出", replaces=True)
        # 三千亿 is the speaker's round figure (示例取值), tagged as in Ⓐ.
        sketch = words("（示意）", size="label", color="muted").next_to(ours.title, RIGHT, buff=theme.space("tight"))
        self.play(ReplacementTransform(pale["ours"], ours.shape), FadeIn(ours.rest), FadeIn(sketch), run_time=0.8)
        self.play(Indicate(ours.shape, color=theme.color("backward")), run_time=0.8)

    @staticmethod
    def funnel(which: str, *, wide_at, mode: str, label: str, tally: tuple[str, str], verdict: str) -> VGroup:
        """A funnel from the wide end to the narrow end, in the winning mode's colour, the seed
        (the gold ball) at the narrow end; under it the passes each mode needs, the winner's
        count in its colour and the loser's muted. Parts: .shape .seed .title .counts .verdict, and
        .rest (all but the shape and the seed)."""
        x, half = FUNNEL_X[which], FUNNEL_LENGTH / 2
        wide_x, narrow_x = x + half * wide_at[0], x - half * wide_at[0]
        role = MODE_ROLE[mode]
        shape = marks.polygon([[wide_x, FUNNEL_Y + FUNNEL_WIDE / 2], [narrow_x, FUNNEL_Y + FUNNEL_NARROW / 2],
                               [narrow_x, FUNNEL_Y - FUNNEL_NARROW / 2], [wide_x, FUNNEL_Y - FUNNEL_WIDE / 2]],
                              role, weight="bold")
        seed = marks.dot([narrow_x, FUNNEL_Y], "accent", size="ball")
        seed_label = words("种子", size="small").next_to(seed, DOWN, buff=theme.space("gap"))
        title = line(label, size="label", color=role).next_to(shape, UP, buff=theme.space("gap"))
        winner = 0 if mode == "forward" else 1
        counts = VGroup(*[line(t, size="label", color=role if i == winner else "muted") for i, t in enumerate(tally)])
        counts.arrange(DOWN, aligned_edge=LEFT, buff=theme.space("snug"))
        counts.next_to(shape, DOWN, buff=theme.space("gap"))
        result = words(verdict, size="heading", color=role).next_to(counts, RIGHT, buff=theme.space("large"))
        group = VGroup(shape, seed, seed_label, title, counts, result)
        group.shape, group.seed, group.title, group.counts, group.verdict = shape, seed, title, counts, result
        group.rest = VGroup(seed_label, title, counts, result)     # what comes once the funnel is read
        return group
