"""A chain of parameter blocks feeding one loss, a ball that runs it, and a stack that
counts the runs. Handed the counts and schedules by numerics; draws, never decides.

Everything that appears during a run (ball, lit blocks, ticks, stack blocks) is built
once, hidden at zero opacity, and faded by :class:`BallTrip`, so no mobject is rebuilt
per frame and each frame redraws only what the trip touches.
"""

from __future__ import annotations

import math

import numpy as np
from manim import DOWN, LEFT, ORIGIN, PI, RIGHT, UP, Dot, Mobject, VGroup, VMobject

from scenes.kit import marks, theme
from scenes.kit.arrows import arrow
from scenes.kit.reveal import InPlace, hidden, show_fraction
from scenes.kit.text import words

BLOCK_SIDE = 0.56
TICK_DROP = 0.5          # tick centre below the block centre
# The ✓ as three corners (scene units, about its centre): a short stroke down, a long one up.
TICK_SHAPE = ((-0.14, 0.0, 0), (-0.04, -0.1, 0), (0.16, 0.13, 0))
STACK_BLOCK = (0.72, 0.24)
STACK_GAP = 0.05
BASELINE_OVERHANG = 0.12  # the stack's baseline reaches this far past a block on each side
LOSS_PAD = 0.4           # the loss box: its word plus this much, across
# Where a ball meets the loss: this far left of the box, so a ball (radius 0.12) parked there
# keeps about 8 px clear of the box and of the word 「loss」.
LOSS_APPROACH = 0.21


class ParameterChain(VGroup):
    """``n`` parameter blocks in a row, each feeding the next stage, ending in ``loss``.
    Its arrows are muted in both modes (the two rows are the same chain); what a trip lights
    up is built by :meth:`lit_block`, :meth:`lit_arrow` and :meth:`tick`, hidden."""

    def __init__(self, n_params: int, *, spacing: float = 1.1) -> None:
        super().__init__()
        self.blocks = VGroup(*[self._block().shift(RIGHT * i * spacing) for i in range(n_params)])
        self.loss = self._loss_node().next_to(self.blocks, RIGHT, buff=spacing - BLOCK_SIDE + 0.15)
        stops = [*self.blocks, self.loss]
        self.arrows = VGroup(*[
            arrow(a.get_right(), b.get_left(), "muted", weight="regular", buff="hair")
            for a, b in zip(stops, stops[1:])
        ])
        self.add(self.arrows, self.blocks, self.loss)

    def point_back(self) -> "ParameterChain":
        """Reverse mode: every arrow turned to run from the loss back towards the inputs (still
        muted: the walk back lights them, :meth:`lit_arrow`)."""
        for link in self.arrows:
            link.rotate(PI)
        return self

    @staticmethod
    def _block() -> VMobject:
        return marks.box(BLOCK_SIDE, BLOCK_SIDE, "muted", weight="regular", fill="panel", fill_opacity=1)

    @staticmethod
    def _loss_node() -> VGroup:
        label = words("loss", size="label")
        box = marks.box(label.width + LOSS_PAD, BLOCK_SIDE + 0.1, "ink", weight="regular", fill="panel",
                        fill_opacity=1)
        return VGroup(box, label.move_to(box))

    def block_center(self, index: int) -> np.ndarray:
        return self.blocks[index].get_center()

    def loss_entry(self) -> np.ndarray:
        """Where a ball meets the loss: just left of its box, so the word stays readable."""
        return self.loss.get_left() + LEFT * LOSS_APPROACH

    def lit_block(self, index: int, color: str = "gradients") -> VMobject:
        """The block filled in: this parameter's gradient is in hand (hidden until revealed)."""
        lit = self._block().set_fill(theme.color(color), opacity=1).set_stroke(theme.color(color))
        return hidden(lit.move_to(self.block_center(index)))

    def lit_arrow(self, index: int, color: str = "gradients") -> VMobject:
        """Arrow ``index`` (from stop ``index`` to the next, or back) drawn in ``color`` over
        the muted one: the link a walk has passed (hidden until revealed)."""
        return hidden(self.arrows[index].copy().set_color(theme.color(color)))

    def tick(self, index: int, color: str = "good") -> VMobject:
        """The ✓ under a block (hidden until revealed)."""
        centre = self.block_center(index) + DOWN * TICK_DROP
        return hidden(marks.polyline([centre + np.array(p) for p in TICK_SHAPE], color, weight="heavy"))


