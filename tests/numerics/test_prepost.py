"""fig-prepost's numbers: exact fractions, and a seeded Post-LN stack backing the premise."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from lecture_numerics import quantity
from lecture_numerics.prepost import postln_rescaling_product


def test_share_at_24_is_two_to_the_minus_twelve():
    q = quantity("prepost.share_at_24")
    assert Fraction(q.value) == Fraction(1, 2**12) and q.display == "1/4096"
    assert abs(q.value - quantity("prepost.input_share_layer24").value) < 1e-15   # fig-vanish's recursion


def test_ticks_are_powers_of_one_eighth_every_six_steps():
    assert quantity("prepost.x_ticks").item_displays == ("0", "6", "12", "18", "24")
    assert [Fraction(v) for v in quantity("prepost.y_ticks").value] == [Fraction(1, 8**k) for k in range(5)]
    assert quantity("prepost.y_ticks").item_displays == ("1", "1/8", "1/64", "1/512", "1/4096")


def test_variances_and_counts():
    assert quantity("prepost.variance_sum").value == 1 + 1
    assert quantity("prepost.verdict_count").display == "两"               # 预训练, 微调


def test_a_simulated_post_ln_stack_shrinks_the_input_by_root_two_per_step():
    products = [postln_rescaling_product(24, d=256, seed=s) for s in range(16)]
    geometric_mean = float(np.exp(np.mean(np.log(products))))
    assert abs(geometric_mean / 2**-12 - 1) < 0.05
