"""fig-reverse Ⓒ: rebuild a Jacobian column by column (JVPs) and row by row (VJPs), counting passes."""

from __future__ import annotations

import numpy as np

from lecture_numerics import quantity
from lecture_numerics.reverse_passes import passes


def _jacobian_both_ways(n: int, m: int):
    rng = np.random.default_rng(1)
    a, x = rng.normal(size=(m, n)), rng.normal(size=n)
    local = 1 - np.tanh(a @ x) ** 2                 # f(x) = tanh(A x): J = diag(local) · A
    calls = {"jvp": 0, "vjp": 0}

    def jvp(v):                                     # one forward-mode pass: J · v
        calls["jvp"] += 1
        return local * (a @ v)

    def vjp(u):                                     # one reverse-mode pass: uᵀ · J
        calls["vjp"] += 1
        return (u * local) @ a

    by_columns = np.column_stack([jvp(e) for e in np.eye(n)])
    by_rows = np.vstack([vjp(e) for e in np.eye(m)])
    np.testing.assert_allclose(by_columns, by_rows, atol=1e-12)
    np.testing.assert_allclose(by_columns, local[:, None] * a, atol=1e-12)
    return calls["jvp"], calls["vjp"]


def test_passes_are_the_jvp_and_vjp_counts():
    for n, m in ((10, 40), (7, 1), (1, 5)):
        forward, reverse = _jacobian_both_ways(n, m)
        assert (forward, reverse) == (passes(n, m, "forward"), passes(n, m, "reverse")) == (n, m)


def test_the_two_chains_of_the_panel():
    assert quantity("reverse.counterexample.forward_passes").value == 10
    assert quantity("reverse.counterexample.reverse_passes").value == 1_000_000
    assert quantity("reverse.counterexample.reverse_passes").display == "一百万"
    assert quantity("reverse.ours.forward_passes").value == 3e11
    assert quantity("reverse.ours.forward_passes").display == "三千亿"
    assert quantity("reverse.ours.reverse_passes").value == 1
