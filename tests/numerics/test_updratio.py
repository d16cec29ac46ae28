"""fig-updratio: the toy written again, one run at a time, from the storyboard's spec.

The reference trains a single learning rate with its own loop (per-matrix gradients by the
chain rule written out, checked once against central differences) and is compared with the
vectorised sweep in lecture_numerics/updratio.py: the three runs, the swept η, the cliff.
"""

import math
import sys
from pathlib import Path

import numpy as np
import pytest

from lecture_numerics import updratio as u

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _updratio_reference import cliff_by_scan, grads, objective, reference_run, spec_data  # noqa: E402


def test_gradient_against_central_differences():
    x, y, w1, w2 = spec_data()
    g1, g2 = grads(w1, w2, x, y)
    h = 1e-6
    for (i, j) in ((0, 0), (3, 7), (7, 15)):
        e = np.zeros_like(w1)
        e[i, j] = h
        fd = (objective(w1 + e, w2, x, y) - objective(w1 - e, w2, x, y)) / (2 * h)
        assert abs(fd - g1[i, j]) < 1e-8
    e = np.zeros_like(w2)
    e[5, 2] = h
    assert abs((objective(w1, w2 + e, x, y) - objective(w1, w2 - e, x, y)) / (2 * h) - g2[5, 2]) < 1e-8


@pytest.fixture(scope="module")
def reference():
    eta = u.LR_OK.value
    return [reference_run(e) for e in (eta / 30, eta, eta * 30)]


def test_three_runs_match_the_reference(reference):
    runs = u.three_runs(u.LR_OK.value, u.SPREAD.value)
    for i, (ratios, losses, norms) in enumerate(reference):
        assert np.allclose(runs.ratios[i], ratios, rtol=1e-9)
        assert np.allclose(runs.losses[i], losses, rtol=1e-9)
        assert np.allclose(runs.norms[i], norms, rtol=1e-9)


def test_drawn_numbers_from_the_reference(reference):
    (_, _, _), (_, loss_ok, _), (_, loss_big, norm_big) = reference
    assert u.FINAL_LOSS_BIG.value == pytest.approx(loss_big[-1], rel=1e-9)
    assert u.FINAL_LOSS_OK.value == pytest.approx(loss_ok[-1], rel=1e-9)
    assert u.FINAL_LOSS_BIG.value < u.FINAL_LOSS_OK.value                   # 「loss 反而更低」
    assert u.NORM_GROWTH.value == pytest.approx(norm_big[-1] / norm_big[0], rel=1e-9)
    assert 4 < u.NORM_GROWTH.value < 5                                       # 「四倍多」
    jitter = lambda losses: np.mean(np.abs(np.diff(losses[-101:])))
    assert u.JITTER.value == pytest.approx(jitter(loss_big) / jitter(loss_ok), rel=1e-9)
    calm = [reference[i][2][-1] / reference[i][2][0] for i in (0, 1)]
    assert u.NORM_GROWTH_CALM.value == pytest.approx(calm, rel=1e-9)


def test_three_medians_fall_below_on_above_the_line(reference):
    medians = [np.median(r[0][50:400]) for r in reference]
    assert medians[0] < 1e-3 / 3 and medians[2] > 1e-3 * 3
    assert abs(math.log10(medians[1]) + 3) < 0.02                            # within 5 % of the line
    assert u.MEDIANS.value == pytest.approx(medians, rel=1e-9)


def test_swept_eta_is_the_best_grid_point_near_it():
    e = math.log10(u.LR_OK.value)
    assert e == pytest.approx(-1.54, abs=1e-9)
    distance = lambda exp: abs(math.log10(np.median(reference_run(10 ** exp)[0][50:400])) + 3)
    here = distance(e)
    for step in (-0.04, -0.02, 0.02, 0.04):
        assert distance(e + step) > here


def test_cliff_by_a_plain_grid_scan():
    """A one-run-at-a-time scan of the 0.01 grid finds the edge within a few grid steps of the
    batched one (the edge is chaotic: summation order moves it), and both read the same to one
    decimal, which is what the scene shows; well below it every run stays finite."""
    eta_big = u.LR_BIG.value
    scanned = cliff_by_scan(eta_big)
    assert abs(scanned - u.CLIFF.value) <= 0.05
    for m in np.round(np.arange(1.0, 1.45, 0.05), 2):
        assert np.isfinite(reference_run(eta_big * m)[1][-1]), m
