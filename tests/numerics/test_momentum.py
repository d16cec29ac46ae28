"""fig-momentum's runs against a second implementation, scipy's critical points and the
arrows' arithmetic as displayed."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
from scipy.optimize import brentq

from lecture_numerics import momentum as m
from lecture_numerics import quantity

sys.path.insert(0, str(Path(__file__).parent))
import _s3b_reference as ref  # noqa: E402

v = lambda key: quantity(key).value


def f(x):
    H, T, w = v("momentum.loss.height"), v("momentum.loss.tilt"), v("momentum.loss.width")
    return H * ((x / w) ** 2 - 1) ** 2 + T * x / w


def test_slope_is_the_derivative_of_the_loss():
    for x in np.linspace(-8, 9, 35):
        fd = (f(x + 1e-6) - f(x - 1e-6)) / 2e-6
        assert abs(m.slope(x, 3.0, 1.0, 5.0) - fd) < 1e-6


def test_critical_points_match_scipy_root_finding():
    slope = lambda x: (f(x + 1e-7) - f(x - 1e-7)) / 2e-7
    w = v("momentum.loss.width")
    expected = [brentq(slope, -2 * w, -w / math.sqrt(3)), brentq(slope, -w / math.sqrt(3), w / math.sqrt(3)),
                brentq(slope, w / math.sqrt(3), 2 * w)]
    np.testing.assert_allclose(m.CRITICAL.value, expected, atol=1e-6)
    deep, ridge, pit = expected
    assert f(deep) < f(pit) < f(ridge)                    # the left valley is the deeper one


def test_runs_match_a_second_implementation():
    np.testing.assert_allclose(m.GREEN.value, ref.heavy_ball_loop(v, 0.9), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(m.GRAY.value, ref.heavy_ball_loop(v, 0.0), rtol=1e-12, atol=1e-12)


def test_gray_stops_in_the_pit_and_green_ends_in_the_deep_valley():
    deep, ridge, pit = m.CRITICAL.value
    assert abs(m.GRAY.value[-1] - pit) < 1e-9 and m.GRAY_FINAL_SLOPE.value < 1e-9
    assert abs(m.GREEN.value[-1] - deep) < 1e-3
    assert m.GREEN.value.min() < deep                    # it overshoots the far wall …
    assert (np.diff(m.GREEN.value)[17:24] > 0).all()     # … and swings back (the ringed dots 17 … 24)


def test_crossing_terms_and_displayed_arithmetic():
    g, mo, net = ref.crossing_terms(v)
    assert abs(m.GRADIENT_TERM.value - g) < 1e-12 and abs(m.MOMENTUM_TERM.value - mo) < 1e-12
    assert abs(m.NET.value - (mo - g)) < 1e-12            # net = momentum − gradient, exactly
    # The screen shows the speaker's three decimals; rounded, they miss by 0.001, so the figure
    # composes the arrows tip to tail and prints no subtraction (fig-momentum's own test).
    shown = [q.display for q in (m.GRADIENT_TERM, m.MOMENTUM_TERM, m.NET)]
    assert shown == [q.notes for q in (m.GRADIENT_TERM, m.MOMENTUM_TERM, m.NET)]
    assert [f"{x:.3f}" for x in (g, mo, net)] == ["0.092", "1.304", "1.213"]   # the notes' values


def test_windows_are_geometric_sums():
    beta, count = 0.9, v("momentum.bar_count")
    assert abs(m.WEIGHTS.value.sum() - (1 - beta ** count) / (1 - beta)) < 1e-12
    assert m.WINDOW_09.display == "10" and m.WINDOW_LOW.display == "5" and m.WINDOW_HIGH.display == "100"


def test_the_same_heavy_ball_stays_in_a_deeper_pit():
    """The brake: with a bump on the ridge the pit is deeper, and green (same start, rate, β) stays in it."""
    H, T, w = v("momentum.loss.height"), v("momentum.loss.tilt"), v("momentum.loss.width")
    A, s = v("momentum.deeper.bump_height"), v("momentum.deeper.bump_width")
    ridge = m.CRITICAL.value[1]
    deeper = lambda x: f(x) + A * math.exp(-(x - ridge) ** 2 / (2 * s * s))
    slope = lambda x: (deeper(x + 1e-6) - deeper(x - 1e-6)) / 2e-6
    pit = brentq(slope, w / math.sqrt(3), 2 * w)
    top = brentq(slope, ridge - 1.0, pit - 0.5)                       # the raised barrier's top
    assert deeper(top) - deeper(pit) > f(ridge) - f(m.CRITICAL.value[2])   # deeper than the shallow pit
    assert abs(m.GREEN_DEEPER.value[-1] - pit) < 1e-3                  # green ends in it …
    assert m.GREEN_DEEPER.value.min() > top                            # … never crossing the barrier
