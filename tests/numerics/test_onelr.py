"""fig-onelr's runs against the closed form: after k steps each coordinate is (1 − ηλ)^k × its start."""

from __future__ import annotations

import math

import numpy as np

from lecture_numerics import onelr


def closed_form(lr: float, kappa: float, start, steps: int) -> np.ndarray:
    k = np.arange(steps + 1)[:, None]
    factors = np.array([1 - lr / kappa, 1 - lr])          # λ_steep = 1: flat λ = 1/κ
    return np.array(start)[None, :] * factors[None, :] ** k


def test_blue_run_is_the_closed_form():
    path = onelr.BLUE_PATH.value
    np.testing.assert_allclose(path, closed_form(1.9, 25, (-25.0, 3.0), 60), rtol=1e-12, atol=1e-12)


def test_red_run_is_the_closed_form_until_it_leaves():
    path = onelr.RED_PATH.value
    np.testing.assert_allclose(path, closed_form(1.9 * 1.1, 25, (-25.0, 3.0), len(path) - 1), rtol=1e-12)


def test_bounce_grows_for_red_and_shrinks_for_blue():
    red, blue = onelr.RED_PATH.value, onelr.BLUE_PATH.value
    np.testing.assert_allclose(np.abs(red[1:, 1] / red[:-1, 1]), 1.09, rtol=1e-12)
    np.testing.assert_allclose(np.abs(blue[1:, 1] / blue[:-1, 1]), 0.9, rtol=1e-12)
    assert onelr.RED_STEEP_FACTOR.display == "1.09" and onelr.BLUE_STEEP_FACTOR.display == "0.90"


def test_red_leaves_the_window_first_at_step_nine():
    # |y| = 3·1.09^k > 6 first at k = ceil(ln 2 / ln 1.09) = 9; the flat coordinate stays inside.
    assert onelr.RED_EXIT_STEP.value == math.ceil(math.log(2) / math.log(1.09)) == 9


def test_blue_progress_share_by_a_plain_loop():
    x, y = -25.0, 3.0
    across = length = 0.0
    for _ in range(60):
        nx, ny = x - 1.9 / 25 * x, y - 1.9 * y
        across += abs(nx - x)
        length += math.sqrt((nx - x) ** 2 + (ny - y) ** 2)
        x, y = nx, ny
    assert abs(onelr.BLUE_PROGRESS.value - across / length) < 1e-12
    assert onelr.BLUE_PROGRESS.value < 0.5          # 大半的力气花在横跳上


def test_the_window_of_rates_that_separates_the_runs():
    # Blue converges and red diverges exactly when c in (2/1.1, 2).
    c = onelr.STEP_FRACTION.value
    assert 2 / onelr.RED_OVER_BLUE.value < c < 2


def test_the_gap_is_one_tenth_as_the_notes_say():
    # 差一成: red's learning rate over blue's, 1.1, is one tenth (成) above 1.
    assert onelr.LR_GAP_CHENG.value == 1 and onelr.LR_GAP_CHENG.display == "一成"
    assert abs(onelr.RED_LR.value / onelr.BLUE_LR.value - 1.1) < 1e-12
