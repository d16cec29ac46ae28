"""Steps: what each → shows in a cue, one per beat of each view, views one after another;
the script lines of each step by the beats' quotes; their times and errata. Against
hand-made manifests (no rendering)."""

from __future__ import annotations

from typing import Any

import pytest

from studio.track import cue_steps, cues
from tests.fixtures_media import synthetic_manifest

STEP_KEYS = {"scene", "view", "panel", "beat", "file", "poster", "loop", "says", "lines", "errata",
             "estimated_s", "rehearsed_s"}


def beats(scene: str, panel: str, quotes: list[str | None], lines: list[int | None] | None = None) -> list[dict]:
    """A panel's beats as the manifest lists them (studio/engine/pipeline.section_records)."""
    lines = lines or [None] * len(quotes)
    return [{"n": n, "name": f"{panel}.{n}", "file": f"{scene}/{panel}/{n}.mp4", "poster": f"{scene}/{panel}/{n}.jpg",
             "start_s": float(n - 1), "end_s": float(n), "duration_s": 1.0, "says": quote, "takeaway": None,
             "notes_line": line}
            for n, (quote, line) in enumerate(zip(quotes, lines), start=1)]


def scene(scene_id: str, sections: dict[str, list[dict] | None], loop: bool = False) -> dict[str, Any]:
    """A scene record; a section given None has no "beats" key (a render from before beats)."""
    listed = []
    for name, its_beats in sections.items():
        section = {"name": name, "file": f"{scene_id}/{name}.mp4", "duration_s": 1.0}
        if its_beats is not None:
            section["beats"] = its_beats
        listed.append(section)
    return {"id": scene_id, "title": scene_id, "duration_s": 3.0, "loop": loop,
            "files": {"mp4": f"{scene_id}.mp4", "gif": f"{scene_id}.gif", "png": f"{scene_id}.png"},
            "sections": listed}


def manifest(*scenes: dict[str, Any]) -> dict[str, Any]:
    return {"quality": "low", "scenes": list(scenes)}


@pytest.fixture(scope="module")
def sheet():
    return cues.build_sheet(errata=[])


def published(sheet, *scenes) -> dict[int, dict[str, Any]]:
    return {c["line"]: c for c in cues.with_media(sheet, manifest(*scenes))["cues"]}


def script_text(cue: dict[str, Any], index: int) -> str:
    item = cue["script"][index]
    return item.get("say", item.get("note"))


# ---- views one after another, never side by side -------------------------------------------

def test_two_view_cues_are_consecutive_steps(sheet):
    """Deck slides 9, 36 and 54 put two clips side by side: fig-3x Ⓐ Ⓑ (L165), fig-descent
    「平移到 Ⓑ，再到 Ⓒ」 (L590), fig-step 整张 then Ⓐ (L940). Each view is its own step. (Slide 32,
    fig-updratio Ⓐ then Ⓑ at L499, slide 45, fig-beststep Ⓐ then Ⓒ at L750, and slide 14, fig-vanish
    Ⓑ then Ⓒ at L229 (「⭐⭐ 然后 Ⓒ」 has no 🖥 line), and slide 34, fig-lineage Ⓒ then Ⓓ at L516
    (「然后讲这三则出处」 has no 🖥 line), are settled in config/cues.yaml.)"""
    by_line = published(sheet, scene("fig-3x", {"A": None, "B": None}),
                        scene("fig-descent", {"A": None, "B": None, "C": None}),
                        scene("fig-step", {"whole": None, "A": None, "B": None}),
                        scene("fig-updratio", {"A": None, "B": None}),
                        scene("fig-beststep", {"A": None, "B": None, "C": None}),
                        scene("fig-vanish", {"A": None, "B": None, "C": None}),
                        scene("fig-lineage", {"A": None, "B": None, "C": None, "D": None}))
    slides = [c for c in by_line.values() if len(c["views"]) > 1]
    assert sorted(c["index"] + 1 for c in slides) == [9, 14, 32, 34, 36, 45, 54]
    assert [s["file"] for s in by_line[516]["steps"]] == ["fig-lineage/C.mp4", "fig-lineage/D.mp4"]
    assert [s["file"] for s in by_line[229]["steps"]] == ["fig-vanish/B.mp4", "fig-vanish/C.mp4"]
    assert [s["file"] for s in by_line[499]["steps"]] == ["fig-updratio/A.mp4", "fig-updratio/B.mp4"]
    assert [s["file"] for s in by_line[165]["steps"]] == ["fig-3x/A.mp4", "fig-3x/B.mp4"]
    assert [s["file"] for s in by_line[590]["steps"]] == ["fig-descent/B.mp4", "fig-descent/C.mp4"]
    assert [s["file"] for s in by_line[940]["steps"]] == ["fig-step/whole.mp4", "fig-step/A.mp4"]
    for cue in slides:
        assert [s["view"] for s in cue["steps"]] == cue["views"]
        assert all(set(s) >= STEP_KEYS and s["scene"] == cue["scene"] for s in cue["steps"])


