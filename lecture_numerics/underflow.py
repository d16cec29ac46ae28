"""fig-underflow: where fp16 and bf16 stop on one real-number axis.

Every threshold is read from the format libraries (``numpy.finfo`` for float16,
``ml_dtypes.finfo`` for bfloat16), not typed: the smallest subnormal is the last value above
zero (anything at most half of it rounds to 0), the smallest normal is where subnormals (and
flush-to-zero hardware) begin. The gap between the two formats' floors is counted with the
same convention on both sides (smallest subnormal vs smallest subnormal).
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np

from lecture_numerics.axes import power_of_ten_label, tick_values_log
from lecture_numerics.provenance import chosen, derived, sourced
from lecture_numerics.runcache import disk_cached

_FORMATS = "IEEE 754-2008 binary16; bfloat16 definition (Google Brain / TPU docs); numpy and ml_dtypes type names"
SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def dtype(name: str):
    if name == "float16":
        return np.float16
    import ml_dtypes  # imported where needed: loading it costs 0.8 s, in every worker that reads the ledger

    return {"bfloat16": ml_dtypes.bfloat16}[name]


@disk_cached
def _format_facts(name: str) -> dict[str, float]:
    if name == "float16":
        info = np.finfo(np.float16)
    else:
        import ml_dtypes

        info = ml_dtypes.finfo(dtype(name))
    return {"smallest_subnormal": float(info.smallest_subnormal), "smallest_normal": float(info.smallest_normal),
            "max": float(info.max)}


def finfo(name: str) -> SimpleNamespace:
    """The format library's limits (numpy.finfo / ml_dtypes.finfo), as floats, read once and
    kept by the numerics' disk memo."""
    return SimpleNamespace(**_format_facts(name))


@disk_cached
def cast_half_of_smallest(name: str) -> float:
    """A real cast: half of the smallest subnormal, stored in the format (ties to even → 0)."""
    half = np.float32(float(finfo(name).smallest_subnormal) / 2)
    return float(np.asarray(half).astype(dtype(name)))


def about(value: float) -> str:
    """One significant digit times a power of ten: 5.96e-8 → "6×10⁻⁸"."""
    exponent = math.floor(math.log10(value))
    digit = round(value / 10 ** exponent)
    if digit == 10:
        digit, exponent = 1, exponent + 1
    return f"{digit}×10" + str(exponent).translate(SUPERSCRIPT)


FP16 = sourced("underflow.dtype.fp16", "float16", unit="", citation=_FORMATS, fmt=lambda v: "fp16",
               measures="IEEE half precision (numpy.float16), written fp16 on screen")
BF16 = sourced("underflow.dtype.bf16", "bfloat16", unit="", citation=_FORMATS, fmt=lambda v: "bf16",
               measures="bfloat16 (ml_dtypes.bfloat16), written bf16 on screen")

FP16_MIN_SUBNORMAL = derived(
    "underflow.fp16_min_subnormal", lambda fmt: float(finfo(fmt).smallest_subnormal), inputs={"fmt": FP16},
    unit="", fmt=about, formula="numpy.finfo(float16).smallest_subnormal (= 2^−24)",
    measures="fp16's smallest positive value: its zero line (at most half of it rounds to 0)")
FP16_MIN_NORMAL = derived(
    "underflow.fp16_min_normal", lambda fmt: float(finfo(fmt).smallest_normal), inputs={"fmt": FP16},
    unit="", fmt=about, formula="numpy.finfo(float16).smallest_normal (= 2^−14)",
    measures="fp16's smallest normal value (below it, subnormals lose precision)")
FP16_MAX = derived(
    "underflow.fp16_max", lambda fmt: float(finfo(fmt).max), inputs={"fmt": FP16},
    unit="", fmt="{:.0f}", formula="numpy.finfo(float16).max (= (2 − 2^−10)·2^15)",
    measures="fp16's largest finite value (above it, overflow to inf)")
BF16_MIN_SUBNORMAL = derived(
    "underflow.bf16_min_subnormal", lambda fmt: float(finfo(fmt).smallest_subnormal), inputs={"fmt": BF16},
    unit="", fmt=about, formula="ml_dtypes.finfo(bfloat16).smallest_subnormal (= 2^−133)",
    measures="bf16's smallest positive value: its floor")
