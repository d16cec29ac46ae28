"""anim-reverse: forward mode against reverse mode on two identical chains (~9 s, loops).

One section, played as a loop: the opening frame is held with both balls parked at their
seeds (so the room is looking before anything runs); both chains start at the same instant;
the top (正向模式) runs one trip per parameter, the bottom (反向模式, arrows pointing back from
the loss, in the gradients' red as in fig-reverse Ⓑ) one trip back from the loss; each trip
lands a block on its row's stack. The caption 「那个「8」是三千亿」 comes when the top stack
reaches 8, as the speaker says it last. Then everything fades back to the opening frame,
which is also the loop's first frame.
"""

from __future__ import annotations

from dataclasses import dataclass

from manim import DOWN, LEFT, RIGHT, UL, Dot, FadeIn, FadeOut, RoundedRectangle, Text, VGroup, VMobject

from lecture_numerics import quantity
from lecture_numerics.trips import Trip, trip_schedule
from scenes.kit import theme
from scenes.kit.base import LectureScene, SectionStill
from scenes.kit.chain_widgets import APPEAR, BallTrip, ParameterChain, TripStack, ball, passing_share
from scenes.kit.reveal import hidden
from scenes.kit.panels import EDGE_BUFF, PANEL_MARKS
from scenes.kit.text import ledger_text, number, words

START_SECONDS = 1.0      # the opening frame, held: both balls parked at their seeds
TRIP_SECONDS = 0.8
CAPTION_SECONDS = 0.5    # the caption fades in once the top stack is complete
HOLD_SECONDS = 1.2       # both stacks complete: the 8 against the 1 sinks in
RESET_SECONDS = 0.8
SEAM_SECONDS = 0.4       # the opening frame, held; the loop restarts from exactly this frame

CHAIN_LEFT_X = -6.7
STACK_X = 4.9
ROW_Y = {"forward": 2.15, "reverse": -0.95}
# How far each row's stack baseline sits under its chain: the top stack's eight blocks stand
# level with their chain; the bottom one's single block sits just under its chain (never level
# with it, where it would read as one more parameter), so each stack reads as its row's.
STACK_BELOW_CHAIN = {"forward": 1.3, "reverse": 0.3}


@dataclass
class Row:
    """One chain with its stack and everything its trips will reveal."""

    mode: str
    chain: ParameterChain
    stack: TripStack
    schedule: list[Trip]
    runner: Dot
    lit: list[RoundedRectangle]
    ticks: list[VMobject]
    stack_blocks: list[RoundedRectangle]
    count: Text
    layer: VGroup


class AnimReverse(LectureScene):
    scene_id = "anim-reverse"
    title = "为什么从后往前：正向模式与反向模式"
    loop = True
    ledger_keys = ("trips.forward", "trips.reverse", "slider.desk_faders")

    def construct(self) -> None:
        n_params = quantity("trips.parameters").value
        capacity = quantity("trips.forward").value    # both stacks on one scale: room for the longer
        rows = [
            self.build_row("forward", n_params, capacity, header=("正向模式", "一趟只为一个参数，跑完才点亮那一个"),
                           ball_color="accent", count_key="trips.forward"),
            self.build_row("reverse", n_params, capacity, header=("反向模式", "从 loss 往回走一趟，沿途全部点亮"),
                           ball_color="backward", count_key="trips.reverse"),
        ]
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
        return Dot(seed, radius=row.runner.radius, color=row.runner.get_color())

    # --- building -------------------------------------------------------------------

    def build_row(self, mode: str, n_params: int, capacity: int, *, header: tuple[str, str], ball_color: str,
                  count_key: str) -> Row:
        chain = ParameterChain(n_params)
        chain.move_to([0, ROW_Y[mode], 0]).align_to([CHAIN_LEFT_X, 0, 0], LEFT)
        if mode == "reverse":
            chain.point_back()     # arrows run back from the loss, in red, as in fig-reverse Ⓑ
        stack = TripStack(capacity, color=ball_color).move_to([STACK_X, ROW_Y[mode] - STACK_BELOW_CHAIN[mode], 0])
        legend = words("跑一趟，堆一块", size="small", color="muted").next_to(stack.baseline, DOWN, buff=theme.space("small"))
        schedule = trip_schedule(n_params, mode)
        self.add(self.row_header(mode, *header), chain, stack, legend)

        lit = [chain.lit_block(i) for i in range(n_params)]
        ticks = [chain.tick(i) for i in range(n_params)]
        stack_blocks = [stack.block(k) for k in range(len(schedule))]
        count = hidden(number(count_key, suffix=" 趟", color=ball_color))
        count.next_to(stack_blocks[-1], RIGHT, buff=theme.space("gap"))
        runner = ball(ball_color)
        layer = VGroup(*lit, *ticks, *stack_blocks, count, runner)
        return Row(mode, chain, stack, schedule, runner, lit, ticks, stack_blocks, count, layer)

    def row_header(self, mode: str, name: str, rest: str) -> VGroup:
        colour = "accent" if mode == "forward" else "backward"
        mark = PANEL_MARKS["A" if mode == "forward" else "B"]     # the rows fig-reverse names Ⓐ and Ⓑ
        header = VGroup(words(f"{mark} {name}", size="heading", color=colour), words(rest, size="body"))
        header.arrange(RIGHT, buff=theme.space("edge"), aligned_edge=DOWN)
        top = {"forward": 0, "reverse": ROW_Y["forward"] - ROW_Y["reverse"]}[mode]
        return header.to_corner(UL, buff=EDGE_BUFF).shift(DOWN * top)

    def caption(self) -> Text:
        line = ledger_text("真实模型里，那个「{trips.forward}」是{slider.desk_faders}", size="heading",
                           t2c={quantity("slider.desk_faders").display: theme.color("backward")})
        return line.to_edge(DOWN, buff=EDGE_BUFF)

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
        else:
            passing, arrival = [], handed + arrival
        return BallTrip(row.runner, start, end, passing=passing, on_arrival=arrival)

    def snapshot(self, name: str) -> None:
        """A loop ends on its opening frame, so also keep the full-stacks moment for the
        stills and the legibility test."""
        if self.capture_stills:
            self.section_stills.append(SectionStill(name, [m.copy() for m in self.mobjects]))
