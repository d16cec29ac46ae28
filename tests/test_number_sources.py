"""「这个数从哪来？」: each beat's numbers travel from the manifest into the cue sheet's steps
with their value as drawn, kind and provenance (a derived number's inputs one level down);
every number the room sees has Chinese words for what it is and, picked for a figure, why;
the deck's notes list each step's numbers and the appendix names where each is first shown.
The browser side (presenter panel, projected card): tests/test_numbers_browser.py."""

from __future__ import annotations

import re

import pytest

from studio.track import cues, number_sources
from studio.track.number_sources import kind_of, readable, record, shown_at, step_numbers
from tests.fixtures_beats import LEDGER, demo_manifest, demo_sheet

CJK = re.compile("[\u4e00-\u9fff]")
E_NOTATION = re.compile(r"\d[eE][+-]?\d")


@pytest.fixture(scope="module")
def lecture_ledger():
    from lecture_numerics.ledger import ledger_entries
    from studio.engine import registry

    return ledger_entries({sid: e.ledger_keys for sid, e in registry.discover().items()})


def shown_to_the_room(ledger) -> list[str]:
    """Every key a scene draws, and every input of a derived one (the card shows them)."""
    drawn = [key for key, entry in ledger.items() if entry["role"] == "shown"]
    inputs = [dep["key"] for key in drawn for dep in (ledger[key].get("inputs") or {}).values()]
    return list(dict.fromkeys(drawn + inputs))


# ---- the data flow: manifest beats → cue sheet steps -------------------------------------------

def numbered_manifest() -> dict:
    """The demo render, each beat ending with some of the demo ledger's numbers on screen."""
    manifest = demo_manifest()
    shown = {"A.1": ["demo.params"], "A.2": ["demo.params", "demo.total"], "B.1": ["demo.warmup"], "B.2": []}
    for section in manifest["scenes"][0]["sections"]:
        for beat in section["beats"]:
            beat["numbers"] = shown[beat["name"]]
    return manifest


def demo_cue_sheet() -> dict:
    sheet = demo_sheet()
    for cue in sheet["cues"]:
        cue.pop("steps", None)
        cue.setdefault("views", [])
    sheet["speaking_rate"] = {"chars_per_minute": 240}
    return sheet


def test_each_step_carries_its_beats_numbers_with_value_kind_and_source():
    published = cues.with_media(demo_cue_sheet(), numbered_manifest(), LEDGER)
    figure = next(c for c in published["cues"] if c.get("scene") == "fig-demo")
    by_beat = {f"{s['view']}.{s['beat']}": s["numbers"] for s in figure["steps"]}
    assert [n["key"] for n in by_beat["A.2"]] == ["demo.params", "demo.total"]
    params, total = by_beat["A.2"]
    assert (params["value"], params["kind"]) == ("70 亿", "示例取值") and params["source"].startswith("理由：")
    assert (total["value"], total["kind"]) == ("14 GB", "推来的") and total["source"] == "公式：total = 70 亿 × 2"
    assert by_beat["B.1"][0]["kind"] == "待核" and by_beat["B.1"][0]["source"].startswith("出处（未核实）：")
    assert by_beat["B.2"] == []
    # the whole record, once per key: a derived number's inputs one level down, each with kind and source
    card = published["numbers"]["demo.total"]
    assert [(i["key"], i["kind"]) for i in card["inputs"]] == [("demo.params", "示例取值"), ("demo.bytes", "查来的")]
    assert card["inputs"][1]["source"] == "出处：IEEE 754-2019 §3.6, table 3.5 (binary16)"
    assert set(published["numbers"]) == {"demo.params", "demo.total", "demo.warmup"}