class TripStack(VGroup):
    """A baseline on which one block lands per trip; room for ``capacity`` blocks."""

    def __init__(self, capacity: int, color: str) -> None:
        super().__init__()
        width, _ = STACK_BLOCK
        self.capacity, self.block_color = capacity, color
        reach = width / 2 + BASELINE_OVERHANG
        self.baseline = marks.segment(LEFT * reach, RIGHT * reach, "muted", weight="bold")
        self.add(self.baseline)

    def height_for(self, blocks: int) -> float:
        _, height = STACK_BLOCK
        return blocks * (height + STACK_GAP)

    def block(self, slot: int) -> VMobject:
        """The block that lands in ``slot`` (0 = bottom), hidden until revealed."""
        width, height = STACK_BLOCK
        if not 0 <= slot < self.capacity:
            raise IndexError(f"stack holds {self.capacity} blocks, no slot {slot}")
        rect = marks.box(width, height, self.block_color, weight=None, fill_opacity=1, corner="square")
        bottom = self.baseline.get_center() + UP * (STACK_GAP + slot * (height + STACK_GAP))
        return hidden(rect.move_to(bottom, aligned_edge=DOWN))

    def top(self, blocks: int) -> np.ndarray:
        """Point at the top of a stack of ``blocks`` blocks."""
        return self.baseline.get_center() + UP * self.height_for(blocks)


def ball(color: str = "accent") -> Dot:
    """The moving ball (the accent: a highlight, never a concept), hidden until a trip starts."""
    return hidden(marks.dot(ORIGIN, color, size="ball"))


# Phases of a trip as fractions of its run time: the ball fades in at the seed, travels,
# and hands over what it carries on arrival.
APPEAR, ARRIVE, SETTLE = 0.12, 0.80, 0.95
REVEAL_RAMP = 0.10


def _travel(alpha: float) -> float:
    """Share of the way covered at time ``alpha`` (sine ease in and out)."""
    u = min(max((alpha - APPEAR) / (ARRIVE - APPEAR), 0.0), 1.0)
    return (1 - math.cos(math.pi * u)) / 2


def _time_at(travel: float) -> float:
    """Inverse of :func:`_travel`: when the ball has covered ``travel`` of the way."""
    u = math.acos(1 - 2 * min(max(travel, 0.0), 1.0)) / math.pi
    return APPEAR + u * (ARRIVE - APPEAR)


class BallTrip(InPlace):
    """A ball seeded at ``start`` runs to ``end``; each reveal (share of the way, mobject)
    fades in as the ball passes that point; ``on_arrival`` mobjects fade in when it lands.
    The runner and reveals already sit in the scene, hidden."""

    def __init__(self, runner: Dot, start: np.ndarray, end: np.ndarray, *,
                 passing: list[tuple[float, Mobject]] = (), on_arrival: list[Mobject] = (), **kwargs) -> None:
        self.runner, self.start, self.end = runner, np.array(start), np.array(end)
        self.reveals = [(_time_at(share), mob) for share, mob in passing]
        self.reveals += [(ARRIVE, mob) for mob in on_arrival]
        kwargs.setdefault("rate_func", lambda t: t)
        super().__init__([runner, *[mob for _, mob in self.reveals]], **kwargs)

    def interpolate_mobject(self, alpha: float) -> None:
        self.runner.move_to(self.start + (self.end - self.start) * _travel(alpha))
        fade_in = alpha / APPEAR
        fade_out = (SETTLE - alpha) / (SETTLE - ARRIVE)
        show_fraction(self.runner, min(max(min(fade_in, fade_out), 0.0), 1.0))
        for when, mob in self.reveals:
            show_fraction(mob, min(max((alpha - when) / REVEAL_RAMP, 0.0), 1.0))


def passing_share(start: np.ndarray, end: np.ndarray, point: np.ndarray) -> float:
    """How far along start→end (0..1) the ball is when it is level with ``point``."""
    return float((point[0] - start[0]) / (end[0] - start[0]))
