"""Vanishing and exploding gradients along a chain of layers (fig-vanish).

A 60-layer chain: the gradient at the output-most layer is 1, and each hop towards the input
multiplies it by the per-layer rate, so the input-most layer gets rate^59 (59 hops).
"""

from __future__ import annotations

import math

import numpy as np
from lecture_numerics.provenance import chosen, derived, sourced

_WHY = "the notes' illustrative chain for fig-vanish: two rates only two tenths apart"

LAYERS = chosen("vanish.layers", 60, unit="layers", measures="depth of the illustrated chain", reason=_WHY,
                notes="六十", notes_quote="同一个六十层的网络，我只改一件事：每层的兑换率。")
RATE_LOW = chosen("vanish.rate_low", 0.8, unit="", measures="per-layer rate of the vanishing chain", reason=_WHY,
                  notes="零点八", notes_quote="而这两个兑换率 —— 零点八和一点二，只差两成。")
RATE_HIGH = chosen("vanish.rate_high", 1.2, unit="", measures="per-layer rate of the exploding chain", reason=_WHY,
                   notes="一点二", notes_quote="蓝色那条，每层一点二。")


def gradient_along_chain(rate: float, layers: int) -> np.ndarray:
    """Gradient at each layer, input-most first: propagate 1 back from the last layer."""
    grads = np.empty(layers)
    grads[-1] = 1.0
    for i in range(layers - 2, -1, -1):
        grads[i] = grads[i + 1] * rate
    return grads


def power_of_ten(v: float) -> str:
    """1.9e-06 → "1.9×10⁻⁶" (how the slide writes it)."""
    exponent = math.floor(math.log10(v))
    mantissa = v / 10**exponent
    sup = str(exponent).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return f"{mantissa:.1f}×10{sup}"


def two_significant(v: float) -> str:
    digits = 2 - 1 - math.floor(math.log10(abs(v)))
    return f"{round(v, digits):,.0f}"


INPUT_LOW = derived(
    "vanish.rate_0p8_60_layers", lambda rate, layers: float(gradient_along_chain(rate, layers)[0]),
    inputs={"rate": RATE_LOW, "layers": LAYERS}, unit="", fmt=power_of_ten,
    formula="g_1 = rate^(layers − 1), propagated hop by hop from g_60 = 1",
    measures="gradient at the input-most layer, rate 0.8",
    notes="1.9e-6", notes_quote="左边这个点，是零点八那条最靠输入的那层：一百万分之一点九。")
INPUT_HIGH = derived(
    "vanish.rate_1p2_60_layers", lambda rate, layers: float(gradient_along_chain(rate, layers)[0]),
    # Written as the 0.8 chain's value is (1.9×10⁻⁶): the two sit on one log line, in one format.
    inputs={"rate": RATE_HIGH, "layers": LAYERS}, unit="", fmt=power_of_ten,
    formula="g_1 = rate^(layers − 1), propagated hop by hop from g_60 = 1",
    measures="gradient at the input-most layer, rate 1.2",
    notes="47000", notes_quote="右边这个点，是一点二那条：四万七千。")
# The orders of magnitude between the two chains are declared once: vanish.orders_between.


def sigmoid_slope(x: float) -> float:
    s = 1.0 / (1.0 + math.exp(-x))
    return s * (1 - s)


def golden_section_max(f, low: float, high: float, tolerance: float = 1e-10) -> float:
    """Maximum of a unimodal f on [low, high] (golden-section search; no scipy import, which
    would cost every scene a second at start-up)."""
    ratio = (math.sqrt(5) - 1) / 2
    a, b = low, high
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    while b - a > tolerance:
        if f(c) > f(d):
            b, d = d, c
            c = b - ratio * (b - a)
        else:
            a, c = c, d
            d = a + ratio * (b - a)
    return f((a + b) / 2)


SEARCH_HALF_WIDTH = chosen("vanish.slope_search_half_width", 10.0, unit="", fmt="{:g}",
                           measures="half-width of the interval σ′'s maximum is searched on, [−w, w]",
                           reason="σ′ < 5×10⁻⁵ beyond |x| = 10: the peak lies well inside")
SIGMOID_MAX_SLOPE = derived(
    "vanish.sigmoid_max_slope",
    lambda half_width: golden_section_max(sigmoid_slope, -half_width, half_width),
    inputs={"half_width": SEARCH_HALF_WIDTH}, unit="", fmt="{:.2f}",
    formula="max_x σ(x)(1 − σ(x)), found numerically (golden-section search on [−10, 10])",
    measures="largest slope of the sigmoid",
    notes="0.25", notes_quote="sigmoid 的导数等于 σ 乘以一减 σ， 在 σ 等于二分之一的时候最大，恰好是零点二五。")

# --- Post-LN: the normalisation after each residual add (fig-prepost) ---------------------------

PREPOST_LAYER = chosen("prepost.layer", 24, unit="layers", measures="depth at which the input's share is read",
                       reason="the depth the notes read fig-prepost at", notes="24",
                       notes_quote="看这张图：到第 24 层，只剩四千零九十六分之一。")


def post_ln_input_share(layers: int) -> float:
    """Coefficient of the original input after ``layers`` Post-LN blocks at initialisation:
    x and F(x) have variance 1 each, their sum variance 2, and the norm divides by √2."""
    share, variance = 1.0, 1.0
    for _ in range(layers):
        variance = variance + 1.0             # x + F(x), independent, unit-variance F(x)
        share, variance = share / math.sqrt(variance), 1.0  # normalised back to variance 1
    return share


POST_LN_SHARE = derived(
    "prepost.input_share_layer24", post_ln_input_share, inputs={"layers": PREPOST_LAYER}, unit="",
    fmt=lambda v: f"1/{round(1 / v)}", formula="∏ 1/√2 over the layers = 2^(−l/2)",
    measures="what is left of the first input at layer 24 of a Post-LN stack at initialisation",
    notes="1/4096", notes_quote="到第 24 层，只剩四千零九十六分之一。")
