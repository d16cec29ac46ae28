"""fig-per-byte: FLOPs paid per byte of activation saved, against sequence length, two models.

The prices come from recompute.py: a linear layer costs its input width, flat in s; attention
costs slope·(s + 1) with slope = (qk_dim + v_dim) / (2·v_dim) for causal attention (the FLOPs
of recomputing QKᵀ and AV over the bytes of its bf16 output O). Flat line and rising line
cross at the crossover (recompute.*.crossover_tokens). Drawn: the d_model-input linear of
each model (V3's wq_a, GPT-3's attention output projection), the two attention lines, and
GPT-3's 2048-token context.
"""

from __future__ import annotations

import numpy as np

from lecture_numerics.axes import nice_ticks
from lecture_numerics.models import GPT3_FIELDS, V3_FIELDS
from lecture_numerics.provenance import chosen, derived
from lecture_numerics.recompute import attention_flops_per_byte, crossover_tokens, linear_flops_per_byte


def attention_slope(qk_dim: int, v_dim: int) -> float:
    """d(price)/ds of causal attention: FLOPs per saved byte gained per token of length."""
    one = attention_flops_per_byte(1.0, 1, qk_dim, v_dim)
    two = attention_flops_per_byte(2.0, 1, qk_dim, v_dim)
    return two - one


def thousands(v: float) -> str:
    return f"{v / 1000:.1f}K"


def axis_label(v: float) -> str:
    """Axis ticks in thousands: 0, 4K, 8K …"""
    return "0" if v == 0 else f"{v / 1000:g}K"


_V3_HEAD = {"qk_nope": V3_FIELDS["qk_nope_head_dim"], "qk_rope": V3_FIELDS["qk_rope_head_dim"],
            "v": V3_FIELDS["v_head_dim"]}
_SLOPE = "(qk + v) ÷ (2·v): causal QKᵀ + AV FLOPs per token of length over the bf16 bytes of O"

V3_SLOPE = derived(
    "per_byte.v3.attention_slope", lambda qk_nope, qk_rope, v: attention_slope(qk_nope + qk_rope, v),
    inputs=_V3_HEAD, unit="FLOPs/B per token", fmt="{:g}", formula=f"{_SLOPE}, qk = nope + rope",
    measures="FLOPs per byte saved, per token of sequence length, for DeepSeek-V3's attention")
GPT3_SLOPE = derived(
    "per_byte.gpt3.attention_slope", lambda d_head: attention_slope(d_head, d_head),
    inputs={"d_head": GPT3_FIELDS["d_head"]}, unit="FLOPs/B per token", fmt="{:g}",
    formula=f"{_SLOPE}, qk = v = d_head", measures="the same for GPT-3 175B")

V3_LINEAR = derived(
    "per_byte.v3.linear_flops_per_byte", lambda dim, q_lora_rank: linear_flops_per_byte(dim, q_lora_rank),
    inputs={"dim": V3_FIELDS["dim"], "q_lora_rank": V3_FIELDS["q_lora_rank"]}, unit="FLOPs/B", fmt="{:g}",
    formula="2·s·d_in·d_out FLOPs ÷ (2 B · s·d_out) = d_in, for wq_a (dim → q_lora_rank)",
    measures="recompute price of DeepSeek-V3's d_model-input linear: flat in sequence length")
GPT3_LINEAR = derived(
    "per_byte.gpt3.linear_flops_per_byte", lambda d_model: linear_flops_per_byte(d_model, d_model),
    inputs={"d_model": GPT3_FIELDS["d_model"]}, unit="FLOPs/B", fmt="{:g}",
    formula="2·s·d_in·d_out FLOPs ÷ (2 B · s·d_out) = d_in, for the output projection (d_model → d_model)",
    measures="recompute price of GPT-3 175B's d_model-input linear")

MISPLACED = derived(
    "per_byte.gpt3_with_v3_slope_error_tokens",
    lambda d_model, d_head, qk_nope, qk_rope, v:
        crossover_tokens(d_model, d_head, d_head) - (2 * d_model / (2 * attention_slope(qk_nope + qk_rope, v)) - 1),
    inputs={"d_model": GPT3_FIELDS["d_model"], "d_head": GPT3_FIELDS["d_head"], **_V3_HEAD},
    unit="tokens", fmt=thousands,
    formula="GPT-3's crossover − (d_model,GPT-3 ÷ slope_V3 − 1): where GPT-3's flat line meets V3's attention line",
    measures="how far GPT-3's crossover moves if V3's attention slope is used for it",
    note="V3's slope (1.25) on GPT-3's 12288-wide line crosses at 9.8K instead of 12.3K: 2.5K off, "
         "not 4000. No reading of the two configs we tried (causal or not, either model's width) "
         "gives a 4000-token shift.",
    notes="4000", notes_quote="这一格我原来就画错过：把 V3 的斜率直接套在 GPT-3 上， 交点标错了四千。")

# --- the frame's axes -----------------------------------------------------------------------

X_MAX = chosen("per_byte.axis.max_tokens", 16000, unit="tokens", fmt="{:g}",
               measures="right end of fig-per-byte's sequence-length axis",
               reason="round, just past GPT-3's crossover (12.3K), so both crossovers and s = 2048 fit")
Y_MAX = chosen("per_byte.axis.max_flops_per_byte", 20000, unit="FLOPs/B", fmt="{:g}",
               measures="top of fig-per-byte's price axis",
               reason="round, above both attention lines at the axis' right end (V3: 1.25 × 16K = 20K)")


def axis_ticks(top: float) -> list[float]:
    ticks, _ = nice_ticks(0, top, 4)
    return [float(v) for v in ticks]


X_TICKS = derived("per_byte.axis.x_ticks", axis_ticks, inputs={"top": X_MAX}, unit="tokens",
                  fmt=lambda v: " / ".join(map(axis_label, v)), item_fmt=axis_label,
                  formula="round steps (1, 2, 2.5, 5 × 10ᵏ, about four) from 0 to the axis' end",
                  measures="tick labels of fig-per-byte's sequence-length axis")
Y_TICKS = derived("per_byte.axis.y_ticks", axis_ticks, inputs={"top": Y_MAX}, unit="FLOPs/B",
                  fmt=lambda v: " / ".join(map(axis_label, v)), item_fmt=axis_label,
                  formula="round steps (1, 2, 2.5, 5 × 10ᵏ, about four) from 0 to the axis' end",
                  measures="tick labels of fig-per-byte's price axis")


def attention_line(model: str, seq_max: float | None = None, points: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """(s, FLOPs per byte) of a model's attention from s = 0 to the axis' end."""
    s = np.linspace(0.0, seq_max or X_MAX.value, points)
    if model == "deepseek-v3":
        qk, v, heads = (V3_FIELDS["qk_nope_head_dim"].value + V3_FIELDS["qk_rope_head_dim"].value,
                        V3_FIELDS["v_head_dim"].value, V3_FIELDS["n_heads"].value)
    elif model == "gpt3-175b":
        qk = v = GPT3_FIELDS["d_head"].value
        heads = GPT3_FIELDS["n_heads"].value
    else:
        raise ValueError(f"unknown model {model!r}")
    return s, np.array([attention_flops_per_byte(x, heads, qk, v) for x in s])

