"""bf16 rounding, run for real (fig-precision, fig-underflow).

``to_bf16`` rounds float32 values to the nearest bfloat16 (ties to even) by keeping the top
16 bits of the float32 pattern: bf16 is float32 with the low 16 mantissa bits dropped.
The accumulation runs below add the increment in float32 (how bf16 hardware accumulates)
and round each sum to bf16, as a bf16 weight would be stored after every step.
"""

from __future__ import annotations


import numpy as np

from lecture_numerics.models import (BF16_EXPONENT_BITS, BF16_MANTISSA_BITS, FP16_EXPONENT_BITS,
                                     FP16_MANTISSA_BITS)
from lecture_numerics.provenance import chosen, derived, sourced

_THOUGHT_EXPERIMENT = "假设一个权重是 1.0， 每一步要给它加 万分之三 —— 训练后期这是很典型的量级。"
_WHY = "the notes' thought experiment for fig-precision Ⓑ: a weight of 1.0 and a typical late-training update"


def to_bf16(x: np.ndarray | float) -> np.ndarray:
    """Nearest bfloat16 value (ties to even), returned as float32. Finite inputs only."""
    bits = np.atleast_1d(np.asarray(x, dtype=np.float32)).view(np.uint32).astype(np.uint64)
    round_bit = (bits >> 16) & 1
    rounded = ((bits + 0x7FFF + round_bit) >> 16) << 16
    return rounded.astype(np.uint32).view(np.float32)


def bf16_next_up(x: float) -> float:
    """The next bf16 value above a positive bf16 value x: one more unit in bit 16."""
    bits = np.array([to_bf16(x)[0]], dtype=np.float32).view(np.uint32)
    return float((bits + np.uint32(1 << 16)).view(np.float32)[0])


def accumulate(start: float, increment: float, adds: int, store=to_bf16) -> float:
    """Add ``increment`` ``adds`` times, storing the running value with ``store`` each time."""
    x = np.float32(start)
    step = np.float32(increment)
    for _ in range(adds):
        x = np.float32(store(np.float32(x + step))[0])
    return float(x)


def _as_fp32(x: np.ndarray | float) -> np.ndarray:
    return np.atleast_1d(np.asarray(x, dtype=np.float32))


def smallest_positive(exponent_bits: int, mantissa_bits: int) -> float:
    """Smallest positive (subnormal) value of a binary float: 2^(1 − bias − mantissa_bits)."""
    bias = 2 ** (exponent_bits - 1) - 1
    return 2.0 ** (1 - bias - mantissa_bits)


START = chosen("precision.start_weight", 1.0, unit="", measures="the weight's value in the thought experiment",
               reason=_WHY, fmt="{:.1f}", notes="1.0", notes_quote=_THOUGHT_EXPERIMENT)
INCREMENT = chosen("precision.increment", 3e-4, unit="", reason=_WHY, fmt="{:g}", notes="万分之三",
                   notes_quote=_THOUGHT_EXPERIMENT,
                   measures="per-step update added to the weight (typical late in training)")
ADDS = chosen("precision.adds", 1000, unit="adds", reason="the notes' run: a thousand additions",
              notes="一千", notes_quote="—— 我真的跑了一千次。", measures="number of times the increment is added")

SPACING = derived(
    "precision.bf16.spacing_at_1", lambda start: bf16_next_up(start) - start, inputs={"start": START},
    unit="", fmt="{:.4f}", formula="next bf16 above 1.0 − 1.0 (bit 16 of the float32 pattern + 1)",
    measures="gap between neighbouring bf16 values at 1.0",
    notes="0.0078", notes_quote="看这根数轴：bf16 在 1.0 附近，相邻两个能表示的数之间隔着零点零零七八。")
INCREMENT_OVER_SPACING = derived(
    "precision.increment_over_spacing", lambda start, increment: increment / (bf16_next_up(start) - start),
    inputs={"start": START, "increment": INCREMENT}, unit="fraction", fmt=lambda v: f"{100 * v:.1f}%",
    formula="increment ÷ bf16 spacing at 1.0", measures="the increment as a fraction of the bf16 gap",
    notes="3.8 %", notes_quote="而我们要加的那个万分之三，只有一格的百分之三点八。")
BF16_AFTER = derived(
    "precision.bf16.after_1000_adds", lambda start, increment, adds: accumulate(start, increment, adds),
    inputs={"start": START, "increment": INCREMENT, "adds": ADDS}, unit="", fmt="{:.1f}",
    formula="x ← bf16(x + increment), adds times, from x = start",
    measures="the weight after 1000 bf16-stored updates",
    notes="1.0", notes_quote="我真的跑了一千次。 …… 结果是 1.0。一步都没动。")
FP32_AFTER = derived(
    "precision.fp32.after_1000_adds",
    lambda start, increment, adds: accumulate(start, increment, adds, store=_as_fp32),
    inputs={"start": START, "increment": INCREMENT, "adds": ADDS}, unit="", fmt="{:.1f}",
    formula="x ← fp32(x + increment), adds times, from x = start",
    measures="the same 1000 updates stored in fp32",
    notes="1.3", notes_quote="右边那格是对照：同样一千次，改用 fp32 —— 1.0 变成 1.3。")
# The orders of magnitude between fp16's and bf16's smallest values are declared once, as
# underflow.gap_orders (fig-underflow draws them); tests check that against these bit formulas.
FP16_SMALLEST = derived(
    "precision.fp16.smallest_positive", smallest_positive,
    inputs={"exponent_bits": FP16_EXPONENT_BITS, "mantissa_bits": FP16_MANTISSA_BITS},
    unit="", fmt="{:.1e}", formula="2^(2 − 2^(e−1) − m)", measures="fp16's smallest positive (subnormal) value")
BF16_SMALLEST = derived(
    "precision.bf16.smallest_positive", smallest_positive,
    inputs={"exponent_bits": BF16_EXPONENT_BITS, "mantissa_bits": BF16_MANTISSA_BITS},
    unit="", fmt="{:.1e}", formula="2^(2 − 2^(e−1) − m)", measures="bf16's smallest positive (subnormal) value")
