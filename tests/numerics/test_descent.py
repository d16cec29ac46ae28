"""fig-descent: the runs behind the balls and arrows against independent references."""

import numpy as np
from scipy.optimize import approx_fprime, minimize_scalar

from lecture_numerics import descent as d


def numeric_slope(t, h=1e-6):
    return (d.loss(t + h) - d.loss(t - h)) / (2 * h)


def test_two_valleys_against_minimize_scalar():
    valleys = d.VALLEYS.value
    assert len(valleys) == 2
    for v, bracket in zip(valleys, ((0.2, 0.5), (0.7, 1.0))):
        ref = minimize_scalar(d.loss, bounds=bracket, method="bounded", options={"xatol": 1e-10}).x
        assert abs(v - ref) < 1e-6
    assert abs(float(d.loss(valleys[0])) - 0.399) < 1e-3 and abs(float(d.loss(valleys[1])) - 0.254) < 1e-3


def test_paths_match_a_central_difference_loop():
    eta, steps = d.ETA.value, d.STEPS.value
    for start, q in zip(d.STARTS.value, (d.PATHS["red"], d.PATHS["green"])):
        t, ref = start, [start]
        for _ in range(steps):
            t = t - eta * numeric_slope(t)
            ref.append(t)
        assert np.allclose(q.value, ref, atol=1e-8)


def test_the_speakers_claims_hold():
    valleys = d.VALLEYS.value
    finals = []
    for q, bottom in zip((d.PATHS["red"], d.PATHS["green"]), valleys):
        path = np.array(q.value)
        hops = np.abs(np.diff(path))
        assert np.all(hops[1:] <= 0.8 * hops[:-1])                      # strictly shrinking steps
        side = np.sign(path - bottom)
        assert np.all(side == side[0])                                   # never crosses its valley's bottom
        assert np.all(np.diff(d.loss(path)) < 0)                         # better at every step
        finals.append(float(d.loss(path[-1])))
    assert finals[0] - finals[1] > 0.1                                   # red shallow, green deep
    assert abs(d.loss(d.STARTS.value[0]) - d.loss(d.STARTS.value[1])) < 1e-12   # same starting height


def test_bowl_gradient_is_steepest_ascent():
    for (x, y), norm in zip(d.POINTS_2D.value, d.GRAD_NORMS.value):
        p = np.array([x, y])
        g = approx_fprime(p, lambda q: d.bowl(*q), 1e-7)
        assert np.allclose(g, d.bowl_gradient(x, y), atol=1e-5)
        assert abs(np.hypot(*g) - norm) < 1e-5
        angles = np.linspace(0, 2 * np.pi, 3600, endpoint=False)
        drops = [d.bowl(*(p + 1e-4 * np.array([np.cos(a), np.sin(a)]))) for a in angles]
        best = angles[int(np.argmin(drops))]
        down = -g / np.linalg.norm(g)
        assert np.dot([np.cos(best), np.sin(best)], down) > 0.9999
    assert d.GRAD_NORMS.item_displays == ("3.58", "1.44")


def test_negative_gradient_from_circuit():
    # f = (a + b)·c at (2, −3, 4): ∂f/∂a = ∂f/∂b = c = 4, ∂f/∂c = a + b = −1 (by hand).
    assert (d.NEG_GRAD["a"].value, d.NEG_GRAD["b"].value, d.NEG_GRAD["c"].value) == (-4, -4, 1)
    assert d.RELATIVE.value == 4
