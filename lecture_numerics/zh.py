"""Round figures in Chinese words, the way the speaker says them: 3e11 → 三千亿.

The notes say large counts as Chinese numerals (三千亿个推子, 几百亿次). A quantity that the
notes state that way is displayed through these functions, so the screen says what the
speaker says, while the ledger keeps the value as a number.
"""

from __future__ import annotations

import math

DIGITS = "零一二三四五六七八九"
# Chinese groups by 10⁴ (万) and 10⁸ (亿); within a group, 十 百 千.
_SMALL_UNITS = ("", "十", "百", "千")
_GROUPS = ((8, "亿"), (4, "万"), (0, ""))


def _unit(power: int) -> str:
    """The word for 10**power (0 ≤ power < 16): 10¹¹ → 千亿."""
    for group_power, group in _GROUPS:
        if power >= group_power:
            rest = power - group_power
            if rest >= 4:
                return _SMALL_UNITS[rest - 4] + "万" + group   # 10¹² and up: 万亿 …
            return _SMALL_UNITS[rest] + group
    raise ValueError(power)


def _power(value: float) -> int:
    power = math.floor(math.log10(value) + 1e-12)
    if not 0 <= power < 16:
        raise ValueError(f"{value!r} is outside what the lecture says in Chinese numerals")
    return power


def zh_round(value: float) -> str:
    """A round figure (one significant digit): 3e11 → 三千亿, 2e4 → 两万, 10 → 十."""
    if value <= 0:
        raise ValueError(f"zh_round needs a positive round figure, not {value!r}")
    power = _power(value)
    digit = value / 10 ** power
    if abs(digit - round(digit)) > 1e-9:
        raise ValueError(f"{value!r} is not a round figure (one significant digit)")
    digit = int(round(digit))
    unit = _unit(power)
    if digit == 1 and unit.startswith("十"):
        return unit                       # 十, 十万: the leading 一 is not said
    if digit == 2 and power >= 2:
        return "两" + unit                # 两百, 两千亿: 两 before a unit of a hundred or more
    return DIGITS[digit] + unit


def zh_several(value: float) -> str:
    """An order of magnitude, as "several ×" its unit: 1e10 (tens of billions) → 几百亿."""
    return "几" + _unit(_power(value))


def zh_count(value: float) -> str:
    """A count before a measure word: 2 → 两 (两个方向), otherwise as :func:`zh_round`."""
    return "两" if value == 2 else zh_round(value)
