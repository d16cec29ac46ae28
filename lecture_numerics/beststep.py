"""fig-beststep: the best step on a parabola (g ÷ h), the two cross-sections of fig-onelr's
valley, the three rows (divergence threshold, halfway steps at κ = 25 and 1000), and why the
Hessian cannot be stored.

The rows count with the step fig-onelr's blue run takes (step.step_times_lambda, c = 1.9, 95 %
of the threshold) by step.py's rule — as the notes say 「同一条公式」 — the continuous formula
k = ln 2 ÷ −ln(1 − c/κ), rounded to the nearest step. A literal loop (the first step at which
the flat coordinate is ≤ ½) counts one more at κ = 1000 (365); it is declared here beside it.
"""

from __future__ import annotations

import math

from lecture_numerics.models import TIB, V3_TOTAL_PARAMS
from lecture_numerics.onelr import LAMBDA_STEEP, STEP_FRACTION
from lecture_numerics.provenance import chosen, derived
from lecture_numerics.step import KAPPA_FIGURE, KAPPA_MODEL
from lecture_numerics.zh import zh_count

# --- Ⓐ one parabola --------------------------------------------------------------------------------
A_CURVATURE = chosen("beststep.a.curvature", 1.0, unit="loss/param²", fmt="{:g}", measures="h of f = ½·h·x²",
                     reason="the simplest parabola: the rule, not the numbers, is the point")
A_POINT = chosen("beststep.a.point", 2.0, unit="param", fmt="{:g}", measures="where the ball sits on the parabola",
                 reason="gives gradient 2, the steep valley's value in Ⓑ")
A_GRADIENT = derived("beststep.a.gradient", lambda h, x: h * x, inputs={"h": A_CURVATURE, "x": A_POINT}, unit="loss/param",
                     fmt="{:g}", formula="f′(x) = h·x", measures="slope at the ball")
A_STEP = derived("beststep.a.best_step", lambda g, h: g / h, inputs={"g": A_GRADIENT, "h": A_CURVATURE}, unit="param",
                 fmt="{:g}", formula="gradient ÷ second derivative", measures="the Newton step: lands exactly at the bottom")

# --- Ⓑ the two valleys ------------------------------------------------------------------------------
_GRAD_QUOTE = "陡谷的梯度是 2、平谷是 1，看起来陡谷离得更远该迈大步"
STEEP_GRADIENT = chosen("beststep.b.steep_gradient", 2.0, unit="loss/param", fmt="{:g}", measures="gradient at the steep valley's point",
                        reason="the notes' example", notes="2", notes_quote=_GRAD_QUOTE)
FLAT_GRADIENT = chosen("beststep.b.flat_gradient", 1.0, unit="loss/param", fmt="{:g}", measures="gradient at the flat valley's point",
                       reason="the notes' example", notes="1", notes_quote=_GRAD_QUOTE)
FLAT_CURVATURE = derived("beststep.b.flat_curvature", lambda lam, kappa: lam / kappa,
                         inputs={"lam": LAMBDA_STEEP, "kappa": KAPPA_FIGURE}, unit="loss/param²", fmt="{:g}",
                         formula="λ_steep ÷ κ", measures="second derivative of the flat cross-section")
STEEP_DISTANCE = derived("beststep.b.steep_distance", lambda g, h: g / h, inputs={"g": STEEP_GRADIENT, "h": LAMBDA_STEEP},
                         unit="param", fmt="{:g}", formula="g ÷ h", measures="how far the steep valley's point is from its bottom")
FLAT_DISTANCE = derived("beststep.b.flat_distance", lambda g, h: g / h, inputs={"g": FLAT_GRADIENT, "h": FLAT_CURVATURE},
                        unit="param", fmt="{:g}", formula="g ÷ h", measures="how far the flat valley's point is from its bottom")
STEEP_BEST_LR = derived("beststep.b.steep_best_lr", lambda h: 1 / h, inputs={"h": LAMBDA_STEEP}, unit="", fmt="{:g}",
                        formula="1 ÷ h", measures="the steep valley's own best learning rate")
