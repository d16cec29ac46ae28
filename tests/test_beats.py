"""Beats: stops inside a panel, each tied to the sentence the speaker says there.

Built without rendering (studio.stills): every beat's quote must stand verbatim in the notes
lines of a cue that shows its panel, a panel's beats must quote the notes in order, and a
beat's takeaway must be on screen when the beat ends and when its panel ends, unless a later
beat of the panel replaces it. A small scene made here shows each rule can fail.
"""

from __future__ import annotations

import pytest
from manim import FadeIn, Square

from scenes.kit.base import LectureScene
from scenes.kit.text import words
from studio import beats, cues, registry
from studio.stills import build_scene, build_scene_class

# A scene with no quote has nothing to check here; the text filter only saves building it.
QUOTING = [sid for sid, entry in registry.discover().items() if "says=" in entry.path.read_text(encoding="utf-8")]


@pytest.fixture(scope="module")
def sheet():
    return cues.build_sheet()


@pytest.fixture(scope="module", params=QUOTING)
def built(request):
    return request.param, build_scene(request.param, capture_stills=True)


def test_walkthroughs_in_beats_include_fig_vote():
    assert "fig-vote" in QUOTING


def test_beat_quotes_are_verbatim_and_in_order(built, sheet):
    scene_id, scene = built
    missing = []
    for panel in dict.fromkeys(b.panel for b in scene.beats):
        panel_beats = [b for b in scene.beats if b.panel == panel]
        places = beats.place_beats(sheet, scene_id, panel, [b.says for b in panel_beats])
        for beat, place in zip(panel_beats, places):
            if beat.says and place is None:
                missing.append(f"{scene_id} {beat.name}: 「{beat.says}」 is not in the notes of a cue showing "
                               f"{panel}, after the beat before it")
    assert not missing, "\n".join(missing)


def test_every_beat_after_the_first_quotes_the_speaker(built):
    scene_id, scene = built
    silent = [b.name for b in scene.beats if b.n > 1 and not b.says]
    assert not silent, f"{scene_id}: beats {silent} stop the talk without saying for which sentence"


def _takeaways_on_screen(mobjects) -> set[str]:
    return {m.takeaway_of for top in mobjects for m in top.get_family() if getattr(m, "takeaway_of", None)}


def test_takeaways_stay_on_screen(built):
    scene_id, scene = built
    stills = {s.name: s for s in scene.section_stills}
    problems = []
    for panel in dict.fromkeys(b.panel for b in scene.beats):
        panel_beats = [b for b in scene.beats if b.panel == panel]
        final = _takeaways_on_screen(stills[panel_beats[-1].name].mobjects)
        for i, beat in enumerate(panel_beats):
            if beat.takeaway is None:
                continue
            if beat.name not in _takeaways_on_screen(stills[beat.name].mobjects):
                problems.append(f"{scene_id} {beat.name}: its takeaway is not on screen as the beat ends")
            replaced = any(later.replaces and later.takeaway for later in panel_beats[i + 1:])
            if not replaced and beat.name not in final:
                problems.append(f"{scene_id} {beat.name}: its takeaway is gone from {panel}'s final frame")
    assert not problems, "\n".join(problems)


def test_fig_vote_beats_follow_the_notes():
    scene = build_scene("fig-vote")
    per_panel = {p: [b.n for b in scene.beats if b.panel == p] for p in "ABC"}
    assert {p: len(ns) for p, ns in per_panel.items()} == {"A": 5, "B": 9, "C": 7}
    # The question is put to the room before its answer, each on its own step.
    says = [b.says for b in scene.beats]
    assert says.index("要是从头到尾只听第一个人的，这个网络最后会学会什么？") + 1 == says.index("不管你问什么，它都答「的」")


# ---- the rules bite: a small scene breaking each --------------------------------------

class Beats(LectureScene):
    scene_id = "beats-demo"

    def construct(self):
        self.panel("A", says="first", takeaway="甲")
        self.play(FadeIn(Square()), run_time=0.2)
        self.beat(says="second", takeaway="乙")
        self.play(FadeIn(words("丙")), run_time=0.2)
        self.beat(says="third", takeaway="丁", replaces=True)
        self.panel("B")
        self.clear()
        self.play(FadeIn(words("戊")), run_time=0.2)


def test_each_beat_gets_a_still_and_a_section():
    scene = build_scene_class(Beats, capture_stills=True)
    assert [s.name for s in scene.section_stills] == ["A.1", "A.2", "A.3", "B.1"]
    assert [b.name for b in scene.beats] == ["A.1", "A.2", "A.3", "B.1"]
    shown = {s.name: _takeaways_on_screen(s.mobjects) for s in scene.section_stills}
    assert shown["A.1"] == {"A.1"} and shown["A.2"] == {"A.1", "A.2"}
    assert shown["A.3"] == {"A.1", "A.3"}, "a replacing beat swaps the newest takeaway, keeps the rest"
    assert shown["B.1"] == set()


def test_takeaways_stack_without_overlap():
    scene = build_scene_class(Beats, capture_stills=True)
    lines = [m for m in scene.section_stills[1].mobjects if getattr(m, "takeaway_of", None)]
    first, second = sorted(lines, key=lambda m: -m.get_center()[1])
    assert first.get_bottom()[1] > second.get_top()[1], "takeaways overlap"
    assert [first.takeaway_of, second.takeaway_of] == ["A.1", "A.2"], "takeaways are not in the order said"


def test_a_beat_before_any_panel_is_an_error():
    class Early(LectureScene):
        def construct(self):
            self.beat(says="too soon")

    with pytest.raises(RuntimeError, match="before any panel"):
        build_scene_class(Early)


def test_quotes_out_of_order_are_not_found():
    lines = [(10, "先看红色。它每弹一次幅度更大"), (11, "再看蓝色")]
    first = beats.locate("再看蓝色", lines)
    assert first == beats.Place(11, 0)
    assert beats.locate("先看红色", lines, after=first) is None
    assert beats.locate("它每弹 一次", lines) == beats.Place(10, 5), "spaces in the notes are not words"
