"""Does our value agree with the value the speaker's notes state?

Rule: our value, rounded to the precision the notes state it with, equals the notes' value.
How a notes string sets the precision:
- "9.76", "0.0078", "1.0": as many decimals as written (rounding half up);
- "125", "47000", "120": an integer is exact to its last non-zero digit, so trailing zeros
  are not significant ("47000" = 2 significant figures, "125" = 3);
- "1.9e-6": significant figures of the mantissa;
- "≈5.7K", "≈12K": K = thousands, then as above ("≈12K": nearest thousand);
- "82.1 %", "4 %": percent — a value whose unit is "fraction" is multiplied by 100 first;
- "32 ×": the sign is dropped;
- "5–6 ×" (or "5-6", "5到6"): a range; agrees when our value, rounded to the bounds'
  precision, lies within it, bounds included;
- "1.x %": only the digits before "x" are stated; agrees when our value starts with them
  (1 ≤ v < 2 here).
- Chinese numerals, as the speaker says them ("零点三", "六百", "三千亿", "百分之四"): read as
  the digits they stand for, with the precision they state (三千亿: one significant figure).
- Approximate words (多, 近/将近, 约, 几, 出头, 上下/左右, 两三百): read as the span the speaker
  means (see approx.py): 四倍多 agrees with 4.2, 近十倍 with 8.5, 几百亿 with 3 × 10¹⁰.
"−3" (Unicode minus) reads as -3. Values that are not numbers (a phase), and notes that are
not numerals ("几百亿"), agree only when our display string equals the notes string.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from lecture_numerics.approx import approximate_span, within
from lecture_numerics.zh import NUMERAL_CHARS, as_written_digits

_RANGE = re.compile(r"^(?P<lo>[\d.]+)\s*(?:–|-|—|到|~)\s*(?P<hi>[\d.]+)$")
_WILDCARD = re.compile(r"^(?P<head>\d+)\.x$")


def _clean(notes: str) -> tuple[str, float, bool]:
    """Strip signs and units: (number text, multiplier, is_percent)."""
    text = notes.strip().replace("−", "-").replace("≈", "").replace("约", "").replace("×", "").replace(",", "").strip()
    percent = text.endswith("%")
    text = text.rstrip("%").strip()
    multiplier = 1.0
    if text[-1:] in ("K", "k"):
        text, multiplier = text[:-1].strip(), 1000.0
    return text, multiplier, percent


def _round_like(value: float, written: str) -> Decimal:
    """``value`` rounded the way ``written`` is precise."""
    d = Decimal(repr(float(value)))
    mantissa = written.lower().split("e")[0]
    if "e" in written.lower():
        digits = len(mantissa.replace(".", "").lstrip("0"))
        exponent = d.adjusted()
        quantum = Decimal(1).scaleb(exponent - digits + 1)
    elif "." in written:
        quantum = Decimal(1).scaleb(-len(written.split(".")[1]))
    else:
        trailing = len(written) - len(written.rstrip("0")) if written.strip("0") else 0
        quantum = Decimal(1).scaleb(trailing)
    return d.quantize(quantum, rounding=ROUND_HALF_UP)


def agrees(value: Any, notes: str | None, unit: str = "", display: str | None = None) -> bool | None:
    """Whether ``value`` agrees with the notes' ``notes`` string (None: the notes state none)."""
    if notes is None:
        return None
    try:
        return _numeric_agreement(float(value), notes, unit)
    except (TypeError, ValueError, ArithmeticError):
        return (display if display is not None else str(value)) == notes


def _numeric_agreement(value: float, notes: str, unit: str) -> bool:
    span = approximate_span(notes)
    if span is not None:
        return within(value, span)
    if any(ch in NUMERAL_CHARS for ch in notes) and not any(ch.isdigit() for ch in notes if ch.isascii()):
        notes = as_written_digits(notes)     # raises ValueError for "几百亿": compared as text
    text, multiplier, percent = _clean(notes)
    scaled = value * (100.0 if percent and unit == "fraction" else 1.0) / multiplier
    wildcard = _WILDCARD.match(text)
    if wildcard:
        return int(scaled) == int(wildcard["head"]) and scaled >= 0
    span = _RANGE.match(text)
    if span:
        lo, hi = span["lo"], span["hi"]
        return Decimal(lo) <= _round_like(scaled, lo) and _round_like(scaled, hi) <= Decimal(hi)
    written = Decimal(text)  # raises ArithmeticError (InvalidOperation) on a non-numeral
    return _round_like(scaled, text) == written
