"""fig-batch's factors against an independently written roofline."""

from __future__ import annotations

import numpy as np
from _s1s2_reference import roofline_total as _roofline_total

from lecture_numerics import batch, quantity


def test_doubling_halves_below_and_cancels_above():
    d, t, sat = 2**30, 1.0, 64
    peak = sat / t                                   # sequences per time unit once saturated
    for b in (1, 2, 8, 16, 32):
        assert _roofline_total(2 * b, d, t, peak) / _roofline_total(b, d, t, peak) == 0.5
    for b in (64, 128, 1024):
        assert _roofline_total(2 * b, d, t, peak) / _roofline_total(b, d, t, peak) == 1.0
    assert quantity("batch.total_ratio_below").value == 0.5
    assert quantity("batch.total_ratio_above").value == 1.0
    assert quantity("batch.steps_ratio").value == 0.5
    assert quantity("batch.step_cost_ratio_above").value == 2.0


def test_drawn_curve_is_the_roofline():
    series = batch.curves()
    expected = [_roofline_total(b, 2**30, 1.0, 64.0) for b in series["batch"]]
    np.testing.assert_allclose(series["total"], expected, rtol=1e-12)
    np.testing.assert_allclose(series["steps"] * series["step_time"], series["total"], rtol=1e-12)


def test_factor_displays():
    assert [quantity(k).display for k in ("batch.doubling", "batch.steps_ratio", "batch.step_cost_ratio_above",
                                          "batch.total_ratio_above", "batch.total_ratio_below")] == \
        ["×2", "÷2", "×2", "×1", "÷2"]
