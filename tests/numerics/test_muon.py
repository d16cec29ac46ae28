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


def _last_touch(vertices_or_samples: np.ndarray, g: np.ndarray) -> tuple[float, np.ndarray]:
    """Sweep the line ⟨x, −ĝ⟩ = t outward: the largest t at which it still meets the shape."""
    along = vertices_or_samples @ (-g / np.linalg.norm(g))
    i = int(np.argmax(along))
    return float(along[i]), vertices_or_samples[i]


def test_the_sweeping_line_leaves_the_circle_at_sgd_and_the_square_at_its_corner():
    g = np.array(muon.GRADIENT.value)
    angles = np.linspace(0, 2 * np.pi, 200_001)
    t_circle, at_circle = _last_touch(np.column_stack([np.cos(angles), np.sin(angles)]), g)
    edge = np.linspace(-1, 1, 2001)
    square = np.vstack([np.column_stack([edge, np.full_like(edge, s)]) for s in (-1, 1)]
                       + [np.column_stack([np.full_like(edge, s), edge]) for s in (-1, 1)])
    t_square, at_square = _last_touch(square, g)
    assert abs(muon.SGD_REACH.value - t_circle) < 1e-9 and abs(muon.MUON_REACH.value - t_square) < 1e-12
    np.testing.assert_allclose(at_circle, muon.SGD_STEP.value, atol=1e-4)
    np.testing.assert_array_equal(at_square, muon.MUON_STEP.value)        # the corner, exactly
    assert muon.MUON_REACH.value > muon.SGD_REACH.value                   # the corner is farther along −g
