"""The beat rules, as checks on a scene built with its stills (studio.stills.build_scene):
run on every lecture scene by tests/test_scene_legibility.py, which builds each scene once for
these and the legibility checks, and shown to bite on small scenes in tests/test_beats.py.

Every beat's quote must stand verbatim in the notes lines of a cue that shows its panel, a
panel's beats must quote the notes in order, every beat after a panel's first says which
sentence it stops for, and a beat's takeaway must be on screen when the beat ends and when its
panel ends, unless a later beat of the panel replaces it.
"""

from __future__ import annotations

from studio import beats


def takeaways_on_screen(mobjects) -> set[str]:
    return {m.takeaway_of for top in mobjects for m in top.get_family() if getattr(m, "takeaway_of", None)}


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
            if not replaced and beat.name not in final:
                problems.append(f"{scene_id} {beat.name}: its takeaway is gone from {panel}'s final frame")
    return problems