BF16_MIN_NORMAL = derived(
    "underflow.bf16_min_normal", lambda fmt: float(finfo(fmt).smallest_normal), inputs={"fmt": BF16},
    unit="", fmt=about, formula="ml_dtypes.finfo(bfloat16).smallest_normal (= 2^−126, fp32's)",
    measures="bf16's smallest normal value (the floor on flush-to-zero hardware)")
GAP_ORDERS = derived(
    "underflow.gap_orders",
    lambda fp16, bf16: math.log10(float(finfo(fp16).smallest_subnormal) / float(finfo(bf16).smallest_subnormal)),
    inputs={"fp16": FP16, "bf16": BF16}, unit="orders of magnitude", fmt="{:.0f}",
    formula="log10(fp16 smallest subnormal ÷ bf16 smallest subnormal) = 109·log10 2",
    measures="decades between fp16's zero line and bf16's floor (subnormal to subnormal)",
    note="32.8, shown rounded to 33. The same convention on both sides matters: smallest normals "
         "(2^−14 vs 2^−126) give 33.7; bf16 flushed to zero (2^−126) against fp16's 2^−24 gives 30.7.",
    notes="33", notes_quote="看这根对数轴：fp16 的归零线在这儿，bf16 的下界远在左边 33 个数量级之外。")

AXIS_RANGE = chosen(
    "underflow.axis_range", (1e-45, 1e5), unit="", fmt=lambda v: " … ".join(map(power_of_ten_label, v)),
    measures="ends of fig-underflow's log10 axis",
    reason="whole decades just past bf16's floor (9×10⁻⁴¹) on the left and fp16's largest value on the right")
AXIS_TICKS = derived(
    "underflow.axis_ticks", lambda axis_range: tick_values_log(1e-40, 1.0, every=10),
    inputs={"axis_range": AXIS_RANGE}, unit="", item_fmt=power_of_ten_label,
    fmt=lambda v: " · ".join(map(power_of_ten_label, v)),
    formula="powers of ten every 10 decades from 10⁻⁴⁰ to 10⁰ inside the axis range",
    measures="tick labels of fig-underflow's axis")

# The gradient histogram is a sketch (示意): a bump in log10 space across fp16's zero line.
SKETCH_CENTRE = chosen(
    "underflow.sketch.centre_decade", -7.5, unit="log10", fmt="{}",
    measures="centre of the illustrative gradient distribution (示意), in decades",
    reason="straddles fp16's zero line (10^−7.2) so its left tail falls into 存成 0")
SKETCH_WIDTH = chosen(
    "underflow.sketch.width_decades", 1.4, unit="log10", fmt="{}",
    measures="spread (one standard deviation) of the illustrative distribution, in decades",
    reason="wide enough that a visible tail lies below the zero line")
SKETCH_SHIFT = chosen(
    "underflow.sketch.shift_decades", 5.0, unit="log10", fmt="{}",
    measures="how far the sketch slides right under × S (loss scale); S is kept symbolic on screen",
    reason="enough for the sketch's whole ±3σ span to clear the zero line; no value of S is claimed")


def sketch_histogram(shift: float = 0.0, bins: int = 24) -> tuple[np.ndarray, np.ndarray]:
    """Bin edges (decades) and heights (0 … 1) of the illustrative bump, moved by ``shift``."""
    centre, width = SKETCH_CENTRE.value + shift, SKETCH_WIDTH.value
    edges = np.linspace(centre - 3 * width, centre + 3 * width, bins + 1)
    mids = (edges[:-1] + edges[1:]) / 2
    return edges, np.exp(-0.5 * ((mids - centre) / width) ** 2)


def _zh_zero(value: float) -> str:
    if value != 0:
        raise ValueError(f"expected the cast to give 0, got {value!r}")
    return "零"


STORED_AS = derived(
    "underflow.fp16_below_stored_as", cast_half_of_smallest, inputs={"name": FP16}, unit="", fmt="{:.0f}",
    formula="float16(smallest_subnormal ÷ 2), a real cast from float32",
    measures="what fp16 stores for a value at or below half its smallest subnormal")
STORED_AS_ZH = derived(
    "underflow.fp16_below_stored_as_zh", cast_half_of_smallest, inputs={"name": FP16}, unit="", fmt=_zh_zero,
    formula="float16(smallest_subnormal ÷ 2), a real cast from float32, said in words (零)",
    measures="the same cast result, as the speaker says it (归零线, 掉到零)")
