"""The beat rules, as checks on a scene built with its stills (studio.stills.build_scene):
run on every lecture scene by tests/test_scene_legibility.py, which builds each scene once for
these and the legibility checks, and shown to bite on small scenes in tests/test_beats.py.

Every beat's quote must stand verbatim in the notes lines of a cue that shows its panel, a
panel's beats must quote the notes in order, every beat after a panel's first says which
sentence it stops for, and a beat's takeaway must be on screen when the beat ends. When its
panel ends, a starred takeaway (⭐ or ⛔ in the notes) must still be there, at full strength or in
the panel's recap line, unless a later beat of the panel replaces it; unstarred ones may leave.
"""

from __future__ import annotations

from studio import beats


def takeaways_on_screen(mobjects) -> set[str]:
    """Beats whose takeaway is on screen: a full line, or folded into the recap line."""
    names = set()
    for top in mobjects:
        for m in top.get_family():
            if getattr(m, "takeaway_of", None):
                names.add(m.takeaway_of)
            names.update(getattr(m, "recap_of", None) or ())
    return names


def unplaced_quotes(scene_id: str, scene, sheet) -> list[str]:
    missing = []
    for panel in dict.fromkeys(b.panel for b in scene.beats):
        panel_beats = [b for b in scene.beats if b.panel == panel]
        places = beats.place_beats(sheet, scene_id, panel, [b.says for b in panel_beats])
        for beat, place in zip(panel_beats, places):
            if beat.says and place is None:
                missing.append(f"{scene_id} {beat.name}: 「{beat.says}」 is not in the notes of a cue showing "
                               f"{panel}, after the beat before it")
    return missing


def silent_beats(scene) -> list[str]:
    return [b.name for b in scene.beats if b.n > 1 and not b.says]


def lost_takeaways(scene_id: str, scene) -> list[str]:
    stills = {s.name: s for s in scene.section_stills}
    problems = []
    for panel in dict.fromkeys(b.panel for b in scene.beats):
        panel_beats = [b for b in scene.beats if b.panel == panel]
        final = takeaways_on_screen(stills[panel_beats[-1].name].mobjects)
        for i, beat in enumerate(panel_beats):
            if beat.takeaway is None:
                continue
            if beat.name not in takeaways_on_screen(stills[beat.name].mobjects):
                problems.append(f"{scene_id} {beat.name}: its takeaway is not on screen as the beat ends")
            replaced = any(later.replaces and later.takeaway for later in panel_beats[i + 1:])
            starred = beat.emphasis.stars > 0 or beat.emphasis.warning
            if starred and not replaced and beat.name not in final:
                problems.append(f"{scene_id} {beat.name}: its takeaway is gone from {panel}'s final frame")
    return problems


# ---- hierarchy and the sentence budget ---------------------------------------------------

KEY_RATIO = 1.15            # a ⭐⭐⭐ takeaway's glyphs against every other text's in its frame
SENTENCE_CJK = 6            # a text of this many Chinese characters or more is a sentence
MOST_SENTENCES = 6          # in any final frame
USUAL_SENTENCES, USUAL_SHARE = 4, 0.9   # at most 4 in nine frames out of ten


def _tallest_glyph(text) -> float:
    from tests import legibility_checks as checks

    cjk, latin = checks.glyph_heights(text)
    return max(cjk + latin, default=0.0)


def key_sentence_problems(scene_id: str, scene) -> list[str]:
    """Every beat quoting a ⭐⭐⭐ sentence ends with a takeaway at least KEY_RATIO times as
    tall as any other visible text in its frame (panel header and title included)."""
    from tests import legibility_checks as checks

    stills = {s.name: s for s in scene.section_stills}
    problems = []
    for beat in scene.beats:
        if beat.emphasis.stars < 3 or beat.name not in stills:
            continue
        mobjects = stills[beat.name].mobjects
        keys = [m for top in mobjects for m in top.get_family() if getattr(m, "takeaway_of", None) == beat.name]
        if not keys:
            problems.append(f"{scene_id} {beat.name}: quotes a ⭐⭐⭐ line but has no takeaway on screen")
            continue
        key_texts = [t for k in keys for t in checks.texts_in([k])]
        key = max((_tallest_glyph(t) for t in key_texts), default=0.0)
        others = [t for t in checks.texts_in(mobjects) if checks.visible(t) and not any(t is k for k in key_texts)]
        rival = max(others, key=_tallest_glyph, default=None)
        if rival is not None and key < KEY_RATIO * _tallest_glyph(rival):
            problems.append(f"{scene_id} {beat.name}: its ⭐⭐⭐ takeaway is {key:.0f} px, under {KEY_RATIO} × "
                            f"{checks.drawn_string(rival)!r} ({_tallest_glyph(rival):.0f} px)")
    return problems


def sentences_in(mobjects) -> list[str]:
    """The visible texts of SENTENCE_CJK or more Chinese characters (chart labels are shorter)."""
    from tests import legibility_checks as checks

    found = []
    for text in checks.texts_in(mobjects):
        drawn = checks.drawn_string(text)
        if checks.visible(text) and sum(checks.is_cjk(ch) for ch in drawn) >= SENTENCE_CJK:
            found.append(drawn)
    return found


def sentence_counts(scene) -> dict[str, int]:
    return {s.name: len(sentences_in(s.mobjects)) for s in scene.section_stills}


def over_budget(scene_id: str, scene) -> list[str]:
    return [f"{scene_id} {s.name}: {len(found)} sentences on screen (at most {MOST_SENTENCES}): {found}"
            for s in scene.section_stills if len(found := sentences_in(s.mobjects)) > MOST_SENTENCES]
