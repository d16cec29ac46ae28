"""anim-reverse: forward mode against reverse mode on two identical chains (~10 s, loops).

One section, played as a loop: the opening frame is held with both balls parked at their
seeds — the same ball, the same muted arrows in both rows, so the rows differ only in arrow
direction and seed position (「两条链一模一样」); both chains start at the same instant;
the top (正向模式) runs one trip per parameter, the bottom (反向模式) one trip back from the
loss, its arrows turning the gradients' red as the ball passes them; each trip lands a block
on its row's stack (forward in ink, reverse in red). The caption 「那个「8」是三千亿（示意）」
comes when the top stack reaches 8, as the speaker says it last, and is held long enough to
read. Then everything fades back to the opening frame, which is also the loop's first frame.
"""

from __future__ import annotations

from dataclasses import dataclass

from manim import BOLD, DOWN, LEFT, RIGHT, UL, UR, Dot, FadeIn, FadeOut, Mobject, Text, VGroup, VMobject

from lecture_numerics import quantity
from lecture_numerics.trips import Trip, trip_schedule
from scenes.kit import marks, theme
from scenes.kit.base import LectureScene, SectionStill
from scenes.kit.chain_widgets import APPEAR, BallTrip, ParameterChain, TripStack, ball, passing_share
from scenes.kit.panels import EDGE_BUFF, PANEL_MARKS
from scenes.kit.reveal import hidden
from scenes.kit.text import ledger_text, number, words

START_SECONDS = 0.8      # the opening frame, held: both balls parked at their seeds
TRIP_SECONDS = 0.65
CAPTION_SECONDS = 0.4    # the caption fades in once the top stack is complete
HOLD_SECONDS = 2.6       # both stacks complete, caption up: long enough to read it and let 8 against 1 sink in
RESET_SECONDS = 0.6
SEAM_SECONDS = 0.3       # the opening frame, held; the loop restarts from exactly this frame

CHAIN_LEFT_X = -6.7
STACK_X = 4.9
ROW_Y = {"forward": 2.15, "reverse": -0.95}
# How far each row's stack baseline sits under its chain: the top stack's eight blocks stand
# level with their chain, their top a clear gap under 「跑一趟，堆一块」 (the baseline still above
# row Ⓑ's header); the bottom one's single block sits just under its chain (never level
# with it, where it would read as one more parameter), so each stack reads as its row's.
STACK_BELOW_CHAIN = {"forward": 1.58, "reverse": 0.3}
# Each row in its mode's colour where it counts (its stack, its count): forward values are ink,
# backward ones the gradients' red. The ball is the accent in both rows: the same ball.
MODE_ROLE = {"forward": "ink", "reverse": "backward"}
HEADERS = {"forward": ("正向模式", "一趟只为一个参数，跑完才点亮那一个"),
           "reverse": ("反向模式", "从 loss 往回走一趟，沿途全部点亮")}
COUNT_KEYS = {"forward": "trips.forward", "reverse": "trips.reverse"}


@dataclass
class Row:
    """One chain with its stack and everything its trips will reveal."""

    mode: str
    chain: ParameterChain
    stack: TripStack
    schedule: list[Trip]
    runner: Dot
    lit: list[VMobject]
    ticks: list[VMobject]
    lit_arrows: list[VMobject]
    stack_blocks: list[VMobject]
    count: Text
    layer: VGroup


