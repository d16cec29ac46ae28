"""The census of the notes: every numeral of assets/lecture-notes.txt is accounted for.

Each numeral (digits or Chinese numerals) is a ledger key it agrees or disagrees with, or a
reviewed non-quantity. An edit to the notes that adds a number fails here until a rule in
lecture_numerics/census_rules.py classifies it. The approximate words (多, 近, 几 …) are
checked on hand-written cases.
"""

from __future__ import annotations

import pytest

from lecture_numerics import load_all
from lecture_numerics.approx import approximate_span
from lecture_numerics.census import anchored_lines, census, numerals, totals
from lecture_numerics.census_rules import NOT_QUANTITIES, SAID
from lecture_numerics.errata import WHY
from lecture_numerics.notes import agrees
from lecture_numerics.notes_file import notes_lines

REGISTRY = load_all()
LINES = notes_lines()
CATEGORIES = {"习语 idiom", "序数 ordinal", "名字 name", "节号 section number", "量词前的「一」 a / this one",
              "讲法 the talk's own parts", "公式 formula", "泛指 a vague scale"}


def _where(numeral) -> str:
    line = LINES[numeral.line - 1]
    return f"L{numeral.line} {numeral.text!r} in …{line[max(0, numeral.col - 15):numeral.end + 15]}…"


def test_every_numeral_of_the_notes_is_accounted_for():
    _, unaccounted = census()
    assert not unaccounted, "numerals no census rule accounts for:\n" + "\n".join(map(_where, unaccounted))


def test_the_totals_add_up_and_the_census_found_the_notes_numbers():
    t = totals()
    assert t["numerals"] == t["agrees"] + t["disagrees"] + t["non-quantity"] + t["unaccounted"]
    assert t["numerals"] == len(numerals(LINES)) > 1000 and t["agrees"] > 250


@pytest.mark.parametrize("added, numeral", [
    ("而且每张卡还要多存 7.77 GiB。", "7.77"),
    ("这一步还要再加三十七个字节。", "三十七"),
    ("跑了五千七百步之后。", "五千七百"),
])
def test_a_numeral_added_to_a_copy_of_the_notes_is_unaccounted(added, numeral):
    copy = LINES[:500] + (added,) + LINES[500:]
    _, unaccounted = census(copy)
    assert [n.text for n in unaccounted] == [numeral]
    assert unaccounted[0].line == 501


def test_the_census_finds_the_numerals_the_issue_names():
    found = {n.text for n in numerals(LINES)}
    assert {"五千七", "百分之一点几", "两三百", "几百亿", "十二万八千", "4.15", "106.75"} <= found
    assert not any(t.startswith("点") or t.endswith("点") for t in found), "a bare 点 is not a numeral"


def test_every_anchor_names_exactly_one_line_and_every_key_exists():
    for rule in SAID:
        assert rule.key in REGISTRY, f"census rule reads an undeclared key: {rule.key}"
        if rule.anchor:
            assert len(anchored_lines(rule, LINES)) == 1, f"anchor {rule.anchor!r} must be in exactly one line"


def test_non_quantities_are_of_a_reviewed_category():
    assert {rule.category for rule in NOT_QUANTITIES} <= CATEGORIES
    readings, _ = census()
    idioms = {(r.numeral.line, r.numeral.text) for r in readings if r.category == "习语 idiom"}
    ordinals = {r.numeral.text for r in readings if r.category == "序数 ordinal"}
    assert any(LINES[line - 1].count("一模一样") for line, _ in idioms)
    assert {"三", "一"} <= ordinals           # 第三节, 第一级


def test_readings_name_a_reason_for_every_disagreement():
    readings, _ = census()
    disagreeing = [r for r in readings if r.verdict == "disagrees"]
    assert disagreeing
    for r in disagreeing:
        assert r.why or r.key in WHY, f"{_where(r.numeral)} disagrees with {r.key} without a reason"


def test_weight_norm_growth_agrees_with_si_bei_duo():
    readings, _ = census()
    growth = [r for r in readings if r.key == "updratio.weight_norm_growth"]
    assert growth and all(r.verdict == "agrees" for r in growth)
    q = REGISTRY["updratio.weight_norm_growth"]
    assert agrees(q.value, q.notes, q.unit, q.display) is True


@pytest.mark.parametrize("value, said, expected", [
    (4.2, "四倍多", True), (4.0, "四倍多", False), (5.0, "四倍多", False), (150, "一百多", True),
    (8.5, "近十倍", True), (10.5, "近十倍", False), (7.0, "近十倍", False),
    (9506, "将近一万", True), (7000, "将近一万", False), (7.9, "将近八", True),
    (3e10, "几百亿", True), (1e12, "几百亿", False), (15, "十几", True), (25, "十几", False),
    (0.003, "千分之几", True), (0.02, "千分之几", False),
    (250, "两三百", True), (350, "两三百", False), (5.4, "五六倍", True), (6.6, "五六倍", False),
    (32, "三十出头", True), (38, "三十出头", False), (29, "三十出头", False),
    (9, "十步左右", True), (15, "十步左右", False), (110, "一百上下", True), (130, "一百上下", False),
    (1.87, "约 1.9", True), (1.96, "约 1.9", False),
])
def test_approximate_words_read_as_the_speaker_means_them(value, said, expected):
    assert agrees(value, said) is expected


def test_words_without_an_approximation_keep_the_written_precision():
    assert approximate_span("4.15") is None and approximate_span("约 1.9") is None
    assert agrees(4.069, "4.15") is False and agrees(4.149, "4.15") is True
