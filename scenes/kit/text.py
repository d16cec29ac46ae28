"""Text on screen: Chinese words, ledger numbers and formulas, each tagged for the tests.

Scenes never type a number into text, in digits or in Chinese numerals. They draw a ledger
quantity with :func:`number`, or fill a template like ``"{circuit.q} × {circuit.c}"`` (or
an item of a sequence, ``"{timeline.axis.ticks[2]}"``) with :func:`ledger_text`. Each
returned mobject carries ``ledger_keys`` so the legibility test can check that what is
drawn equals the ledger's display string, and that the scene declared it. A quantity whose
citation is unconfirmed (待核) is marked once per panel, with one footnote line.
Super- and subscripts (10⁻⁶, β₁, N_d) are set as raised or lowered glyphs at 75 % size, and
e-notation (1e-08) is drawn as a power of ten (1×10⁻⁸). Formulas whose digits are part of
notation (exponents, "÷ 2") use :func:`formula`, set in the theme's Latin formula font.
"""

from __future__ import annotations

import re
import string

from manim import MarkupText, Text

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
    "一模一样", "四舍五入", "一路", "一大截", "一阶矩", "二阶矩", "一阶导", "二阶导", "第三方", "归一化", "一批", "之一",
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


# Super- and subscripts are set as Pango <sup>/<sub> of ordinary glyphs: the Unicode script
# glyphs (⁻⁶, ₁) are drawn at about half the cap height, 9-13 px at 1280x720, too small to read.
SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺ᵀⁿⁱ", "0123456789−+Tni")
SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉₋₊ₐₑₒₓₕₖₗₘₙₚₛₜᵢⱼ", "0123456789−+aeoxhklmnpstij")
_SCRIPT_RUN = re.compile("([⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺ᵀⁿⁱ]+)|([₀₁₂₃₄₅₆₇₈₉₋₊ₐₑₒₓₕₖₗₘₙₚₛₜᵢⱼ]+)")
# A power of ten in e-notation (1e-08, 5e-04, 1e+23): never drawn, always m×10ⁿ.
E_NOTATION = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)[eE]([+-]?)0*(\d+)(?!\w)")
_TO_SUPERSCRIPT = str.maketrans("0123456789-−+", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁻⁺")


def powers_of_ten(content: str) -> str:
    """``1e-08`` → ``1×10⁻⁸``: e-notation written as a power of ten."""
    def power(match: re.Match) -> str:
        sign = "−" if match.group(2) == "-" else ""
        return f"{match.group(1)}×10{(sign + match.group(3)).translate(_TO_SUPERSCRIPT)}"

    return E_NOTATION.sub(power, content)


def _escape(content: str) -> str:
    return content.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# A one-letter symbol with a subscript written as code (N_d, d_in): drawn as a real subscript.
# Longer names with an underscore (micro_batch) are left alone.
_SYMBOL_SUBSCRIPT = re.compile(r"(?<![A-Za-z0-9_])([A-Za-zΨψηλβθσ])_([A-Za-z0-9]+)")


def script_markup(content: str) -> str | None:
    """Pango markup with each run of script glyphs (and each N_d) as <sup>/<sub> of plain
    glyphs; None when the content has no scripts (it is drawn as plain text)."""
    if not (_SCRIPT_RUN.search(content) or _SYMBOL_SUBSCRIPT.search(content)):
        return None
    return _scripts_as_markup(_SYMBOL_SUBSCRIPT.sub(r"\1<sub>\2</sub>", _escape(content)))


def _scripts_as_markup(escaped: str) -> str:
    def script(match: re.Match) -> str:
        if match.group(1):
            return f"<sup>{match.group(1).translate(SUPERSCRIPTS)}</sup>"
        return f"<sub>{match.group(2).translate(SUBSCRIPTS)}</sub>"

    return _SCRIPT_RUN.sub(script, escaped)


# Pango's own <sup> shrinks a glyph to about 60 %; these spans keep scripts at 75 % of the text
# (>= 14 px cap height at the smallest theme size) and raise or lower them by a fraction of
# the font size (Pango points are 1024 units; 0.2 pt a manim font-size unit).
SCRIPT_SCALE = "75%"
SUP_RISE, SUB_RISE = 0.09, -0.05     # points per font-size unit


def _sized_scripts(markup: str, font_size: float) -> str:
    sup = f'<span size="{SCRIPT_SCALE}" rise="{round(SUP_RISE * font_size * 1024)}">'
    sub = f'<span size="{SCRIPT_SCALE}" rise="{round(SUB_RISE * font_size * 1024)}">'
    return markup.replace("<sup>", sup).replace("<sub>", sub).replace("</sup>", "</span>").replace("</sub>", "</span>")


def _text(content: str, size: str, color: str, *, font: str | None = None, **kwargs) -> Text | MarkupText:
    content = powers_of_ten(content)
    markup = script_markup(content)
    style = dict(font=font or theme.font(), font_size=theme.size(size), color=theme.text_color(color))
    if markup is None:
        return Text(content, **style, **kwargs)
    weight = kwargs.pop("weight", None)     # a takeaway's weight applies to markup text too
    if kwargs:
        raise ValueError(f"{content!r}: text with super- or subscripts takes no {', '.join(kwargs)}")
    return MarkupText(_sized_scripts(markup, style["font_size"]), **style, **({"weight": weight} if weight else {}))


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


# 待核 once per panel: the first text in a panel that shows an unconfirmed quantity gets this
# mark, and the panel's one footnote line says what it means. The base scene opens each
# panel with begin_panel() and shows take_footnote() when it returns one; a scene built
# outside panels keeps the mark spelt out on every such text.
UNCONFIRMED_MARK = "※"
_panel_marks = {"open": False, "marked": False, "taken": False}


def begin_panel() -> None:
    """A new panel: its first unconfirmed quantity gets the mark again."""
    _panel_marks.update(open=True, marked=False, taken=False)


def take_footnote() -> Text | None:
    """The panel's footnote, the first time it is asked for after a text in the panel took
    the mark (else None), at the bottom left of the safe area."""
    if not _panel_marks["marked"] or _panel_marks["taken"]:
        return None
    _panel_marks["taken"] = True
    from manim import DL

    note = words(f"{UNCONFIRMED_MARK} {UNCONFIRMED}：出处尚未核实", size="small", color="muted")
    return note.to_corner(DL, buff=theme.space("safe"))


def _unconfirmed_suffix() -> str:
    if not _panel_marks["open"]:
        return f"（{UNCONFIRMED}）"
    if _panel_marks["marked"]:
        return ""
    _panel_marks["marked"] = True
    return UNCONFIRMED_MARK


def ledger_text(template: str, *, size: str = "body", color: str = "ink", **kwargs) -> Text:
    """Words with ledger numbers filled in, e.g. ``"读数 {slider.readout_before}"``."""
    _refuse_typed_numbers(_PLACEHOLDER.sub("", template), f"ledger_text({template!r})")
    content, keys = fill(template)
    if any(quantity(key).status == UNCONFIRMED for key in keys):
        content += _unconfirmed_suffix()
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


# Formula notation typed in a scene: x^2, 2^(−l/2), d_in, N_{d}; a literal ^ or _ is never drawn.
_CARET = re.compile(r"\^(?:\(([^()]*)\)|\{([^{}]*)\}|([\w−+′]+))")
_UNDERSCORE = re.compile(r"_(?:\{([^{}]*)\}|(\w+))")
_MIDDLE_DOT = re.compile(r"\s*[·•∙⋅]\s*")
THIN_SPACE = "\u2009"


def formula_markup(content: str) -> str:
    """Pango markup for notation: real super- and subscripts, a thin-spaced ``·``, ``∂`` set
    close to what it differentiates."""
    content = _escape(powers_of_ten(content))
    content = _MIDDLE_DOT.sub(f"{THIN_SPACE}·{THIN_SPACE}", content)
    content = re.sub(r"∂\s+", "∂", content)
    content = _CARET.sub(lambda m: f"<sup>{next(g for g in m.groups() if g is not None)}</sup>", content)
    content = _UNDERSCORE.sub(lambda m: f"<sub>{next(g for g in m.groups() if g is not None)}</sub>", content)
    return _scripts_as_markup(content)


def formula(content: str, *, size: str = "body", color: str = "ink") -> MarkupText:
    """Notation whose digits are not data (``z = (x² − y²) / 2``, ``2·s·d_in``), set in the
    theme's formula font: single digits only; a number with two digits or a decimal point is
    data and comes from the ledger."""
    if re.search(r"\d[\d.]|\.\d", content):
        raise ValueError(f"formula({content!r}) holds a number: draw it with number() or ledger_text()")
    font_size = theme.size(size)
    mob = MarkupText(_sized_scripts(formula_markup(content), font_size), font=theme.formula_font(),
                     font_size=font_size, color=theme.text_color(color))
    mob.ledger_keys = ()
    mob.kind = "formula"
    return mob
