"""fig-beststep's numbers: scipy's minimiser against g ÷ h, the halfway counts against a numpy
gradient-descent loop and the closed form, and the rule the rows count by."""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import minimize_scalar

from lecture_numerics import beststep as bs
from lecture_numerics import step


def test_newton_step_lands_at_scipys_minimum():
    h, x = bs.A_CURVATURE.value, bs.A_POINT.value
    bottom = minimize_scalar(lambda t: 0.5 * h * t * t).x
    assert abs((x - bs.A_STEP.value) - bottom) < 1e-6


def test_distances_to_the_bottom_are_scipys():
    for g, h, ours in ((2.0, 1.0, bs.STEEP_DISTANCE.value), (1.0, 1 / 25, bs.FLAT_DISTANCE.value)):
        point = minimize_scalar(lambda t: (h * t - g) ** 2).x
        bottom = minimize_scalar(lambda t: 0.5 * h * t * t, bracket=(-1, 1)).x
        assert abs(abs(point - bottom) - ours) < 1e-5


def numpy_loop(kappa: float, lr: float = 1.9) -> tuple[int, float]:
    """Gradient descent on ½(x² + y²/κ) from (1, 1): the step at which |y| ≤ ½, and the formula."""
    p = np.array([1.0, 1.0])
    lam = np.array([1.0, 1.0 / kappa])
    k = 0
    while abs(p[1]) > 0.5:
        p = p - lr * lam * p
        k += 1
        assert abs(p[0]) <= 1.0                      # the steep direction does not diverge
    return k, math.log(2) / -math.log1p(-lr / kappa)


def test_halfway_counts():
    loop, formula = numpy_loop(25)
    assert loop == 9 and step.halfway_steps(25, 1.9) == round(formula) == 9
    loop, formula = numpy_loop(1000)
    assert loop == 365 == bs.HALFWAY_1000_LOOP.value
    assert abs(formula - 364.468) < 1e-3
    assert step.HALFWAY_25.value == 9 and step.HALFWAY_1000.value == 364   # the rows' rule: rounded formula
    assert round(math.log(2) / -math.log1p(-2 / 1000)) == 346             # at the threshold itself: 346.2


def test_coefficient_and_notes():
    assert step.HALFWAY_COEFFICIENT.display == "0.36"
    assert abs(0.7 / 1.9 - 0.37) < 0.005                                   # where the notes' 0.37 comes from


def test_hessian_sizes():
    assert bs.HESSIAN_ENTRIES.display == "4.5 × 10²³"
    assert abs(bs.DIAGONAL_TIB.value - 671e9 * 4 / 2 ** 40) < 1e-12


def test_each_second_derivative_sits_between_two_parameters():
    """Reference: the Hessian of a 4-parameter function by central differences is a matrix
    whose entries each name a pair of parameters; the Ⓒ line says 「每两个参数」."""
    f = lambda w: w[0] * w[1] + w[2] ** 2 * w[3]
    n, h = 4, 1e-4
    eye = np.eye(n) * h
    hessian = np.array([[(f(eye[i] + eye[j]) - f(eye[i] - eye[j]) - f(-eye[i] + eye[j]) + f(-eye[i] - eye[j]))
                         / (4 * h * h) for j in range(n)] for i in range(n)])
    assert hessian.shape == (n,) * bs.PARAMS_PER_ENTRY.value
    assert abs(hessian[0, 1] - 1.0) < 1e-6 and abs(hessian[0, 2]) < 1e-6   # ∂²f/∂w₀∂w₁ = 1: a pair
    assert bs.PARAMS_PER_ENTRY.display == "两"
    assert bs.HESSIAN_ENTRIES.value == bs.V3_TOTAL_PARAMS.value ** bs.PARAMS_PER_ENTRY.value
