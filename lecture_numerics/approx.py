"""Approximate words, read as the speaker means them.

The notes often say a number with a word that loosens it. Each word turns the numeral into
the span of values it allows:

- 多 (四倍多, 一百多): a bit over — above the numeral, below its next step (四倍多: 4 < v < 5);
- 出头 (三十出头): just over — from the numeral up to half a step (30 ≤ v ≤ 35);
- 近, 将近, 接近 (将近一万年): a bit under — within a fifth below the numeral (8000 ≤ v ≤ 10000);
- 上下, 左右 (十步左右): about — within a fifth either side (8 ≤ v ≤ 12);
- 约, 大约, 大概: about — the numeral's own precision (约 1.9 = 1.85 … 1.95), as if not said;
- 几 (几百亿, 千分之几, 十几): a few — of the order of the unit: 几百亿 is 1–9 hundred 亿,
  千分之几 1–9 thousandths, 十几 11–19;
- two neighbouring digits (两三百, 五六倍): that range (200–300, 5–6).

A step is the unit of the numeral's last stated digit (四 → 1, 一百 → 100, 一点二 → 0.1).
倍 and × are dropped: a multiple is compared as its number.
"""

from __future__ import annotations

import re
from decimal import Decimal

from lecture_numerics.zh import NUMERAL_CHARS, as_written_digits

Span = tuple[float, float]

_ABOUT_PREFIX = ("大约", "大概", "约")
_UNDER_PREFIX = ("将近", "接近", "近")
_FIFTH = 0.2
_NEIGHBOURS = re.compile(r"^(?P<a>[一二两三四五六七八九])(?P<b>[二三四五六七八九])(?P<unit>[十百千万亿]*)$")
_SEVERAL = re.compile(r"^(?P<head>[十百千万亿]*)几(?P<unit>[十百千万亿]*)$")
_FRACTION_SEVERAL = re.compile(r"^(?P<unit>[十百千万亿]+)分之几$")
_LEADING_NUMERAL = re.compile(rf"[\d.,]+|[{NUMERAL_CHARS}]+")
_DIGIT = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_UNIT = {"": 1, "十": 10, "百": 100, "千": 1000, "万": 10**4, "亿": 10**8}


def _unit_value(units: str) -> int:
    """十 → 10, 百亿 → 10¹⁰, 千万 → 10⁷."""
    value = 1
    for ch in units:
        value *= _UNIT[ch]
    return value


def _number_and_step(numeral: str) -> tuple[float, float]:
    """A numeral (digits or Chinese) and the unit of its last stated digit."""
    head = _LEADING_NUMERAL.match(numeral.strip())
    if head is None:
        raise ValueError(f"no numeral in {numeral!r}")
    numeral = head.group()                   # 十步 → 十: the measure word does not count
    written = numeral if not any(ch in NUMERAL_CHARS for ch in numeral) else as_written_digits(numeral)
    written = written.replace(",", "").strip()
    d = Decimal(written)
    if "." in written:
        step = Decimal(1).scaleb(-len(written.split(".")[1]))
    else:
        trailing = len(written) - len(written.rstrip("0")) if written.strip("0") else 0
        step = Decimal(1).scaleb(trailing)
    return float(d), float(step)


def _strip_multiple(text: str) -> str:
    return text.replace("倍", "").replace("×", "").strip()


def approximate_span(notes: str) -> Span | None:
    """The values ``notes`` allows when it carries an approximate word; None when it carries none
    (then it is compared as written). Bounds are inclusive; 多's are exclusive (see _over)."""
    text = _strip_multiple(notes.strip())
    for prefix in _ABOUT_PREFIX:
        if text.startswith(prefix):
            return None                      # 约 X: X's own precision, the ordinary rule
    for prefix in _UNDER_PREFIX:
        if text.startswith(prefix):
            number, _ = _number_and_step(text[len(prefix):])
            return (number * (1 - _FIFTH), number)
    for suffix in ("上下", "左右"):
        if text.endswith(suffix):
            number, _ = _number_and_step(text[: -len(suffix)])
            return (number * (1 - _FIFTH), number * (1 + _FIFTH))
    if text.endswith("出头"):
        number, step = _number_and_step(text[:-2])
        return (number, number + step / 2)
    if text.endswith("多") and len(text) > 1:
        number, step = _number_and_step(text[:-1])
        return (number + step * 1e-9, number + step * (1 - 1e-9))
    return _word_range(text)


def _word_range(text: str) -> Span | None:
    neighbours = _NEIGHBOURS.match(text)
    if neighbours:
        unit = _unit_value(neighbours["unit"])
        return (_DIGIT[neighbours["a"]] * unit, _DIGIT[neighbours["b"]] * unit)
    fraction = _FRACTION_SEVERAL.match(text)
    if fraction:                             # 千分之几: a few thousandths
        unit = _unit_value(fraction["unit"])
        return (1 / unit, 9 / unit)
    several = _SEVERAL.match(text)
    if several and (several["head"] or several["unit"]):
        if several["head"]:                  # 十几: the head plus a few of the next unit down
            head = _unit_value(several["head"])
            return (head + 1 * head / 10, head + 9 * head / 10)
        unit = _unit_value(several["unit"])  # 几百亿: a few of the unit, its order of magnitude
        return (1 * unit, 9 * unit)
    return None


def within(value: float, span: Span) -> bool:
    low, high = span
    return low <= value <= high


__all__ = ["Span", "approximate_span", "within"]
