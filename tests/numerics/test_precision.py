"""bf16 rounding and accumulation against ml_dtypes.bfloat16 and numpy's float16/float32."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

from lecture_numerics import load_all, quantity
from lecture_numerics.precision import accumulate, bf16_next_up, to_bf16

BF16 = ml_dtypes.bfloat16


def test_rounding_matches_ml_dtypes_on_random_ties_and_subnormals():
    rng = np.random.default_rng(7)
    normal = rng.standard_normal(20_000).astype(np.float32) * np.float32(1e3)
    tiny = (rng.standard_normal(2_000) * 1e-39).astype(np.float32)  # bf16/fp32 subnormals
    # exact ties: a bf16 value plus half a bf16 unit, with even and odd last bits
    base = np.arange(0x3F80, 0x3F90, dtype=np.uint32) << 16
    ties = (base | 0x8000).view(np.float32)
    x = np.concatenate([normal, tiny, ties, np.float32([0.0, -0.0, 1.0, 65504.0, 3e38])])
    assert np.array_equal(to_bf16(x), x.astype(BF16).astype(np.float32))


def test_spacing_at_one():
    assert bf16_next_up(1.0) - 1.0 == float(ml_dtypes.finfo(BF16).eps) == 2**-7
    q = quantity("precision.bf16.spacing_at_1")
    assert q.display == "0.0078"
    assert quantity("precision.increment_over_spacing").value == pytest.approx(3e-4 * 128)


def test_a_thousand_small_adds_in_bf16_never_move():
    x = BF16(1.0)
    for _ in range(1000):
        x = BF16(np.float32(x) + np.float32(3e-4))
    assert float(x) == 1.0 == quantity("precision.bf16.after_1000_adds").value


def test_a_thousand_small_adds_in_fp32():
    steps = np.full(1001, np.float32(3e-4), dtype=np.float32)
    steps[0] = 1.0
    reference = float(np.cumsum(steps, dtype=np.float32)[-1])  # numpy's sequential float32 sum
    q = quantity("precision.fp32.after_1000_adds")
    assert q.value == reference and q.display == "1.3"
    assert abs(q.value - 1.3) < 1e-3
    assert accumulate(1.0, 3e-4, 1000, store=lambda v: np.float32([v])) == reference


def test_orders_between_smallest_fp16_and_bf16():
    fp16 = float(np.finfo(np.float16).smallest_subnormal)
    bf16 = float(ml_dtypes.finfo(BF16).smallest_subnormal)
    q = quantity("underflow.gap_orders")      # one declaration of the 33 orders (issue 24)
    assert q.value == pytest.approx(math.log10(fp16 / bf16), rel=1e-12) and q.display == "33"
    assert "precision.fp16_bf16_orders" not in load_all()
    assert quantity("precision.fp16.smallest_positive").value == fp16
    assert quantity("precision.bf16.smallest_positive").value == bf16
