"""Every section's final frame, built without rendering, must be legible at 1280x720.

Checks, per the walkthrough issue: CJK glyphs >= 20 px and digits/Latin >= 16 px tall,
everything inside the frame, no two texts overlapping, every drawn number equal to the
ledger's display string and declared in the scene's ``ledger_keys``.
"""

from __future__ import annotations

import itertools
import string
import unicodedata

import numpy as np
import pytest

from studio import registry

PX_PER_UNIT = 720 / 8.0          # manim's frame is 8 units tall
FRAME_HALF_W, FRAME_HALF_H = 16 / 9 * 4.0, 4.0
MIN_CJK_PX, MIN_LATIN_PX = 20.0, 16.0
TOLERANCE = 0.5 / PX_PER_UNIT    # half a pixel

SCENE_IDS = [sid for sid in registry.discover() if not sid.startswith("demo")]


@pytest.fixture(scope="module", params=SCENE_IDS)
def stills(request):
    from studio.stills import section_stills

    return request.param, section_stills(request.param)


def _texts(mobjects):
    from manim import MarkupText, Text

    seen = []
    for mob in mobjects:
        for part in mob.get_family():
            if isinstance(part, (Text, MarkupText)) and part not in seen and part.has_points():
                seen.append(part)
    return seen


def _is_cjk(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


def _glyph_heights(text) -> tuple[list[float], list[float]]:
    """Pixel heights of CJK glyphs and of digit/Latin glyphs in a Text."""
    chars = [c for c in text.text if not c.isspace()]
    glyphs = text.submobjects
    if len(chars) != len(glyphs):
        height = text.height * PX_PER_UNIT
        return ([height] if any(map(_is_cjk, chars)) else []), [height]
    cjk, latin = [], []
    for ch, glyph in zip(chars, glyphs):
        h = glyph.height * PX_PER_UNIT
        if _is_cjk(ch):
            cjk.append(h)
        elif ch in string.digits or (ch.isascii() and ch.isalpha()):
            latin.append(h)
    return cjk, latin


def _box(mob):
    lo, hi = mob.get_critical_point([-1, -1, 0]), mob.get_critical_point([1, 1, 0])
    return lo[:2], hi[:2]


def test_text_is_large_enough(stills):
    scene_id, sections = stills
    for section in sections:
        for text in _texts(section.mobjects):
            cjk, latin = _glyph_heights(text)
            if cjk:
                assert max(cjk) >= MIN_CJK_PX, f"{scene_id}/{section.name}: {text.text!r} CJK {max(cjk):.1f}px"
            if latin:
                assert max(latin) >= MIN_LATIN_PX, f"{scene_id}/{section.name}: {text.text!r} digits/Latin {max(latin):.1f}px"


def test_everything_inside_frame(stills):
    scene_id, sections = stills
    for section in sections:
        for mob in section.mobjects:
            for part in mob.get_family():
                if not part.has_points() or part.get_fill_opacity() == 0 and part.get_stroke_opacity() == 0 and not hasattr(part, "text"):
                    continue
                (x0, y0), (x1, y1) = _box(part)
                assert x0 >= -FRAME_HALF_W - TOLERANCE and x1 <= FRAME_HALF_W + TOLERANCE, \
                    f"{scene_id}/{section.name}: {type(part).__name__} {getattr(part, 'text', '')!r} leaves the frame horizontally ({x0:.2f}..{x1:.2f})"
                assert y0 >= -FRAME_HALF_H - TOLERANCE and y1 <= FRAME_HALF_H + TOLERANCE, \
                    f"{scene_id}/{section.name}: {type(part).__name__} {getattr(part, 'text', '')!r} leaves the frame vertically ({y0:.2f}..{y1:.2f})"


def test_no_texts_overlap(stills):
    scene_id, sections = stills
    for section in sections:
        visible = [t for t in _texts(section.mobjects) if t.get_fill_opacity() > 0.05]
        for a, b in itertools.combinations(visible, 2):
            (ax0, ay0), (ax1, ay1) = _box(a)
            (bx0, by0), (bx1, by1) = _box(b)
            overlap_x = min(ax1, bx1) - max(ax0, bx0)
            overlap_y = min(ay1, by1) - max(ay0, by0)
            assert overlap_x <= TOLERANCE or overlap_y <= TOLERANCE, \
                f"{scene_id}/{section.name}: {a.text!r} overlaps {b.text!r}"


def test_numbers_come_from_the_ledger(stills):
    from scenes.kit.text import fill

    scene_id, sections = stills
    entry = registry.select([scene_id])[0]
    for section in sections:
        for text in _texts(section.mobjects):
            kind = getattr(text, "kind", None)
            if kind == "ledger":
                expected, keys = fill(text.template)
                assert text.text == expected, f"{scene_id}: {text.text!r} != ledger {expected!r}"
                undeclared = set(keys) - set(entry.ledger_keys)
                assert not undeclared, f"{scene_id} draws {sorted(undeclared)} without declaring them in ledger_keys"
            elif kind is None:
                assert not any(ch in string.digits for ch in text.text), \
                    f"{scene_id}/{section.name}: typed number in {text.text!r}: draw it through scenes.kit.text"


def test_declared_keys_exist():
    from lecture_numerics import load_all

    known = load_all()
    for entry in registry.discover().values():
        missing = [k for k in entry.ledger_keys if k not in known]
        assert not missing, f"{entry.scene_id} declares unknown ledger keys {missing}"
