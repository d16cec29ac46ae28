"""Screen against speech (tests/beat_checks.py): where a beat's quote says a number that the
beat's final frame draws as another number, the notes' errata carry an entry for it.

Built and shown to bite on small scenes made here, which quote real notes lines (the check
places beats in the real cue sheet), so the lecture's own scenes, edited by others, are not
needed; tests/test_scene_legibility.py runs the same check on every lecture scene.
"""

from __future__ import annotations

import copy

import pytest
from manim import FadeIn

from lecture_numerics.census import census
from lecture_numerics.errata import SHOWN_OTHERWISE, errata
from lecture_numerics.ledger import ledger_entries
from lecture_numerics.notes_file import notes_lines
from scenes.kit.base import LectureScene
from scenes.kit.text import ledger_text
from studio.track import cues
from studio.engine.stills import build_scene_class
from tests import beat_checks

LINES = notes_lines()
# fig-recompute Ⓐ's fourth sentence, as the notes have it: 4.15 (an erratum), 106.75, 四十 (÷39 drawn)
SAYS = "换回来的是：4.15 TiB 变成 106.75 GiB，四十倍"
KEYS = ("act.v3.full_recompute_gib", "recompute.activation_shrink")


def small_scene(template: str):
    class Small(LectureScene):
        scene_id = "fig-recompute"
        ledger_keys = KEYS

        def construct(self):
            self.panel("A", says=SAYS)
            self.play(FadeIn(ledger_text(template)), run_time=0.2)

    return build_scene_class(Small, capture_stills=True)


@pytest.fixture(scope="module")
def sheet():
    return cues.build_sheet(errata=[])


@pytest.fixture(scope="module")
def ledger():
    return ledger_entries({"fig-recompute": KEYS})


def mismatches(scene, sheet, ledger):
    return beat_checks.screen_speech_mismatches("fig-recompute", scene, sheet, census()[0], ledger, LINES)


def test_a_number_drawn_as_said_is_no_mismatch(sheet, ledger):
    scene = small_scene("开了重算还要 {act.v3.full_recompute_gib} GiB")
    assert mismatches(scene, sheet, ledger) == []


def test_the_same_quantity_drawn_at_another_value_is_found_and_needs_an_erratum(sheet, ledger):
    """÷39 on screen while the speaker says 四十倍: a mismatch (the notes read 四十 as another key
    with the same quote), covered by the 细节 entry lecture_numerics/errata.py lists for it."""
    found = mismatches(small_scene("÷{recompute.activation_shrink}"), sheet, ledger)
    assert [(m["key"], m["said"], m["shown"]) for m in found] == [("recompute.activation_shrink", "四十", "39")]
    assert found[0]["line"] == next(n for n, line in enumerate(LINES, start=1) if "四十倍" in line and "4.15" in line)
    assert "act.v3.recompute_saving_ratio" in SHOWN_OTHERWISE
    assert beat_checks.unlisted_mismatches(found, errata()) == []
    assert beat_checks.unlisted_mismatches(found, []), "without the erratum the check must fail"


def test_the_check_fails_when_a_beats_drawn_value_changes_in_a_copy(sheet, ledger):
    """A copy of the ledger in which the drawn value changed (106.75 → 106.8): the frame now
    contradicts the quote, and no erratum covers it."""
    scene = small_scene("开了重算还要 {act.v3.full_recompute_gib} GiB")
    changed = copy.deepcopy(ledger)
    changed["act.v3.full_recompute_gib"]["display"] = "106.8"
    found = mismatches(scene, sheet, changed)
    assert [(m["key"], m["shown"]) for m in found] == [("act.v3.full_recompute_gib", "106.8")]
    problems = beat_checks.unlisted_mismatches(found, errata())
    assert len(problems) == 1 and "106.8" in problems[0] and "fig-recompute A.1" in problems[0]


def test_a_changed_drawing_in_a_copy_of_the_scene_is_caught_too(sheet, ledger):
    """The same beat, its copy drawing the saving ratio where the original drew 106.75."""
    original = mismatches(small_scene("{act.v3.full_recompute_gib} GiB"), sheet, ledger)
    changed = mismatches(small_scene("{act.v3.full_recompute_gib} GiB，÷{recompute.activation_shrink}"), sheet, ledger)
    assert original == [] and [m["key"] for m in changed] == ["recompute.activation_shrink"]


@pytest.mark.parametrize("said, value", [
    ("四十", 40), ("零点零九二", 0.092), ("4.15", 4.15), ("−3", -3), ("一万二", 12000), ("5–6 ×", None),
    ("几百亿", None), ("两三百", None),
])
def test_what_the_speaker_says(said, value):
    assert beat_checks.spoken_value(said) == (pytest.approx(value) if value is not None else None)


@pytest.mark.parametrize("display, value", [
    ("0.0915", 0.0915), ("39", 39), ("5.7K", 5700), ("82.1%", 82.1), ("1/3", 1 / 3), ("1.9×10⁻⁶", 1.9e-6),
    ("4.7×10⁴", 4.7e4), ("671B", 671e9), ("−1.741", -1.741), ("10⁻³", 1e-3), ("1.25‰", 1.25e-3), ("两成", None),
])
def test_what_the_screen_shows(display, value):
    assert beat_checks.shown_value(display) == (pytest.approx(value) if value is not None else None)
