"""fig-reverse Ⓒ: rebuild a Jacobian column by column (JVPs) and row by row (VJPs), counting passes."""

from __future__ import annotations

from _s1s2_reference import jacobian_pass_counts

from lecture_numerics import quantity
from lecture_numerics.reverse_passes import passes


def test_passes_are_the_jvp_and_vjp_counts():
    for n, m in ((10, 40), (7, 1), (1, 5)):
        forward, reverse = jacobian_pass_counts(n, m)
        assert (forward, reverse) == (passes(n, m, "forward"), passes(n, m, "reverse")) == (n, m)


def test_the_two_chains_of_the_panel():
    assert quantity("reverse.counterexample.forward_passes").value == 10
    assert quantity("reverse.counterexample.reverse_passes").value == 1_000_000
    assert quantity("reverse.counterexample.reverse_passes").display == "一百万"
    assert quantity("reverse.ours.forward_passes").value == 3e11
    assert quantity("reverse.ours.forward_passes").display == "三千亿"
    assert quantity("reverse.ours.reverse_passes").value == 1
