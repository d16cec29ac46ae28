"""Recipe-derived numbers and the ratios the notes say aloud, against arithmetic written out."""

from __future__ import annotations

import math

import pytest

from _v3_reference import DENSE, DENSE_ACT, H, LAYERS, MOE_ACT

from lecture_numerics import quantity


def test_gpt3_table_scale_and_lr_gaps():
    assert quantity("lr.gpt3.size_ratio_medium_175b").value == pytest.approx(175 / 0.35)
    assert quantity("lr.gpt3.lr_ratio_medium_175b").value == pytest.approx(3.0 / 0.6)
    assert quantity("lr.gpt3.warmup_share").value == pytest.approx(0.375 / 300)
    lrs = [quantity(f"gpt3.{n}.lr").value for n in ("small", "medium", "large", "xl", "2p7b", "6p7b", "13b", "175b")]
    assert lrs == sorted(lrs, reverse=True)  # bigger model, smaller learning rate


def test_windows_and_schedule_fractions():
    assert quantity("optim.beta1_window").value == pytest.approx(10)
    assert quantity("palm.beta2_window_100k").value == pytest.approx(10 ** (5 * 0.8))
    assert quantity("v3.decayed_lr_fraction").value == pytest.approx(0.1)


def test_bill_ratios_and_checkpoint():
    assert quantity("bill.v3.optimizer_over_weights").value == pytest.approx(12 / 2)
    assert quantity("bill.v3.checkpoint_tib").value == pytest.approx(671e9 * 12 / 2**40)
    ratio = (DENSE * DENSE_ACT + (LAYERS - DENSE) * MOE_ACT) / (LAYERS * 2 * H)
    assert quantity("act.v3.recompute_saving_ratio").value == pytest.approx(ratio, rel=1e-12)


def test_history_arithmetic():
    assert quantity("history.adagrad.pages").value == len(range(2121, 2160)) == 39
    assert quantity("history.polyak_lead_years").value == 22


def test_post_ln_input_share_is_two_to_the_minus_l_over_two():
    q = quantity("prepost.input_share_layer24")
    assert q.value == pytest.approx(math.sqrt(2) ** -24, rel=1e-12) and q.display == "1/4096"
