"""fig-act-bill: the activation mountain of one 128K-token step of DeepSeek-V3.

The curves are the memory-timeline simulator's activation trace (timeline.memory_timeline,
over layers.py's per-operator inventory: the same source as anim-memtime and the bill),
re-timed to equal-width layer steps: forward layer i ends at step i + 1, the k-th backward
layer ends at step n + k + 1 (a recompute event sits half-way through its step). The numbers
drawn are bill.py's act.v3.* (checked equal to the simulator's peaks in the tests).
"""

from __future__ import annotations

import math

import numpy as np

from lecture_numerics.axes import nice_ticks, tick_formatter
from lecture_numerics.bill import NO_RECOMPUTE_TIB, SEQ_LEN
from lecture_numerics.models import V3_FIELDS, V3Config
from lecture_numerics.provenance import chosen, derived
from lecture_numerics.timeline import Scenario, Timeline, memory_timeline, v3_memory

_CONFIG = {name: V3_FIELDS[name] for name in V3Config.__dataclass_fields__}


def simulate(recompute: str, seq_len: int | None = None, **config: int) -> Timeline:
    c = V3Config(**(config or {name: q.value for name, q in _CONFIG.items()}))
    return memory_timeline(Scenario("deepseek-v3", seq_len or SEQ_LEN.value, 1, recompute), v3_memory(c))


def layer_steps(tl: Timeline, *, working_sets: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """(step, activation bytes) as a staircase over equal-width layer steps, update left out.
    ``working_sets=False`` leaves out the recompute events: what stays stored (the 存档点)."""
    n = int(tl.layer.max()) + 1
    xs, ys, backward_done = [0.0], [float(tl.bytes["activations"][0])], 0
    for event, layer, value in zip(tl.event[1:], tl.layer[1:], tl.bytes["activations"][1:]):
        if event == "forward":
            x = layer + 1.0
        elif event == "recompute":
            if not working_sets:
                continue
            x = n + backward_done + 0.5
        elif event == "backward":
            backward_done += 1
            x = float(n + backward_done)
        else:
            continue
        stored = value if working_sets or event != "backward" else ys[-1] - _freed_input(tl, layer)
        xs += [x, x]
        ys += [ys[-1], float(stored)]
    return np.array(xs), np.array(ys)


def _freed_input(tl: Timeline, layer: int) -> float:
    """Bytes of the stored layer input a backward event frees (its working set aside)."""
    i = next(j for j, (e, l) in enumerate(zip(tl.event, tl.layer)) if e == "forward" and l == layer)
    return float(tl.bytes["activations"][i] - tl.bytes["activations"][i - 1])


def peak_step(recompute: str = "none") -> float:
    xs, ys = layer_steps(simulate(recompute))
    return float(xs[int(np.argmax(ys))])


# --- axes -------------------------------------------------------------------------------------

AXIS_TOP_TIB = derived(
    "act_bill.axis.top_tib", lambda without: float(math.ceil(without)), inputs={"without": NO_RECOMPUTE_TIB},
    unit="TiB", fmt="{:g}", formula="⌈act.v3.no_recompute_tib⌉", measures="top of fig-act-bill's main axis")


def _ticks(top: float, count: int) -> list[float]:
    ticks, _ = nice_ticks(0, top, count)
    return [float(v) for v in ticks]


_MAIN_TICKS = _ticks(AXIS_TOP_TIB.value, round(AXIS_TOP_TIB.value))
MAIN_TICKS = derived(
    "act_bill.axis.ticks_tib", lambda top: _ticks(top, round(top)), inputs={"top": AXIS_TOP_TIB}, unit="TiB",
    item_fmt=tick_formatter(_MAIN_TICKS), fmt=lambda v: " / ".join(map(tick_formatter(_MAIN_TICKS), v)),
    formula="0 to the axis' top in round steps of 1 TiB", measures="tick labels of fig-act-bill's main axis")
INSET_TOP_GIB = chosen(
    "act_bill.axis.inset_top_gib", 200, unit="GiB", fmt="{:g}", measures="top of fig-act-bill's recompute inset",
    reason="round, above the stored checkpoints (106.75 GiB) with room for their label above the peak")
_INSET_TICKS = _ticks(INSET_TOP_GIB.value, 2)
INSET_TICKS = derived(
    "act_bill.axis.inset_ticks_gib", lambda top: _ticks(top, 2), inputs={"top": INSET_TOP_GIB}, unit="GiB",
    item_fmt=tick_formatter(_INSET_TICKS), fmt=lambda v: " / ".join(map(tick_formatter(_INSET_TICKS), v)),
    formula="0 to the inset's top in about two round steps", measures="tick labels of the recompute inset")

