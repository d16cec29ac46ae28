"""Per-layer accounting of DeepSeek-V3 from its config: parameters and stored activations.

Activation accounting rule (per token, one sequence, 16-bit training): every operator keeps
exactly what its own backward needs, and a tensor read by several operators is kept once.
- a linear keeps its input (the weight gradient is input × output-gradient);
- RMSNorm keeps its input and one fp32 reciprocal RMS per token;
- SwiGLU keeps both of its inputs; RoPE and residual adds keep nothing;
- attention is FlashAttention: Q, K, V, the output O and one fp32 log-sum-exp per head,
  never the s × s score matrix;
- MoE: each routed copy of the token is an expert's input, and each expert's output is kept
  because the routing weight's gradient needs it; router scores are fp32.
Dropout is not used (no masks).
"""

from __future__ import annotations

from dataclasses import dataclass

from lecture_numerics.models import V3Config

BF16 = 2  # bytes
FP32 = 4  # bytes


@dataclass(frozen=True)
class ActivationItem:
    """One tensor kept from the forward pass for the backward pass."""

    block: str            # "attention" | "ffn" | "moe"
    tensor: str           # what the tensor is
    kept_for: str         # whose backward reads it
    bytes_per_token: int  # for one token of one sequence


def v3_attention_items(c: V3Config) -> list[ActivationItem]:
    """MLA attention with FlashAttention."""
    qk = c.qk_nope_head_dim + c.qk_rope_head_dim
    a = "attention"
    return [
        ActivationItem(a, "layer input x", "attn_norm (the only tensor full recompute keeps)", BF16 * c.dim),
        ActivationItem(a, "attn_norm 1/rms", "attn_norm", FP32),
        ActivationItem(a, "normed x", "wq_a, wkv_a", BF16 * c.dim),
        ActivationItem(a, "q latent", "q_norm", BF16 * c.q_lora_rank),
        ActivationItem(a, "q_norm 1/rms", "q_norm", FP32),
        ActivationItem(a, "normed q latent", "wq_b", BF16 * c.q_lora_rank),
        ActivationItem(a, "kv latent", "kv_norm", BF16 * c.kv_lora_rank),
        ActivationItem(a, "kv_norm 1/rms", "kv_norm", FP32),
        ActivationItem(a, "normed kv latent", "wkv_b", BF16 * c.kv_lora_rank),
        ActivationItem(a, "Q (with RoPE)", "FlashAttention", BF16 * c.n_heads * qk),
        ActivationItem(a, "K (with RoPE)", "FlashAttention", BF16 * c.n_heads * qk),
        ActivationItem(a, "V", "FlashAttention", BF16 * c.n_heads * c.v_head_dim),
        ActivationItem(a, "attention output O", "FlashAttention, wo", BF16 * c.n_heads * c.v_head_dim),
        ActivationItem(a, "softmax log-sum-exp", "FlashAttention", FP32 * c.n_heads),
    ]


def _ffn_norm_items(block: str, c: V3Config) -> list[ActivationItem]:
    return [
        ActivationItem(block, "ffn_norm input", "ffn_norm", BF16 * c.dim),
        ActivationItem(block, "ffn_norm 1/rms", "ffn_norm", FP32),
        ActivationItem(block, "normed x", "gate / w1, w3", BF16 * c.dim),
    ]


def _swiglu_items(block: str, who: str, width: int) -> list[ActivationItem]:
    return [
        ActivationItem(block, f"{who} w1 output", "SiLU·gate product", BF16 * width),
        ActivationItem(block, f"{who} w3 output", "SiLU·gate product", BF16 * width),
        ActivationItem(block, f"{who} SiLU(w1)·w3", "w2", BF16 * width),
    ]


def v3_dense_ffn_items(c: V3Config) -> list[ActivationItem]:
    return _ffn_norm_items("ffn", c) + _swiglu_items("ffn", "FFN", c.inter_dim)


def v3_moe_items(c: V3Config) -> list[ActivationItem]:
    k = c.n_activated_experts
    return _ffn_norm_items("moe", c) + [
        ActivationItem("moe", "router scores (fp32)", "gate", FP32 * c.n_routed_experts),
        ActivationItem("moe", f"{k} routed copies of x", "experts' w1, w3", BF16 * c.dim * k),
    ] + _swiglu_items("moe", f"{k} experts'", c.moe_inter_dim * k) + [
        ActivationItem("moe", f"{k} experts' outputs", "routing weights", BF16 * c.dim * k),
    ] + _swiglu_items("moe", "shared expert", c.moe_inter_dim * c.n_shared_experts)


def v3_layer_items(c: V3Config, dense: bool) -> list[ActivationItem]:
    """Everything one layer keeps for one token with no recompute."""
    ffn = v3_dense_ffn_items(c) if dense else v3_moe_items(c)
    return v3_attention_items(c) + ffn


def items_bytes_per_token(items: list[ActivationItem]) -> int:
    return sum(item.bytes_per_token for item in items)


# --- parameters ---------------------------------------------------------------------------

def v3_attention_params(c: V3Config) -> int:
    qk = c.qk_nope_head_dim + c.qk_rope_head_dim
    return (c.dim * c.q_lora_rank + c.q_lora_rank                       # wq_a, q_norm
            + c.q_lora_rank * c.n_heads * qk                             # wq_b
            + c.dim * (c.kv_lora_rank + c.qk_rope_head_dim)              # wkv_a
            + c.kv_lora_rank                                             # kv_norm
            + c.kv_lora_rank * c.n_heads * (c.qk_nope_head_dim + c.v_head_dim)  # wkv_b
            + c.n_heads * c.v_head_dim * c.dim)                          # wo


def v3_ffn_params(c: V3Config, dense: bool) -> int:
    if dense:
        return 3 * c.dim * c.inter_dim
    experts = (c.n_routed_experts + c.n_shared_experts) * 3 * c.dim * c.moe_inter_dim
    gate = c.n_routed_experts * c.dim + c.n_routed_experts  # weight + score-correction bias
    return experts + gate


def v3_layer_params(c: V3Config, dense: bool) -> int:
    return v3_attention_params(c) + v3_ffn_params(c, dense) + 2 * c.dim  # + two RMSNorms


def v3_embedding_params(c: V3Config) -> int:
    return c.vocab_size * c.dim


def v3_head_params(c: V3Config) -> int:
    """Output head (not tied to the embedding) plus the final RMSNorm."""
    return c.vocab_size * c.dim + c.dim


def v3_is_dense(c: V3Config, layer: int) -> bool:
    return layer < c.n_dense_layers


def v3_total_params(c: V3Config) -> int:
    layers = sum(v3_layer_params(c, v3_is_dense(c, i)) for i in range(c.n_layers))
    return layers + v3_embedding_params(c) + v3_head_params(c)
