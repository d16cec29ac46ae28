"""fig-muon: two rulers for "one step". The steepest step for the gradient g is the d that
maximises ⟨−g, d⟩ inside the unit ball of a chosen norm: the Euclidean ball (a circle) gives
SGD's −g/‖g‖₂; the spectral-norm ball, read in singular-value coordinates (a square), gives
Muon's −UVᵀ — for a diagonal 2×2 weight diag(g), the corner (−1, −1).
"""

from __future__ import annotations

import math

import numpy as np

from lecture_numerics.provenance import chosen, derived, sourced
from lecture_numerics.zh import zh_count

MUON_CODE = ("KellerJordan/Muon, muon.py: Muon.step keeps one state tensor per 2-D parameter "
             "(state['momentum_buffer']); the docstring: each update is replaced with the nearest "
             "orthogonal matrix (UVᵀ of USVᵀ, via Newton–Schulz)")

GRADIENT = chosen("muon.gradient", (2.0, 1.0), unit="loss/param", fmt="({0[0]:g}, {0[1]:g})",
                  measures="the gradient both rulers answer (steep, flat)",
                  reason="fig-beststep's 陡 2、平 1: the same valley, now as a diagonal 2×2 weight")
MUON_STATE = sourced("muon.state_tensors", 1, unit="state tensors", citation=MUON_CODE,
                     measures="parameter-sized state tensors Muon keeps (the momentum buffer)")


def sgd_step(g) -> np.ndarray:
    """argmax ⟨−g, d⟩ over ‖d‖₂ ≤ 1: −g/‖g‖₂."""
    g = np.asarray(g, dtype=float)
    return -g / np.linalg.norm(g)


def muon_step(g) -> np.ndarray:
    """−UVᵀ of the diagonal weight-gradient diag(g), read on its diagonal (singular-value coordinates)."""
    u, _, vt = np.linalg.svd(np.diag(np.asarray(g, dtype=float)))
    return -np.diag(u @ vt)


SGD_STEP = derived("muon.sgd_step", sgd_step, inputs={"g": GRADIENT}, unit="param",
                   fmt=lambda v: f"({v[0]:.3f}, {v[1]:.3f})", formula="−g ÷ ‖g‖₂",
                   measures="the farthest point of the circle along −g (SGD)")
MUON_STEP = derived("muon.muon_step", muon_step, inputs={"g": GRADIENT}, unit="param",
                    fmt=lambda v: f"({v[0]:g}, {v[1]:g})", formula="diag(−UVᵀ), USVᵀ = diag(g)",
                    measures="the farthest point of the square along −g (Muon: the corner)")
ANGLE = derived("muon.angle_deg", lambda a, b: math.degrees(math.acos(float(a @ b) / np.linalg.norm(a) / np.linalg.norm(b))),
                inputs={"a": SGD_STEP, "b": MUON_STEP}, unit="°", fmt="{:.1f}°",
                formula="arccos(⟨d_SGD, d_Muon⟩ ÷ (‖d_SGD‖‖d_Muon‖))", measures="how far apart the two answers point")
SGD_FLAT = derived("muon.sgd_flat_component", lambda d: float(abs(d[1])), inputs={"d": SGD_STEP}, unit="param",
                   fmt="{:.2f}", formula="|d_SGD| along the flat direction", measures="how far SGD's unit step goes along the flat direction")
MUON_FLAT = derived("muon.muon_flat_component", lambda d: float(abs(d[1])), inputs={"d": MUON_STEP}, unit="param",
                    fmt="{:g}", formula="|d_Muon| along the flat direction", measures="how far Muon's unit step goes along the flat direction")
ANSWER_COUNT = derived("muon.answer_count", lambda a, b: len([a, b]), inputs={"a": SGD_STEP, "b": MUON_STEP},
                       unit="answers", fmt=zh_count, formula="the steps drawn (SGD, Muon)",
                       measures="answers to the one question", notes="2",
                       notes_quote="它跟 SGD 是同一个问题的两个答案 —— 区别只在你拿哪把尺子量「一步」。")

# Ⓑ: what Muon does to a momentum matrix's singular values.
MOMENTUM_MATRIX = chosen("muon.example_momentum", ((3.0, 1.0, 0.0), (1.0, 2.0, 0.5), (0.0, 0.5, 0.6)), unit="",
                         fmt=lambda m: f"{len(m)}×{len(m[0])}", measures="an example momentum matrix M",
                         reason="any matrix with spread-out singular values shows the flattening")
SINGULAR_BEFORE = derived("muon.singular_before", lambda m: np.linalg.svd(np.array(m), compute_uv=False),
                          inputs={"m": MOMENTUM_MATRIX}, unit="", fmt=lambda v: ", ".join(f"{x:.2f}" for x in v),
                          formula="singular values of M", measures="M's singular values")


def orthogonalised_singular_values(m) -> np.ndarray:
    u, _, vt = np.linalg.svd(np.array(m))
    return np.linalg.svd(u @ vt, compute_uv=False)


SINGULAR_AFTER = derived("muon.singular_after", orthogonalised_singular_values, inputs={"m": MOMENTUM_MATRIX},
                         unit="", fmt=lambda v: ", ".join(f"{x:.2f}" for x in v),
                         formula="singular values of UVᵀ (M = UΣVᵀ)", measures="after Muon's orthogonalisation: all 1")

RULERS = chosen("muon.rulers", ("euclidean (ℓ2) norm", "spectral norm"), unit="", fmt=lambda v: " / ".join(v),
                measures="the two rulers of fig-muon Ⓒ: the circle and the square",
                reason="SGD's and Muon's steepest-descent norms (Bernstein & Newhouse, arXiv 2409.20325)")
RULER_COUNT = derived("muon.ruler_count", lambda rulers: len(rulers), inputs={"rulers": RULERS}, unit="rulers",
                      fmt=zh_count, formula="rulers drawn", measures="rulers compared in Ⓒ")


def reach_along(step, g) -> float:
    """How far ``step`` goes along −g's direction: ⟨step, −g/‖g‖₂⟩ (the level line's offset
    where it last touches the ball whose farthest point is ``step``)."""
    g = np.asarray(g, dtype=float)
    return float(np.asarray(step, dtype=float) @ (-g / np.linalg.norm(g)))


# Ⓒ sweeps a line perpendicular to −g outward; it leaves each ball at that ball's answer.
SGD_REACH = derived("muon.sgd_reach", reach_along, inputs={"step": SGD_STEP, "g": GRADIENT}, unit="格",
                    fmt="{:.3f}", formula="⟨d_SGD, −g ÷ ‖g‖₂⟩",
                    measures="where the sweeping level line last touches the circle (at the SGD point)")
MUON_REACH = derived("muon.muon_reach", reach_along, inputs={"step": MUON_STEP, "g": GRADIENT}, unit="格",
                     fmt="{:.3f}", formula="⟨d_Muon, −g ÷ ‖g‖₂⟩",
                     measures="where the sweeping level line last touches the square (at the corner)")
