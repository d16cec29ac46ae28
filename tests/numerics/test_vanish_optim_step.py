"""Chains, optimizers and step sizes against closed forms and a reference optimizer loop."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.optimize import minimize_scalar
from scipy.special import expit

from lecture_numerics import quantity
from lecture_numerics.optim import adam, effective_lr_curves, rmsprop, update_sizes


def test_chain_gradients_are_rate_to_the_59th():
    assert quantity("vanish.rate_0p8_60_layers").value == pytest.approx(0.8**59, rel=1e-12)
    assert quantity("vanish.rate_1p2_60_layers").value == pytest.approx(math.exp(59 * math.log(1.2)), rel=1e-12)
    assert quantity("vanish.rate_0p8_60_layers").display == "1.9×10⁻⁶"
    assert quantity("vanish.rate_1p2_60_layers").display == "4.7×10⁴"   # one format on Ⓑ's log line
    assert quantity("vanish.orders_between").value == pytest.approx(59 * math.log10(1.5))


def test_sigmoid_slope_peaks_at_a_quarter():
    best = minimize_scalar(lambda x: -expit(x) * (1 - expit(x)), bounds=(-10, 10), method="bounded",
                           options={"xatol": 1e-10})
    assert quantity("vanish.sigmoid_max_slope").value == pytest.approx(-best.fun, abs=1e-12)
    assert quantity("vanish.sigmoid_max_slope").value == pytest.approx(0.25, abs=1e-12)


def reference_adam(g: np.ndarray, steps: int, b1: float, b2: float, correct: bool) -> np.ndarray:
    """Vectorised over many gradient values at once; returns |Δθ_t|/lr, shape (steps, len(g))."""
    m = np.zeros_like(g)
    v = np.zeros_like(g)
    out = np.empty((steps, g.size))
    for t in range(1, steps + 1):
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g**2
        mh, vh = (m / (1 - b1**t), v / (1 - b2**t)) if correct else (m, v)
        out[t - 1] = np.abs(mh / (np.sqrt(vh) + 1e-8))
    return out


def test_optimizer_rules_match_a_reference_loop_for_any_gradient_scale():
    g = np.array([1e-3, 0.5, 7.0])
    for correct in (True, False):
        ref = reference_adam(g, 300, 0.9, 0.999, correct)
        for j, gj in enumerate(g):
            ours = update_sizes(adam(0.9, 0.999, bias_correction=correct), float(gj), 300)
            assert np.allclose(ours, ref[:, j], rtol=1e-6)
    rms = reference_adam(g, 50, 0.0, 0.999, correct=False)  # β1 = 0: RMSProp
    assert np.allclose(update_sizes(rmsprop(0.999), 0.5, 50), rms[:, 1], rtol=1e-9)


def test_adagrad_at_step_600_is_one_over_root_600():
    q = quantity("optim.adagrad_lr_at_600")
    assert q.value == pytest.approx(1 / math.sqrt(600), rel=1e-6) and q.display == "4%"


def test_rmsprop_first_step_gain():
    q = quantity("optim.rmsprop_first_step_gain")
    assert q.value == pytest.approx(1 / math.sqrt(1 - 0.999), rel=1e-4) and q.display == "32×"


def test_adam_without_bias_correction_peak():
    t = np.arange(1, 20_001)
    closed = ((1 - 0.9**t) / np.sqrt(1 - 0.999**t)).max()
    q = quantity("optim.adam_no_bias_correction_peak")
    assert q.value == pytest.approx(closed, rel=1e-6) and q.display == "6.6×"


def test_lineage_curves_flat_only_for_sgd_and_adam():
    curves = effective_lr_curves(600)
    assert np.allclose(curves["sgd"], 1) and np.allclose(curves["adam"], 1, rtol=1e-6)
    assert curves["adagrad"][-1] == pytest.approx(1 / math.sqrt(600))
    assert curves["rmsprop"][0] > 30


def halfway_closed_form(kappa: float, lr_times_lambda: float = 2.0) -> float:
    return math.log(0.5) / math.log(1 - lr_times_lambda / kappa)


def test_halfway_steps_at_the_figures_step():
    # The rows count at c = η·λ_steep = 1.9 (95 % of the threshold) by the rounded closed form.
    assert quantity("step.step_times_lambda").value == 1.9
    assert quantity("step.halfway_steps_kappa25").value == round(halfway_closed_form(25, 1.9)) == 9
    assert quantity("step.halfway_steps_kappa1000").value == round(halfway_closed_form(1000, 1.9)) == 364
    assert quantity("step.halfway_coefficient").value == pytest.approx(math.log(2) / 1.9, abs=1e-12)


def test_the_other_counting_rules_are_stated_beside_it():
    # A literal loop counts 365; at the threshold itself (c = 2) the formula gives 347.
    assert quantity("beststep.halfway_steps_kappa1000_loop").value == math.ceil(halfway_closed_form(1000, 1.9)) == 365
    assert math.ceil(halfway_closed_form(1000)) == 347
    note = quantity("step.halfway_steps_kappa1000").note
    assert "365" in note and "347" in note
    assert round(0.7 / 1.9, 2) == 0.37                  # the notes' coefficient, with ln 2 ≈ 0.7
