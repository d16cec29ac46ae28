"""FLOPs of one layer's forward pass: matrix multiplies with weights vs the attention core.

The attention core is QKᵀ and AV, the two products with no weights in them. With causal
masking, the token at position i attends to i + 1 keys, so over a sequence of s tokens a
token averages (s + 1) / 2 keys. A multiply-add counts as 2 FLOPs.
"""

from __future__ import annotations

from lecture_numerics.bill import SEQ_LEN
from lecture_numerics.models import (GPT3_CONTEXT, GPT3_FIELDS, V3_ACTIVE_PARAMS, V3_FIELDS, V3Config)
from lecture_numerics.layers import v3_attention_params
from lecture_numerics.provenance import derived, sourced


def attention_core_flops_per_token(seq_len: int, n_heads: int, qk_dim: int, v_dim: int) -> float:
    """QKᵀ (width qk_dim) and AV (width v_dim) per head, averaged over causal positions."""
    return 2 * n_heads * (qk_dim + v_dim) * (seq_len + 1) / 2


def v3_matmul_flops_per_token(c: V3Config, dense: bool) -> float:
    """2 FLOPs per weight a token meets: MLA projections + the experts it is routed to."""
    norms = c.q_lora_rank + c.kv_lora_rank  # norm weights inside v3_attention_params
    attention = v3_attention_params(c) - norms
    if dense:
        ffn = 3 * c.dim * c.inter_dim
    else:
        ffn = (c.n_activated_experts + c.n_shared_experts) * 3 * c.dim * c.moe_inter_dim + c.dim * c.n_routed_experts
    return 2 * (attention + ffn)


def v3_attention_core_per_token(c: V3Config, seq_len: int) -> float:
    return attention_core_flops_per_token(seq_len, c.n_heads, c.qk_nope_head_dim + c.qk_rope_head_dim,
                                          c.v_head_dim)


def v3_attention_share(seq_len: int, **config: int) -> float:
    c = V3Config(**config)
    core = v3_attention_core_per_token(c, seq_len)
    return core / (core + v3_matmul_flops_per_token(c, dense=False))


def gpt3_attention_share(seq_len: int, d_model: int, n_heads: int, d_head: int) -> float:
    core = attention_core_flops_per_token(seq_len, n_heads, d_head, d_head)
    matmul = 2 * 12 * d_model * d_model  # QKV (3h²) + output (h²) + MLP (8h²) weights
    return core / (core + matmul)


def percent(digits: int):
    return lambda v: f"{100 * v:.{digits}f}%"


_V3_CONFIG = {name: V3_FIELDS[name] for name in V3Config.__dataclass_fields__}

ATTENTION_SHARE_V3 = derived(
    "flops.v3.attention_share_128k", v3_attention_share, inputs={**_V3_CONFIG, "seq_len": SEQ_LEN},
    unit="fraction", fmt=percent(1),
    formula="A ÷ (A + M); A = 2·n_heads·(qk_dim + v_dim)·(s + 1)/2 (causal QKᵀ + AV), "
            "M = 2 × weights a token meets in one MoE layer (MLA projections, 8 routed + 1 shared expert, router)",
    measures="attention core's share of one MoE layer's forward FLOPs at s = 131072",
    notes="82.1 %", notes_quote="4.15 TiB、82.1%、94 条序列、六倍反推 —— 都是自己推的。")
ATTENTION_SHARE_GPT3 = derived(
    "flops.gpt3.attention_share_2k", gpt3_attention_share,
    inputs={"seq_len": GPT3_CONTEXT, "d_model": GPT3_FIELDS["d_model"], "n_heads": GPT3_FIELDS["n_heads"],
            "d_head": GPT3_FIELDS["d_head"]},
    unit="fraction", fmt=percent(1),
    formula="A ÷ (A + M); A = 2·n_heads·2·d_head·(s + 1)/2, M = 2·12·d_model²",
    measures="attention core's share of one GPT-3 175B layer's forward FLOPs at s = 2048",
    notes="1.x %", notes_quote="GPT-3 那个两千零四十八，attention 只占百分之一点几，漏掉完全无所谓。")

SIX = sourced("flops.six_nd_coefficient", 6, unit="FLOPs/(param·token)",
              measures="training FLOPs per parameter per token in the 6ND estimate (2 forward + 4 backward)",
              citation="Kaplan et al. 2020, Scaling Laws for Neural Language Models, §2.1 (C ≈ 6NBS)")

SIX_ND = derived(
    "flops.v3.six_nd_pflop_128k", lambda six, active_params, seq_len: six * active_params * seq_len / 1e15,
    inputs={"six": SIX, "active_params": V3_ACTIVE_PARAMS, "seq_len": SEQ_LEN},
    unit="PFLOP", fmt="{:.0f}", formula="6 × N_active × D ÷ 10^15 (D = one 128K sequence)",
    measures="6ND estimate of one training step on one 128K sequence of DeepSeek-V3",
    notes="29", notes_quote="代进去：一条十二万八千的序列，约 29 PFLOP。")


def real_over_six_nd(six: int, active_params: float, seq_len: int, **config: int) -> float:
    """(6ND + attention core in forward and backward, 3 × forward) ÷ 6ND."""
    c = V3Config(**config)
    attention = 3 * c.n_layers * v3_attention_core_per_token(c, seq_len)
    return (six * active_params + attention) / (six * active_params)


REAL_OVER_SIX_ND = derived(
    "flops.v3.real_over_6nd_128k", real_over_six_nd,
    inputs={"six": SIX, "active_params": V3_ACTIVE_PARAMS, "seq_len": SEQ_LEN, **_V3_CONFIG},
    unit="×", fmt=lambda v: f"{v:.1f}×",
    formula="(6·N·D + 3·n_layers·A·D) ÷ (6·N·D); A = attention core FLOPs per token (forward), "
            "3 = forward + backward (1 : 2)",
    measures="true training FLOPs over 6ND at 128K: 6ND leaves out the weightless QKᵀ and AV",
    notes="5–6 ×", notes_quote="反推一下：真实算力大约是 6ND 的五到六倍。")
# 「反推」 from the share fig-step shows beside it: if 6ND counted only the 17.9 % that is not
# attention, the whole would be 1 ÷ 17.9 % of it. That overshoots the 5.4× above, because 82.1 % is
# one MoE layer's forward share, not the model's (the screen's 5.4× is the whole model's). Both lie
# in the notes' 五到六倍; declared so the ledger and the errata can say which is which.
REAL_OVER_SIX_ND_FROM_SHARE = derived(
    "flops.v3.real_over_6nd_from_share", lambda share: 1 / (1 - share), inputs={"share": ATTENTION_SHARE_V3},
    unit="×", fmt=lambda v: f"{v:.1f}×", formula="1 ÷ (1 − flops.v3.attention_share_128k)",
    measures="real FLOPs over 6ND as 「反推」 from one MoE layer's attention share alone (an upper estimate)")
