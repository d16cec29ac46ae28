"""fig-precision Ⓑ and Ⓒ: the bf16 accumulation run drawn step by step, and the criterion's curves.

Ⓑ runs precision.accumulate's loop again but keeps every step: the float32 sum before it is
stored (1.0003) and the value stored in bf16 after rounding (1.0). The ticks of the number
line are the bf16 neighbours of 1.0, read off the bit pattern.

Ⓒ draws "how much of one step's contribution is still there after k steps": 1 for the
master weight (nothing ever removes it), 0 after one step for a gradient (used, then
thrown away), β^k for an exponential moving average (Adam's m and v).
"""

from __future__ import annotations

import math

import numpy as np

from lecture_numerics.optim import BETA1, BETA2
from lecture_numerics.precision import ADDS, INCREMENT, SPACING, START, bf16_next_up, to_bf16
from lecture_numerics.provenance import chosen, derived, sourced

_NOTES = "lecture-notes.txt, 第三节 fig-precision"


def bf16_neighbours(start: float, count: int) -> tuple[float, ...]:
    """``start`` and the next ``count − 1`` bf16 values above it."""
    values = [float(to_bf16(start)[0])]
    while len(values) < count:
        values.append(bf16_next_up(values[-1]))
    return tuple(values)


def accumulation_trace(start: float, increment: float, adds: int) -> tuple[np.ndarray, np.ndarray]:
    """Every step of x ← bf16(x + increment): the float32 sums before storing, and the stored values."""
    x = np.float32(start)
    step = np.float32(increment)
    sums, stored = np.empty(adds, np.float32), np.empty(adds, np.float32)
    for i in range(adds):
        sums[i] = np.float32(x + step)
        x = to_bf16(sums[i])[0]
        stored[i] = x
    return sums, stored


def _tick(value: float) -> str:
    return "1.0" if value == 1.0 else f"{value:.8g}"


TICK_COUNT = chosen("precision.tick_count", 4, unit="ticks", measures="bf16 values marked on Ⓑ's number line",
                    reason="1.0 and three neighbours above it: enough to show equal empty gaps, few enough to read")
TICKS = derived(
    "precision.bf16.ticks_near_1", lambda start, count: bf16_neighbours(start, count),
    inputs={"start": START, "count": TICK_COUNT}, unit="", fmt=str, item_fmt=_tick,
    formula="1.0, then repeatedly the next bf16 value (bit 16 of the float32 pattern + 1)",
    measures="the bf16 values from 1.0 upward: nothing in between is representable")
FIRST_SUM = derived(
    "precision.bf16.first_sum", lambda start, increment: float(accumulation_trace(start, increment, 1)[0][0]),
    inputs={"start": START, "increment": INCREMENT}, unit="", fmt="{:.4f}",
    formula="float32(start + increment): the sum before it is stored", measures="1.0 + 0.0003 before rounding")
FIRST_STORED = derived(
    "precision.bf16.first_stored", lambda start, increment: float(accumulation_trace(start, increment, 1)[1][0]),
    inputs={"start": START, "increment": INCREMENT}, unit="", fmt="{:.1f}",
    formula="bf16(float32(start + increment)), ties to even", measures="the first sum after it is stored in bf16",
    notes="1.0", notes_quote="因为每一次都是从 1.0 开始加，每一次都被舍回 1.0。")
STEPS_MOVED = derived(
    "precision.bf16.steps_moved", lambda start, increment, adds: int(np.count_nonzero(
        np.diff(np.concatenate([[start], accumulation_trace(start, increment, adds)[1]])))),
    inputs={"start": START, "increment": INCREMENT, "adds": ADDS}, unit="steps", fmt="{}",
    formula="steps of the bf16 run whose stored value differs from the one before",
    measures="how many of the 1000 bf16 steps moved the weight at all",
    notes="0", notes_quote="结果是 1.0。一步都没动。")
SPACING_OVER_INCREMENT = derived(
    "precision.spacing_over_increment", lambda spacing, increment: spacing / increment,
    inputs={"spacing": SPACING, "increment": INCREMENT}, unit="adds", fmt="{:.0f}",
    formula="bf16 spacing at 1.0 ÷ increment (the naive estimate)",
    measures="how many increments one bf16 gap is worth", notes="26",
    notes_quote="有人会想：那多加几次不就行了？加二十六次就够一格了嘛。")
ADDS_TO_ONE_SPACING = derived(
    "precision.adds_to_one_spacing", lambda spacing, increment: math.ceil(spacing / increment),
    inputs={"spacing": SPACING, "increment": INCREMENT}, unit="adds", fmt="{}",
    formula="⌈bf16 spacing at 1.0 ÷ increment⌉",
    measures="additions of the increment needed to cover one bf16 spacing at 1.0 (in exact arithmetic)",
    note="2^-7 ÷ 0.0003 = 26.04: 26 additions reach 0.0078, still short of the 0.0078125 gap; 27 are "
         "needed. The notes' 26 is the rounded ratio (precision.spacing_over_increment).",
    notes="26", notes_quote="加二十六次就够一格了嘛。")

