"""Chinese numerals both ways: the figures the speaker says, read and written.

References are written out by hand; formatting and parsing are separate code, so a round
trip checks each against the other as well."""

from __future__ import annotations

import pytest

from lecture_numerics.notes import agrees
from lecture_numerics.zh import as_written_digits, parse_zh, zh_count, zh_round, zh_several

SAID = {   # as the notes say them → the number
    "零点三": 0.3, "六百": 600, "三千亿": 3e11, "二十五": 25, "十": 10, "一千": 1000,
    "四万七千": 47_000, "两千零四十八": 2048, "三百六十四": 364, "一千零二十四": 1024,
    "五千七": 5700, "一万二": 12_000, "十二万八千": 128_000, "百分之四": 0.04, "万分之三": 3e-4,
    "二分之一": 0.5, "一百万分之一点九": 1.9e-6, "四千零九十六分之一": 1 / 4096, "六点六": 6.6,
}


@pytest.mark.parametrize("said, number", SAID.items())
def test_parse(said, number):
    assert parse_zh(said) == pytest.approx(number, rel=1e-12)


@pytest.mark.parametrize("number, said", [(3e11, "三千亿"), (2e4, "两万"), (10, "十"), (1e5, "十万"),
                                          (7e3, "七千"), (200, "两百"), (4e12, "四万亿"), (5e10, "五百亿"),
                                          (3, "三"), (2, "二")])
def test_round_figures_are_said_like_the_speaker(number, said):
    assert zh_round(number) == said
    assert parse_zh(said) == number


def test_counts_and_orders_of_magnitude():
    assert zh_count(2) == "两" and zh_count(3) == "三"
    assert zh_several(1e10) == "几百亿" and zh_several(100) == "几百"
    with pytest.raises(ValueError):
        zh_round(3.5e11)          # not a round figure: one significant digit only


def test_written_precision_follows_the_words():
    assert as_written_digits("零点三") == "0.3"
    assert as_written_digits("三千亿") == "300000000000"        # one significant figure
    assert as_written_digits("百分之一点几") == "1.x %"
    assert agrees(3.4e11, "三千亿") and not agrees(3.6e11, "三千亿")
    assert agrees(0.0408, "百分之四", "fraction") and not agrees(0.046, "百分之四", "fraction")
    assert agrees(5725, "五千七") and not agrees(5800, "五千七")


@pytest.mark.parametrize("bad", ["几百亿", "三倍", "", "点三"])
def test_not_a_numeral(bad):
    with pytest.raises(ValueError):
        parse_zh(bad)
