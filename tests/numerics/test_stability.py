"""fig-stability's table: every cell as printed in ST-MoE's router z-loss table (as transcribed),
and the derived entries recomputed from those constants."""

from __future__ import annotations

from fractions import Fraction

from lecture_numerics import quantity

PRINTED = {"runs": (6, 3, 3), "stable": (4, 3, 3), "quality": ("-1.755", "-4.206", "-1.741"),
           "err": ("0.02", "0.17", "0.02")}


def test_every_sourced_cell_equals_the_printed_value():
    assert quantity("stability.runs").value == PRINTED["runs"]
    assert quantity("stability.stable_runs").value == PRINTED["stable"]
    assert quantity("stability.quality").value == tuple(float(q) for q in PRINTED["quality"])
    assert quantity("stability.quality_err").value == tuple(float(e) for e in PRINTED["err"])
    assert quantity("stability.quality").item_displays == ("−1.755", "−4.206", "−1.741")
    for key in ("stability.runs", "stability.stable_runs", "stability.quality", "stability.quality_err"):
        assert quantity(key).status == "待核"          # read in a transcription only


def test_derived_entries_from_the_table_constants():
    assert quantity("stability.baseline_crashes").value == 6 - 4 and quantity("stability.baseline_crashes").display == "两"
    clip = Fraction(PRINTED["quality"][1]) - Fraction(PRINTED["quality"][0])
    gain = Fraction(PRINTED["quality"][2]) - Fraction(PRINTED["quality"][0])
    assert clip == Fraction("-2.451") and quantity("stability.clipping_quality_change").display == "−2.451"
    assert gain == Fraction("0.014") and quantity("stability.zloss_gain").display == "+0.014"
    assert gain < Fraction(PRINTED["err"][0]) and quantity("stability.zloss_within_error").value is True


def test_counts_said_in_words():
    assert quantity("stability.cure_kinds").display == "三"       # 治结构, 治数值, 治现场
    assert quantity("stability.ghost_lr").display == "零"