# ---- Ⓒ how long an old contribution stays ----------------------------------------------

HORIZON = chosen("precision.criterion_horizon", 100_000, unit="steps", fmt="{:,}",
                 measures="length of Ⓒ's step axis", reason="the notes' 「跨十万步」: a long run, illustrative",
                 notes="十万", notes_quote="主权重 —— 跨十万步不断加进微小增量，老的一直在里面。")
AXIS_TICKS = derived(
    "precision.criterion_ticks", lambda horizon: tuple(10 ** k for k in range(int(math.log10(horizon)) + 1)),
    inputs={"horizon": HORIZON}, unit="steps", fmt=str, item_fmt="{:,}",
    formula="powers of ten from 1 to the horizon", measures="Ⓒ's log step-axis ticks")


def remaining(kind: str, steps: np.ndarray, beta: float | None = None, window: float | None = None) -> np.ndarray:
    """Share of one step's contribution still in the stored value ``steps`` steps later."""
    steps = np.asarray(steps, dtype=float)
    if kind == "kept":        # the master weight: w ← w + Δ never removes an old Δ
        return np.ones_like(steps)
    if kind == "used_once":   # a gradient or activation: computed, used, thrown away
        return np.where(steps < 1, 1.0, 0.0)
    if kind == "ema":         # m ← βm + (1 − β)g: each step multiplies the old part by β
        return beta ** steps
    if kind == "accumulated":  # a weight-gradient buffer: summed over ``window`` micro-batches, then used and zeroed
        return np.where(steps < window, 1.0, 0.0)
    raise ValueError(kind)


ACCUMULATION_WINDOW = chosen(
    "precision.accumulation_window_illustrative", 16, unit="micro-batches", fmt="{}",
    measures="how many micro-batch additions a weight-gradient buffer takes before it is used and zeroed "
             "(drawn in Ⓒ as a plateau, no number on screen)",
    reason="illustrative: any count above one gives the buffer 「老的」 while it accumulates, which is why V3 "
           "keeps it in fp32 (V3 report §3.3.3: gradients \"used for batch size accumulation\")")
V3_SECTION = sourced("precision.v3.low_precision_section", "3.3.3", unit="section", fmt="{}",
                     citation="DeepSeek-V3 technical report, arXiv 2412.19437, §3.3.3 Low-Precision Storage and "
                              "Communication: BF16 first and second moments \"without incurring observable performance "
                              "degradation\"; \"the master weights (stored by the optimizer) and gradients (used for "
                              "batch size accumulation) are still retained in FP32\" (sources.md)",
                     measures="the section of the V3 report that Ⓒ's first-party card quotes")


def half_life(beta: float) -> float:
    """Steps after which an EMA keeps half of an old contribution: β^k = ½."""
    return math.log(0.5) / math.log(beta)


HALF_LIFE_M = derived(
    "optim.adam.half_life_m", half_life, inputs={"beta": BETA1}, unit="steps", fmt="{:.1f}",
    formula="ln ½ ÷ ln β1", measures="half-life of Adam's first moment at the default β1")
HALF_LIFE_V = derived(
    "optim.adam.half_life_v", half_life, inputs={"beta": BETA2}, unit="steps", fmt="{:.0f}",
    formula="ln ½ ÷ ln β2", measures="half-life of Adam's second moment at the default β2")

V3_GENERATION = sourced("model.v3.generation", 3, unit="", measures="the 3 in the model's name DeepSeek-V3",
                        citation="DeepSeek-V3 technical report, arXiv 2412.19437 (title)")

# ---- Ⓑ magnified: the one gap above 1.0, and the run's step counter -------------------

ROUNDING_MIDPOINT = derived(
    "precision.bf16.rounding_midpoint", lambda start: (start + bf16_next_up(start)) / 2, inputs={"start": START},
    unit="", fmt="{:.4f}", formula="(1.0 + next bf16 above 1.0) ÷ 2",
    measures="the line a sum must cross to round up to the next bf16 value instead of back to 1.0")


def counter_stops(adds: int, naive: int) -> tuple[int, ...]:
    """Steps the counter shows: the first ten one by one, the naive count, then every hundred."""
    return tuple(sorted({*range(1, 11), naive, *range(100, adds + 1, 100)}))


COUNTER_STOPS = derived(
    "precision.counter_stops", counter_stops, inputs={"adds": ADDS, "naive": ADDS_TO_ONE_SPACING},
    unit="adds", fmt=str, item_fmt="{}", formula="1 … 10, the naive count, then every hundred up to adds",
    measures="the step numbers Ⓑ's counter stops at while the bf16 run goes")
STORED_AT_STOPS = derived(
    "precision.bf16.stored_at_stops",
    lambda start, increment, stops: tuple(float(x) for x in
                                          accumulation_trace(start, increment, max(stops))[1][np.asarray(stops) - 1]),
    inputs={"start": START, "increment": INCREMENT, "stops": COUNTER_STOPS}, unit="", fmt=str, item_fmt="{:.1f}",
    formula="the bf16 run's stored value after each counter step",
    measures="what the bf16 weight holds at each step the counter shows")