FLAT_BEST_LR = derived("beststep.b.flat_best_lr", lambda h: 1 / h, inputs={"h": FLAT_CURVATURE}, unit="", fmt="{:g}",
                       formula="1 ÷ h", measures="the flat valley's own best learning rate")

# Ⓑ again: the learning-rate axis under 「中间也没有好的」, linear from zero, so the stretch between the
# two valleys' best rates is seen to lie almost all past the threshold.
LR_AXIS_TICKS = chosen("beststep.axis.lr_ticks", (0.0, 10.0, 20.0), unit="", item_fmt="{:g}",
                       fmt=lambda v: f"{len(v)} ticks", measures="ticks of fig-beststep's learning-rate axis",
                       reason="round values under 0 … 25; the marks 1, 2 and 25 carry their own numbers")

# --- Ⓑ the three rows ---------------------------------------------------------------------------------
THRESHOLD = derived("beststep.threshold", lambda lam: 2 / lam, inputs={"lam": LAMBDA_STEEP}, unit="", fmt="{:g}",
                    formula="2 ÷ λ_steep", measures="learning rate beyond which the steep direction diverges")
STEP_SHARE = derived("beststep.step_share_of_threshold", lambda c: c / 2, inputs={"c": STEP_FRACTION}, unit="fraction",
                     fmt=lambda v: f"{100 * v:.0f}%", formula="c ÷ 2", measures="the rows' step as a share of the threshold")


def halfway_steps_loop(kappa: float, step_times_lambda: float, max_steps: int = 100_000) -> int:
    """A literal gradient-descent loop: the first step at which the flat coordinate is ≤ ½."""
    y = 1.0
    for k in range(1, max_steps + 1):
        y -= step_times_lambda / kappa * y
        if y <= 0.5:
            return k
    raise ArithmeticError("flat direction never reached halfway")


# The rows' counts are step.halfway_steps_kappa25 / _kappa1000 and step.halfway_coefficient;
# the literal loop is declared beside them for comparison (the ledger shows both counts).
HALFWAY_1000_LOOP = derived("beststep.halfway_steps_kappa1000_loop", halfway_steps_loop,
                            inputs={"kappa": KAPPA_MODEL, "step_times_lambda": STEP_FRACTION}, unit="steps",
                            formula="first k with (1 − c/κ)^k ≤ ½, c = 1.9 (a gradient-descent loop)",
                            measures="the same count by a literal loop (for comparison; not drawn)")

# --- Ⓒ the Hessian that cannot be stored ---------------------------------------------------------------
FP32_BYTES = chosen("beststep.c.fp32_bytes", 4, unit="bytes", measures="bytes per stored second derivative (fp32)",
                    reason="the precision Adam keeps its v in")
HESSIAN_ENTRIES = derived("beststep.c.hessian_entries", lambda n: n * n, inputs={"n": V3_TOTAL_PARAMS}, unit="numbers",
                          fmt=lambda v: f"{v / 10 ** math.floor(math.log10(v)):.1f} × 10" +
                          "".join("⁰¹²³⁴⁵⁶⁷⁸⁹"[int(d)] for d in str(math.floor(math.log10(v)))),
                          formula="N²", measures="second derivatives of V3's loss: one per pair of parameters")
PARAMS_PER_ENTRY = derived("beststep.c.params_per_entry", lambda n: len((n, n)), inputs={"n": V3_TOTAL_PARAMS},
                           unit="parameters", fmt=zh_count,
                           formula="axes of the N × N Hessian: an entry ∂²L/∂wᵢ∂wⱼ names one parameter per axis",
                           measures="parameters each second derivative sits between",
                           notes="两", notes_quote="二阶导每两个参数之间就有一个")
DIAGONAL_TIB = derived("beststep.c.diagonal_tib", lambda n, b: n * b / TIB, inputs={"n": V3_TOTAL_PARAMS, "b": FP32_BYTES},
                       unit="TiB", fmt="{:.2f}", formula="N × 4 B ÷ 2^40",
                       measures="just the diagonal, one fp32 number per parameter (one Adam slot)")
