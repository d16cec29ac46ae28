"""fig-precision Ⓐ: how fp32, bf16 and fp16 split their bits, and what a tiny gradient becomes.

The format names on screen (bf16, fp16, fp32) are their total bit counts, so they are
derived here from the sign, exponent and mantissa fields like every other number.
"""

from __future__ import annotations

import numpy as np

from lecture_numerics.models import (BF16_EXPONENT_BITS, BF16_MANTISSA_BITS, FP16_EXPONENT_BITS,
                                     FP16_MANTISSA_BITS, FP32_MANTISSA_BITS)
from lecture_numerics.precision import to_bf16
from lecture_numerics.provenance import chosen, derived, sourced
from lecture_numerics.zh import zh_round

_FORMATS = "IEEE 754-2008 binary32/binary16; bfloat16 definition (sources.md, Formats)"

SIGN_BITS = sourced("format.sign_bits", 1, unit="bits", citation=_FORMATS,
                    measures="sign bits of fp32, bf16 and fp16")
FP32_EXPONENT_BITS = sourced("format.fp32.exponent_bits", 8, unit="bits", citation=_FORMATS,
                             measures="float32 exponent bits")

FIELDS = {  # (exponent, mantissa) bit counts per format
    "fp32": (FP32_EXPONENT_BITS, FP32_MANTISSA_BITS),
    "bf16": (BF16_EXPONENT_BITS, BF16_MANTISSA_BITS),
    "fp16": (FP16_EXPONENT_BITS, FP16_MANTISSA_BITS),
}

_MOVED = "同样是十六位，可它把三位从指数挪给了尾数。"
# The notes say the 16-bit formats' width (「同样是十六位」, fp16 said right after bf16); fp32's they don't.
_WIDTH_NOTES = {"bf16": ("十六", _MOVED), "fp16": ("十六", _MOVED)}

TOTAL_BITS = {
    name: derived(f"format.{name}.total_bits", lambda sign, exponent, mantissa: sign + exponent + mantissa,
                  inputs={"sign": SIGN_BITS, "exponent": e, "mantissa": m}, unit="bits", fmt="{}",
                  formula="sign + exponent + mantissa bits", measures=f"{name}'s width (the number in its name)",
                  notes=_WIDTH_NOTES.get(name, (None, ""))[0], notes_quote=_WIDTH_NOTES.get(name, (None, ""))[1])
    for name, (e, m) in FIELDS.items()
}
EXPONENT_BITS_MOVED = derived(
    "precision.exponent_bits_moved", lambda bf16_exponent, fp16_exponent: bf16_exponent - fp16_exponent,
    inputs={"bf16_exponent": BF16_EXPONENT_BITS, "fp16_exponent": FP16_EXPONENT_BITS}, unit="bits",
    fmt=zh_round, formula="bf16 exponent bits − fp16 exponent bits (= fp16 mantissa − bf16 mantissa)",
    measures="bits fp16 moves from the exponent to the mantissa, compared with bf16",
    notes="三", notes_quote=_MOVED)

TINY_GRADIENT = chosen(
    "precision.tiny_gradient", 1e-8, unit="", fmt="{:.0e}",
    measures="a small gradient value stored in both 16-bit formats",
    reason="an order of magnitude below fp16's smallest subnormal (≈ 6e-8), well inside bf16's range: "
           "it shows 「小的梯度直接掉到零」 with one cast")
TINY_IN_FP16 = derived(
    "precision.tiny_gradient_fp16", lambda g: float(np.float16(g)), inputs={"g": TINY_GRADIENT}, unit="",
    fmt=lambda v: f"{v:g}", formula="float16(g), round to nearest", measures="the tiny gradient stored in fp16",
    notes="零", notes_quote="小的梯度直接掉到零。")
TINY_IN_BF16 = derived(
    "precision.tiny_gradient_bf16", lambda g: float(to_bf16(g)[0]), inputs={"g": TINY_GRADIENT}, unit="",
    fmt="{:.4e}", formula="bf16(g), round to nearest even (precision.to_bf16)",
    measures="the tiny gradient stored in bf16")
