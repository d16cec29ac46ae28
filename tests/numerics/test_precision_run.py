"""fig-precision: the run behind Ⓐ Ⓑ Ⓒ against ml_dtypes, numpy float16/float32 and closed forms.

The first three tests are the three assertions the speaker quotes (「还有三条断言盯着」).
"""

import math

import ml_dtypes
import numpy as np

from lecture_numerics import bit_layouts as bl
from lecture_numerics import precision_run as pr
from lecture_numerics.precision import to_bf16

BF16 = ml_dtypes.bfloat16
GAP = float(np.nextafter(BF16(1.0), BF16(2.0))) - 1.0     # ml_dtypes' own spacing at 1.0


def bf16_add_loop(start, increment, adds):
    """x = bf16(x + bf16-exact increment), computed by ml_dtypes in float32 then cast."""
    x = BF16(start)
    for _ in range(adds):
        x = BF16(np.float32(x) + np.float32(increment))
    return float(x)


def test_assertion_1_under_half_a_gap_rounds_back():
    assert float(BF16(np.float32(1.0 + 0.4 * GAP))) == 1.0
    assert float(to_bf16(1.0 + 0.4 * GAP)[0]) == 1.0


def test_assertion_2_a_whole_gap_survives():
    assert float(BF16(np.float32(1.0 + GAP))) == 1.0 + GAP
    assert float(to_bf16(1.0 + GAP)[0]) == 1.0 + GAP


def test_assertion_3_a_thousand_bf16_adds_leave_one():
    assert bf16_add_loop(1.0, 3e-4, 1000) == 1.0
    sums, stored = pr.accumulation_trace(1.0, 3e-4, 1000)
    assert np.all(stored == 1.0) and pr.STEPS_MOVED.value == 0
    assert np.allclose(sums, np.float32(1.0) + np.float32(3e-4))


def test_fp32_loop_reaches_one_point_three():
    x = np.float32(1.0)
    for _ in range(1000):
        x = np.float32(x + np.float32(3e-4))
    from lecture_numerics.precision import FP32_AFTER
    assert abs(float(x) - 1.3) < 1e-4 and FP32_AFTER.value == float(x)


def test_ticks_are_ml_dtypes_neighbours():
    expected = [1.0]
    for _ in range(3):
        expected.append(float(np.nextafter(BF16(expected[-1]), BF16(2.0))))
    assert list(pr.TICKS.value) == expected == [1.0, 1.0078125, 1.015625, 1.0234375]


def test_gap_counts():
    assert pr.SPACING_OVER_INCREMENT.value == GAP / 3e-4
    assert round(GAP / 3e-4, 2) == 26.04
    # By hand: 26 increments fall short of one gap, 27 cover it.
    assert 26 * 3e-4 < GAP <= 27 * 3e-4 and pr.ADDS_TO_ONE_SPACING.value == 27


def test_bit_layouts_against_finfo():
    for name, dtype in (("fp32", np.float32), ("fp16", np.float16), ("bf16", BF16)):
        info = ml_dtypes.finfo(dtype) if name == "bf16" else np.finfo(dtype)
        exponent, mantissa = (q.value for q in bl.FIELDS[name])
        assert mantissa == info.nmant and exponent == info.bits - info.nmant - 1
        assert bl.TOTAL_BITS[name].value == info.bits
    assert bl.EXPONENT_BITS_MOVED.value == 3 == 10 - 7


def test_tiny_gradient_casts():
    assert float(np.float16(1e-8)) == 0.0 == bl.TINY_IN_FP16.value
    assert bl.TINY_IN_BF16.value == float(BF16(1e-8))
    assert bl.TINY_IN_BF16.display == "1.0012e-08"


def test_half_lives_against_a_decay_loop():
    for beta, q in ((0.9, pr.HALF_LIFE_M), (0.999, pr.HALF_LIFE_V)):
        share, steps = 1.0, 0
        while share > 0.5:
            share *= beta
            steps += 1
        assert steps - 1 < q.value <= steps           # the loop crosses ½ within the step
        assert math.isclose(beta ** q.value, 0.5)
    assert (pr.HALF_LIFE_M.display, pr.HALF_LIFE_V.display) == ("6.6", "693")


def test_remaining_curves():
    k = np.array([0, 1, 10, 100])
    assert np.all(pr.remaining("kept", k) == 1)
    assert list(pr.remaining("used_once", k)) == [1, 0, 0, 0]
    assert np.allclose(pr.remaining("ema", k, 0.9), [1, 0.9, 0.9 ** 10, 0.9 ** 100])
