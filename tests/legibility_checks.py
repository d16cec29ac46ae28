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
MIN_SCRIPT_PX = 14.0             # cap height of a super- or subscript digit or capital
SAFE_MARGIN_PX = 30.0            # no text this close to the frame's edge
TOLERANCE = 0.5 / PX_PER_UNIT    # half a pixel
VISIBLE = 0.05                   # fill opacity under which a text is not drawn to be read

CHINESE_NUMERALS = "零〇一二两三四五六七八九十百千万亿几"
UNCONFIRMED_MARK = "待核"
FOOTNOTE_MARK = "※"
# Unicode script glyphs, whatever font draws them, and characters whose glyph reaches the
# cap height (lowercase x-height letters are measured against nothing).
SCRIPT_GLYPHS = set("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺ᵀⁿⁱ₀₁₂₃₄₅₆₇₈₉₋₊ₐₑₒₓₕₖₗₘₙₚₛₜᵢⱼ")
CAP_HEIGHT = set(string.digits + string.ascii_uppercase + "bdfhklt⁰¹²³⁴⁵⁶⁷⁸⁹ᵀ₀₁₂₃₄₅₆₇₈₉")
# A digit or sign set as a script reads as its Unicode script glyph (10<sup>−6</sup> is 10⁻⁶),
# so ledger displays match and notation (β₁, x²) is no typed number; e-notation reads as m×10ⁿ.
AS_SUPERSCRIPT = str.maketrans("0123456789−-+", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁻⁺")
AS_SUBSCRIPT = str.maketrans("0123456789−-+", "₀₁₂₃₄₅₆₇₈₉₋₋₊")
E_NOTATION = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)[eE]([+-]?)0*(\d+)(?!\w)")

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


def _markup_chars(text) -> list[tuple[str, bool]]:
    """Each drawn character and whether it is set as a script: Pango <sup>/<sub> markup, or
    a Unicode script glyph."""
    source = getattr(text, "original_text", None) or text.text
    from manim import MarkupText

    if not isinstance(text, MarkupText):
        return [(ch, ch in SCRIPT_GLYPHS) for ch in source]
    chars, open_tags = [], []      # per open tag: 1 raised, -1 lowered, 0 neither
    for token in re.split(r"(<[^>]*>)", source):
        if token.startswith("</"):
            open_tags = open_tags[:-1]
        elif token.startswith("<"):
            rise = re.search(r'rise="(-?\d+)', token)
            shift = int(rise.group(1)) if rise else {"sup": 1, "sub": -1}.get(re.match(r"<\s*(\w*)", token).group(1), 0)
            open_tags.append((shift > 0) - (shift < 0))
        else:
            plain = token.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
            shift = next((t for t in reversed(open_tags) if t), 0)
            table = AS_SUPERSCRIPT if shift > 0 else AS_SUBSCRIPT
            chars += [(ch.translate(table) if shift else ch, bool(shift) or ch in SCRIPT_GLYPHS) for ch in plain]
    return chars


def drawn_chars(text) -> list[tuple[str, bool]]:
    """The drawn characters (white space dropped, as glyphs are), each with its script flag."""
    return [(ch, script) for ch, script in _markup_chars(text) if not ch.isspace()]


def drawn_string(text) -> str:
    """What the text says, without white space (manim drops spaces from ``.text``)."""
    return "".join(ch for ch, _ in drawn_chars(text))


def screen_spelling(display: str) -> str:
    """A ledger display as the screen spells it: e-notation as m×10ⁿ."""
    def power(match: re.Match) -> str:
        exponent = ("−" if match.group(2) == "-" else "") + match.group(3)
        return f"{match.group(1)}×10{exponent.translate(AS_SUPERSCRIPT)}"

    return E_NOTATION.sub(power, display)


def is_cjk(ch: str) -> bool:
    """A CJK character (letter), not wide punctuation or symbols ("＝", "，" are flat)."""
    return unicodedata.east_asian_width(ch) in ("W", "F") and unicodedata.category(ch) == "Lo"


def glyphs_of(text) -> list[Any]:
    return [g for g in text.submobjects if g.has_points()] or text.family_members_with_points()