def test_a_step_lists_exactly_the_keys_the_kit_drew_in_its_beat():
    """Not a scan of the text: the manifest's beat numbers, in drawing order, each once."""
    manifest = numbered_manifest()
    published = cues.with_media(demo_cue_sheet(), manifest, LEDGER)
    beats = {f"{s['name']}.{b['n']}": b["numbers"] for s in manifest["scenes"][0]["sections"] for b in s["beats"]}
    figure = next(c for c in published["cues"] if c.get("scene") == "fig-demo")
    for step in figure["steps"]:
        assert [n["key"] for n in step["numbers"]] == beats[f"{step['view']}.{step['beat']}"]


def test_a_key_the_ledger_lacks_is_listed_as_待核_with_no_source():
    numbers = step_numbers(["demo.nothing"], LEDGER)
    assert numbers == [{"key": "demo.nothing", "value": "", "kind": "待核", "source": "账本里没有这个数"}]


def test_the_lecture_ledger_is_used_when_none_is_given():
    manifest = numbered_manifest()
    for section in manifest["scenes"][0]["sections"]:
        for beat in section["beats"]:
            beat["numbers"] = ["bill.v3.total_tib"]
    published = cues.with_media(demo_cue_sheet(), manifest)
    step = next(c for c in published["cues"] if c.get("scene") == "fig-demo")["steps"][0]
    assert step["numbers"][0]["value"] == "9.76 TiB"


# ---- what the room reads ------------------------------------------------------------------

def test_every_number_shown_to_the_room_has_a_chinese_description(lecture_ledger):
    """Every key a scene draws (and each input of a derived one, which its card shows) says
    what it is in Chinese; a 示例取值 also says why, in Chinese. Add the words to
    lecture_numerics/ledger_zh.py."""
    lacking = [key for key in shown_to_the_room(lecture_ledger)
               if not CJK.search(lecture_ledger[key].get("measures_zh") or "")]
    assert not lacking, f"no measures in lecture_numerics/ledger_zh.py for: {lacking}"
    no_reason = [key for key in shown_to_the_room(lecture_ledger) if lecture_ledger[key]["kind"] == "chosen"
                 and not CJK.search(lecture_ledger[key].get("reason_zh") or "")]
    assert not no_reason, f"no reason in lecture_numerics/ledger_zh.py for: {no_reason}"


def test_the_chinese_table_names_no_key_the_ledger_lacks(lecture_ledger):
    from lecture_numerics.ledger_zh import ZH

    from lecture_numerics import load_all

    stale = sorted(set(ZH) - set(load_all()))
    assert not stale, f"lecture_numerics/ledger_zh.py describes keys no module declares: {stale}"


def test_every_unit_shown_has_its_chinese(lecture_ledger):
    from lecture_numerics.ledger_zh import UNITS

    units = {lecture_ledger[key]["unit"] for key in shown_to_the_room(lecture_ledger)}
    assert not units - set(UNITS), f"units with no entry in ledger_zh.UNITS: {sorted(units - set(UNITS))}"


def test_the_bill_says_671B_times_16_bytes_over_1024_to_the_fourth(lecture_ledger):
    card = record("bill.v3.total_tib", lecture_ledger)
    assert card["value"] == "9.76 TiB" and card["kind"] == "推来的"
    assert "671B × 16 字节 ÷ 1024⁴" in card["formula"] and card["source"].startswith("公式：671B × 16 字节")
    assert [(i["value"], i["kind"]) for i in card["inputs"]] == [
        ("671B 个参数", "查来的"), ("2 字节/参数", "查来的"), ("2 字节/参数", "查来的"), ("12 字节/参数", "推来的")]
    assert all(CJK.search(i["measures"]) and i["source"] for i in card["inputs"])
    assert card["inputs"][0]["source"].startswith("出处：deepseek-ai/DeepSeek-V3")
    assert card["inputs"][3]["source"].startswith("公式：主权重 4 + m 4 + v 4")


