"""ZeRO's Figure 1 and the LoRA bill against the formulas written out per stage."""

from __future__ import annotations

import pytest

from lecture_numerics import quantity

PSI, ND, K = 7.5e9, 64, 12


@pytest.mark.parametrize("key, bytes_on_device, shown", [
    ("zero.baseline_gb", 2 * PSI + 2 * PSI + K * PSI, "120"),
    ("zero.pos_gb", 2 * PSI + 2 * PSI + K * PSI / ND, "31.4"),
    ("zero.pos_g_gb", 2 * PSI + 2 * PSI / ND + K * PSI / ND, "16.6"),
    ("zero.pos_g_p_gb", (2 * PSI + 2 * PSI + K * PSI) / ND, "1.9"),
])
def test_zero_stages_match_figure_1(key, bytes_on_device, shown):
    q = quantity(key)
    assert q.value == pytest.approx(bytes_on_device / 1e9) and q.display == shown


def test_lora_on_llama_7b():
    params = 6_738_415_616
    # PEFT default: r = 8 on q_proj and v_proj (4096 × 4096): A is r × 4096, B is 4096 × r.
    adapters = 32 * 2 * (8 * 4096 + 4096 * 8)
    assert quantity("lora.7b.adapter_params").value == adapters == 4_194_304
    assert quantity("lora.7b.full_gib").value == pytest.approx(params * 16 / 2**30)
    assert quantity("lora.7b.lora_gib").value == pytest.approx((params * 2 + adapters * 16) / 2**30)
    assert quantity("lora.7b.full_gib").display == "100"
    # The notes' 12.7 needs twice the adapters; the ledger's note says so.
    assert f"{(params * 2 + 2 * adapters * 16) / 2**30:.1f}" == "12.7"
    assert "r = 16" in quantity("lora.7b.lora_gib").note
