"""Parsed text kept across renders (studio/manim_hooks/textcache.py): loaded glyphs are the parsed ones."""

from __future__ import annotations

import numpy as np


def family_arrays(mobject) -> list[tuple]:
    return [(type(m).__name__, m.points.copy(), m.fill_rgbas.copy(), m.stroke_rgbas.copy())
            for m in mobject.get_family()]


def test_a_loaded_text_is_the_parsed_text(tmp_path, monkeypatch):
    monkeypatch.setenv("LECTURE_TEXT_CACHE", str(tmp_path / "cache"))
    from manim.mobject.svg.svg_mobject import SVGMobject

    from scenes.kit.text import words
    from studio.manim_hooks import textcache

    original = SVGMobject.generate_mobject
    textcache.install()
    try:
        parsed = words("反向传播 AdamW —— 从后往前", size="title")
        entries = list((tmp_path / "cache").glob("*.pickle"))
        assert len(entries) == 1
        loaded = words("反向传播 AdamW —— 从后往前", size="title")
        other = words("正向传播", size="title")
    finally:
        SVGMobject.generate_mobject = original
    assert len(list((tmp_path / "cache").glob("*.pickle"))) == 2  # another text, another entry
    first, second = family_arrays(parsed), family_arrays(loaded)
    assert len(first) == len(second) > 10
    for (kind_a, points_a, fill_a, stroke_a), (kind_b, points_b, fill_b, stroke_b) in zip(first, second):
        assert kind_a == kind_b
        assert np.array_equal(points_a, points_b) and np.array_equal(fill_a, fill_b)
        assert np.array_equal(stroke_a, stroke_b)
    assert not np.array_equal(family_arrays(other)[1][1], first[1][1])
    # The glyph's source path is still there, read only on demand, and is the parsed one.
    glyph = next(m for m in loaded.get_family() if hasattr(m, "path_obj"))
    twin = next(m for m in parsed.get_family() if hasattr(m, "path_obj"))
    assert isinstance(glyph.path_obj, textcache.LazyPath)
    assert [str(s) for s in glyph.path_obj] == [str(s) for s in twin.path_obj]


def test_an_unreadable_entry_is_parsed_again(tmp_path, monkeypatch):
    monkeypatch.setenv("LECTURE_TEXT_CACHE", str(tmp_path))
    from manim.mobject.svg.svg_mobject import SVGMobject

    from scenes.kit.text import words
    from studio.manim_hooks import textcache

    original = SVGMobject.generate_mobject
    textcache.install()
    try:
        good = words("梯度", size="body")
        (entry,) = tmp_path.glob("*.pickle")
        entry.write_bytes(b"half a file")
        again = words("梯度", size="body")
    finally:
        SVGMobject.generate_mobject = original
    assert np.array_equal(good.get_family()[1].points, again.get_family()[1].points)
    assert entry.read_bytes() != b"half a file"  # rewritten whole
