"""fig-recompute: what full recompute costs and what it buys, for one 128K sequence of V3.

Cost: fig-3x's tally of equal-cost matrix multiplies (forward 1, backward 2) plus one more
forward, re-run in backward from each layer's entrance. Gain: the activations stored when
the forward pass ends, without recompute and with it, both read off the memory-timeline
simulator that anim-memtime uses (timeline.memory_timeline over layers.py's per-operator
inventory), so the bill has one source.
"""

from __future__ import annotations

from fractions import Fraction

from lecture_numerics.bill import SEQ_LEN, no_recompute_breakdown
from lecture_numerics.models import V3_FIELDS, V3Config
from lecture_numerics.provenance import breakdown, derived
from lecture_numerics.threex import matmul_units
from lecture_numerics.timeline import Scenario, memory_timeline, v3_memory

_MATMUL_INPUTS = {"s": SEQ_LEN, "d_in": V3_FIELDS["dim"], "d_out": V3_FIELDS["q_lora_rank"]}
_COST_QUOTE = "代价是多跑一次前向，算力从三倍变四倍 —— 多三分之一。"


def with_recompute_units(s: int, d_in: int, d_out: int) -> float:
    """(forward + backward + one recomputed forward) FLOPs ÷ forward FLOPs."""
    return matmul_units(s, d_in, d_out) + matmul_units(s, d_in, d_out, "forward")


def counted(v: float) -> str:
    if abs(v - round(v)) > 1e-12:
        raise ValueError(f"{v!r} is not a whole count of forward multiplies")
    return str(round(v))


COMPUTE_AFTER = derived(
    "recompute.compute_multiple_after", with_recompute_units, inputs=_MATMUL_INPUTS, unit="×", fmt=counted,
    formula="(forward + backward + recomputed forward) FLOPs ÷ forward FLOPs, "
            "FLOP counter over threex.linear_layer_matmuls",
    measures="training compute in inference units with full recompute", notes="4", notes_quote=_COST_QUOTE)
COMPUTE_EXTRA = derived(
    "recompute.compute_extra_fraction",
    lambda s, d_in, d_out: with_recompute_units(s, d_in, d_out) / matmul_units(s, d_in, d_out) - 1,
    inputs=_MATMUL_INPUTS, unit="fraction", fmt=lambda v: str(Fraction(v).limit_denominator(100)),
    formula="compute with recompute ÷ compute without − 1", measures="extra compute full recompute costs",
    notes="1/3", notes_quote=_COST_QUOTE)

# --- activations stored at the end of forward, from the simulator ---------------------------

_CONFIG = {name: V3_FIELDS[name] for name in V3Config.__dataclass_fields__}
_SIM = "timeline.memory_timeline(Scenario(deepseek-v3, 128K, batch 1, recompute none | full))"


def stored_at_forward_end(recompute: str, seq_len: int, **config: int) -> float:
    """Bytes of activations held after the last forward event of the simulated step."""
    tl = memory_timeline(Scenario("deepseek-v3", seq_len, 1, recompute), v3_memory(V3Config(**config)))
    last_forward = max(i for i, e in enumerate(tl.event) if e == "forward")
    return float(tl.bytes["activations"][last_forward])


ACTIVATION_SHRINK = derived(
    "recompute.activation_shrink",
    lambda seq_len, **config: stored_at_forward_end("none", seq_len, **config)
    / stored_at_forward_end("full", seq_len, **config),
    inputs={**_CONFIG, "seq_len": SEQ_LEN}, unit="×", fmt="{:.0f}",
    formula=f"activations at the end of forward, no recompute ÷ full recompute, from {_SIM}",
    measures="stored activations without recompute ÷ with it (one 128K sequence, V3)",
    note="The notes' 四十倍 divides 4.15 TiB (every layer counted as MoE) by 106.75 GiB: 39.8. "
         "With config_671B.json's first 3 layers dense it is 4.07 TiB ÷ 106.75 GiB = 39.0.",
    notes="40", notes_quote="换回来的是：4.15 TiB 变成 106.75 GiB，四十倍。")
breakdown("recompute.activation_shrink", no_recompute_breakdown)
ACTIVATION_SHRINK_SAID = derived(
    "recompute.activation_shrink_said", lambda shrink: round(shrink, -1), inputs={"shrink": ACTIVATION_SHRINK},
    unit="×", fmt="{:.0f}", formula="recompute.activation_shrink rounded to tens",
    measures="the shrink as the speaker says it (四十倍), written beside the exact ratio so the screen "
             "and the speech agree",
    notes="40", notes_quote="换回来的是：4.15 TiB 变成 106.75 GiB，四十倍。")

SEQ_LEN_LABEL = derived(
    "recompute.seq_len_label", lambda seq_len: seq_len, inputs={"seq_len": SEQ_LEN}, unit="tokens",
    fmt=lambda v: f"{v // 1024}K", formula="seq_len ÷ 1024, written with K",
    measures="the lecture's sequence length as the slides write it (128K)")
