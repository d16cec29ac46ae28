"""The ledger: every issue key present, JSON-ready, discrepancies explained, rule documented."""

from __future__ import annotations

import json

import pytest

from lecture_numerics.ledger import discrepancies, ledger_entries, ledger_markdown, missing
from lecture_numerics.notes import agrees

# The numerics issue's table, copied independently of ledger.TABLE_KEYS.
ISSUE_KEYS = """
bill.v3.weights_tib bill.v3.optimizer_tib bill.v3.total_tib bill.v3.gpus_80gib
act.v3.full_recompute_gib act.v3.no_recompute_tib act.v3.seqs_to_match_resident
flops.v3.attention_share_128k flops.v3.six_nd_pflop_128k flops.v3.real_over_6nd_128k
flops.gpt3.attention_share_2k recompute.v3.crossover_tokens recompute.gpt3.crossover_tokens
recompute.gpt3.selective_saving recompute.gpt3.selective_overhead precision.bf16.spacing_at_1
precision.increment_over_spacing precision.bf16.after_1000_adds precision.fp32.after_1000_adds
underflow.gap_orders vanish.rate_0p8_60_layers vanish.rate_1p2_60_layers
vanish.sigmoid_max_slope optim.adagrad_lr_at_600 optim.rmsprop_first_step_gain
optim.adam_no_bias_correction_peak step.halfway_steps_kappa25 step.halfway_steps_kappa1000
zero.baseline_gb zero.pos_gb zero.pos_g_gb zero.pos_g_p_gb lora.7b.full_gib lora.7b.lora_gib
""".split()
NOTES_SAY = {"bill.v3.weights_tib": "1.22", "act.v3.no_recompute_tib": "4.15",
             "flops.v3.real_over_6nd_128k": "5–6 ×", "flops.gpt3.attention_share_2k": "1.x %",
             "recompute.v3.crossover_tokens": "≈5.7K", "vanish.rate_1p2_60_layers": "47000",
             "step.halfway_steps_kappa1000": "364", "zero.pos_g_p_gb": "1.9", "lora.7b.lora_gib": "12.7"}
SCENES = {"fig-act-bill": ("act.v3.no_recompute_tib", "bill.v3.total_tib"),
          "anim-memtime": ("timeline.v3.total_peak_tib", "bill.v3.total_tib")}


@pytest.fixture(scope="module")
def entries():
    return ledger_entries(SCENES)


def test_every_issue_key_is_listed_with_the_notes_value(entries):
    assert set(ISSUE_KEYS) <= set(entries)
    for key, stated in NOTES_SAY.items():
        assert entries[key]["notes_value"] == stated, key
    for key in ISSUE_KEYS:
        e = entries[key]
        assert e["notes_quote"], key
        assert {"value", "unit", "kind", "display", "notes_value", "scenes", "agrees"} <= set(e), key


def test_entries_are_json_and_carry_provenance(entries):
    text = json.dumps(entries, ensure_ascii=False, allow_nan=False)
    assert json.loads(text).keys() == entries.keys()
    for key, e in entries.items():
        if e["kind"] == "derived":
            assert e["formula"] and all(dep["key"] in entries for dep in e["inputs"].values()), key
        elif e["kind"] == "sourced":
            assert e["citation"], key
    assert entries["model.v3.n_dense_layers"]["kind"] == "sourced"  # inputs are listed too


def test_scenes_are_recorded(entries):
    assert entries["bill.v3.total_tib"]["scenes"] == ["anim-memtime", "fig-act-bill"]
    assert entries["act.v3.seqs_to_match_resident"]["scenes"] == []


def test_discrepancies_are_exactly_the_disagreeing_entries_and_explained(entries):
    found = {d["key"]: d for d in discrepancies(entries)}
    assert {"act.v3.no_recompute_tib", "step.halfway_coefficient", "lora.7b.lora_gib"} <= set(found)
    assert all(d["note"] for d in found.values())
    assert "dense" in found["act.v3.no_recompute_tib"]["note"]
    # 364 = ln 2 ÷ −ln(1 − 1.9/1000) rounded, the notes' 「同一条公式」: agrees since step.py takes c = 1.9
    assert not ({"bill.v3.total_tib", "flops.v3.real_over_6nd_128k", "step.halfway_steps_kappa1000"} & set(found))
    assert all(entries[k]["agrees"] is False for k in found)


def test_every_disagreement_in_the_whole_ledger_says_why():
    from studio.engine import registry

    whole = ledger_entries({sid: e.ledger_keys for sid, e in registry.discover().items()})
    silent = [d["key"] for d in discrepancies(whole) if not d["note"].strip()]
    assert not silent, f"disagreements with the notes and no explanation: {silent}"


def test_activation_items_are_in_the_ledger(entries):
    items = entries["act.v3.no_recompute_tib"]["items"]
    assert sum(i["tib"] for i in items) == pytest.approx(entries["act.v3.no_recompute_tib"]["value"])


def test_markdown_has_both_kinds_and_the_discrepancies(entries):
    md = ledger_markdown(entries)
    for heading in ("## 查来的", "## 推来的", "## 与讲稿不一致"):
        assert heading in md
    assert "`act.v3.no_recompute_tib`: 我们 ours **4.07**, 讲稿 notes **4.15**" in md
    assert "| moe | 8 routed copies of x |" in md


def test_a_key_no_module_declares_is_listed_as_missing():
    e = ledger_entries({"fig-x": ("no.such.key",)})
    assert missing(e) == ["no.such.key"] and e["no.such.key"]["scenes"] == ["fig-x"]
    assert "no.such.key" in ledger_markdown(e)


@pytest.mark.parametrize("value, notes, unit, expected", [
    (9.7649, "9.76", "TiB", True), (4.069, "4.15", "TiB", False), (0.8210, "82.1 %", "fraction", True),
    (0.0137, "1.x %", "fraction", True), (0.027, "1.x %", "fraction", False),
    (5.43, "5–6 ×", "×", True), (6.6, "5–6 ×", "×", False), (5733.4, "≈5.7K", "tokens", True),
    (12287, "≈12K", "tokens", True), (46956, "47000", "", True), (46400, "47000", "", False),
    (1.9156e-6, "1.9e-6", "", True), (2.2e-6, "1.9e-6", "", False), (-3, "−3", "", True),
    (31.40625, "31.4", "GB", True), (1.875, "1.9", "GB", True), (100.41, "100", "GiB", True),
    (0.0408, "4 %", "fraction", True), (347, "364", "steps", False), (1.0, None, "", None),
])
def test_agreement_rule(value, notes, unit, expected):
    assert agrees(value, notes, unit) is expected


def test_agreement_for_words_compares_display():
    assert agrees(3e11, "三千亿", "", display="三千亿") is True
    assert agrees("backward", "反向", "", display="反向") is True


def test_a_number_computed_from_an_unconfirmed_one_is_unconfirmed_too():
    from lecture_numerics import derived, sourced
    from lecture_numerics.provenance import REGISTRY, UNCONFIRMED

    doubtful = sourced("test.doubtful", 3, unit="", measures="a test input", citation="unread", confirmed=False)
    double = derived("test.double", lambda x: 2 * x, inputs={"x": doubtful}, unit="", formula="2x")
    sure = derived("test.sure", lambda: 1, inputs={}, unit="", formula="1")
    try:
        assert double.status == UNCONFIRMED and sure.status == ""
        assert ledger_entries({"fig-x": ("test.double",)})["test.double"]["status"] == UNCONFIRMED
    finally:
        for key in ("test.doubtful", "test.double", "test.sure"):
            REGISTRY.pop(key, None)