def test_every_cue_has_steps_in_the_spec_shape(sheet):
    for cue in published(sheet, *synthetic_manifest()["scenes"]).values():
        assert cue["steps"], cue["line"]
        for step in cue["steps"]:
            assert set(step) >= STEP_KEYS, (cue["line"], step)
        if cue["kind"] != "figure":
            assert len(cue["steps"]) == 1 and cue["steps"][0]["file"] is None and cue["steps"][0]["scene"] is None


# ---- the right picture ------------------------------------------------------------------------

def test_whole_view_plays_the_scene_whole_panel(sheet):
    """L940 「先整张投三秒，再放大 Ⓐ」: fig-step defines its whole frame as a panel."""
    step = scene("fig-step", {"whole": beats("fig-step", "whole", [None, None]), "A": None, "B": None})
    cue = published(sheet, step)[940]
    whole = cue["steps"][0]
    assert (whole["view"], whole["panel"], whole["file"]) == ("whole", "whole", "fig-step/whole.mp4")
    assert whole["poster"] == "fig-step/whole/2.jpg"   # the whole panel's last beat ends it
    assert cue["media"][0]["file"] == "fig-step/whole.mp4"


def test_whole_view_without_a_whole_panel_steps_through_every_beat(sheet):
    """整张投 of a walkthrough without a ``whole`` panel: its beats, panel after panel, each held
    (the whole clip is those beats joined), ending on the last beat's picture."""
    per_byte = scene("fig-per-byte", {"A": beats("fig-per-byte", "A", [None]),
                                      "B": beats("fig-per-byte", "B", [None, None])})
    cue = published(sheet, per_byte)[377]
    assert cue["views"] == ["whole"]
    assert [s["file"] for s in cue["steps"]] == ["fig-per-byte/A/1.mp4", "fig-per-byte/B/1.mp4", "fig-per-byte/B/2.mp4"]
    assert cue["steps"][-1]["poster"] == "fig-per-byte/B/2.jpg"


def test_a_figure_over_several_cues_plays_each_beat_at_the_cue_that_says_it(sheet):
    """fig-per-byte is up from L377 (整张投) through L383 (「指两个交点」): a beat quoting a line of
    the second cue plays there, not at the first, and nothing plays twice."""
    said = ["看这张图", "但这张图上画了两个模型"]          # L379 under the first cue, L385 under the second
    per_byte = scene("fig-per-byte", {"A": beats("fig-per-byte", "A", said, [379, 385])})
    by_line = published(sheet, per_byte)
    assert [s["beat"] for s in by_line[377]["steps"]] == [1]
    assert [s["beat"] for s in by_line[383]["steps"]] == [2]


