"""fig-act-bill's mountain against the hand-written V3 inventory and Korthikanti's bracket."""

from __future__ import annotations

from _s1s2_reference import v3_stored_with_full_recompute, v3_stored_without_recompute
from _v3_reference import DENSE_ACT, GIB, H, LAYERS, MOE_ACT, S, TIB

from lecture_numerics import act_bill, quantity


def test_mountain_summit_is_the_hand_summed_inventory_at_the_end_of_forward():
    xs, ys = act_bill.layer_steps(act_bill.simulate("none"))
    hand = v3_stored_without_recompute()
    assert ys.max() == hand == quantity("act.v3.no_recompute_tib").value * TIB
    assert act_bill.peak_step("none") == LAYERS          # the turn from forward to backward
    assert xs[-1] == 2 * LAYERS and ys[-1] == 0          # every layer's activations freed


def test_mountain_climbs_one_layer_per_step():
    xs, ys = act_bill.layer_steps(act_bill.simulate("none"))
    rises = [b - a for a, b in zip(ys[:-1], ys[1:]) if b > a]
    assert sorted(set(rises)) == sorted({S * DENSE_ACT, S * MOE_ACT})
    assert len(rises) == LAYERS


def test_checkpoints_are_one_bf16_input_per_layer():
    _, ys = act_bill.layer_steps(act_bill.simulate("full"), working_sets=False)
    assert ys.max() == v3_stored_with_full_recompute() == quantity("act.v3.full_recompute_gib").value * GIB


def test_korthikanti_brackets_the_bill():
    """Eq. 1 at V3's width: 34·s·h per layer (no scores) below, + 5·a·s²  (scores kept) above."""
    ours = quantity("act.v3.no_recompute_tib").value * TIB
    assert 34 * S * H * LAYERS < ours < (34 * S * H + 5 * 128 * S * S) * LAYERS
    assert round(34 * S * H * LAYERS / TIB, 2) == 1.77


def test_axes():
    assert quantity("act_bill.axis.ticks_tib").item_displays == ("0", "1", "2", "3", "4", "5")
    assert quantity("act_bill.axis.inset_ticks_gib").item_displays == ("0", "100", "200")