class AnimReverse(LectureScene):
    scene_id = "anim-reverse"
    title = "为什么从后往前：正向模式与反向模式"
    loop = True
    # trips.parameters is drawn as a count of blocks (8 in each chain), not as a number.
    ledger_keys = ("trips.parameters", "trips.forward", "trips.reverse", "slider.desk_faders")

    def construct(self) -> None:
        n_params = quantity("trips.parameters").value
        capacity = quantity("trips.forward").value    # both stacks on one scale: room for the longer
        rows = [self.build_row(mode, n_params, capacity) for mode in ("forward", "reverse")]
        self.add(self.stack_legend(rows[0]))
        caption = self.caption()
        # What the trips will light up, hidden, above the chains.
        self.add(*[row.layer for row in rows])
        # The opening frame, held: each ball waits at its first seed (one copy leaves as the
        # trips start, an identical one comes back at the reset, so the seam is exact).
        parked = [self.parked_ball(row) for row in rows]
        self.add(*parked)
        self.wait(START_SECONDS)

        # Both chains start at the same instant; each play is one trip per row still running.
        # The parked balls hand over to the runners as these fade in at the seeds.
        hand_over = [FadeOut(ball_at, rate_func=lambda t: min(1.0, t / APPEAR)) for ball_at in parked]
        for k in range(max(len(row.schedule) for row in rows)):
            self.play(*[self.trip(row, k) for row in rows if k < len(row.schedule)], *hand_over,
                      run_time=TRIP_SECONDS)
            hand_over = []
        self.play(FadeIn(caption), run_time=CAPTION_SECONDS)      # 「那个「8」」 once there are eight
        self.wait(HOLD_SECONDS)
        self.snapshot("peak")

        # Back to the opening frame: the loop's seam.
        self.play(*[FadeOut(row.layer) for row in rows], FadeOut(caption),
                  *[FadeIn(self.parked_ball(row)) for row in rows], run_time=RESET_SECONDS)
        self.wait(SEAM_SECONDS)

    @staticmethod
    def parked_ball(row: Row) -> Dot:
        """The row's ball, shown and waiting where its first trip starts."""
        trip, chain = row.schedule[0], row.chain
        seed = chain.loss_entry() if trip.seed == "loss" else chain.block_center(trip.seed)
        return marks.dot(seed, "accent", radius=row.runner.radius)

    # --- building -------------------------------------------------------------------

    def build_row(self, mode: str, n_params: int, capacity: int) -> Row:
        chain = ParameterChain(n_params)
        chain.move_to([0, ROW_Y[mode], 0]).align_to([CHAIN_LEFT_X, 0, 0], LEFT)
        if mode == "reverse":
            chain.point_back()     # arrows run back from the loss, as in fig-reverse Ⓑ
        role = MODE_ROLE[mode]
        stack = TripStack(capacity, color=role).move_to([STACK_X, ROW_Y[mode] - STACK_BELOW_CHAIN[mode], 0])
        schedule = trip_schedule(n_params, mode)
        self.add(self.row_header(mode), chain, stack)

        lit = [chain.lit_block(i) for i in range(n_params)]
        ticks = [chain.tick(i) for i in range(n_params)]
        # The walk back turns each link red as the ball passes it; forward trips leave the links muted.
        lit_arrows = [chain.lit_arrow(i, role) for i in range(len(chain.arrows))] if mode == "reverse" else []
        stack_blocks = [stack.block(k) for k in range(len(schedule))]
        count = hidden(number(COUNT_KEYS[mode], suffix=" 趟", color=role))
        count.next_to(stack_blocks[-1], RIGHT, buff=theme.space("gap"))
        runner = ball("accent")
        layer = VGroup(*lit_arrows, *lit, *ticks, *stack_blocks, count, runner)
        return Row(mode, chain, stack, schedule, runner, lit, ticks, lit_arrows, stack_blocks, count, layer)

    @staticmethod
    def row_header(mode: str) -> VGroup:
        """Ⓐ 正向模式 / Ⓑ 反向模式 and what the row does, in ink in both rows (the rows are alike)."""
        name, rest = HEADERS[mode]
        mark = PANEL_MARKS["A" if mode == "forward" else "B"]     # the rows fig-reverse names Ⓐ and Ⓑ
        header = VGroup(words(f"{mark} {name}", size="heading"), words(rest, size="body"))
        header.arrange(RIGHT, buff=theme.space("edge"), aligned_edge=DOWN)
        top = {"forward": 0, "reverse": ROW_Y["forward"] - ROW_Y["reverse"]}[mode]
        return header.to_corner(UL, buff=EDGE_BUFF).shift(DOWN * top)

    @staticmethod
    def stack_legend(top_row: Row) -> Mobject:
        """「跑一趟，堆一块」 once, at the top right over the stacks' column, in row Ⓐ's band
        (under a baseline it sat level with row Ⓑ's header and read as part of Ⓑ)."""
        legend = words("跑一趟，堆一块", size="small", color="muted")
        legend.to_corner(UR, buff=EDGE_BUFF).set_x(top_row.stack.baseline.get_x())
        return legend

    @staticmethod
    def caption() -> VGroup:
        """The speaker's last sentence: the top stack's 8 stands for 三千亿 (the speaker's round
        figure, marked 示意 as in fig-reverse), in ink like the stack it names."""
        said = ledger_text("真实模型里，那个「{trips.forward}」是{slider.desk_faders}", size="heading", weight=BOLD)
        sketch = words("（示意）", size="label", color="muted")
        return VGroup(said, sketch).arrange(RIGHT, buff=theme.space("tight"), aligned_edge=DOWN) \
            .to_edge(DOWN, buff=EDGE_BUFF)

    # --- animating ------------------------------------------------------------------

    def trip(self, row: Row, k: int) -> BallTrip:
        """Trip ``k`` of a row: the ball runs from the seed; gradients light up as the
        schedule says (while passing, or on reaching the loss); a block lands on the stack."""
        trip = row.schedule[k]
        chain = row.chain
        if trip.seed == "loss":
            start, end = chain.loss_entry(), chain.block_center(trip.gradients_in_order[-1])
        else:
            start, end = chain.block_center(trip.seed), chain.loss_entry()
        handed = [VGroup(row.lit[i], row.ticks[i]) for i in trip.gradients_in_order]
        arrival = [row.stack_blocks[k]] + ([row.count] if k == len(row.schedule) - 1 else [])
        if trip.along_the_way:
            passing = [(passing_share(start, end, chain.block_center(i)), mob)
                       for i, mob in zip(trip.gradients_in_order, handed)]
            passing += [(passing_share(start, end, link.get_center()), link) for link in row.lit_arrows]
        else:
            passing, arrival = [], handed + arrival
        return BallTrip(row.runner, start, end, passing=passing, on_arrival=arrival)

    def snapshot(self, name: str) -> None:
        """A loop ends on its opening frame, so also keep the full-stacks moment for the
        stills and the legibility test."""
        if self.capture_stills:
            self.section_stills.append(SectionStill(name, [m.copy() for m in self.mobjects]))
