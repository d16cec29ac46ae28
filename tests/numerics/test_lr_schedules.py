"""fig-lr-curve's schedules against a separate piecewise function at the quoted points, and the
ratios the notes say against the same inputs."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

from lecture_numerics import lr_schedules as lr
from lecture_numerics import quantity

sys.path.insert(0, str(Path(__file__).parent))
import _s3b_reference as ref  # noqa: E402

v = lambda key: quantity(key).value


def test_gpt3_quoted_points():
    seg = dict(peak=6.0e-5, warmup=375e6, decay_end=260e9, floor_fraction=0.1)
    mid = (375e6 + 260e9) / 2
    for tokens, expected in ((375e6, 6.0e-5), (mid, 3.3e-5), (260e9, 6.0e-6), (300e9, 6.0e-6), (187.5e6, 3.0e-5)):
        assert math.isclose(float(lr.gpt3_lr(tokens, **seg)), expected, rel_tol=1e-9)
        assert math.isclose(ref.gpt3_175b_lr(tokens, v), expected, rel_tol=1e-9)


def test_v3_quoted_points():
    seg = dict(peak=2.2e-4, hold_end=10e12, decay=4.3e12, decayed=2.2e-5, decayed_hold=333e9, final=7.3e-6)
    for tokens, expected in ((5e12, 2.2e-4), (10e12 - 1, 2.2e-4), (12.15e12, 1.21e-4), (14.3e12, 2.2e-5),
                             (14.633e12, 7.3e-6), (14.8e12 - 1, 7.3e-6)):
        assert math.isclose(float(lr.v3_lr(tokens, **seg)), expected, rel_tol=1e-9)
        assert math.isclose(ref.v3_lr(tokens, v), expected, rel_tol=1e-9)


def test_curves_match_the_reference_everywhere():
    for curve, fn, total, peak in ((lr.GPT3_CURVE.value, ref.gpt3_175b_lr, 300e9, 6.0e-5),
                                   (lr.V3_CURVE.value, ref.v3_lr, 14.8e12, 2.2e-4)):
        expected = [fn(p * total, v) / peak for p in curve[:, 0]]
        np.testing.assert_allclose(curve[:, 1], expected, rtol=1e-9, atol=1e-12)


def test_ratios_and_boundaries():
    assert lr.WARMUP_SHARE.value == 0.00125 and lr.WARMUP_SHARE.display == "1.25‰"
    assert lr.SIZE_RATIO.display == "500" and lr.LR_RATIO.display == "5"
    assert math.isclose(lr.V3_TOTAL.value, 14.8e12)
    assert lr.GPT3_DECAY_END.display == "86.7%" and lr.V3_HOLD_END.display == "67.6%"
    assert lr.GPT3_FINAL_OVER_PEAK.display == "10%" and lr.V3_COSINE_END.display == "10%"
    assert lr.V3_FINAL_OVER_PEAK.display == "3.3%"            # below the notes' 「十分之一附近」
    assert lr.GPT3_ROWS.value == 8 and lr.GPT3_ROWS_QUOTED.value == 7
