"""讲稿勘误: the places the notes say a number the numerics contradict, for the speaker.

errata() is the interface the cue sheet, deck and page read: each {line, said, right, say, why, key, kind,
ground}; it shows in ledger.md, on the page's ledger and in the --errata listing (errata_text). Two kinds:
改口 (a sentence to say instead: the red box, the deck's notes, --errata) and 细节 (the appendix only); the
rule (errata.kind_of) is tested on hand-written cases, and the entries the reviews named are pinned.
"""

from __future__ import annotations

import re

import pytest

from lecture_numerics import load_all
from lecture_numerics.errata import (DETAIL, GROUNDS, RULINGS, SAY_INSTEAD, corrections, details, errata, errata_text,
                                     kind_of, last_place)
from lecture_numerics.notes import agrees
from lecture_numerics.zh import as_written_digits
from lecture_numerics.ledger import NOTES_ONLY, ledger_entries, ledger_markdown
from lecture_numerics.notes_file import notes_lines
from studio.present.page_ledger import ledger_html

ERRATA = errata()
LINES = notes_lines()


def by_key(key: str) -> list[dict]:
    return [e for e in ERRATA if e["key"] == key]


def test_each_erratum_has_the_shared_shape():
    assert ERRATA
    for e in ERRATA:
        assert set(e) == {"line", "said", "right", "say", "why", "key", "kind", "ground"}
        assert e["kind"] in (SAY_INSTEAD, DETAIL)
        assert (e["ground"] in GROUNDS) == (e["kind"] == DETAIL) and bool(e["say"]) == (e["kind"] == SAY_INSTEAD)
        assert isinstance(e["line"], int) and 1 <= e["line"] <= len(LINES)
        assert all(isinstance(e[f], str) and e[f] for f in ("said", "right", "why", "key"))
        assert e["key"] in load_all()
    assert [e["line"] for e in ERRATA] == sorted(e["line"] for e in ERRATA)


def test_each_erratum_points_at_the_line_that_says_it():
    for e in ERRATA:
        said_numeral = re.match(r"[^\s]+?(?=\s|倍|年|步|个字|字节|批|次|G\b|$)", e["said"]).group()
        assert said_numeral in LINES[e["line"] - 1], e


def test_the_issue_examples_are_errata():
    bill = by_key("act.v3.no_recompute_tib")
    assert bill and {e["right"] for e in bill} == {"4.07 TiB"} and all(e["said"] == "4.15 TiB" for e in bill)
    assert any("激活要 4.15 TiB" in LINES[e["line"] - 1] for e in bill)
    nan = by_key("updratio.nan_multiplier")
    assert len(nan) == 1 and nan[0]["said"] == "2.1" and "再乘 2.1" in LINES[nan[0]["line"] - 1]


def test_words_the_speaker_means_approximately_are_not_errata():
    for key in ("updratio.weight_norm_growth", "updratio.loss_jitter_ratio", "spoken.finite_difference_years",
                "spoken.lora_saving_ratio"):
        assert not by_key(key), key


def test_a_number_only_the_notes_say_can_be_an_erratum():
    growth = by_key("spoken.optimizer_state_growth_years")
    assert growth and growth[0]["right"] == "五十多年" and "三十年" in LINES[growth[0]["line"] - 1]
    assert agrees(load_all()["spoken.optimizer_state_growth_years"].value, "五十多")


def test_the_listing_has_one_line_per_correction_and_details_only_on_request():
    rows = errata_text().splitlines()
    said_instead = corrections(ERRATA)
    assert len(rows) == len(said_instead)
    for row, e in zip(rows, said_instead):
        assert row.startswith(f"L{e['line']}  讲稿：{e['said']}  →  改说 {e['right']}：「{e['say']}」  （")
        assert e["why"] in row
    full = errata_text(with_details=True).splitlines()
    assert full[:len(rows)] == rows and len(full) == len(ERRATA) + 2
    assert all(f"L{e['line']}  讲稿：{e['said']}  ·  细节" in "\n".join(full) for e in details(ERRATA))