def test_fig_reverse_whole_cue_holds_rows_a_and_b(sheet):
    """L270 「整张投，先只指 Ⓐ 和 Ⓑ 两排」: panel A of fig-reverse is both rows; Ⓒ waits for L298."""
    reverse = scene("fig-reverse", {"A": beats("fig-reverse", "A", [None]), "C": beats("fig-reverse", "C", [None])})
    by_line = published(sheet, reverse)
    assert [s["file"] for s in by_line[270]["steps"]] == ["fig-reverse/A/1.mp4"]
    assert by_line[270]["steps"][0]["poster"] == "fig-reverse/A/1.jpg"
    assert [s["file"] for s in by_line[298]["steps"]] == ["fig-reverse/C/1.mp4"]


def test_a_loop_is_one_looping_step(sheet):
    cue = published(sheet, *synthetic_manifest()["scenes"])[287]
    assert [(s["file"], s["poster"], s["loop"]) for s in cue["steps"]] == [("anim-reverse.mp4", "anim-reverse.png", True)]


def test_a_panel_rendered_before_beats_is_one_step_without_poster(sheet):
    cue = published(sheet, *synthetic_manifest()["scenes"])[176]
    [step] = cue["steps"]
    assert (step["panel"], step["beat"], step["file"], step["poster"]) == ("A", 1, "fig-circuit/A.mp4", None)
    assert step["lines"] == list(range(len(cue["script"])))


def test_what_is_not_rendered_is_a_placeholder_step(sheet):
    cue = published(sheet)[165]
    assert [(s["view"], s["file"], s["poster"]) for s in cue["steps"]] == [("A", None, None), ("B", None, None)]


# ---- one step per beat, lines by the beats' quotes ------------------------------------------

def test_one_step_per_beat_lines_by_quotes(sheet):
    """fig-vote Ⓑ (L125) in three beats: the second quotes L130, the third L137 (with its
    ⭐ marks and spacing left off, as a scene would write it)."""
    cue = sheet_cue(sheet, 125)
    second, third = script_text(cue, 3), script_text(cue, 8)
    quoted = [None, second.replace("⭐⭐ ", ""), third]
    by_line = published(sheet, scene("fig-vote", {"A": None, "B": beats("fig-vote", "B", quoted), "C": None}))
    steps = by_line[125]["steps"]
    assert [(s["view"], s["beat"], s["file"]) for s in steps] == [("B", n, f"fig-vote/B/{n}.mp4") for n in (1, 2, 3)]
    assert [s["lines"] for s in steps] == [[0, 1, 2], [3, 4, 5, 6, 7], [8, 9, 10, 11, 12]]
    assert steps[1]["says"] == quoted[1]


def test_lines_before_the_first_quote_belong_to_beat_one(sheet):
    cue = sheet_cue(sheet, 117)
    late = script_text(cue, 3)
    steps = published(sheet, scene("fig-vote", {"A": beats("fig-vote", "A", [late, None])}))[117]["steps"]
    assert [s["lines"] for s in steps] == [list(range(len(cue["script"]))), []]


def test_a_quote_over_two_lines_and_a_notes_line_anchor(sheet):
    """A beat quoting two lines at once starts at the first; a beat may name its line instead."""
    cue = sheet_cue(sheet, 125)
    two_lines = script_text(cue, 1) + script_text(cue, 2)
    by_line = published(sheet, scene("fig-vote", {"B": beats("fig-vote", "B", [None, two_lines, None],
                                                             [None, None, cue["script"][9]["line"]])}))
    assert [s["lines"] for s in by_line[125]["steps"]] == [[0], [1, 2, 3, 4, 5, 6, 7, 8], [9, 10, 11, 12]]


