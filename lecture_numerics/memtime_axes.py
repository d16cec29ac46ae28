"""The axes of anim-memtime, for the configured scenario: where they break, how far they
reach, and the tick labels they show (numbers on screen, so declared here like the rest).

The main chart stacks the four categories; its value axis is broken above the resident
block (weights + optimizer) and runs to a round ceiling above the step's peak. The zoom
strip shows activations alone from zero, in GiB unless they reach a TiB.
"""

from __future__ import annotations

from typing import Callable

from lecture_numerics.axes import nice_ceiling, nice_ticks, tick_formatter
from lecture_numerics.memtime_configured import SETTINGS
from lecture_numerics.models import GIB, TIB
from lecture_numerics.provenance import derived
from lecture_numerics.timeline import Scenario, Timeline, memory_timeline

RESIDENT = ("weights", "optimizer")
# Ticks closer than this share of the expanded range to the break would crowd its mark.
BREAK_CLEARANCE = 0.02


def main_scale(tl: Timeline) -> tuple[float, float]:
    """(floor, ceiling) in bytes of the expanded part of the main axis."""
    floor = float(sum(tl.bytes[name][0] for name in RESIDENT))
    return floor, nice_ceiling(float(tl.total().max()) / TIB, floor / TIB) * TIB


def main_ticks_tib(tl: Timeline) -> list[float]:
    """0 at the axis' foot, then the round values above the break (TiB)."""
    floor, ceiling = main_scale(tl)
    ticks, _ = nice_ticks(floor / TIB, ceiling / TIB)
    return [0.0, *[float(v) for v in ticks if v * TIB > floor + BREAK_CLEARANCE * (ceiling - floor)]]


def zoom_unit(tl: Timeline) -> tuple[str, float]:
    return ("GiB", GIB) if tl.activation_peak[1] < TIB else ("TiB", TIB)


def zoom_ceiling(tl: Timeline) -> float:
    """Top of the activation strip, bytes."""
    _, unit = zoom_unit(tl)
    return nice_ceiling(float(tl.bytes["activations"].max()) / unit) * unit


def zoom_ticks(tl: Timeline) -> list[float]:
    _, unit = zoom_unit(tl)
    ticks, _ = nice_ticks(0, zoom_ceiling(tl) / unit, 2)
    return [float(v) for v in ticks]


def _declare_ticks(key: str, ticks_of: Callable[[Timeline], list[float]], *, unit: str, formula: str,
                   measures: str):
    def compute(**settings):
        return ticks_of(memory_timeline(Scenario(**settings)))

    labels = tick_formatter(compute(**{name: q.value for name, q in SETTINGS.items()}))
    return derived(key, compute, inputs=SETTINGS, unit=unit, item_fmt=labels,
                   fmt=lambda ticks: " / ".join(map(labels, ticks)), formula=formula, measures=measures)


MAIN_TICKS = _declare_ticks(
    "memtime.axis.memory_ticks_tib", main_ticks_tib, unit="TiB",
    formula="0, then round steps (1, 2, 2.5, 5 × 10ᵏ, about three) from the resident block to the "
            "round ceiling above the step's peak, from timeline.memory_timeline(config.memtime.*)",
    measures="tick labels of anim-memtime's memory axis (broken above the resident block)")
ZOOM_TICKS = _declare_ticks(
    "memtime.axis.activation_ticks", zoom_ticks, unit="GiB or TiB (zoom strip's unit)",
    formula="round steps (about two) from 0 to the round ceiling above the activation peak",
    measures="tick labels of anim-memtime's activation zoom strip")
