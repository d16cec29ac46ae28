"""The beat rules, as checks on a scene built with its stills (studio.engine.stills.build_scene):
run on every lecture scene by tests/test_scene_legibility.py, which builds each scene once for
these and the legibility checks, and shown to bite on small scenes in tests/test_beats.py.

Every beat's quote must stand verbatim in the notes lines of a cue that shows its panel, a
panel's beats must quote the notes in order, every beat after a panel's first says which
sentence it stops for, and a beat's takeaway must be on screen when the beat ends. When its
panel ends, a starred takeaway (⭐ or ⛔ in the notes) must still be there, at full strength or in
the panel's recap line, unless a later beat of the panel replaces it; unstarred ones may leave.
"""

from __future__ import annotations

import re
from typing import Any

from studio.track import beats


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


# ---- screen against speech ------------------------------------------------------------------
# A beat's quote is what the speaker says while the beat's last frame is up. Where the quote says
# a number the census reads as ledger key K, and that frame draws K, the two must be the same
# number (the screen's 0.0915 is not the speech's 零点零九二, though the one rounds to the other),
# or the notes' errata must carry an entry (改口 or 细节) for K at that line.

_PLACEHOLDER = re.compile(r"\{([a-z0-9_.]+)(?:\[(\d+)\])?\}")
_SHOWN_NUMBER = re.compile(r"[−-]?\d[\d,]*(?:\.\d+)?\s*[KMB]?")
_SCALE = {"K": 1e3, "M": 1e6, "B": 1e9}


def drawn_keys(mobjects, ledger: dict[str, dict[str, Any]]) -> dict[str, set[str]]:
    """Each ledger key a frame draws (through the kit's ledger text), with the displays drawn."""
    from tests.legibility_checks import texts_in, visible

    found: dict[str, set[str]] = {}
    for text in texts_in(mobjects):
        if not visible(text):
            continue
        for key, index in _PLACEHOLDER.findall(getattr(text, "template", "") or ""):
            entry = ledger.get(key) or {}
            display = entry.get("display", "") if index == "" else (entry.get("item_displays") or [""])[int(index)]
            found.setdefault(key, set()).add(display)
    return found


def spoken_value(said: str) -> float | None:
    """The number a notes numeral says (四十 → 40, 零点零九二 → 0.092, 4.15 → 4.15); None for words
    that are no plain numeral (几百亿, 两三百)."""
    from lecture_numerics.approx import approximate_span
    from lecture_numerics.zh import parse_zh

    text = said.strip().replace("−", "-").rstrip("×倍%").strip()
    if not text or approximate_span(text) is not None:
        return None
    try:
        return float(text.replace(",", ""))
    except ValueError:
        pass
    try:
        return parse_zh(text.replace("百分之", ""))
    except (ValueError, KeyError, IndexError):
        return None


def shown_value(display: str) -> float | None:
    """The number a ledger display shows (0.0915, 39× → 39, 5.7K → 5700, 82.1% → 82.1)."""
    fraction = re.search(r"(\d+)\s*/\s*(\d+)", display or "")
    if fraction:
        return int(fraction[1]) / int(fraction[2])
    bare_power = re.match(r"\s*10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)", display or "")                 # 10⁻³
    if bare_power:
        return 10.0 ** int(bare_power[1].translate(str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")))
    m = _SHOWN_NUMBER.search(display or "")
    if not m:
        return None
    text = m.group().replace("−", "-").replace(",", "").strip()
    scale = _SCALE.get(text[-1:], 1.0)
    power = re.match(r"\s*×\s*10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)", display[m.end():])       # 1.9×10⁻⁶
    if power:
        scale = 10.0 ** int(power[1].translate(str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")))
    if display[m.end():].lstrip().startswith("‰"):
        scale = 1e-3                                                             # 1.25‰ is 0.00125
    return float(text.rstrip("KMB").strip()) * scale


def quote_readings(place, says: str, readings, lines: tuple[str, ...]):
    """The census readings of the numerals inside a beat's quote (at ``place``, squeezed offsets)."""
    text = lines[place.line - 1]
    start, stop = place.offset, place.offset + len(beats.squeeze(says))
    inside = []
    for r in readings:
        if r.numeral.line != place.line or not r.key:
            continue
        at = len(beats.squeeze(text[:r.numeral.col]))
        if start <= at < stop:
            inside.append(r)
    return inside


def screen_speech_mismatches(scene_id: str, scene, sheet, readings, ledger: dict[str, dict[str, Any]],
                             lines: tuple[str, ...]) -> list[dict[str, Any]]:
    """Every place a beat's quote says a number its final frame draws as another number: the
    beat, the notes line, the key, what is said and what is shown."""
    stills = {s.name: s for s in scene.section_stills}
    found = []
    for panel in dict.fromkeys(b.panel for b in scene.beats):
        panel_beats = [b for b in scene.beats if b.panel == panel]
        places = beats.place_beats(sheet, scene_id, panel, [b.says for b in panel_beats])
        for beat, place in zip(panel_beats, places):
            if place is None or beat.name not in stills:
                continue
            shown = drawn_keys(stills[beat.name].mobjects, ledger)
            for r in quote_readings(place, beat.says, readings, lines):
                said = spoken_value(r.said or r.numeral.text)
                if said is not None and said > 0 and lines[r.numeral.line - 1][:r.numeral.col].rstrip().endswith(
                        ("负", "−", "-")):
                    said = -said                                   # 负 4 is −4, as the screen writes it
                for key in same_quantity(r.key, ledger) & set(shown):
                    values = {shown_value(d) for d in shown[key]} - {None}
                    same = [said] if said is not None else []
                    if said is not None and "百分之" in r.numeral.text:
                        same.append(1 + said / 100)                       # 大百分之十 is ×1.1
                    if not same or not values or any(abs(v - x) <= 1e-9 * max(1.0, abs(x)) for v in values for x in same):
                        continue
                    found.append({"scene": scene_id, "beat": beat.name, "line": r.numeral.line, "key": key,
                                  "read_as": r.key, "said": r.numeral.text, "shown": " / ".join(sorted(shown[key]))})
    return found


def same_quantity(key: str, ledger: dict[str, dict[str, Any]]) -> set[str]:
    """``key`` and the keys that state the same notes value at the same quote (fig-recompute's
    ÷39 is recompute.activation_shrink, the notes' 四十倍 is read as act.v3.recompute_saving_ratio)."""
    entry = ledger.get(key) or {}
    quote, value = entry.get("notes_quote"), entry.get("notes_value")
    if not quote or value is None:
        return {key}
    return {key} | {k for k, e in ledger.items() if e.get("notes_quote") == quote and e.get("notes_value") == value}


def unlisted_mismatches(mismatches: list[dict[str, Any]], errata: list[dict[str, Any]]) -> list[str]:
    """The screen/speech mismatches no erratum (改口 or 细节) covers at their line and key."""
    listed = {(e["line"], e["key"]) for e in errata}
    return [f"{m['scene']} {m['beat']}: L{m['line']} says {m['said']} for {m['key']}, the frame shows {m['shown']} "
            "(add an erratum: lecture_numerics/errata.py)" for m in mismatches
            if (m["line"], m["key"]) not in listed and (m["line"], m.get("read_as")) not in listed]
