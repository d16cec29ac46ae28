"""The legibility checks, as functions that return what is wrong (empty: legible).

Used by tests/test_scene_legibility.py on every registered scene, and by the same file on a
deliberately bad scene, to prove that each check finds what it claims to find.

A manim ``Text`` is a container: its glyphs carry the points, the container has none of its
own. So texts are found by type, and measured glyph by glyph.
"""

from __future__ import annotations

import itertools
import re
import string
import unicodedata
from typing import Any, Iterable

PX_PER_UNIT = 720 / 8.0          # manim's frame is 8 units tall; at 1280×720, 90 px a unit
FRAME_HALF_W, FRAME_HALF_H = 16 / 9 * 4.0, 4.0
MIN_CJK_PX, MIN_LATIN_PX = 20.0, 16.0
TOLERANCE = 0.5 / PX_PER_UNIT    # half a pixel
VISIBLE = 0.05                   # fill opacity under which a text is not drawn to be read

CHINESE_NUMERALS = "零〇一二两三四五六七八九十百千万亿几"
UNCONFIRMED_MARK = "待核"


def texts_in(mobjects: Iterable[Any]) -> list[Any]:
    """Every Text/MarkupText on screen that has glyphs, once each."""
    from manim import MarkupText, Text

    seen: list[Any] = []
    for mob in mobjects:
        for part in mob.get_family():
            if isinstance(part, (Text, MarkupText)) and part.family_members_with_points() \
                    and not any(part is other for other in seen):
                seen.append(part)
    return seen


def visible(text) -> bool:
    return max((g.get_fill_opacity() for g in text.family_members_with_points()), default=0) > VISIBLE


def drawn_string(text) -> str:
    """What the text says, without white space (manim drops spaces from ``.text``)."""
    return re.sub(r"\s+", "", getattr(text, "original_text", None) or text.text)


def is_cjk(ch: str) -> bool:
    """A CJK character (letter), not wide punctuation or symbols ("＝", "，" are flat)."""
    return unicodedata.east_asian_width(ch) in ("W", "F") and unicodedata.category(ch) == "Lo"


def glyph_heights(text) -> tuple[list[float], list[float]]:
    """Pixel heights of CJK glyphs and of digit/Latin glyphs, glyph by glyph."""
    chars = list(drawn_string(text))
    glyphs = [g for g in text.submobjects if g.has_points()] or text.family_members_with_points()
    if len(chars) != len(glyphs):
        height = text.height * PX_PER_UNIT
        return ([height] if any(map(is_cjk, chars)) else []), [height]
    cjk, latin = [], []
    for ch, glyph in zip(chars, glyphs):
        h = glyph.height * PX_PER_UNIT
        if is_cjk(ch):
            cjk.append(h)
        elif ch in string.digits or (ch.isascii() and ch.isalpha()):
            latin.append(h)
    return cjk, latin


def box(mob) -> tuple[Any, Any]:
    lo, hi = mob.get_critical_point([-1, -1, 0]), mob.get_critical_point([1, 1, 0])
    return lo[:2], hi[:2]


# --- the checks: each returns a list of problems -------------------------------------------

def missing_text(where: str, mobjects) -> list[str]:
    return [] if any(visible(t) for t in texts_in(mobjects)) else [f"{where}: no text on screen"]


def too_small(where: str, mobjects) -> list[str]:
    problems = []
    for text in texts_in(mobjects):
        cjk, latin = glyph_heights(text)
        if cjk and max(cjk) < MIN_CJK_PX:
            problems.append(f"{where}: {drawn_string(text)!r} CJK {max(cjk):.1f}px < {MIN_CJK_PX}")
        if latin and max(latin) < MIN_LATIN_PX:
            problems.append(f"{where}: {drawn_string(text)!r} digits/Latin {max(latin):.1f}px < {MIN_LATIN_PX}")
    return problems


def outside_frame(where: str, mobjects) -> list[str]:
    problems = []
    for mob in mobjects:
        for part in mob.family_members_with_points():
            if part.get_fill_opacity() == 0 and part.get_stroke_opacity() == 0:
                continue
            (x0, y0), (x1, y1) = box(part)
            if x0 < -FRAME_HALF_W - TOLERANCE or x1 > FRAME_HALF_W + TOLERANCE \
                    or y0 < -FRAME_HALF_H - TOLERANCE or y1 > FRAME_HALF_H + TOLERANCE:
                problems.append(f"{where}: {type(part).__name__} at x {x0:.2f}..{x1:.2f}, y {y0:.2f}..{y1:.2f} "
                                "leaves the frame")
    return problems


