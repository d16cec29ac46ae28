"""Text on screen: Chinese words, ledger numbers and formulas, each tagged for the tests.

Scenes never type a number into text. They draw a ledger quantity with :func:`number`,
or fill a template like ``"{circuit.q} × {circuit.c}"`` with :func:`ledger_text`.
Each returned mobject carries ``ledger_keys`` so the legibility test can check that
what is drawn equals the ledger's display string, and that the scene declared it.
Formulas whose digits are part of notation (exponents, "÷ 2") use :func:`formula`.
"""

from __future__ import annotations

import re
import string

from manim import Text

from lecture_numerics import quantity
from scenes.kit import theme

_PLACEHOLDER = re.compile(r"\{([a-z0-9_.]+)\}")


def _text(content: str, size: str, color: str, **kwargs) -> Text:
    return Text(content, font=theme.font(), font_size=theme.size(size), color=theme.color(color), **kwargs)


def words(content: str, *, size: str = "body", color: str = "ink", **kwargs) -> Text:
    """Plain words (Chinese or Latin). Digits are refused: numbers come from the ledger."""
    if any(ch in string.digits for ch in content):
        raise ValueError(f"digits in words({content!r}): draw numbers with number() or ledger_text()")
    mob = _text(content, size, color, **kwargs)
    mob.ledger_keys = ()
    mob.kind = "words"
    return mob


def fill(template: str) -> tuple[str, tuple[str, ...]]:
    """Replace each ``{key}`` with the ledger display string; return text and keys used."""
    keys = tuple(_PLACEHOLDER.findall(template))
    return _PLACEHOLDER.sub(lambda m: quantity(m.group(1)).display, template), keys


def ledger_text(template: str, *, size: str = "body", color: str = "ink", **kwargs) -> Text:
    """Words with ledger numbers filled in, e.g. ``"读数 {slider.readout_before}"``."""
    literal = _PLACEHOLDER.sub("", template)
    if any(ch in string.digits for ch in literal):
        raise ValueError(f"typed digits in ledger_text({template!r}): use a {{key}} placeholder")
    content, keys = fill(template)
    mob = _text(content, size, color, **kwargs)
    mob.ledger_keys = keys
    mob.template = template
    mob.kind = "ledger"
    return mob


def number(key: str, *, size: str = "body", color: str = "ink", suffix: str = "", **kwargs) -> Text:
    """One ledger quantity's display string (plus an optional unit suffix without digits)."""
    return ledger_text("{" + key + "}" + suffix, size=size, color=color, **kwargs)


def formula(content: str, *, size: str = "body", color: str = "ink", **kwargs) -> Text:
    """Notation whose digits are not data (``z = (x² − y²) / 2``): exempt from the ledger check."""
    mob = _text(content, size, color, **kwargs)
    mob.ledger_keys = ()
    mob.kind = "formula"
    return mob