def test_two_beats_on_one_line_leave_it_to_the_first(sheet):
    """L130 holds two sentences; beats quoting each: the line is the first's, the second holds none
    (and is not matched further on, where 「上游越亮越划算」 is quoted again at L137)."""
    cue = sheet_cue(sheet, 125)
    quoted = [None, "这里有一句最值钱的", "上游越亮", "所以反向必须回头看前向留下的东西"]
    steps = published(sheet, scene("fig-vote", {"B": beats("fig-vote", "B", quoted)}))[125]["steps"]
    assert [s["lines"] for s in steps] == [[0, 1, 2], [3, 4, 5, 6, 7, 8, 9, 10], [], [11, 12]]
    assert quoted[2] in script_text(cue, 8) and script_text(cue, 11).endswith(quoted[3] + "。")


def test_a_quote_not_in_the_cue_holds_no_lines(sheet):
    steps = published(sheet, scene("fig-vote", {"A": beats("fig-vote", "A", [None, "讲稿里没有这一句话"])}))[117]["steps"]
    assert steps[1]["lines"] == [] and steps[0]["lines"] == list(range(5))


def test_a_stage_note_naming_the_next_panel_starts_its_view(sheet):
    """L165: 「然后跳到 Ⓑ。这是这张图的钥匙」 opens Ⓑ's script; Ⓐ is read off the figure."""
    steps = published(sheet, scene("fig-3x", {"A": None, "B": None}))[165]["steps"]
    assert steps[0]["lines"] == [] and steps[1]["lines"] == list(range(6))


def test_a_timed_whole_view_holds_silently_then_the_panel_speaks(sheet):
    """L940 「先整张投三秒，再放大 Ⓐ」: three silent seconds on the whole frame, then Ⓐ's speech."""
    cue = published(sheet, scene("fig-step", {"whole": None, "A": None, "B": None}))[940]
    whole, panel = cue["steps"]
    assert whole["lines"] == [] and whole["estimated_s"] == pytest.approx(3.0)
    assert panel["lines"] == list(range(len(cue["script"])))


def test_every_script_entry_is_in_exactly_one_step_in_order(sheet):
    rendered = [scene("fig-3x", {"A": None, "B": None}), scene("fig-step", {"whole": None, "A": None, "B": None}),
                scene("fig-vote", {"A": None, "B": beats("fig-vote", "B", [None, "这里有一句最值钱的"]), "C": None})]
    for cue in published(sheet, *rendered).values():
        owned = [k for step in cue["steps"] for k in step["lines"]]
        assert owned == list(range(len(cue["script"]))), cue["line"]


# ---- times and errata per step ---------------------------------------------------------------

def test_step_estimates_add_up_to_the_cue(sheet):
    vote_b = beats("fig-vote", "B", [None, "这里有一句最值钱的", "回头想想第二条路"])
    rendered = [scene("fig-vote", {"A": None, "B": vote_b}),
                scene("fig-3x", {"A": None, "B": None}), scene("fig-muon", {"C": beats("fig-muon", "C", [None, None])})]
    by_line = published(sheet, *rendered)
    for cue in by_line.values():
        assert sum(s["estimated_s"] for s in cue["steps"]) == pytest.approx(cue["estimated_s"], abs=0.051), cue["line"]
    vote = by_line[125]["steps"]
    rate = sheet["speaking_rate"]["chars_per_minute"]
    said = "".join(by_line[125]["script"][k].get("say", "") for k in vote[1]["lines"])  # and a note, unsaid
    assert vote[1]["estimated_s"] == pytest.approx(cues.speech_chars(said) * 60 / rate, abs=0.051)


def test_a_screen_time_floor_stretches_every_step_alike():
    """「一分钟后就切走」: a cue of 10 s of speech held for 60 s; its steps keep their 1 : 3 shares."""
    cue = {"line": 1, "text": "fig-x，一分钟后就切走", "estimated_s": 60.0,
           "script": [{"say": "一" * 10, "line": 2}, {"say": "二" * 30, "line": 3}]}
    assert cue_steps.split_estimate(cue, [[0], [1]], chars_per_minute=240) == [15.0, 45.0]
    assert cue_steps.split_estimate(cue, [[], [0, 1]], chars_per_minute=240) == [0.0, 60.0]


