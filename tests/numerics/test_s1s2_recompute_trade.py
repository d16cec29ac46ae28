"""fig-recompute's cost and gain against a hand count and the hand-written V3 inventory."""

from __future__ import annotations

from dataclasses import asdict
from fractions import Fraction

from _s1s2_reference import v3_stored_all_moe, v3_stored_with_full_recompute, v3_stored_without_recompute
from _v3_reference import GIB, S, TIB

from lecture_numerics import quantity
from lecture_numerics.models import v3_config
from lecture_numerics.recompute_trade import stored_at_forward_end


def test_one_more_forward_makes_three_four():
    per_matmul = 2 * S * 7168 * 1536                 # every one of the products costs the same
    forward, backward, recomputed = per_matmul, 2 * per_matmul, per_matmul
    assert quantity("recompute.compute_multiple_after").value == (forward + backward + recomputed) / forward == 4
    extra = Fraction(forward + backward + recomputed, forward + backward) - 1
    assert extra == Fraction(1, 3)
    assert quantity("recompute.compute_extra_fraction").display == "1/3"


def test_shrink_from_the_hand_written_inventory():
    without, with_checkpoints = v3_stored_without_recompute(), v3_stored_with_full_recompute()
    q = quantity("recompute.activation_shrink")
    assert abs(q.value - without / with_checkpoints) < 1e-9
    assert q.display == "39" and q.notes == "40"
    # the notes' forty: every layer counted as MoE
    assert round(v3_stored_all_moe() / with_checkpoints, 1) == 39.8


def test_simulator_and_bill_agree():
    config = asdict(v3_config())
    assert stored_at_forward_end("none", S, **config) == quantity("act.v3.no_recompute_tib").value * TIB
    assert stored_at_forward_end("full", S, **config) == quantity("act.v3.full_recompute_gib").value * GIB


def test_seq_len_label():
    assert quantity("recompute.seq_len_label").display == "128K"
