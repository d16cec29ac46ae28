"""fig-vanish's panel numbers against exact rationals, scipy's sigmoid and hand counts."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from _s1s2_reference import chain_input_gradient, log10_fraction, sigmoid_slope_peak
from scipy.special import expit

from lecture_numerics import quantity, vanish_panels


def test_orders_between_from_exact_rationals():
    high, low = chain_input_gradient(1.2, 60), chain_input_gradient(0.8, 60)
    assert (high, low) == (Fraction(6, 5) ** 59, Fraction(4, 5) ** 59)
    exact = log10_fraction(high) - log10_fraction(low)
    assert math.isclose(quantity("vanish.orders_between").value, exact, rel_tol=1e-12)
    assert quantity("vanish.orders_between").display == "10"
    assert quantity("vanish.orders_between_zh").display == "十"


def test_rates_two_tenths_from_one():
    assert quantity("vanish.rate_offset_zh").display == "两成"
    assert quantity("vanish.output_gradient").value == 1.0


def test_exit_and_landing_layers_by_hand():
    assert quantity("vanish.exit_layers_from_output").value == \
        next(k for k in range(100) if Fraction(6, 5) ** k > 10) == 13
    assert quantity("vanish.landed_layers_from_output").value == \
        next(k for k in range(100) if Fraction(4, 5) ** k < Fraction(1, 10)) == 11


def test_numbers_multiplied_counted_by_hand():
    # Multiply the chain out one number at a time: the seed, then a rate per hop, until the
    # product is the drawn input-end value.
    product, count = Fraction(1), 1
    while product != chain_input_gradient(0.8, 60):
        product, count = product * Fraction(4, 5), count + 1
    assert quantity("vanish.numbers_multiplied").value == count == 60
    assert quantity("vanish.numbers_multiplied").notes == "六十一"


def test_sigmoid_slope_peak_with_scipy():
    peak_x, peak = sigmoid_slope_peak()
    assert math.isclose(quantity("vanish.sigmoid_max_slope").value, peak, abs_tol=1e-9)
    assert math.isclose(quantity("vanish.sigmoid_at_max_slope").value, expit(peak_x), abs_tol=1e-4)
    assert quantity("vanish.sigmoid_at_max_slope").display == "0.5"
    assert quantity("vanish.sigmoid_shrink_zh").display == "四"


def test_drawn_curves_are_the_functions():
    curves = vanish_panels.slope_curves()
    x, y = curves["sigmoid"]
    np.testing.assert_allclose(y, expit(x) * (1 - expit(x)), atol=1e-12)
    assert list(curves["relu_right"][1]) == [1.0, 1.0] and list(curves["relu_left"][1]) == [0.0, 0.0]
    assert quantity("vanish.relu_slope_positive").value == 1.0


def test_axes():
    assert quantity("vanish.axis.log_ticks").value == [10.0 ** e for e in range(-6, 6)]
    assert quantity("vanish.axis.log_ticks").item_displays[0] == "10⁻⁶"
    assert quantity("vanish.axis.linear_ticks").item_displays == ("0", "5", "10")
    assert quantity("vanish.axis.layer_ticks").item_displays == ("1", "60")


# ---- the figure: what the review asked of Ⓐ ----------------------------------------------------

def _vanish_stills() -> dict:
    from studio.engine.stills import section_stills
    return {s.name: s.mobjects for s in section_stills("fig-vanish")}


def test_panel_a_question_and_gradient_red():
    """Ⓐ: 「那乘起来会怎样？」 (A.1) is on screen when it is asked, and the vanishing chain is
    drawn in the theme's one gradient red, not in another red."""
    from manim import Text

    from scenes.kit import theme

    stills = _vanish_stills()
    asked = [m.text for top in stills["A.1"] for m in top.get_family() if isinstance(m, Text)]
    assert any("会怎样" in t for t in asked), asked
    strokes = {p.get_stroke_color() for top in stills["A.5"] for p in top.get_family()
               if p.has_points() and p.get_stroke_opacity() > 0 and not isinstance(p, Text)}
    assert theme.color("gradients") in strokes and theme.color("bad") not in strokes


def test_the_two_rates_are_four_tenths_apart_not_two():
    """「只差两成」 in the notes: 1.2 − 0.8 is 2/5 (四成); each is 1/5 from 1 (the screen's 两成)."""
    gap = Fraction(6, 5) - Fraction(4, 5)
    assert gap == Fraction(2, 5)
    assert math.isclose(quantity("vanish.rate_gap_zh").value, float(gap), abs_tol=1e-12)
    assert quantity("vanish.rate_gap_zh").display == "四成"