def test_no_record_of_a_shown_number_carries_e_notation(lecture_ledger):
    for key in shown_to_the_room(lecture_ledger):
        card = record(key, lecture_ledger)
        texts = [card["value"], card["source"], card.get("formula", "")]
        texts += [t for i in card.get("inputs", []) for t in (i["value"], i["source"])]
        assert not any(E_NOTATION.search(t) for t in texts), (key, texts)


def test_each_kind_as_the_deck_appendix_names_it(lecture_ledger):
    assert {kind_of(e) for e in lecture_ledger.values()} <= set(number_sources.KINDS)
    assert kind_of({"kind": "sourced", "status": "待核"}) == "待核" and kind_of({"kind": "missing"}) == "待核"
    assert readable("2.2e-04 ÷ 2^40, 1e-08") == "2.2×10⁻⁴ ÷ 2⁴⁰, 1×10⁻⁸"


def test_where_each_number_is_shown_in_the_talk():
    from tests.deck_fixtures import beat_sheet

    places = shown_at(beat_sheet())
    (first,) = places["act_bill.total"]
    assert (first["slide"], first["line"], first["label"]) == (3, 10, "Ⓐ 第 2 拍")
    assert number_sources.where_text(first) == "第 3 页 · L10 fig-circuit Ⓐ 第 2 拍"


# ---- the deck -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def deck(tmp_path_factory):
    import pptx

    from studio.present.deck import build_deck
    from tests.deck_fixtures import beat_manifest, beat_sheet, sample_ledger

    quality_dir = tmp_path_factory.mktemp("out") / "low"
    quality_dir.mkdir()
    beat_manifest(quality_dir)
    sheet = beat_sheet()
    return sheet, pptx.Presentation(str(build_deck(quality_dir, sheet, sample_ledger())))


def test_the_notes_list_the_steps_numbers_with_kind_and_source(deck):
    from studio.present.deck_notes import NUMBERS_TITLE

    sheet, presentation = deck
    steps = [(cue, step) for cue in sheet["cues"] for step in cue["steps"]]
    for (cue, step), slide in zip(steps, presentation.slides):
        texts = [p.text for p in slide.notes_slide.notes_text_frame.paragraphs]
        head = texts[:texts.index("")]
        if not step.get("numbers"):
            assert NUMBERS_TITLE not in head
            continue
        at = head.index(NUMBERS_TITLE)
        assert head[at + 1] == "1. 4.07 TiB〔推来的〕—— 公式：Σ 每个算子的字节 × 层数 ÷ 2⁴⁰"
        assert head[at + 2].startswith("2. 1×10⁻³〔待核〕—— 出处（未核实）：ST-MoE 表 4")


def test_the_appendix_names_the_slide_and_beat_where_each_number_is_first_shown(deck):
    _, presentation = deck
    text = "\n".join(shape.text_frame.text for slide in presentation.slides for shape in slide.shapes
                     if shape.has_text_frame)
    assert "首次出现：第 3 页 · L10 fig-circuit Ⓐ 第 2 拍" in text
    derived = text[text.index("附录 · 推来的"):]
    assert derived.index("4.07 TiB") < derived.index("首次出现：第 3 页")


def test_the_appendix_puts_numbers_in_the_order_the_talk_first_shows_them():
    from studio.present.deck_appendix import grouped
    from tests.deck_fixtures import beat_sheet, sample_ledger

    sheet = beat_sheet()
    ledger = sample_ledger()
    ledger["late.number"] = {**ledger["act_bill.total"], "key": "late.number", "inputs": {}}
    ledger = {"late.number": ledger.pop("late.number"), **ledger}   # first in the ledger's own order
    last = sheet["cues"][4]["steps"][0]
    last["numbers"] = step_numbers(["late.number"], ledger)
    (title, rows), *_ = grouped(ledger, sheet)["推来的"]
    assert title == "第零节　开场"
    keys = [e["key"] for _, rows in grouped(ledger, sheet)["推来的"] for e in rows]
    assert keys.index("act_bill.total") < keys.index("late.number")
