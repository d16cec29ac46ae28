"""fig-underflow's thresholds against the formats' closed forms and real casts."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np

from lecture_numerics import quantity
from lecture_numerics.underflow import FP16_MIN_SUBNORMAL, SKETCH_SHIFT, sketch_histogram


def test_thresholds_equal_the_closed_forms_of_the_bit_layouts():
    # smallest subnormal 2^(1 − bias − mantissa bits), smallest normal 2^(1 − bias), bias 2^(e−1) − 1
    assert quantity("underflow.fp16_min_subnormal").value == 2.0 ** (1 - 15 - 10) == 2.0 ** -24
    assert quantity("underflow.fp16_min_normal").value == 2.0 ** -14
    assert quantity("underflow.fp16_max").value == (2 - 2 ** -10) * 2 ** 15 == 65504
    assert quantity("underflow.bf16_min_subnormal").value == 2.0 ** (1 - 127 - 7) == 2.0 ** -133
    assert quantity("underflow.bf16_min_normal").value == 2.0 ** -126


def test_real_casts_round_to_zero_at_half_the_smallest_subnormal():
    half16 = np.float32(2.0 ** -25)
    assert float(half16.astype(np.float16)) == 0.0                                   # tie → even → 0
    assert float(np.nextafter(half16, np.float32(1)).astype(np.float16)) == 2.0 ** -24
    half_bf16 = np.float32(2.0 ** -134)                                               # from float32: one rounding
    assert float(np.array(half_bf16).astype(ml_dtypes.bfloat16)) == 0.0
    assert float(np.array(np.float32(2.0 ** -133)).astype(ml_dtypes.bfloat16)) == 2.0 ** -133
    assert quantity("underflow.fp16_below_stored_as").display == "0"
    assert quantity("underflow.fp16_below_stored_as_zh").display == "零"


def test_displays_and_gap():
    assert quantity("underflow.fp16_min_subnormal").display == "6×10⁻⁸"                # 5.96e-8
    assert quantity("underflow.bf16_min_subnormal").display == "9×10⁻⁴¹"               # 9.18e-41
    gap = 109 * math.log10(2)                                                           # 2^−24 ÷ 2^−133
    assert abs(quantity("underflow.gap_orders").value - gap) < 1e-12 and round(gap) == 33
    assert round(math.log10(2.0 ** -14 / 2.0 ** -126)) == 34                            # the other convention
    assert quantity("underflow.axis_ticks").item_displays == ("10⁻⁴⁰", "10⁻³⁰", "10⁻²⁰", "10⁻¹⁰", "10⁰")


def test_the_sketch_straddles_the_zero_line_and_clears_it_after_the_shift():
    zero_line = math.log10(FP16_MIN_SUBNORMAL.value)
    edges, _ = sketch_histogram()
    assert edges[0] < zero_line < edges[-1]
    shifted, _ = sketch_histogram(SKETCH_SHIFT.value)
    assert shifted[0] > zero_line
