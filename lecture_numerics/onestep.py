"""fig-step: one step's whole ledger — the four items on one time axis (Ⓐ, from the same
memory simulator as anim-memtime) and the batch sweep where activations overtake the
resident block (Ⓑ).

Ⓐ draws the simulator's arrays for the lecture's case (memtime_configured.lecture_scenario);
Ⓑ runs the same simulator at growing batches and reads the activations at the end of the
forward pass, which grow linearly with the sequences in flight.
"""

from __future__ import annotations

import math

import numpy as np

from lecture_numerics.axes import nice_ticks, tick_formatter
from lecture_numerics.bill import SEQ_LEN
from lecture_numerics.bytes_per_param import PER_PARAM_TOTAL
from lecture_numerics.flops import ATTENTION_SHARE_V3, percent
from lecture_numerics.memtime_configured import lecture_scenario
from lecture_numerics.models import TIB, V3_README
from lecture_numerics.provenance import chosen, derived, sourced
from lecture_numerics.timeline import (CATEGORIES, Scenario, Timeline, activations_at_forward_end, memory_timeline,
                                       with_batch)
from lecture_numerics.zh import zh_count

# --- Ⓐ: the step's four strips ---------------------------------------------------------------


def step_timeline() -> Timeline:
    """The lecture's case, simulated once: anim-memtime's model, never a second copy."""
    return memory_timeline(lecture_scenario())


MODEL_NAME = sourced(
    "onestep.model_name", "DeepSeek-V3", unit="", measures="the model of the lecture's case, by its name",
    citation=V3_README)
ITEMS = chosen("onestep.items", tuple(CATEGORIES), unit="", fmt=" / ".join,
               measures="the items of the step's memory bill, as timeline.CATEGORIES names them",
               reason="the lecture's four-way split of training memory (weights, gradients, optimizer state, "
                      "activations), the one anim-memtime simulates")
ITEM_COUNT = derived(
    "onestep.item_count", lambda items: len(items), inputs={"items": ITEMS}, unit="items", fmt=zh_count,
    formula="len(timeline.CATEGORIES): weights, gradients, optimizer state, activations",
    measures="items of the step's memory bill drawn on one time axis",
    notes="四", notes_quote="⭐ 这是全讲第一次把四项画在同一条时间轴上，让那个画面先落地。")
# The lecture's case carries the 16 bytes per parameter summed once, in bytes_per_param.py.
BYTES_PER_PARAM = PER_PARAM_TOTAL
SEQ_LEN_K = derived(
    "onestep.seq_len_k", lambda seq_len: seq_len / 1024, inputs={"seq_len": SEQ_LEN}, unit="Ki tokens",
    fmt="{:.0f}K", formula="seq_len ÷ 1024", measures="the lecture's sequence length written as 128K")
MATMUL_SHARE_V3 = derived(
    "onestep.v3.matmul_share_128k", lambda attention: 1 - attention, inputs={"attention": ATTENTION_SHARE_V3},
    unit="fraction", fmt=percent(0), formula="1 − flops.v3.attention_share_128k",
    measures="weight matmuls' share of one MoE layer's forward FLOPs at s = 131072 (what 6ND counts)")
ATTENTION_SHARE_ROUND = derived(
    "onestep.v3.attention_share_round", lambda attention: attention, inputs={"attention": ATTENTION_SHARE_V3},
    unit="fraction", fmt=percent(0), formula="flops.v3.attention_share_128k, to whole percent",
    measures="attention core's share of one MoE layer's forward FLOPs, as the split bar labels it",
    notes="82%", notes_quote="在这个长度上，attention 占一层前向算力的 82%。")

# The items as fig-step Ⓐ stacks its strips, top to bottom.
PEAK_ITEMS = ("optimizer", "weights", "gradients", "activations")


def items_at_total_peak_tib() -> tuple[float, ...]:
    """Each item's bytes (TiB) at the moment of the step's total peak (the simulator's first
    argmax of the total), in PEAK_ITEMS order; activations with the layer being recomputed."""
    tl = step_timeline()
    k = int(np.argmax(tl.total()))
    return tuple(float(tl.bytes[name][k]) / TIB for name in PEAK_ITEMS)


AT_TOTAL_PEAK = derived(
    "onestep.v3.items_at_total_peak_tib", lambda seq_len: items_at_total_peak_tib(), inputs={"seq_len": SEQ_LEN},
    unit="TiB", item_fmt="{:.2f}", fmt=lambda v: " / ".join(f"{x:.2f}" for x in v),
    formula="each item's bytes at the first argmax of the simulator's total ÷ 2⁴⁰ (optimizer state, weights, "
            "gradients, activations with the recompute working set)",
    measures="what each item holds at the step's total peak, the moment 查 OOM asks about (fig-step Ⓐ)")

_TO_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def _as_power_of_1024(v: float) -> str:
    power = round(math.log(v, 1024))
    assert 1024 ** power == v, f"{v} is not a power of 1024"
    return "1024" + str(power).translate(_TO_SUPERSCRIPT)


