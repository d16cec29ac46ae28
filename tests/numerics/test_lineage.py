"""fig-lineage: every drawn curve and number against closed forms, scipy and a second loop.

With a constant gradient g and ε → 0 the optimizers' steps have closed forms:
AdaGrad g/√(t·g²) = 1/√t (÷ its first step), RMSProp 1/√(1 − ρᵗ), Adam without bias
correction (1 − β₁ᵗ)/√(1 − β₂ᵗ), Adam with it exactly 1. ε = 1e-8 against |g|·√(1−β₂) ≈ 0.016
moves them by less than 1e-6.
"""

import math

import numpy as np
from scipy.optimize import minimize_scalar

from lecture_numerics import lineage as L
from lecture_numerics import quantity

TOL = 1e-5
B1, B2 = 0.9, 0.999  # Kingma & Ba, Algorithm 1, written again here


def test_thumbnails_match_closed_forms():
    steps = L.THUMB_STEPS.value
    t = np.arange(1, steps + 1)
    runs = L.thumbnails(steps)
    assert np.allclose(runs["sgd"], 1.0)
    assert np.allclose(runs["adagrad"], 1 / np.sqrt(t), rtol=TOL)
    assert np.allclose(runs["rmsprop"], 1 / np.sqrt(1 - B2 ** t), rtol=TOL)
    assert np.allclose(runs["adam"], 1.0, atol=TOL)


def test_adagrad_run_and_its_denominator():
    steps = L.THUMB_STEPS.value
    t = np.arange(1, steps + 1)
    step, denominator = L.adagrad_run(steps)
    assert np.all(np.diff(step) < 0)                                    # strictly decreasing
    assert np.allclose(denominator, np.sqrt(t), rtol=TOL)               # √Σg² ÷ |g| = √t
    assert abs(quantity("optim.adagrad_lr_at_600").value - 1 / math.sqrt(600)) < TOL
    assert abs(L.ADAGRAD_DENOMINATOR_GROWTH.value - math.sqrt(600)) < 1e-3


def test_late_runs_match_closed_forms():
    steps = L.LOG_STEPS.value
    t = np.arange(1, steps + 1)
    runs = L.late_runs(steps)
    assert np.allclose(runs["rmsprop"], 1 / np.sqrt(1 - B2 ** t), rtol=TOL)
    assert np.allclose(runs["adam"], 1.0, atol=TOL)
    assert np.allclose(runs["adam_raw"], (1 - B1 ** t) / np.sqrt(1 - B2 ** t), rtol=TOL)
    assert abs(L.RMSPROP_AT_END.value - 1) < 0.01                       # back on the flat line


def test_gains_against_closed_forms_and_scipy():
    assert abs(quantity("optim.rmsprop_first_step_gain").value - 1 / math.sqrt(1 - B2)) < 1e-3
    assert abs(L.RMSPROP_GAIN_SLIDES.value - 1 / math.sqrt(1 - 0.9)) < 1e-5
    assert abs(L.ADAM_RAW_FIRST.value - (1 - B1) / math.sqrt(1 - B2)) < 1e-5
    bump = lambda t: -(1 - B1 ** t) / math.sqrt(1 - B2 ** t)
    best = minimize_scalar(bump, bounds=(1, 200), method="bounded", options={"xatol": 1e-9})
    # The run is sampled at whole steps: its peak lies at one of the two integers around the
    # continuous maximum, and is at most the continuous maximum.
    assert L.ADAM_RAW_PEAK_STEP.value in (math.floor(best.x), math.ceil(best.x))
    assert quantity("optim.adam_no_bias_correction_peak").value <= -best.fun + 1e-9
    assert abs(quantity("optim.adam_no_bias_correction_peak").value - 6.5685) < 1e-3


def test_second_implementation_of_the_loops():
    """The update rules written again as one vectorised loop over θ, measuring |θ_t − θ_{t−1}|."""
    g, steps = 1.0, 300
    theta = np.zeros(4)                 # RMSProp, Adam, Adam uncorrected, AdaGrad
    m = np.zeros(4)
    v = np.zeros(4)
    moves = []
    for t in range(1, steps + 1):
        m = B1 * m + (1 - B1) * g
        v_ema = B2 * v[:3] + (1 - B2) * g * g
        v = np.concatenate([v_ema, [v[3] + g * g]])
        step = np.array([g / math.sqrt(v[0]), (m[1] / (1 - B1 ** t)) / math.sqrt(v[1] / (1 - B2 ** t)),
                         m[2] / math.sqrt(v[2]), g / math.sqrt(v[3])])
        new = theta - step
        moves.append(np.abs(new - theta))
        theta = new
    moves = np.array(moves)
    runs = L.late_runs(steps)
    assert np.allclose(moves[:, 0], runs["rmsprop"], rtol=TOL)
    assert np.allclose(moves[:, 1], runs["adam"], rtol=TOL)
    assert np.allclose(moves[:, 2], runs["adam_raw"], rtol=TOL)
    assert np.allclose(moves[:, 3] / moves[0, 3], L.adagrad_run(steps)[0], rtol=TOL)


def test_adagrad_is_a_special_case_of_adam():
    """Kingma & Ba §5: β₁ = 0, β₂ → 1 and α_t = α/√t turn Adam's bias-corrected step into AdaGrad's."""
    rng = np.random.default_rng(0)
    grads = rng.normal(size=400)
    beta2 = 1 - 1e-9
    v, sum_sq = 0.0, 0.0
    for t, g in enumerate(grads, start=1):
        v = beta2 * v + (1 - beta2) * g * g
        sum_sq += g * g
        adam_step = (1 / math.sqrt(t)) * g / math.sqrt(v / (1 - beta2 ** t))
        assert abs(adam_step - g / math.sqrt(sum_sq)) < 1e-5 * max(1, abs(g / math.sqrt(sum_sq)))


def test_log_samples_keep_every_early_step_and_both_ends():
    steps = L.LOG_STEPS.value
    xs = L.log_sampled_steps(steps)
    assert xs[0] == 1 and xs[-1] == steps and np.all(np.diff(xs) > 0)
    assert set(range(1, 30)) <= set(xs.tolist())          # the spike and the bump's peak are all drawn