@pytest.fixture(scope="module")
def entries():
    return ledger_entries({"fig-act-bill": ("act.v3.no_recompute_tib",)})


def test_ledger_markdown_has_the_errata_section(entries):
    md = ledger_markdown(entries)
    section = md.split("## 讲稿勘误", 1)[1].split("\n## ", 1)[0]
    for e in ERRATA:
        assert f"| L{e['line']} | {e['kind']} | {e['said']} | {e['right']} | {e['say'] or '—'} |" in section
    assert "（无 / none）" in ledger_markdown(entries, [])


def test_numbers_only_the_notes_say_are_in_the_ledger_marked(entries):
    assert entries["spoken.finite_difference_years"]["role"] == "notes"
    assert entries["history.hochreiter_thesis.year"]["role"] == "notes"
    assert f"{NOTES_ONLY}" in ledger_markdown(entries)


def test_the_page_ledger_shows_the_errata_first(entries):
    html = ledger_html(entries)
    assert html.index('id="group-errata"') < html.index('id="group-sourced"')
    for e in ERRATA:
        assert f'data-line="{e["line"]}"' in html
    assert "只在讲稿里" in html
    assert "讲稿里的数都与账本一致" in ledger_html(entries, [])


def test_the_speakers_examples_carry_their_quote_in_the_appendix():
    entries = ledger_entries({"fig-slider": ("slider.desk_faders", "slider.push")})
    chosen = ledger_markdown(entries, []).split("## 示例取值", 1)[1].split("\n## ", 1)[0]
    assert "讲者举的例子：「而这台调音台有三千亿个推子。」" in chosen
    assert "讲者举的例子：「现在我把这个推子往上推一点点，推了零点零一。」" in chosen


