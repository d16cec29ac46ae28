"""fig-prepost: in a Post-LN stack at initialisation, how much of the first input survives.

Premise (the notes' words): at init x and F(x) each have variance 1 and are uncorrelated, so
x + F(x) has variance 2 and the Norm after it divides by √2. Recursing, the first input's
share after l residual + Norm steps is 2^(−l/2). ``l`` counts residual + Norm steps: a
Transformer block has two (attention, FFN), so 24 steps are 12 blocks; a 24-block Post-LN
Transformer has 48 such steps (2^−24).

``postln_rescaling_product`` backs the premise with a seeded simulation: x ← LN(x + W x),
W ~ N(0, 1/d), returning the product of the LayerNorm rescalings (1/σ per step).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from lecture_numerics.provenance import chosen, derived
from lecture_numerics.vanish import PREPOST_LAYER as LAYERS
from lecture_numerics.zh import zh_count


def postln_input_share(layer: float) -> float:
    return 2.0 ** (-layer / 2)


def postln_rescaling_product(layers: int, d: int = 1024, seed: int = 0) -> float:
    """Product over ``layers`` Post-LN steps of the LayerNorm rescaling 1/σ(x + W x)."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(d)
    x = (x - x.mean()) / x.std()
    product = 1.0
    for _ in range(layers):
        h = x + rng.standard_normal((d, d)) / np.sqrt(d) @ x
        sigma = h.std()
        product /= sigma
        x = (h - h.mean()) / sigma
    return product


def share_fraction(value: float) -> str:
    """1 → "1", 2^−3 → "1/8": the share as the fraction the speaker reads."""
    f = Fraction(value).limit_denominator(1 << 20)
    return "1" if f == 1 else f"{f.numerator}/{f.denominator}"


_QUOTE = "初始化那一刻，x 和 F(x) 的方差各是 1，加起来是 2，"
UNIT_VARIANCE = chosen(
    "prepost.unit_variance", 1, unit="", fmt="{}",
    measures="variance of x and of F(x) at initialisation (the premise)",
    reason="the notes' premise: unit-variance input and branch at init, uncorrelated",
    notes="1", notes_quote=_QUOTE)
VARIANCE_SUM = derived(
    "prepost.variance_sum", lambda var: var + var, inputs={"var": UNIT_VARIANCE}, unit="", fmt="{}",
    formula="Var(x) + Var(F(x)) (uncorrelated at init)", measures="variance of x + F(x) before the Norm",
    notes="2", notes_quote=_QUOTE)
SHARE_AT_24 = derived(
    "prepost.share_at_24", postln_input_share, inputs={"layer": LAYERS}, unit="fraction", fmt=share_fraction,
    formula="2^(−l/2) at l = prepost.layer (the closed form of vanish.post_ln_input_share's ∏ 1/√2)",
    measures="share of the first input left after 24 Post-LN residual + Norm steps, at init",
    note="l counts residual + Norm steps; a 24-block Post-LN Transformer has 48 of them (2^−24), "
         "so 1/4096 is 24 steps = 12 blocks. The seeded simulation (postln_rescaling_product, d = 256, "
         "16 seeds) agrees within a few percent.",
    notes="1/4096", notes_quote="看这张图：到第 24 层，只剩四千零九十六分之一。")
X_TICKS = derived(
    "prepost.x_ticks", lambda layers: [layers * k / 4 for k in range(5)], inputs={"layers": LAYERS},
    unit="steps", item_fmt="{:.0f}", fmt=lambda v: " · ".join(f"{x:.0f}" for x in v),
    formula="0, l/4, l/2, 3l/4, l", measures="tick labels of fig-prepost's layer axis")
Y_TICKS = derived(
    "prepost.y_ticks", lambda layers: [postln_input_share(layers * k / 4) for k in range(5)],
    inputs={"layers": LAYERS}, unit="fraction", item_fmt=share_fraction,
    fmt=lambda v: " · ".join(map(share_fraction, v)),
    formula="2^(−l/2) at the layer ticks", measures="tick labels of fig-prepost's share axis (log scale)")
READINGS = chosen("prepost.readings", ("pre-training", "fine-tuning"), unit="", fmt=" / ".join,
                  measures="the two uses the one curve is read for",
                  reason="the notes' two verdicts on the same curve: pre-training and fine-tuning")
VERDICTS = derived(
    "prepost.verdict_count", lambda readings: len(readings), inputs={"readings": READINGS}, unit="verdicts",
    fmt=zh_count, formula="pre-training and fine-tuning read the same curve",
    measures="how many verdicts the one curve gets",
    notes="两", notes_quote="同一条曲线，两种价值。")