def glyph_heights(text) -> tuple[list[float], list[float]]:
    """Pixel heights of CJK glyphs and of digit/Latin glyphs (scripts apart), glyph by glyph."""
    chars, glyphs = drawn_chars(text), glyphs_of(text)
    if len(chars) != len(glyphs):
        height = text.height * PX_PER_UNIT
        return ([height] if any(is_cjk(ch) for ch, _ in chars) else []), [height]
    cjk, latin = [], []
    for (ch, script), glyph in zip(chars, glyphs):
        h = glyph.height * PX_PER_UNIT
        if is_cjk(ch):
            cjk.append(h)
        elif not script and (ch in string.digits or (ch.isascii() and ch.isalpha())):
            latin.append(h)
    return cjk, latin


def script_heights(text) -> list[tuple[str, float]]:
    """Each super- or subscript glyph that reaches the cap height, with its pixel height."""
    chars, glyphs = drawn_chars(text), glyphs_of(text)
    if len(chars) != len(glyphs):
        return []
    return [(ch, glyph.height * PX_PER_UNIT) for (ch, script), glyph in zip(chars, glyphs)
            if script and ch in CAP_HEIGHT]


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


def small_scripts(where: str, mobjects) -> list[str]:
    """Super- and subscripts (10⁻⁶, β₁, Vᵀ) at least MIN_SCRIPT_PX tall at 1280×720."""
    problems = []
    for text in texts_in(mobjects):
        small = [f"{ch} {h:.1f}px" for ch, h in script_heights(text) if h < MIN_SCRIPT_PX]
        if small and visible(text):
            problems.append(f"{where}: {drawn_string(text)!r} scripts {', '.join(small)} < {MIN_SCRIPT_PX}")
    return problems


def outside_safe_area(where: str, mobjects) -> list[str]:
    """No visible text within SAFE_MARGIN_PX of the frame's edge."""
    margin = SAFE_MARGIN_PX / PX_PER_UNIT - TOLERANCE
    problems = []
    for text in texts_in(mobjects):
        if not visible(text):
            continue
        (x0, y0), (x1, y1) = box(text)
        gaps = {"left": x0 + FRAME_HALF_W, "right": FRAME_HALF_W - x1,
                "bottom": y0 + FRAME_HALF_H, "top": FRAME_HALF_H - y1}
        close = [f"{side} {gap * PX_PER_UNIT:.0f}px" for side, gap in gaps.items() if gap < margin]
        if close:
            problems.append(f"{where}: {drawn_string(text)!r} is inside the {SAFE_MARGIN_PX:.0f}px margin "
                            f"({', '.join(close)})")
    return problems


def e_notation(where: str, mobjects) -> list[str]:
    """Powers of ten are drawn as ×10ⁿ, never as 1e-08."""
    return [f"{where}: {drawn_string(text)!r} shows e-notation" for text in texts_in(mobjects)
            if E_NOTATION.search(drawn_string(text))]


MIN_CONTRAST = 3.0   # WCAG AA for large text: every screen text is at least 24 px tall