def test_errata_fall_on_the_cue_and_the_step_of_their_line():
    fake = [{"line": 131, "said": "x", "right": "y", "why": "w", "key": "k.one"},
            {"line": 125, "said": "x", "right": "y", "why": "w", "key": "k.cue-line"},
            {"line": 5000, "said": "x", "right": "y", "why": "w", "key": "k.nowhere"}]
    sheet = cues.build_sheet(errata=fake)
    cue = next(c for c in sheet["cues"] if c["line"] == 125)
    assert [e["key"] for e in cue["errata"]] == ["k.one", "k.cue-line"]
    assert sum(len(c["errata"]) for c in sheet["cues"]) == 2
    steps = published(sheet, scene("fig-vote", {"B": beats("fig-vote", "B", [None, "上游越亮的那根线"])}))[125]["steps"]
    assert [[e["key"] for e in s["errata"]] for s in steps] == [["k.cue-line"], ["k.one"]]


def test_the_numerics_errata_land_on_one_cue_and_one_step_each():
    """Every 改口 lands on one cue and one step (the presenter's red box, the deck's notes); the
    细节 land on none, only in the sheet's errata_details (the appendix)."""
    from lecture_numerics import errata as errata_module

    real = errata_module.errata()
    assert real, "lecture_numerics.errata lists no erratum"
    sheet = cues.build_sheet()
    on_cues = [e for c in sheet["cues"] for e in c["errata"]]
    assert sorted(map(repr, on_cues)) == sorted(map(repr, errata_module.corrections(real)))
    assert sorted(map(repr, sheet["errata_details"])) == sorted(map(repr, errata_module.details(real)))
    assert sheet["errata_details"] and all(e["kind"] == "细节" for e in sheet["errata_details"])
    for cue in cues.with_media(sheet, manifest())["cues"]:
        assert sorted(map(repr, (e for s in cue["steps"] for e in s["errata"]))) == sorted(map(repr, cue["errata"]))



def test_the_errata_are_kept_by_their_inputs(tmp_path, monkeypatch):
    """The sheet asks lecture_numerics.errata itself, once per state of the numerics, notes and config."""
    from lecture_numerics import errata as errata_module

    monkeypatch.setattr(cues, "ERRATA_CACHE", tmp_path / "errata")
    calls = []
    fake = {"line": 130, "said": "x", "right": "y", "why": "w", "key": "patched"}
    monkeypatch.setattr(errata_module, "errata", lambda: calls.append(1) or [fake])
    assert [e["key"] for c in cues.build_sheet()["cues"] for e in c["errata"]] == ["patched"]
    assert cues.notes_errata() == [fake] and len(calls) == 1           # read back, not recomputed
    notes = tmp_path / "lecture-notes.txt"
    notes.write_text(cues.NOTES_PATH.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    monkeypatch.setattr(cues, "NOTES_PATH", notes)                      # the notes changed
    assert cues.notes_errata() == [fake] and len(calls) == 2
    monkeypatch.setenv("LECTURE_NUMERICS_CACHE", "off")
    cues.notes_errata()
    assert len(calls) == 3


def sheet_cue(sheet: dict[str, Any], line: int) -> dict[str, Any]:
    return next(c for c in sheet["cues"] if c["line"] == line)


def test_quote_matching_ignores_marks_and_spacing_only():
    entry = {"say": "⭐⭐ 这里有一句最值钱的：上游越亮的那根线，加粗越划算。", "line": 130}
    assert cue_steps.quotes(entry, {"says": "这里有一句最值钱的：上游越亮的那根线，加粗越划算。"})
    assert cue_steps.quotes(entry, {"says": "上游越亮的那根线"})
    assert not cue_steps.quotes(entry, {"says": "上游越暗的那根线"})
    assert not cue_steps.quotes({"say": "对", "line": 1}, {"says": "对，就是这样"})  # too short to be evidence
