"""Which tensor to recompute: FLOPs paid per byte of activation memory saved (fig-per-byte).

A linear y = xW with input width d_in and output width d_out: dropping y saves 2·d_out bytes
per token and recomputing it costs 2·d_in·d_out FLOPs, so the price is d_in FLOPs per byte —
sequence length and output width cancel. Attention: dropping its output O (n_heads·v_dim
bf16 values per token) and recomputing QKᵀ and AV costs n_heads·(qk_dim + v_dim)·(s + 1)
FLOPs per token (causal), so the price is (qk_dim + v_dim)·(s + 1) / (2·v_dim): a line
rising with s, whose slope the model's head widths set. The two meet at the crossover.
"""

from __future__ import annotations

from lecture_numerics.flops import attention_core_flops_per_token, percent
from lecture_numerics.models import GPT3_CONTEXT, GPT3_FIELDS, V3_FIELDS
from lecture_numerics.provenance import derived, sourced

KORTHIKANTI = 'Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer Models"'


def linear_flops_per_byte(d_in: int, d_out: int, bf16: int = 2) -> float:
    return 2 * d_in * d_out / (bf16 * d_out)


def attention_flops_per_byte(seq_len: float, n_heads: int, qk_dim: int, v_dim: int, bf16: int = 2) -> float:
    return attention_core_flops_per_token(seq_len, n_heads, qk_dim, v_dim) / (bf16 * n_heads * v_dim)


def crossover_tokens(d_model: int, qk_dim: int, v_dim: int) -> float:
    """s where (qk + v)(s + 1)/(2v) = d_model, i.e. attention costs a d_model-input linear's price."""
    return 2 * v_dim * d_model / (qk_dim + v_dim) - 1


def thousands(v: float) -> str:
    return f"{v / 1000:.1f}K"


_CROSS_QUOTE = "DeepSeek-V3 在五千七就交了；GPT-3 要到一万二才交。"

CROSSOVER_V3 = derived(
    "recompute.v3.crossover_tokens",
    lambda dim, qk_nope_head_dim, qk_rope_head_dim, v_head_dim:
        crossover_tokens(dim, qk_nope_head_dim + qk_rope_head_dim, v_head_dim),
    inputs={k: V3_FIELDS[k] for k in ("dim", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim")},
    unit="tokens", fmt=thousands, formula="s* = 2·v·d_model ÷ (qk + v) − 1, qk = nope + rope head dims",
    measures="sequence length where attention's recompute FLOPs per saved byte equal a "
             "d_model-input linear's (DeepSeek-V3)",
    notes="≈5.7K", notes_quote=_CROSS_QUOTE)
CROSSOVER_GPT3 = derived(
    "recompute.gpt3.crossover_tokens", lambda d_model, d_head: crossover_tokens(d_model, d_head, d_head),
    inputs={"d_model": GPT3_FIELDS["d_model"], "d_head": GPT3_FIELDS["d_head"]},
    unit="tokens", fmt=thousands, formula="s* = 2·d_head·d_model ÷ (2·d_head) − 1 = d_model − 1",
    measures="the same crossover for GPT-3 175B", notes="≈12K", notes_quote=_CROSS_QUOTE)

ACT_PER_SBH = sourced("recompute.korthikanti.bytes_per_sbh", 34, unit="B",
                      measures="activation bytes per layer per s·b·h that do not grow with s (16-bit)",
                      citation=f"{KORTHIKANTI}, §4.1 Eq. 1: s·b·h·(34 + 5·a·s/h)")
SCORE_COEFF = sourced("recompute.korthikanti.score_coefficient", 5, unit="B",
                      measures="coefficient of the a·s/h term: the softmax output (2), the dropout mask (1) and the "
                               "dropout output (2), each a·s² per sequence (the softmax input is not kept)",
                      citation=f"{KORTHIKANTI}, §4.1 Eq. 1: s·b·h·(34 + 5·a·s/h)")


def selective_saving(per_sbh: int, score: int, n_heads: int, seq_len: int, d_model: int) -> float:
    quadratic = score * n_heads * seq_len / d_model
    return quadratic / (per_sbh + quadratic)


SELECTIVE_SAVING = derived(
    "recompute.gpt3.selective_saving", selective_saving,
    inputs={"per_sbh": ACT_PER_SBH, "score": SCORE_COEFF, "n_heads": GPT3_FIELDS["n_heads"],
            "seq_len": GPT3_CONTEXT, "d_model": GPT3_FIELDS["d_model"]},
    unit="fraction", fmt=percent(0), formula="(5·a·s/h) ÷ (34 + 5·a·s/h)",
    measures="share of GPT-3's activation memory selective recompute (of attention) saves",
    notes="70 %", notes_quote="收益还很漂亮：GPT-3 省 70% 的激活显存，只付 2.7% 的算力。")
SELECTIVE_OVERHEAD = sourced(
    "recompute.gpt3.selective_overhead", 0.027, unit="fraction", fmt=percent(1),
    measures="extra FLOPs of selective activation recompute for GPT-3 175B",
    citation=f"{KORTHIKANTI}, §5 (GPT-3: 70 % activation memory saved at 2.7 % FLOPs overhead)",
    notes="2.7 %", notes_quote="收益还很漂亮：GPT-3 省 70% 的激活显存，只付 2.7% 的算力。")