def _luminance(rgb) -> float:
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_on(rgb, opacity: float, background) -> float:
    """WCAG contrast of a fill of ``rgb`` at ``opacity`` laid over ``background`` (0…1 channels)."""
    seen = [opacity * c + (1 - opacity) * b for c, b in zip(rgb, background)]
    light, dark = sorted((_luminance(seen), _luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def low_contrast(where: str, mobjects, background=(1.0, 1.0, 1.0)) -> list[str]:
    """Text meant to be read (drawn above the visibility floor) holds MIN_CONTRAST against
    the background, its opacity counted: a faded punchline is a punchline nobody reads."""
    problems = []
    for text in texts_in(mobjects):
        if not visible(text):
            continue
        glyph = max(text.family_members_with_points(), key=lambda g: g.get_fill_opacity())
        rgb, opacity = glyph.get_fill_color().to_rgb(), glyph.get_fill_opacity()
        ratio = contrast_on(rgb, opacity, background)
        if ratio < MIN_CONTRAST:
            problems.append(f"{where}: {drawn_string(text)!r} contrast {ratio:.1f}:1 < {MIN_CONTRAST}:1")
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
    shown = [drawn_string(t) for t in texts_in(mobjects) if visible(t)]
    footnoted = any(FOOTNOTE_MARK in s for s in shown) and \
        any(s.startswith(FOOTNOTE_MARK) and UNCONFIRMED_MARK in s for s in shown)
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
            expected = re.sub(r"\s+", "", screen_spelling(expected))
            at = _find_outside_names(content, expected, names)
            if at < 0:
                problems.append(f"{where}: {content!r} does not show {key} as the ledger's {expected!r}")
                continue
            content = content[:at] + " " + content[at + len(expected):]
            if entry.get("status") == UNCONFIRMED_MARK and UNCONFIRMED_MARK not in drawn_string(text) \
                    and not footnoted:
                problems.append(f"{where}: {key} is unconfirmed (待核) but drawn without the mark or the "
                                "panel's footnote")
        content = content.replace(UNCONFIRMED_MARK, " ").replace(FOOTNOTE_MARK, " ")
        for name in sorted(names, key=len, reverse=True):
            content = content.replace(name, " ")
        typed = _typed_numbers(content, kind, non_quantities)
        if typed:
            problems.append(f"{where}: typed number(s) {typed} in {drawn_string(text)!r}: draw them from the ledger")
    return problems


def _own_rectangles(mob, found: list) -> None:
    """Filled plain rectangles a scene made itself: the kit's bars (its classes, or anything it
    tags ``kit_bar``) are left out with everything under them."""
    if getattr(mob, "kit_bar", False) or type(mob).__module__.startswith("scenes.kit"):
        return
    if type(mob).__name__ == "Rectangle" and mob.get_fill_opacity() > 0.05:
        found.append(mob)
    for sub in mob.submobjects:
        _own_rectangles(sub, found)


def own_bars(where: str, mobjects) -> list[str]:
    """Bars drawn without the kit: two or more filled rectangles standing on one baseline with
    one thickness but lengths that differ by more than a tenth (or the same, lying on their
    left edge). Boxes of one size in a row (a pipeline's stages) are not bars."""
    rects: list = []
    for mob in mobjects:
        _own_rectangles(mob, rects)
    problems = []
    for axis, edge in ((1, "baseline"), (0, "left edge")):
        rows: dict = {}
        for rect in rects:
            thickness = rect.width if axis == 1 else rect.height
            rows.setdefault((round(float(rect.get_corner([-1, -1, 0])[axis]), 2), round(thickness, 2)), []).append(rect)
        for (at, _), row in rows.items():
            lengths = sorted(r.height if axis == 1 else r.width for r in row)
            if len(row) >= 2 and lengths[-1] > 1.1 * lengths[0]:
                problems.append(f"{where}: {len(row)} bars of its own on the {edge} at {at:.2f}: draw them with scenes.kit.bars")
    return problems


SWATCH_MAX = 0.8      # a legend swatch: a line this short, or a square this small (scene units)
SWATCH_TEXT_GAP = 0.4


def _own_swatches(mob, found: list) -> None:
    """Short level lines and small filled squares or dots a scene made itself (the kit's
    drawings, a bar's leader lines for one, are left out with everything under them)."""
    if getattr(mob, "kit_legend", False) or type(mob).__module__.startswith("scenes.kit"):
        return
    name = type(mob).__name__
    if name in ("Line", "DashedLine") and mob.width <= SWATCH_MAX and mob.height < 0.02 and mob.width > 0.1:
        found.append(mob)
    elif name in ("Square", "Rectangle", "Dot") and mob.get_fill_opacity() > 0.3 \
            and 0.05 < mob.width <= SWATCH_MAX / 2 and 0.05 < mob.height <= SWATCH_MAX / 2:
        found.append(mob)
    for sub in mob.submobjects:
        _own_swatches(sub, found)


def own_legends(where: str, mobjects) -> list[str]:
    """Legends drawn without the kit: two or more swatches, each with a text just to its right
    on its level, lined up in a column or a row (annotate.legend draws those)."""
    swatches: list = []
    for mob in mobjects:
        _own_swatches(mob, swatches)
    texts = [t for t in texts_in(mobjects) if visible(t)]
    keyed = []
    for sw in swatches:
        right, y = sw.get_right()[0], sw.get_center()[1]
        if any(0 <= t.get_left()[0] - right <= SWATCH_TEXT_GAP and abs(t.get_center()[1] - y) <= 0.15 for t in texts):
            keyed.append(sw)
    for a, b in itertools.combinations(keyed, 2):
        same_column = abs(a.get_left()[0] - b.get_left()[0]) < 0.05 and abs(a.get_y() - b.get_y()) < 1.2
        same_row = abs(a.get_y() - b.get_y()) < 0.05
        if same_column or same_row:
            return [f"{where}: a legend of its own at ({a.get_x():.2f}, {a.get_y():.2f}): draw it with annotate.legend"]
    return []