def test_render_py_errata_lists_them_and_stops(tmp_path):
    """`render.py --errata` is the speaker's listing: every erratum's line, what the notes say
    and what is right, exit 0, and nothing rendered or written."""
    import subprocess
    import sys

    from tests.render_helpers import ROOT, env

    result = subprocess.run([sys.executable, str(ROOT / "render.py"), "--errata", "--out", str(tmp_path / "out")],
                            cwd=ROOT, env=env(LECTURE_SCENES_DIR=str(ROOT / "scenes")), capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    listed = [line for line in result.stdout.splitlines() if line.startswith("L")]
    assert len(listed) == len(corrections(ERRATA))
    for line, erratum in zip(listed, corrections(ERRATA)):
        assert line.startswith(f"L{erratum['line']}") and erratum["said"] in line and erratum["right"] in line
    assert not (tmp_path / "out").exists()


# ---- the rule: 改口 or 细节, on hand-written cases --------------------------------------------

@pytest.mark.parametrize("said, place", [
    ("4.15", (4.15, 0.01)), ("零点三七", (0.37, 0.01)), ("二十六", (26, 1)), ("十二万八千", (128000, 1000)),
    ("六十一", (61, 1)), ("2.1", (2.1, 0.1)), ("0.999", (0.999, 0.001)), ("四十", (40, 10)),
])
def test_a_numeral_says_its_number_to_its_last_place(said, place):
    value, unit = last_place(said)
    assert value == pytest.approx(place[0]) and unit == pytest.approx(place[1])


def test_words_that_are_no_plain_numeral_have_no_last_place():
    for said in ("两三百", "几千", "四倍多"):
        assert last_place(said) is None, said


@pytest.mark.parametrize("case, expected", [
    # a number wrong beyond the precision it is said with, and nothing makes it immaterial
    (dict(said="4.15", right=4.069), SAY_INSTEAD),
    (dict(said="2.1", right=1.52), SAY_INSTEAD),
    (dict(said="0.99", right=0.999), SAY_INSTEAD),
    # a false sentence is 改口 whatever its digits, even with a ground ...
    (dict(said="两", right=0.4, claim=True), SAY_INSTEAD),
    (dict(said="三", right=4, claim=True, ground="末位"), SAY_INSTEAD),
    # ... except in the preparation notes before the talk, which the room never hears
    (dict(said="4.15", right=4.069, preamble=True), DETAIL),
    (dict(said="六", right=5.43, claim=True, preamble=True), DETAIL),
    # 末位: off by at most one unit of the last place said
    (dict(said="零点三七", right=0.3648, ground="末位"), DETAIL),
    (dict(said="二十六", right=27, ground="末位"), DETAIL),
    (dict(said="十二点七", right=12.6, ground="末位"), DETAIL),
    # ... and a 末位 ruling on a number further off does not hold
    (dict(said="零点三七", right=0.35, ground="末位"), SAY_INSTEAD),
    (dict(said="2.1", right=1.52, ground="末位"), SAY_INSTEAD),
    # the other grounds are rulings with their reasons: 128K read 十二万八千, V3's 61 layers
    (dict(said="十二万八千", right=131072, ground="称呼"), DETAIL),
    (dict(said="六十一", right=60, ground="别处成立"), DETAIL),
])
def test_the_rule_on_hand_written_cases(case, expected):
    assert kind_of(**case) == expected


def test_a_ground_the_rule_does_not_know_is_refused():
    with pytest.raises(ValueError, match="unknown ground"):
        kind_of("三", 4, ground="差不多")


def test_every_ruling_names_a_known_ground_with_its_reason_and_no_ground_on_a_false_claim():
    for key, ruling in RULINGS.items():
        assert key in load_all(), key
        if ruling.ground:
            assert ruling.ground in GROUNDS and ruling.because, key
            assert not ruling.claim and not ruling.say, key
        if ruling.claim:
            assert ruling.right and (ruling.say or ruling.right), key


# ---- every 改口 is a sentence the speaker can say -------------------------------------------

def test_every_correction_is_a_sentence_that_says_its_headline():
    for e in corrections(ERRATA):
        assert e["right"] in e["say"], e
        assert e["say"] != LINES[e["line"] - 1].strip(), e
        assert "说「" not in e["why"], f"the sentence to say belongs in say, not in why: {e}"


def test_a_numeric_headline_agrees_with_the_numerics():
    """The number the speaker says instead is what the numerics (and so the screen) say."""
    registry = load_all()
    for e in corrections(ERRATA):
        q = registry[e["key"]]
        if RULINGS.get(e["key"]) and RULINGS[e["key"]].claim:
            continue
        number = re.sub(r"\s*(TiB|GiB|GB|tokens|年|步|个字|个规模|批|次)$", "", e["right"])
        number = re.sub(r"^(\S+?)到(\S+)$", lambda m: f"{as_written_digits(m[1])}–{as_written_digits(m[2])}", number)
        assert agrees(q.value, number, q.unit, q.display), e


def test_the_speaker_is_not_told_to_say_the_pedantic_ones():
    """The reviews' pedantry: 128K read 十二万八千, V3's 六十一, the straw man's 二十六次, 零点三七."""
    for key in ("scenario.seq_len_128k", "vanish.numbers_multiplied", "precision.adds_to_one_spacing",
                "step.halfway_coefficient"):
        found = by_key(key)
        assert found and all(e["kind"] == DETAIL for e in found), key
    names = by_key("scenario.seq_len_128k")
    assert len(names) == 3 and all("十二万八千" in LINES[e["line"] - 1] and e["ground"] == "称呼" for e in names)


def test_the_preamble_is_preparation_not_speech():
    for e in ERRATA:
        if e["line"] < 20 and "「" not in "".join(LINES[:e["line"]]):
            assert e["kind"] == DETAIL and e["ground"] == "备课提示", e


def test_l235_says_both_are_two_tenths_from_one_and_the_ledger_flags_it_once():
    (gap,) = [e for e in ERRATA if e["line"] == 235]
    assert gap["key"] == "vanish.rate_gap_zh" and gap["kind"] == SAY_INSTEAD
    assert gap["right"] == "离一都只差两成" and "离一都只差两成" in gap["say"] and "四成" not in gap["say"]
    entries = ledger_entries({"fig-vanish": ("vanish.rate_offset_zh",)})
    assert entries["vanish.rate_offset_zh"]["agrees"] is None            # the screen's 各离 1 两成: no notes reading
    assert entries["vanish.rate_gap_zh"]["agrees"] is False               # the notes' 只差两成, read as the gap


def test_l505_changes_the_claim_not_the_number():
    (jitter,) = [e for e in ERRATA if e["line"] == 505]
    assert jitter["kind"] == SAY_INSTEAD and jitter["said"] == "近十倍"
    assert not re.search(r"[几千万]倍|\d+×", jitter["say"]), "no multiple: it moves with the trend's degree"
    by_degree = load_all()["updratio.jitter_ratio_by_degree"].value
    assert by_degree[0] < 1000 < by_degree[1] and by_degree[-1] > 100 * by_degree[1]


def test_l506_says_what_the_400_step_run_shows():
    (nan,) = [e for e in ERRATA if e["line"] == 506]
    q = load_all()["updratio.nan_multiplier"]
    assert nan["right"] == "一点五左右" and agrees(q.value, "一点五", q.unit, q.display) and q.display == "1.5"
    assert "1.6" not in nan["right"] and "1.6" not in nan["say"]


def test_l812_keeps_gpt3_true():
    (end,) = [e for e in ERRATA if e["line"] == 812]
    assert end["kind"] == SAY_INSTEAD and end["right"] == "两派余弦段的终点"
    assert "3.3" not in end["say"] and "十分之一" in end["say"]
    assert agrees(load_all()["lr.gpt3.final_over_peak"].value, "十分之一") and \
        agrees(load_all()["lr.v3.cosine_end_over_peak"].value, "十分之一")


def test_l981_the_resident_crossing_is_later_than_the_optimizer_only_one():
    (question,) = [e for e in ERRATA if e["line"] == 981]
    registry = load_all()
    optimizer_only, resident = (registry["act.v3.seqs_to_match_optimizer"].value,
                                registry["act.v3.seqs_to_match_resident"].value)
    assert optimizer_only == 71 and resident == 94 and optimizer_only < resident
    assert question["right"] == "常驻块" and "常驻块" in question["say"]
    assert "七十一条就追平了 —— 比九十四条早" in question["why"] and "还要早" not in question["why"]


def test_the_4_07_pointer_names_the_callout_not_the_title():
    for e in by_key("act.v3.no_recompute_tib"):
        assert "标题" not in e["why"] and "「不开重算」那条标注" in e["why"]
        if e["kind"] == SAY_INSTEAD:
            assert "4.07 TiB" in e["say"] and "4.15" not in e["say"]


def test_the_appendix_and_the_deck_show_the_sentence_to_say_and_the_details_apart():
    from studio.present.deck_notes import erratum_text
    from studio.present.page import errata_html

    said, detail = corrections(ERRATA)[0], details(ERRATA)[0]
    html = errata_html([said], [detail])
    assert html.index(said["say"]) < html.index('id="appendix-errata-details"') < html.index(detail["why"][:20])
    assert f"改说「{said['say']}」" in erratum_text(said)
    assert "改说" not in erratum_text({**detail, "say": ""})


def test_every_screen_precision_entry_names_keys_the_numerics_declare():
    from lecture_numerics.errata import SHOWN_OTHERWISE

    registry = load_all()
    for read_as, (drawn, why) in SHOWN_OTHERWISE.items():
        assert read_as in registry and drawn in registry and why, read_as
        assert any(e["key"] == drawn and e["ground"] == "屏幕精度" for e in ERRATA), read_as
