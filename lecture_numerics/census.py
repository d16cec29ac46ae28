"""The census of the notes: every numeral the speaker's notes contain, accounted for.

A numeral is a run of digits (4.15, 1280) or of Chinese numerals (五千七, 百分之一点几,
两三百, 几百亿). Each one is, by the first rule that covers it:

- a quantity: a ledger key it agrees or disagrees with (``agrees``), read with the
  approximate words the speaker uses (notes.agrees, approx.py). Every ledger quantity
  with a ``notes_quote`` is such a rule at its quote; :data:`census_rules.SAID` adds the
  rest, including numbers no figure shows (their keys are marked 只在讲稿里 in the ledger);
- a reviewed non-quantity: an idiom (一模一样), an ordinal (第三节), a name (V3, fp16),
  a section number (§2), a word built on 一 (一起, 统一) — :data:`census_rules.NOT_QUANTITIES`.

A numeral no rule covers is unaccounted; the census test fails on it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable

from lecture_numerics import load_all
from lecture_numerics.notes import agrees
from lecture_numerics.census_rules import NOT_QUANTITIES, SAID, NotQuantity, Said
from lecture_numerics.notes_file import notes_lines, quote_pieces
from lecture_numerics.provenance import Quantity
from lecture_numerics.zh import NUMERAL_CHARS, as_written_digits, parse_zh

_DIGITS = NUMERAL_CHARS.replace("点", "")
# 一点二 and 一点几 are numerals; the 点 of 一点 (a bit) and 点一次名 (to call) is not.
NUMERAL = re.compile(rf"\d+(?:[.,]\d+)*|(?:[{_DIGITS}]+分之)?[{_DIGITS}几]+(?:点[{_DIGITS}]+|点几)?")


@dataclass(frozen=True)
class Numeral:
    """One numeral of the notes: its 1-based line, its column in that line and its text."""

    line: int
    col: int
    text: str

    @property
    def end(self) -> int:
        return self.col + len(self.text)


def numerals(lines: Iterable[str]) -> list[Numeral]:
    """Every numeral of ``lines``; a run of 点 or 几 alone is not one."""
    found = []
    for number, line in enumerate(lines, start=1):
        for m in NUMERAL.finditer(line):
            if m.group().strip("点几"):
                found.append(Numeral(number, m.start(), m.group()))
    return found


def _span(m: re.Match) -> tuple[int, int]:
    """What a rule's match covers: its named groups (from the first to the last that matched),
    or the whole match when it names none."""
    spans = [m.span(name) for name in m.re.groupindex if m.group(name) is not None]
    return (min(a for a, _ in spans), max(b for _, b in spans)) if spans else m.span()


def _covered(numeral: Numeral, line: int, span: tuple[int, int]) -> bool:
    return numeral.line == line and span[0] <= numeral.col and numeral.end <= span[1]


def _core(text: str) -> str:
    return re.sub(r"[\s%×倍多近将约≈,]|左右|上下|出头", "", text)


def _written(token: str) -> str:
    try:
        return as_written_digits(token)
    except ValueError:
        return token


def _same_number(token: str, core: str) -> bool:
    try:
        return abs(parse_zh(token) - float(core)) < 1e-12
    except ValueError:
        return False


def _token_fits(token: str, said: str) -> int:
    """How well a numeral ``token`` is the notes value ``said``: 2 exactly, 1 within it, 0 not."""
    core = _core(said)
    if token == said or _core(token) == core or _core(_written(token)) == core or _same_number(token, core):
        return 2
    return 1 if token in said else 0


def _the_one_that_fits(candidates: list[Numeral], said: str) -> Numeral | None:
    """The numeral of a quote that is the notes value; None when none fits or several fit
    equally well (这一边 and 一个出 both hold a 一): a rule in census_rules must say which."""
    scored = [(_token_fits(n.text, said), len(n.text), n) for n in candidates]
    best = max(((fit, length) for fit, length, _ in scored), default=(0, 0))
    winners = [n for fit, length, n in scored if (fit, length) == best]
    return winners[0] if best[0] > 0 and len(winners) == 1 else None


def _quote_spans(quote: str, lines: tuple[str, ...]) -> list[tuple[int, int, int]]:
    """(line, start, end) of each verbatim piece of ``quote`` in ``lines`` (white space may
    differ, so the piece is matched with any white space between its characters)."""
    spans = []
    for piece in quote_pieces(quote):
        chars = [re.escape(ch) for ch in re.sub(r"\s+", "", piece)]
        pattern = re.compile(r"\s*".join(chars))
        for number, line in enumerate(lines, start=1):
            m = pattern.search(line)
            if m:
                spans.append((number, m.start(), m.end()))
                break
    return spans


@dataclass(frozen=True)
class Reading:
    """What one numeral of the notes is: ``verdict`` "agrees", "disagrees" or "non-quantity"."""

    numeral: Numeral
    verdict: str
    key: str = ""
    said: str = ""
    category: str = ""
    why: str = ""


def _verdict(q: Quantity, said: str) -> str:
    return "agrees" if agrees(q.value, said, q.unit, q.display) else "disagrees"


def _ledger_readings(found: list[Numeral], lines: tuple[str, ...], registry: dict[str, Quantity],
                     taken: dict[Numeral, Reading]) -> dict[Numeral, Reading]:
    """Each quantity with a notes value and quote reads the numeral of its quote that is its value
    (one not read by a rule already)."""
    readings: dict[Numeral, Reading] = {}
    for q in registry.values():
        if q.notes is None or not q.notes_quote:
            continue
        inside = [n for line, start, end in _quote_spans(q.notes_quote, lines)
                  for n in found if _covered(n, line, (start, end)) and n not in taken]
        best = _the_one_that_fits(inside, str(q.notes))
        if best is None or best in readings:
            continue
        readings[best] = Reading(best, _verdict(q, str(q.notes)), q.key, str(q.notes), why=q.note)
    return readings


def anchored_lines(rule: Said, lines: tuple[str, ...]) -> list[int]:
    """The line a rule's anchor names: the one line containing it (none when it is in no line
    or in several, so the rule reads nothing and its numerals show as unaccounted)."""
    found = [number for number, line in enumerate(lines, start=1) if rule.anchor in line]
    return found if len(found) == 1 else []


def _rule_readings(found: list[Numeral], lines: tuple[str, ...], rules: Iterable[Said | NotQuantity],
                   registry: dict[str, Quantity], taken: dict[Numeral, Reading]) -> dict[Numeral, Reading]:
    readings: dict[Numeral, Reading] = {}
    by_line: dict[int, list[Numeral]] = {}
    for n in found:
        by_line.setdefault(n.line, []).append(n)
    for rule in rules:
        pattern = re.compile(rule.pattern)
        anchored = isinstance(rule, Said) and rule.anchor
        line_numbers = anchored_lines(rule, lines) if anchored else range(1, len(lines) + 1)
        for number in line_numbers:
            for m in pattern.finditer(lines[number - 1]):
                span = _span(m)
                for n in by_line.get(number, []):
                    if n in taken or n in readings or not _covered(n, number, span):
                        continue
                    readings[n] = _reading(n, rule, lines[number - 1][span[0]:span[1]], registry)
    return readings


def _reading(n: Numeral, rule: Said | NotQuantity, said: str, registry: dict[str, Quantity]) -> Reading:
    if isinstance(rule, NotQuantity):
        return Reading(n, "non-quantity", category=rule.category, why=rule.why)
    q = registry[rule.key]
    return Reading(n, _verdict(q, rule.as_written or said), rule.key, said, why=rule.why or q.note)


@lru_cache(maxsize=2)
def census(lines: tuple[str, ...] | None = None) -> tuple[tuple[Reading, ...], tuple[Numeral, ...]]:
    """(the readings, the numerals no rule accounts for), both in the notes' order."""

    lines = lines if lines is not None else notes_lines()
    registry = load_all()
    found = numerals(lines)
    readings = _rule_readings(found, lines, SAID, registry, {})
    readings |= _ledger_readings(found, lines, registry, readings)
    readings |= _rule_readings(found, lines, NOT_QUANTITIES, registry, readings)
    ordered = tuple(readings[n] for n in found if n in readings)
    return ordered, tuple(n for n in found if n not in readings)


def census_keys() -> set[str]:
    """Every ledger key the census reads a numeral of the notes as."""
    return {r.key for r in census()[0] if r.key}


def totals() -> dict[str, Any]:
    readings, unaccounted = census()
    count = {v: sum(r.verdict == v for r in readings) for v in ("agrees", "disagrees", "non-quantity")}
    return {"numerals": len(readings) + len(unaccounted), **count, "unaccounted": len(unaccounted)}


__all__ = ["NUMERAL", "NotQuantity", "Numeral", "Reading", "Said", "anchored_lines", "census", "census_keys",
           "numerals", "totals"]