BINARY_STEP = chosen("units.binary_prefix_step", 1024, unit="", fmt="{}",
                     measures="the factor between binary prefixes (KiB → MiB → GiB → TiB)",
                     reason="the bills are in binary units (GiB, TiB), as the notes divide (÷ 1024 的四次方)")
TIB_POWER = chosen("units.tib_power", 4, unit="", fmt="{}", measures="binary prefix steps from bytes to TiB",
                   reason="B → KiB → MiB → GiB → TiB: four steps")


def _bytes_per_tib(step: int, power: int) -> int:
    value = step ** power
    assert value == TIB, "the bill's TiB is 2^40 bytes (models.TIB)"
    return value


BYTES_PER_TIB = derived(
    "onestep.bytes_per_tib", _bytes_per_tib, inputs={"step": BINARY_STEP, "power": TIB_POWER}, unit="bytes",
    fmt=_as_power_of_1024,
    formula="1 TiB = 2^40 B, written as the power of 1024 the bill divides by",
    measures="the divisor from bytes to TiB in fig-step Ⓐ's bill (÷ 1024⁴)")

# --- Ⓑ: who is biggest depends on the batch ----------------------------------------------------

MAX_BATCH = chosen(
    "onestep.sweep.max_batch", 120, unit="sequences", fmt="{}",
    measures="right end of fig-step Ⓑ's batch axis (128K sequences in flight at once)",
    reason="round value past the crossing (94) so both regions, 常驻块更大 and 激活更大, show")


CROSSING_AGAINST = chosen(
    "onestep.sweep.crossing_against", "常驻块", unit="", fmt="{}",
    measures="what fig-step Ⓑ's activations line is compared with at its crossing (its heading's question)",
    reason="the flat line is the whole resident block (weights + gradients + optimizer state), the block "
           "that stays whatever the batch; the crossing at ≈94 sequences is against it, not the optimizer state alone",
    notes="优化器状态", notes_quote="最后一个问题：激活大，还是优化器状态大？",
    note="Ⓑ 那条平线是整个常驻块（权重 + 梯度 + 优化器状态），约九十四条追平的是它；只和优化器状态比，"
         "约七十一条就追平了（act.v3.seqs_to_match_optimizer），比九十四条早：问「激活大，还是常驻块大？」，和屏幕一致。")


def _with_batch(batch: int) -> Scenario:
    return with_batch(lecture_scenario(), batch)


def batch_sweep(batches: np.ndarray) -> dict[str, np.ndarray]:
    """Resident block and end-of-forward activations (bytes) at each batch, from the simulator."""
    resident, activations = [], []
    for b in batches:
        tl = memory_timeline(_with_batch(int(b)))
        resident.append(sum(float(tl.bytes[n][0]) for n in ("weights", "optimizer")) + float(tl.gradient_peak[1]))
        activations.append(activations_at_forward_end(tl))
    return {"batch": np.asarray(batches, dtype=float), "resident": np.array(resident),
            "activations": np.array(activations)}


def crossing_batch() -> int:
    """Smallest batch whose activations reach the resident block, by running the simulator."""
    per_sequence = activations_at_forward_end(memory_timeline(_with_batch(1)))
    resident = batch_sweep(np.array([1]))["resident"][0]
    b = math.ceil(resident / per_sequence)
    sweep = batch_sweep(np.array([b - 1, b]))
    assert sweep["activations"][0] < resident <= sweep["activations"][1]
    return b


def _batch_ticks(max_batch: int) -> list[float]:
    return [float(v) for v in nice_ticks(0, max_batch)[0]]


def _tib_ticks(max_batch: int) -> list[float]:
    top = float(batch_sweep(np.array([max_batch]))["activations"][0]) / TIB
    return [float(v) for v in nice_ticks(0, top, 3)[0]]


BATCH_TICKS = derived(
    "onestep.sweep.batch_ticks", _batch_ticks, inputs={"max_batch": MAX_BATCH}, unit="sequences",
    item_fmt=tick_formatter(_batch_ticks(MAX_BATCH.value)), fmt=lambda v: " / ".join(f"{x:.0f}" for x in v),
    formula="round steps (about three) from 0 to onestep.sweep.max_batch (axes.nice_ticks)",
    measures="tick labels of fig-step Ⓑ's batch axis")
TIB_TICKS = derived(
    "onestep.sweep.tib_ticks", _tib_ticks, inputs={"max_batch": MAX_BATCH}, unit="TiB",
    item_fmt=tick_formatter(_tib_ticks(MAX_BATCH.value)), fmt=lambda v: " / ".join(f"{x:.0f}" for x in v),
    formula="round steps (about three) from 0 to the activations at max_batch (simulator)",
    measures="tick labels of fig-step Ⓑ's memory axis")
CROSSING = derived(
    "onestep.sweep.crossing_batch", lambda seq_len: crossing_batch(), inputs={"seq_len": SEQ_LEN},
    unit="sequences", fmt="{}",
    formula="smallest batch b with activations at forward end (simulator, batch b) ≥ weights + optimizer "
            "+ gradient peak (simulator)",
    measures="128K sequences in flight at which full-recompute activations reach the resident block",
    notes="94", notes_quote="对这个模型，要约九十四条十二万八千的序列，激活才追平常驻块。")
