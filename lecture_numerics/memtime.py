"""The memory timeline's numbers for the lecture's case (anim-memtime, fig-step).

DeepSeek-V3, one 128K sequence, 16 B/param, full recompute; see timeline.py for the model.
"""

from __future__ import annotations

from typing import Any, Callable

from lecture_numerics.bill import SEQ_LEN
from lecture_numerics.bytes_per_param import PER_PARAM_TOTAL
from lecture_numerics.models import GIB, TIB, V3_FIELDS, V3Config
from lecture_numerics.provenance import derived
from lecture_numerics.timeline import (PHASE_ZH, Scenario, Timeline, activations_at_forward_end, memory_timeline,
                                       peak_moving_batch, v3_memory)

_INPUTS = {**{name: V3_FIELDS[name] for name in V3Config.__dataclass_fields__},
           "seq_len": SEQ_LEN, "bytes_per_param": PER_PARAM_TOTAL}
_SIM = "timeline.memory_timeline(Scenario(deepseek-v3, seq_len, batch 1, full recompute, 16 B/param))"


def _scenario(seq_len: int, bytes_per_param: int, batch: int = 1) -> Scenario:
    return Scenario("deepseek-v3", seq_len, batch, "full", bytes_per_param)


def _run(seq_len: int, bytes_per_param: int, **config: int) -> Timeline:
    return memory_timeline(_scenario(seq_len, bytes_per_param), v3_memory(V3Config(**config)))


def _from_timeline(read: Callable[[Timeline], Any]) -> Callable[..., Any]:
    return lambda **k: read(_run(**k))


def _declare(key: str, read: Callable[[Timeline], Any], *, unit: str, fmt: Any, formula: str,
             measures: str, note: str = "", notes: str | None = None, notes_quote: str = ""):
    return derived(key, _from_timeline(read), inputs=_INPUTS, unit=unit, fmt=fmt,
                   formula=f"{formula}, from {_SIM}", measures=measures, note=note,
                   notes=notes, notes_quote=notes_quote)


ACTIVATIONS_END_OF_FORWARD_GIB = _declare(
    "timeline.v3.activations_end_of_forward_gib", lambda tl: activations_at_forward_end(tl) / GIB,
    unit="GiB", fmt="{:.2f}", formula="activations after the last forward event ÷ 2^30",
    measures="激活: the stored layer inputs when the forward pass ends, their peak (what the lecture calls "
             "activations under full recompute)", notes="106.75",
    # Two verbatim pieces: the stored inputs' size, then where the notes put their peak.
    notes_quote="开了重算还要 106.75 GiB。 …… 激活的峰在前向末尾，梯度的峰在反向末尾 ——\u00a0 两个峰根本不在同一时刻。")
ACTIVATION_PEAK_GIB = _declare(
    "timeline.v3.activation_peak_gib", lambda tl: tl.activation_peak[1] / GIB,
    unit="GiB", fmt="{:.2f}", formula="max over events of activations ÷ 2^30",
    measures="重算时的峰: the stored layer inputs plus the working set of the first backward layer, "
             "recomputed on top of them (never called 激活 on screen: that is the stored inputs)",
    note="Under full recompute the first backward layer (an MoE layer) recomputes its per-operator "
         "working set on top of every stored input (its own input, already stored, is counted once), so "
         "the memory activations hold peaks one layer into backward. The stored inputs themselves (激活, "
         "106.75 GiB) peak at the end of forward, as the notes say.")
ACTIVATION_PEAK_T = _declare(
    "timeline.v3.activation_peak_t", lambda tl: tl.activation_peak[0], unit="step fraction",
    fmt="{:.2f}", formula="time of the activation peak", measures="when the activations peak")
GRADIENT_PEAK_TIB = _declare(
    "timeline.v3.gradient_peak_tib", lambda tl: tl.gradient_peak[1] / TIB,
    unit="TiB", fmt="{:.2f}", formula="max over events of gradients ÷ 2^40",
    measures="gradient peak: all bf16 gradients present when backward ends",
    notes_quote="激活的峰在前向末尾，梯度的峰在反向末尾 —— 两个峰根本不在同一时刻。")
GRADIENT_PEAK_T = _declare(
    "timeline.v3.gradient_peak_t", lambda tl: tl.gradient_peak[0], unit="step fraction",
    fmt="{:.2f}", formula="time of the gradient peak", measures="when the gradients peak")
TOTAL_PEAK_TIB = _declare(
    "timeline.v3.total_peak_tib", lambda tl: tl.total_peak[1] / TIB,
    unit="TiB", fmt="{:.2f}", formula="max over events of (weights + gradients + optimizer + activations) ÷ 2^40",
    measures="the step's memory peak (what you have to buy)",
    notes_quote="峰值出现在某一个特定时刻，而你要买的是那个峰值。")
TOTAL_PEAK_T = _declare(
    "timeline.v3.total_peak_t", lambda tl: tl.total_peak[0], unit="step fraction", fmt="{:.2f}",
    formula="time of the total's peak", measures="when the total peaks (fraction of the step's compute)")
TOTAL_PEAK_PHASE = _declare(
    "timeline.v3.total_peak_phase", lambda tl: tl.total_peak_phase, unit="", fmt=lambda p: PHASE_ZH[p],
    formula="phase of the event at the total's peak", measures="phase in which the total peaks")
TOTAL_PEAK_LAYER = _declare(
    "timeline.v3.total_peak_layer", lambda tl: int(tl.layer[list(tl.t).index(tl.total_peak[0])]),
    unit="layer", fmt="{}", formula="layer of the event at the total's peak",
    measures="layer being recomputed at the total's peak (the last MoE layer the backward reaches)")
LAYERS_BEFORE_GRADIENT_PEAK = _declare(
    "timeline.v3.total_peak_layers_before_gradient_peak",
    lambda tl: int(tl.layer[list(tl.t).index(tl.total_peak[0])]) + 1, unit="layers", fmt="{}",
    formula="layer at the total's peak + 1 (backward still runs that layer and every one below it)",
    measures="how many layers of backward lie between the total's peak and the gradients' peak")


def _moving_batch(seq_len: int, bytes_per_param: int, **config: int) -> int:
    return peak_moving_batch(_scenario(seq_len, bytes_per_param), v3_memory(V3Config(**config)))


PEAK_MOVING_BATCH = derived(
    "timeline.v3.peak_moving_batch", _moving_batch, inputs=_INPUTS, unit="sequences", fmt="{}",
    formula="smallest batch whose total peak sits nearer the end of forward than the end of backward "
            "(timeline.peak_moving_batch); closed form ⌈MoE-layer params ÷ (seq_len × dim)⌉",
    measures="batch of 128K sequences at which the total's peak moves from the end of backward "
             "to the end of forward")
