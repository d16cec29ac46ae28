"""fig-zero's bar segments and price column against exact rational arithmetic of ZeRO's formulas."""

from __future__ import annotations

from fractions import Fraction

from lecture_numerics import quantity
from lecture_numerics.zero_figure import segments

PSI, N_D, K = Fraction(75, 10) * 10**9, 64, 12
PRINTED = ("120", "31.4", "16.6", "1.9")      # ZeRO Figure 1, GB


def exact_segments():
    """(weights, gradients, optimizer) per stage, in bytes, written out formula by formula."""
    return [(2 * PSI, 2 * PSI, K * PSI),
            (2 * PSI, 2 * PSI, K * PSI / N_D),
            (2 * PSI, 2 * PSI / N_D, K * PSI / N_D),
            (2 * PSI / N_D, 2 * PSI / N_D, K * PSI / N_D)]


def test_segments_equal_the_exact_fractions():
    for drawn, exact in zip(segments(), exact_segments()):
        assert [float(v) for v in drawn] == [float(v / 10**9) for v in exact]


def test_rounded_totals_are_the_papers_printed_gb_and_gib_would_not_be():
    totals = [sum(row) for row in exact_segments()]
    gb = [f"{float(t / 10**9):.1f}".removesuffix(".0") for t in totals]
    assert gb == list(PRINTED)
    gib = [f"{float(t / 2**30):.1f}" for t in totals]
    assert gib == ["111.8", "29.2", "15.5", "1.7"] and gib != list(PRINTED)
    keys = ("zero.baseline_gb", "zero.pos_gb", "zero.pos_g_gb", "zero.pos_g_p_gb")
    assert tuple(quantity(k).display for k in keys) == PRINTED


def test_price_column_and_shrink():
    assert quantity("zero.comm_psi").item_displays == ("2Ψ", "2Ψ", "2Ψ", "3Ψ")
    assert Fraction(3, 2) == 1.5 and quantity("zero.comm_stage3_over_baseline").display == "1.5 ×"
    assert sum(exact_segments()[0]) / sum(exact_segments()[3]) == N_D
    assert quantity("zero.baseline_over_stage3").display == "64"


def test_names_and_units():
    assert quantity("zero.stage_names").item_displays == ("ZeRO-1", "ZeRO-2", "ZeRO-3")
    assert quantity("zero.cut_count").display == "三"            # three stages, three cuts
    assert quantity("zero.gb_bytes").value == 10**9
