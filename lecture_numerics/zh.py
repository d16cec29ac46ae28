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


_DIGIT_VALUE = {ch: i for i, ch in enumerate(DIGITS)} | {"两": 2, "〇": 0}
_SMALL_VALUE = {"十": 10, "百": 100, "千": 1000}
_BIG_VALUE = {"万": 10**4, "亿": 10**8}
NUMERAL_CHARS = "".join(_DIGIT_VALUE) + "".join(_SMALL_VALUE) + "".join(_BIG_VALUE) + "点"


def _integer(text: str) -> int:
    """三千亿 → 300000000000, 二十五 → 25, 十 → 10, 一千零二十四 → 1024."""
    if not text:
        raise ValueError("empty numeral")
    total, section, digit = 0, 0, None
    last_unit, zero_seen = 0, False
    for ch in text:
        if ch in ("零", "〇") and section + total:
            zero_seen = True
            continue
        if ch in _SMALL_VALUE or ch in _BIG_VALUE:
            last_unit = _SMALL_VALUE.get(ch) or _BIG_VALUE[ch]
        if ch in _DIGIT_VALUE:
            digit = _DIGIT_VALUE[ch] if digit is None else digit * 10 + _DIGIT_VALUE[ch]
        elif ch in _SMALL_VALUE:
            section += (1 if digit is None else digit) * _SMALL_VALUE[ch]
            digit = None
        elif ch in _BIG_VALUE:
            section += digit or 0
            if ch == "万" and total and total % 10**8 == 0 and section:
                total += section * 10**4          # 三亿五万
            else:
                total = (total + section) * _BIG_VALUE[ch] if ch == "亿" else total + section * _BIG_VALUE[ch]
            section, digit = 0, None
        else:
            raise ValueError(f"not a Chinese numeral: {text!r}")
    if digit is not None and last_unit >= 100 and not zero_seen and text[-2] in "百千万亿":
        digit *= last_unit // 10                  # 五千七 = 5700, 一万二 = 12000 (the unit is implied)
    return total + section + (digit or 0)


def _significant(numeral: str) -> int:
    """Significant digits a numeral states: 一点九 → 2, 四千零九十六 → 4, 百 → 1."""
    if "点" in numeral:
        return len(numeral.replace("点", "").lstrip("零"))
    digits = str(_integer(numeral if numeral[0] in _DIGIT_VALUE else "一" + numeral))
    return len(digits.rstrip("0")) or 1


def parse_zh(text: str) -> float:
    """A number the way the notes say it: 零点三 → 0.3, 六百 → 600, 三千亿 → 3e11,
    百分之四 → 0.04, 万分之三 → 0.0003, 二分之一 → 0.5. Raises ValueError otherwise."""
    text = text.strip()
    if "分之" in text:
        denominator, numerator = text.split("分之", 1)
        return parse_zh(numerator) / _integer(denominator if denominator[0] in _DIGIT_VALUE else "一" + denominator)
    if text.endswith("点几"):
        raise ValueError(f"{text!r} states only its whole part")
    if "点" in text:
        whole, fraction = text.split("点", 1)
        if not fraction or any(ch not in _DIGIT_VALUE for ch in fraction):
            raise ValueError(f"not a Chinese decimal: {text!r}")
        return _integer(whole) + float("0." + "".join(str(_DIGIT_VALUE[ch]) for ch in fraction))
    return float(_integer(text))


def as_written_digits(text: str) -> str:
    """The notes' Chinese numeral rewritten in digits with the precision it states:
    零点三 → "0.3", 三千亿 → "300000000000" (one significant figure), 百分之四 → "4 %",
    万分之三 → "0.0003". Raises ValueError where ``text`` is not a plain numeral."""
    text = text.strip()
    if text.startswith("百分之"):
        return as_written_digits(text[len("百分之"):]) + " %"
    if text.endswith("点几"):                   # 一点几: only the whole part is stated
        return f"{int(parse_zh(text[:-2]))}.x"
    value = parse_zh(text)
    if "分之" in text:                          # as precise as numerator and denominator are
        denominator, numerator = text.split("分之", 1)
        digits = max(_significant(numerator), _significant(denominator))
        return f"{value:.{digits - 1}e}"
    if "点" in text:
        return f"{value:.{len(text.split('点', 1)[1])}f}"
    return str(int(value))
