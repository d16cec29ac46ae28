"""Rehearsal timings: the page's export read back, checked, and carried by the cue sheet
beside the estimates; sections against their target lengths (config/cues.yaml)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from studio.track import cues, rehearsal
from studio.errors import UsageError

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "config" / "timings.example.json"


def export(cue_times: dict[int, Any]) -> dict[str, Any]:
    """A timings export as the page writes it (studio/present/page_assets/timings.js)."""
    records = {}
    for line, value in cue_times.items():
        seconds, beats = value if isinstance(value, tuple) else (value, None)
        records[str(line)] = {"seconds": seconds, **({"beats": beats} if beats is not None else {})}
    return {"version": 1, "notes": "assets/lecture-notes.txt", "recorded": "2026-12-01T18:30:00.000Z",
            "cues": records}


def write(tmp_path: Path, data: Any, name: str = "timings.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def by_line(sheet: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {c["line"]: c for c in sheet["cues"]}


@pytest.fixture(scope="module")
def plain():
    return cues.build_sheet(errata=[])


# ---- reading the file -----------------------------------------------------------------------

def test_a_timings_file_reads_back(tmp_path):
    data = export({60: 61.2, 125: (70.0, {"B.1": 30.5, "B.2": 39.5})})
    assert cues.load_timings(write(tmp_path, data)) == data


@pytest.mark.parametrize("content, message", [
    ("{not json", r"timings.json:1:2: the timings are not JSON"),
    ('{"version": 1, "cues": {"60": {"seconds": NaN}}}', r"invalid timings: NaN is not a number of seconds"),
    ('[1, 2]', r"invalid timings: top level: \[1, 2\] is not of type 'object'"),
    ('{"cues": {}}', r"invalid timings: top level: 'version' is a required property"),
    ('{"version": 2, "cues": {}}', r"timings version 2 is not one this studio reads \(it reads version 1\)"),
    ('{"version": 1}', r"'cues' is a required property"),
    ('{"version": 1, "cues": {"L60": {"seconds": 3}}}', r"invalid timings: cues: 'L60' does not match"),
    ('{"version": 1, "cues": {"60": {"seconds": -3}}}', r"cues.60.seconds: -3 is less than the minimum of 0"),
    ('{"version": 1, "cues": {"60": {"seconds": "61"}}}', r"cues.60.seconds: '61' is not of type 'number'"),
    ('{"version": 1, "cues": {"60": {}}}', r"cues.60: 'seconds' is a required property"),
    ('{"version": 1, "cues": {"60": {"seconds": 1, "beats": {"B": 1}}}}', r"cues.60.beats: 'B' does not match"),
    ('{"version": 1, "cues": {"60": {"seconds": 1, "secs": 2}}}', r"cues.60: Additional properties"),
    ('{"version": 1, "recorded": "yesterday", "cues": {}}', r"recorded: 'yesterday' is not an ISO time"),
])
def test_a_bad_timings_file_is_a_one_line_reason(tmp_path, content, message):
    path = write(tmp_path, content)
    with pytest.raises(UsageError, match=message) as caught:
        cues.load_timings(path)
    assert "\n" not in str(caught.value) and str(path) in str(caught.value)


def test_an_unreadable_timings_file_is_named(tmp_path):
    with pytest.raises(UsageError, match=r"missing.json: cannot read the timings"):
        cues.load_timings(tmp_path / "missing.json")
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(UsageError, match=r"binary.json: the timings are not UTF-8"):
        cues.load_timings(tmp_path / "binary.json")


def test_build_sheet_checks_a_timings_dict_too():
    with pytest.raises(UsageError, match=r"timings: invalid timings: cues.60.seconds"):
        cues.build_sheet(timings={"version": 1, "cues": {"60": {"seconds": -1}}}, errata=[])


def test_the_example_file_is_valid_and_names_real_cues():
    sheet = cues.build_sheet(timings=cues.load_timings(EXAMPLE), strict=True, errata=[])
    assert sheet["rehearsal"]["cues"] == len(json.loads(EXAMPLE.read_text(encoding="utf-8"))["cues"]) > 0


# ---- on the cues and steps -----------------------------------------------------------------

def test_rehearsed_seconds_sit_beside_the_estimates(plain):
    timed = cues.build_sheet(timings=export({60: 61.24, 125: (70.0, {"B.1": 30.5, "B.2": 39.5})}), errata=[])
    cue = by_line(timed)
    assert cue[60]["rehearsed_s"] == 61.2 and cue[60]["estimated_s"] == by_line(plain)[60]["estimated_s"]
    assert cue[125]["rehearsed_s"] == 70.0 and cue[125]["rehearsed_beats"] == {"B.1": 30.5, "B.2": 39.5}
    assert cue[75]["rehearsed_s"] is None and all(c["rehearsed_s"] is None for c in plain["cues"])
    assert timed["total_rehearsed_s"] == 131.2 and plain["total_rehearsed_s"] is None
    assert timed["rehearsal"] == {"recorded": "2026-12-01T18:30:00.000Z", "notes": "assets/lecture-notes.txt",
                                  "cues": 2}


def test_steps_carry_their_beats_rehearsed_seconds():
    from tests.test_cue_steps import beats, manifest, scene

    timed = cues.build_sheet(timings=export({125: (70.0, {"B.1": 30.5, "B.2": 39.5}), 117: 24.0, 42: 30.0}),
                             errata=[])
    vote = scene("fig-vote", {"A": None, "B": beats("fig-vote", "B", [None, "上游越亮的那根线", "回头想想第二条路"])})
    published = by_line(cues.with_media(timed, manifest(vote)))
    assert [s["rehearsed_s"] for s in published[125]["steps"]] == [30.5, 39.5, None]
    assert [s["rehearsed_s"] for s in published[117]["steps"]] == [24.0]   # one step: the cue's time
    assert [s["rehearsed_s"] for s in published[42]["steps"]] == [30.0]    # a section card
    assert published[60]["steps"][0]["rehearsed_s"] is None


def test_the_step_key_is_view_and_beat():
    assert rehearsal.step_key({"view": "A", "beat": 2}) == "A.2"
    assert rehearsal.step_key({"view": "whole", "beat": None}) == "whole.1"
    assert rehearsal.step_key({"view": None, "beat": None}) == "card.1"


def test_times_that_fit_no_cue_or_step_are_warned_of_and_strict_refuses_them():
    stale = export({61: 10.0, 117: (24.0, {"C.4": 3.0})})
    sheet = cues.build_sheet(timings=stale, errata=[])
    assert sheet["warnings"] == ["timings: L61 is not a 🖥 line of assets/lecture-notes.txt; its time is left out"]
    published = cues.with_media(sheet, {"scenes": []})
    assert published["warnings"][1:] == ["timings: L117 has no step C.4 in this render; its time is left out"]
    with pytest.raises(UsageError, match=r"L61 is not a 🖥 line"):
        cues.build_sheet(timings=stale, strict=True, errata=[])
    other = {**export({60: 1.0}), "notes": "other-notes.txt"}
    assert cues.build_sheet(timings=other, errata=[])["warnings"] == [
        "timings: recorded against other-notes.txt, not assets/lecture-notes.txt"]


# ---- sections against their targets ----------------------------------------------------------

def test_every_section_has_a_target_and_the_estimates_fit_them(plain):
    for section in plain["sections"]:
        assert section["target_s"] and section["target_s"] > 0, section["number"]
        assert section["rehearsed_s"] is None and section["expected_s"] == section["estimated_s"]
        assert section["over_target"] == (section["estimated_s"] > section["target_s"])
    assert plain["total_target_s"] == sum(s["target_s"] for s in plain["sections"])


def test_a_section_rehearsed_past_its_target_is_flagged(plain):
    section_2 = next(s for s in plain["sections"] if s["number"] == 2)
    lines = [c["line"] for c in plain["cues"] if c["section"] == 2]
    over = section_2["target_s"] + 30.0
    timed = cues.build_sheet(timings=export({lines[0]: over}), errata=[])
    flagged = {s["number"]: s for s in timed["sections"]}
    assert flagged[2]["rehearsed_s"] == over and flagged[2]["rehearsed_cues"] == 1
    assert flagged[2]["expected_s"] == pytest.approx(over + section_2["estimated_s"]
                                                     - by_line(plain)[lines[0]]["estimated_s"], abs=0.1)
    assert flagged[2]["over_target"] is True
    assert [n for n, s in flagged.items() if s["over_target"]] == [2]
    # Rehearsed under target: not flagged, even where the estimate alone would be.
    quick = cues.build_sheet(timings=export({line: 1.0 for line in lines}), errata=[])
    assert next(s for s in quick["sections"] if s["number"] == 2)["over_target"] is False


def test_an_estimate_past_its_target_is_flagged(tmp_path):
    folder = tmp_path / "config"
    shutil.copytree(ROOT / "config", folder)
    text = (folder / "cues.yaml").read_text(encoding="utf-8").replace("3: {target_minutes: 33}",
                                                                       "3: {target_minutes: 20}")
    (folder / "cues.yaml").write_text(text, encoding="utf-8")
    sections = {s["number"]: s for s in cues.build_sheet(config_dir=folder, errata=[])["sections"]}
    assert sections[3]["target_s"] == 1200 and sections[3]["over_target"] is True


@pytest.mark.parametrize("block, message", [
    ("sections:\n  9: {target_minutes: 5}\n", r"cues.yaml: sections: 9 is not a section of the notes \(0, 1, 2"),
    ("sections:\n  first: {target_minutes: 5}\n", r"sections: 'first' is not a section of the notes"),
    ("sections:\n  1: {target_minutes: 0}\n", r"cues.yaml:\d+: invalid config: sections.1.target_minutes"),
    ("sections:\n  1: {minutes: 5}\n", r"cues.yaml:\d+: invalid config: sections.1: 'target_minutes' is a required"),
])
def test_bad_section_targets_get_one_line_reasons(tmp_path, block, message):
    folder = tmp_path / "config"
    shutil.copytree(ROOT / "config", folder)
    text = (folder / "cues.yaml").read_text(encoding="utf-8")
    (folder / "cues.yaml").write_text(text[:text.index("\nsections:")] + "\n" + block, encoding="utf-8")
    with pytest.raises(UsageError, match=message) as caught:
        cues.build_sheet(config_dir=folder, errata=[])
    assert "\n" not in str(caught.value)


def test_a_render_reads_the_named_file_or_config_timings_json(tmp_path, monkeypatch):
    folder = tmp_path / "config"
    folder.mkdir()
    monkeypatch.setenv("LECTURE_CONFIG_DIR", str(folder))
    assert rehearsal.timings_for(None) is None
    write(folder, export({60: 5.0}))
    assert rehearsal.timings_for(None)["cues"] == {"60": {"seconds": 5.0}}
    named = write(tmp_path, export({75: 6.0}), "rehearsal-2.json")
    assert rehearsal.timings_for(named)["cues"] == {"75": {"seconds": 6.0}}
    write(folder, "{broken")
    with pytest.raises(UsageError, match=r"config/timings.json:1:2: the timings are not JSON"):
        rehearsal.timings_for(None)