def overlapping(where: str, mobjects) -> list[str]:
    problems = []
    shown = [t for t in texts_in(mobjects) if visible(t)]
    for a, b in itertools.combinations(shown, 2):
        (ax0, ay0), (ax1, ay1) = box(a)
        (bx0, by0), (bx1, by1) = box(b)
        if min(ax1, bx1) - max(ax0, bx0) > TOLERANCE and min(ay1, by1) - max(ay0, by0) > TOLERANCE:
            problems.append(f"{where}: {drawn_string(a)!r} overlaps {drawn_string(b)!r}")
    return problems


def numeral_quantities(content: str, non_quantities: Iterable[str]) -> list[str]:
    for phrase in non_quantities:
        content = content.replace(phrase, " ")
    return re.findall(f"[{CHINESE_NUMERALS}]+", content)


def _typed_numbers(content: str, kind: str | None, non_quantities: Iterable[str]) -> list[str]:
    if kind == "formula":
        # Notation keeps single digits (÷ 2, x²); a longer number is data.
        found = re.findall(r"\d[\d.]+|\.\d", content)
    else:
        found = re.findall(r"\d+", content)
    return found + numeral_quantities(content, non_quantities)


def _find_outside_names(content: str, expected: str, names: Iterable[str]) -> int:
    """Where ``expected`` is drawn: preferably not inside a name (a ledger "3" is not the "3"
    of "DeepSeek-V3"), else anywhere (a format name may be built from its ledger width)."""
    inside = [(m.start(), m.start() + len(name)) for name in names for m in re.finditer(re.escape(name), content)]
    hits = [m.start() for m in re.finditer(re.escape(expected), content)] if expected else []
    for at in hits:
        if not any(lo < at + len(expected) and at < hi for lo, hi in inside):
            return at
    return hits[0] if hits else -1


def numbers_off_ledger(where: str, mobjects, ledger: dict[str, dict[str, Any]], declared: Iterable[str],
                       non_quantities: Iterable[str], names: Iterable[str] = ()) -> list[str]:
    """Every number drawn is a ledger display of a key the scene declares, and nothing else.

    For a text built from a template, each ``{key}`` / ``{key[i]}`` of the template must be
    drawn as the ledger's display for it (read from the ledger, not re-filled by the kit);
    once those are taken out, no digit and no Chinese-numeral quantity may remain."""
    declared = set(declared)
    problems = []
    for text in texts_in(mobjects):
        content, kind = drawn_string(text), getattr(text, "kind", None)
        if kind not in ("words", "ledger", "formula"):
            problems.append(f"{where}: {content!r} was not drawn through scenes.kit.text")
            kind = None
        placeholders = re.findall(r"\{([a-z0-9_.]+)(?:\[(\d+)\])?\}", getattr(text, "template", "")) \
            if kind == "ledger" else []
        for key, index in placeholders:
            if key not in declared:
                problems.append(f"{where}: draws {key} without declaring it in ledger_keys")
            entry = ledger.get(key)
            if entry is None:
                problems.append(f"{where}: {key} is not in the ledger")
                continue
            expected = entry["display"] if index == "" else entry.get("item_displays", [])[int(index)]
            expected = re.sub(r"\s+", "", expected)
            at = _find_outside_names(content, expected, names)
            if at < 0:
                problems.append(f"{where}: {content!r} does not show {key} as the ledger's {expected!r}")
                continue
            content = content[:at] + " " + content[at + len(expected):]
            if entry.get("status") == UNCONFIRMED_MARK and UNCONFIRMED_MARK not in drawn_string(text):
                problems.append(f"{where}: {key} is unconfirmed (待核) but drawn without the mark")
        content = content.replace(UNCONFIRMED_MARK, " ")
        for name in sorted(names, key=len, reverse=True):
            content = content.replace(name, " ")
        typed = _typed_numbers(content, kind, non_quantities)
        if typed:
            problems.append(f"{where}: typed number(s) {typed} in {drawn_string(text)!r}: draw them from the ledger")
    return problems
