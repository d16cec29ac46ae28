"""FLOPs shares and recompute prices against explicit sums and a root finder."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import brentq

from _v3_reference import ATTN, LAYERS, S

from lecture_numerics import quantity
from lecture_numerics.recompute import attention_flops_per_byte, linear_flops_per_byte

# Weights a V3 token meets in one MoE layer (the reference shapes, minus norm weights),
# then 8 routed + 1 shared expert and the router.
V3_ATTN_MATMUL = ATTN - (1536 + 512 + 2 * 7168)
V3_MOE_MATMUL = V3_ATTN_MATMUL + 9 * 3 * 7168 * 2048 + 256 * 7168


def causal_core_flops(seq_len: int, heads: int, qk: int, v: int) -> float:
    """Sum over positions: the token at i meets i + 1 keys; QKᵀ and AV, 2 FLOPs per MAC."""
    keys_met = np.arange(1, seq_len + 1, dtype=np.float64).sum()
    return 2 * heads * (qk + v) * keys_met / seq_len


def test_v3_attention_share_at_128k():
    core = causal_core_flops(S, 128, 192, 128)
    share = core / (core + 2 * V3_MOE_MATMUL)
    q = quantity("flops.v3.attention_share_128k")
    assert q.value == pytest.approx(share, rel=1e-12) and q.display == "82.1%"


def test_gpt3_attention_share_at_2k():
    core = causal_core_flops(2048, 96, 128, 128)
    share = core / (core + 2 * 12 * 12288**2)
    assert quantity("flops.gpt3.attention_share_2k").value == pytest.approx(share, rel=1e-12)
    assert 0.01 <= share < 0.02


def test_six_nd():
    assert quantity("flops.v3.six_nd_pflop_128k").value == pytest.approx(6 * 37e9 * 2**17 / 1e15)


def test_real_over_six_nd_by_counting_forward_and_backward():
    six_nd = 6 * 37e9 * S
    attention = sum(3 * causal_core_flops(S, 128, 192, 128) * S for _ in range(LAYERS))
    ratio = (six_nd + attention) / six_nd
    assert quantity("flops.v3.real_over_6nd_128k").value == pytest.approx(ratio, rel=1e-12)
    assert 5 <= ratio <= 6


def test_linear_price_is_its_input_width():
    for d_in, d_out in [(7168, 1536), (512, 32768), (12288, 4 * 12288)]:
        assert linear_flops_per_byte(d_in, d_out) == d_in


def _root(d_model: int, qk: int, v: int) -> float:
    heads = 8  # the price per byte does not depend on the head count
    return brentq(lambda s: causal_core_flops_per_byte(s, heads, qk, v) - d_model, 1, 1e6)


def causal_core_flops_per_byte(s: float, heads: int, qk: int, v: int) -> float:
    per_token = heads * (qk + v) * (s + 1)  # 2 FLOPs × (qk + v) × mean keys (s + 1)/2, per head
    return per_token / (2 * heads * v)


@pytest.mark.parametrize("key, d_model, qk, v, shown", [
    ("recompute.v3.crossover_tokens", 7168, 192, 128, "5.7K"),
    ("recompute.gpt3.crossover_tokens", 12288, 128, 128, "12.3K"),
])
def test_crossover_where_attention_meets_a_d_model_linear(key, d_model, qk, v, shown):
    q = quantity(key)
    assert q.value == pytest.approx(_root(d_model, qk, v), rel=1e-9) and q.display == shown
    assert attention_flops_per_byte(q.value, 4, qk, v) == pytest.approx(d_model)


def test_selective_recompute_saving_from_korthikanti_eq1():
    quadratic = 5 * 96 * 2048 / 12288  # = 80
    assert quantity("recompute.gpt3.selective_saving").value == pytest.approx(80 / 114)
    assert quantity("recompute.gpt3.selective_saving").display == "70%"
    assert quantity("recompute.gpt3.selective_overhead").kind == "sourced"
