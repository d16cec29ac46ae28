"""The memory bill and the activation accounting against hand-written references."""

from __future__ import annotations

import itertools

from _v3_reference import DENSE, DENSE_ACT, GIB, H, LAYERS, MOE_ACT, S, TIB

from lecture_numerics import quantity
from lecture_numerics.bill import no_recompute_breakdown
from lecture_numerics.models import v3_config

N = 671e9


def test_resident_bill_in_tib():
    assert quantity("bill.v3.weights_tib").value == N * 2 / 1024**4
    assert quantity("bill.v3.optimizer_tib").value == N * (4 + 4 + 4) / 1024**4
    assert quantity("bill.v3.total_tib").value == N * 16 / 1024**4
    assert [quantity(f"bill.v3.{k}_tib").display for k in ("weights", "optimizer", "total")] == \
        ["1.22", "7.32", "9.76"]


def test_gpus_is_the_first_count_that_holds_the_bill():
    first = next(n for n in itertools.count(1) if n * 80 * GIB >= N * 16)
    assert quantity("bill.v3.gpus_80gib").value == first == 125


def test_full_recompute_keeps_one_bf16_input_per_layer():
    per_layer_gib = S * H * 2 / GIB  # 2^17 × 7168 × 2 B = 1.75 GiB
    assert per_layer_gib == 1.75
    assert quantity("act.v3.full_recompute_gib").value == LAYERS * per_layer_gib == 106.75


def test_no_recompute_counts_three_dense_layers():
    expected = S * (DENSE * DENSE_ACT + (LAYERS - DENSE) * MOE_ACT) / TIB
    q = quantity("act.v3.no_recompute_tib")
    assert q.value == expected and q.display == "4.07"
    assert quantity("act.v3.no_recompute_all_moe_tib").value == S * LAYERS * MOE_ACT / TIB
    assert quantity("act.v3.no_recompute_all_moe_tib").display == "4.15"
    assert "dense" in q.note and q.notes == "4.15"


def test_breakdown_items_add_up_and_grow_linearly_with_sequence():
    items = no_recompute_breakdown()
    assert sum(i["bytes"] for i in items) == S * (DENSE * DENSE_ACT + (LAYERS - DENSE) * MOE_ACT)
    assert {"Q (with RoPE)", "K (with RoPE)", "V", "softmax log-sum-exp"} <= {i["tensor"] for i in items}
    # FlashAttention: no s × s score matrix, so doubling s exactly doubles every item.
    double = no_recompute_breakdown(seq_len=2 * S, config=v3_config())
    assert [2 * i["bytes"] for i in items] == [i["bytes"] for i in double]
    moe_only = [i for i in items if i["block"] == "moe"]
    assert all(i["layers"] == LAYERS - DENSE for i in moe_only)


def test_sequences_to_match_resident_block():
    per_sequence = LAYERS * S * H * 2
    first = next(n for n in itertools.count(1) if n * per_sequence >= N * 16)
    assert quantity("act.v3.seqs_to_match_resident").value == first == 94
