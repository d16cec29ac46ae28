"""Text on screen: Chinese words, ledger numbers and formulas, each tagged for the tests.

Scenes never type a number into text, in digits or in Chinese numerals. They draw a ledger
quantity with :func:`number`, or fill a template like ``"{circuit.q} × {circuit.c}"`` (or
an item of a sequence, ``"{timeline.axis.ticks[2]}"``) with :func:`ledger_text`. Each
returned mobject carries ``ledger_keys`` so the legibility test can check that what is
drawn equals the ledger's display string, and that the scene declared it. A quantity whose
citation is unconfirmed (待核) is drawn with that mark beside it.
Formulas whose digits are part of notation (exponents, "÷ 2") use :func:`formula`.
"""

from __future__ import annotations

import re
import string

from manim import Text

from lecture_numerics import quantity
from lecture_numerics.provenance import UNCONFIRMED
from scenes.kit import theme

_PLACEHOLDER = re.compile(r"\{([a-z0-9_.]+)(?:\[(\d+)\])?\}")

# Chinese numerals say quantities as surely as digits do (三千亿, 几百亿, 三倍).
CHINESE_NUMERALS = frozenset("零〇一二两三四五六七八九十百千万亿几")
# Phrases whose numeral counts nothing the lecture measures: "one" as an article or a unit
# of the story ("一步之内", "动一格"), not a quantity read off a table or computed.
NON_QUANTITY_PHRASES = (
    "一个", "一步", "一遍", "一趟", "一块", "一列", "一格", "一点", "一层", "一件", "一级",
    "一下", "一起", "一样", "一边", "一头", "一条", "一张", "一句", "一份", "一行", "一串",
    "一直", "一定", "一旦", "一次性", "统一", "唯一", "万一", "几乎", "一眼", "两边", "动几格", "好几",
    "一模一样", "四舍五入", "一路", "一大截", "一阶矩", "二阶矩", "一阶导", "二阶导", "第三方", "归一化",
    "第零节", "第一节", "第二节", "第三节", "第四节", "第五节", "第六节",
)
# Names that contain digits without stating a quantity: number formats and models.
NAMES_WITH_DIGITS = (
    "DeepSeek-V3", "GPT-3", "bf16", "fp16", "fp32", "fp8", "BF16", "FP16", "FP32", "FP8",
    "V3", "ZeRO-1", "ZeRO-2", "ZeRO-3",
)


def numeral_quantities(content: str) -> list[str]:
    """Chinese numerals in ``content`` outside the non-quantity phrases."""
    for phrase in NON_QUANTITY_PHRASES:
        content = content.replace(phrase, " ")
    return re.findall(f"[{''.join(sorted(CHINESE_NUMERALS))}]+", content)


def without_names(content: str) -> str:
    """``content`` with the digit-bearing names taken out (longest first: DeepSeek-V3 before V3)."""
    for name in sorted(NAMES_WITH_DIGITS, key=len, reverse=True):
        content = content.replace(name, " ")
    return content


def _refuse_typed_numbers(content: str, where: str) -> None:
    content = without_names(content)
    if any(ch in string.digits for ch in content):
        raise ValueError(f"digits in {where}: draw numbers with number() or ledger_text()")
    if numeral_quantities(content):
        raise ValueError(f"Chinese numerals {numeral_quantities(content)} in {where}: a quantity comes "
                         "from the ledger (number() / ledger_text())")


# Superscript digits and signs (10⁻³, 1.9×10⁻⁶, x²): drawn in the theme's exponent font,
# since the CJK font has only ¹²³⁴ and a fallback would mix two fonts in one exponent.
_EXPONENT_RUN = re.compile("[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+")


def _text(content: str, size: str, color: str, **kwargs) -> Text:
    exponent_font = theme.exponent_font()
    if exponent_font and "t2f" not in kwargs:
        kwargs["t2f"] = {run: exponent_font for run in set(_EXPONENT_RUN.findall(content))}
    return Text(content, font=theme.font(), font_size=theme.size(size), color=theme.color(color), **kwargs)


def words(content: str, *, size: str = "body", color: str = "ink", **kwargs) -> Text:
    """Plain words (Chinese or Latin). Numbers, in digits or numerals, are refused."""
    _refuse_typed_numbers(content, f"words({content!r})")
    mob = _text(content, size, color, **kwargs)
    mob.ledger_keys = ()
    mob.kind = "words"
    return mob


def item_display(key: str, index: int | None) -> str:
    """The display string of a quantity, or of item ``index`` of a sequence quantity."""
    q = quantity(key)
    if index is None:
        return q.display
    if not q.item_displays:
        raise ValueError(f"{key} has no item displays: declare it with item_fmt to draw {{{key}[{index}]}}")
    return q.item_displays[index]


def fill(template: str) -> tuple[str, tuple[str, ...]]:
    """Replace each ``{key}`` (or ``{key[i]}``) with the ledger display; return text and keys."""
    keys = tuple(dict.fromkeys(m.group(1) for m in _PLACEHOLDER.finditer(template)))
    text = _PLACEHOLDER.sub(lambda m: item_display(m.group(1), None if m.group(2) is None else int(m.group(2))),
                            template)
    return text, keys


def ledger_text(template: str, *, size: str = "body", color: str = "ink", **kwargs) -> Text:
    """Words with ledger numbers filled in, e.g. ``"读数 {slider.readout_before}"``."""
    _refuse_typed_numbers(_PLACEHOLDER.sub("", template), f"ledger_text({template!r})")
    content, keys = fill(template)
    if any(quantity(key).status == UNCONFIRMED for key in keys):
        content += f"（{UNCONFIRMED}）"
    mob = _text(content, size, color, **kwargs)
    mob.ledger_keys = keys
    mob.template = template
    mob.kind = "ledger"
    return mob


def line(template: str, *, size: str = "body", color: str = "ink", **kwargs) -> Text:
    """The speaker's words, with ledger numbers where the template has ``{key}`` placeholders."""
    if _PLACEHOLDER.search(template):
        return ledger_text(template, size=size, color=color, **kwargs)
    return words(template, size=size, color=color, **kwargs)


def number(key: str, *, size: str = "body", color: str = "ink", suffix: str = "", **kwargs) -> Text:
    """One ledger quantity's display string (plus an optional unit suffix without digits)."""
    return ledger_text("{" + key + "}" + suffix, size=size, color=color, **kwargs)


def formula(content: str, *, size: str = "body", color: str = "ink", **kwargs) -> Text:
    """Notation whose digits are not data (``z = (x² − y²) / 2``): single digits only; a
    number with two digits or a decimal point is data and comes from the ledger."""
    if re.search(r"\d[\d.]|\.\d", content):
        raise ValueError(f"formula({content!r}) holds a number: draw it with number() or ledger_text()")
    mob = _text(content, size, color, **kwargs)
    mob.ledger_keys = ()
    mob.kind = "formula"
    return mob
