"""fig-muon: the farthest point along −g in each unit ball, found by scipy, against the
closed forms the figure draws, and Muon's −UVᵀ for a diagonal weight."""

from __future__ import annotations

import numpy as np
from scipy.optimize import linprog, minimize

from lecture_numerics import muon


def test_square_answer_is_the_corner_by_linear_programming():
    g = np.array(muon.GRADIENT.value)
    res = linprog(c=g, bounds=[(-1, 1), (-1, 1)])          # minimise ⟨g, d⟩ = maximise ⟨−g, d⟩
    np.testing.assert_allclose(res.x, muon.MUON_STEP.value, atol=1e-9)


def test_circle_answer_is_the_normalised_gradient():
    g = np.array(muon.GRADIENT.value)
    res = minimize(lambda d: d @ g, x0=np.array([0.1, -0.1]),
                   constraints=[{"type": "ineq", "fun": lambda d: 1 - d @ d}], method="SLSQP",
                   options={"ftol": 1e-14})
    np.testing.assert_allclose(res.x, muon.SGD_STEP.value, atol=1e-6)


def test_muon_update_is_minus_uvt_and_flattens_singular_values():
    g = np.array(muon.GRADIENT.value)
    u, _, vt = np.linalg.svd(np.diag(g))
    np.testing.assert_allclose(-u @ vt, np.diag(muon.MUON_STEP.value), atol=1e-12)
    np.testing.assert_allclose(muon.SINGULAR_AFTER.value, 1.0, atol=1e-12)
    assert len(set(np.round(muon.SINGULAR_BEFORE.value, 6))) == len(muon.SINGULAR_BEFORE.value)


def test_angle_and_flat_components():
    assert muon.ANGLE.display == "18.4°"
    assert muon.SGD_FLAT.display == "0.45" and muon.MUON_FLAT.display == "1"
