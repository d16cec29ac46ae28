"""The cue sheet against the notes: every 🖥 line, in order, mapped to a scene and its
views or to a card; the speech of each cue; estimates; config errors; cues.json."""

from __future__ import annotations

import json
import shutil
import stat
from pathlib import Path

import pytest

from studio.track import cues
from studio.errors import UsageError
from tests.fixtures_media import synthetic_manifest

ROOT = Path(__file__).resolve().parent.parent
NOTES = ROOT / "assets" / "lecture-notes.txt"
NOTES_LINES = NOTES.read_text(encoding="utf-8").splitlines()

# Read by hand from the notes: line → what it shows. 「title」 is a title card, 「§a→b」 a
# section marker closing section a and opening b (「§6→」 closes the talk); otherwise the
# scene and its views (「whole」 = projected whole, 「first」 = the figure as it opens).
EXPECTED = """
40 title | 42 §0→1 | 60 fig-slider A | 75 fig-slider B | 84 fig-slider C | 117 fig-vote A
125 fig-vote B | 143 fig-vote C | 165 fig-3x A B | 176 fig-circuit A | 191 fig-circuit B
200 fig-circuit C | 221 fig-vanish A | 229 fig-vanish B C | 270 fig-reverse A
287 anim-reverse whole | 298 fig-reverse C | 325 fig-act-bill whole | 331 §1→2
341 fig-gradlife first | 349 fig-batch first | 357 fig-recompute A | 377 fig-per-byte whole
383 fig-per-byte whole | 413 §2→3 | 422 fig-optimizers B | 435 fig-precision A
444 fig-precision B | 466 fig-precision C | 482 fig-optimizers A | 490 fig-lineage A
499 fig-updratio A B | 509 fig-lineage B | 516 fig-lineage C D | 566 fig-descent A
590 fig-descent B C | 604 fig-saddle A | 623 anim-saddle whole | 630 fig-saddle B
643 fig-saddle C | 662 fig-momentum A | 675 fig-momentum B | 701 fig-momentum C
732 fig-onelr A | 750 fig-beststep A B C | 759 fig-beststep D | 787 fig-lr-curve A
804 fig-lr-curve B | 874 fig-muon C | 895 §3→4 | 916 fig-zero A | 934 fig-zero B | 936 §4→5
940 fig-step whole A | 973 anim-memtime whole | 979 fig-step B | 1003 §5→6 | 1012 fig-spike A
1026 fig-prepost first | 1039 fig-underflow first | 1048 fig-spike B | 1059 fig-stability B
1074 fig-stability A | 1084 fig-stability C | 1106 §6→
"""


def expected_rows() -> list[tuple[int, list[str]]]:
    rows = []
    for item in EXPECTED.replace("\n", " | ").split("|"):
        if item.strip():
            line, *what = item.split()
            rows.append((int(line), what))
    return rows


@pytest.fixture(scope="module")
def sheet():
    return cues.build_sheet()


@pytest.fixture
def config_copy(tmp_path):
    folder = tmp_path / "config"
    shutil.copytree(ROOT / "config", folder)
    return folder


def write_cues_config(folder: Path, text: str) -> None:
    (folder / "cues.yaml").write_text(text, encoding="utf-8")


# ---- every 🖥 line, in order, mapped -------------------------------------------------------

def test_every_screen_line_is_a_cue_in_order(sheet):
    screen_lines = [n for n, text in enumerate(NOTES_LINES, start=1) if text.startswith("🖥")]
    assert len(screen_lines) == 65  # the notes' count (issue 16)
    assert [c["line"] for c in sheet["cues"]] == screen_lines
    assert [c["index"] for c in sheet["cues"]] == list(range(65))
    for cue in sheet["cues"]:
        # A section card carries its own section's 本节主屏 line (test_section_cues_are_their_own_section).
        own_line = cue["marker_line"] if cue["kind"] == "section" else cue["line"]
        assert cue["text"] in NOTES_LINES[own_line - 1], cue["line"]


def test_each_cue_shows_what_the_notes_say(sheet):
    rows = expected_rows()
    assert [line for line, _ in rows] == [c["line"] for c in sheet["cues"]]
    for (line, what), cue in zip(rows, sheet["cues"]):
        head = what[0]
        if head == "title":
            assert (cue["kind"], cue["scene"], cue["views"]) == ("title", None, []), line
            assert cue["title"].startswith("第零节")
        elif head.startswith("§"):
            closes, opens = head[1:].split("→")
            assert cue["kind"] == "section", line
            assert cue["marks"] == int(closes) and cue["opens"] == (int(opens) if opens else None), line
        else:
            assert cue["kind"] == "figure", line
            assert (cue["scene"], cue["views"]) == (head, what[1:]), f"L{line}: {cue['scene']} {cue['views']}"
            projected_whole = "whole" in what[1:] or "整张投" in cue["screen"]  # L270: 整张投 of panel A
            assert cue["whole"] == (projected_whole and head.startswith("fig-")), line
            assert not cue["undecided"]


def test_panels_come_from_the_instruction_not_the_hints(sheet):
    by_line = {c["line"]: c for c in sheet["cues"]}
    # 「先放大 Ⓑ 那根尺子 —— ⛔ 不要先放 Ⓐ」 and 「先放大 Ⓑ。 ⛔ 不要从 Ⓐ 开始」 show Ⓑ only.
    assert by_line[422]["sections"] == ["B"] and any("Ⓐ" in h for h in by_line[422]["hints"])
    assert by_line[1059]["sections"] == ["B"] and by_line[1059]["hints"][0].startswith("⛔")
    # 「第②格」 is a cell of a panel, not a panel.
    assert by_line[125]["sections"] == ["B"]
    # 「整张投，先只指 Ⓐ 和 Ⓑ 两排」: fig-reverse draws both rows as its panel A (config/cues.yaml).
    assert by_line[270]["sections"] == ["A", "B"] and by_line[270]["views"] == ["A"]


def test_pans_after_an_animation_continue_the_figure(sheet):
    by_line = {c["line"]: c for c in sheet["cues"]}
    assert by_line[298]["how"] == "continues" and by_line[298]["scene"] == "fig-reverse"
    assert by_line[630]["how"] == "continues" and by_line[630]["scene"] == "fig-saddle"


def test_overrides_settle_only_what_parsing_cannot(sheet):
    overridden = {c["line"]: c for c in sheet["cues"] if c["how"] == "override"}
    assert set(overridden) == {165, 229, 270, 482, 499, 509, 516, 750, 759}
    assert all(c["why"] for c in overridden.values())
    assert overridden[482]["scene"] == "fig-optimizers"  # not fig-precision, the figure on screen


def test_sections_are_the_opening_and_six_more(sheet):
    sections = sheet["sections"]
    assert [s["number"] for s in sections] == list(range(7))
    markers = [c for c in sheet["cues"] if c["kind"] == "section"]
    assert [s["line"] for s in sections] == [m["line"] for m in markers]
    for section in sections:
        raw = NOTES_LINES[section["line"] - 1]
        assert raw.startswith("🖥 本节主屏") and section["title"].split("\u3000", 1)[1].split()[0] in raw
    assert [s["main_figure"] for s in sections] == [None, "fig-3x", "fig-per-byte", "fig-optimizers",
                                                    None, "fig-step", "fig-stability"]
    # A marker's card shows the section it opens; the cues before it are in the section it closes.
    by_line = {c["line"]: c for c in sheet["cues"]}
    assert by_line[42]["section"] == 1 and by_line[42]["title"].startswith("第一节")
    assert by_line[325]["section"] == 1 and by_line[341]["section"] == 2
    assert by_line[1106]["section"] == 6 and by_line[1106]["opens"] is None
    sections_in_order = [c["section"] for c in sheet["cues"]]
    assert sections_in_order == sorted(sections_in_order)


# ---- what is said ------------------------------------------------------------------------

def test_each_script_line_is_verbatim_from_its_notes_line(sheet):
    for cue in sheet["cues"]:
        for item in cue["script"]:
            text = item.get("say", item.get("note"))
            assert text and text in NOTES_LINES[item["line"] - 1], (cue["line"], item)
        assert cue["lines"] == [i["say"] for i in cue["script"] if "say" in i]


def test_scripts_cover_the_notes_once_and_in_order(sheet):
    """Every non-empty notes line is a cue line or in exactly one cue's script; each cue's
    script lies between it and the next cue (the first also takes what precedes it)."""
    covered = [c["line"] for c in sheet["cues"]] + [i["line"] for c in sheet["cues"] for i in c["script"]]
    non_empty = [n for n, text in enumerate(NOTES_LINES, start=1) if text.strip()]
    assert sorted(covered) == non_empty
    cue_lines = [c["line"] for c in sheet["cues"]] + [len(NOTES_LINES) + 1]
    for cue, end in zip(sheet["cues"], cue_lines[1:]):
        start = 0 if cue["index"] == 0 else cue["line"]
        numbers = [i["line"] for i in cue["script"]]
        assert numbers == sorted(numbers) and all(start < n < end for n in numbers), cue["line"]


def test_speech_is_every_quoted_block_and_nothing_else(sheet):
    """Speech is a line that opens a quote, or any line while one is open (⭐ inside speech
    marks emphasis: 「… ⭐ 那这个推子的导数就是 …」); counted here over the whole file at once."""
    said = {i["line"] for c in sheet["cues"] for i in c["script"] if "say" in i}
    inside, depth = set(), 0
    for number, text in enumerate(NOTES_LINES, start=1):
        if text.strip() and (depth > 0 or text.startswith("「")):
            inside.add(number)
        if depth > 0 or text.startswith("「"):
            depth = max(0, depth + text.count("「") - text.count("」"))
    assert said == inside
    assert depth == 0, "the notes end inside a quote"
    stage = {n for n, text in enumerate(NOTES_LINES, start=1) if text.startswith(("🎯", "⚠️ 这一节"))}
    assert stage and not (stage & said), "a stage note was taken for speech"
    # Each block lost exactly its outer pair, so the quotes inside still balance.
    text = "".join(i["say"] for c in sheet["cues"] for i in c["script"] if "say" in i)
    assert text.count("「") == text.count("」") > 0


def test_known_lines_land_on_their_cues(sheet):
    by_line = {c["line"]: c for c in sheet["cues"]}
    assert "把一个参数想象成调音台上的一个推子。" in by_line[60]["lines"]
    assert "5.00 是值。3 是兑换率。这是两件完全不同的事。" in by_line[60]["lines"]
    opening = next(n for n, text in enumerate(NOTES_LINES) if text.startswith("「专题一那一讲"))
    assert by_line[40]["lines"][0] == NOTES_LINES[opening][1:]  # the opening, said before its cue
    assert by_line[42]["lines"][0] == "先问一个笨问题：我怎么知道某一个参数该往哪边调？"  # 第一节 opens here
    assert by_line[1106]["lines"] == [] and by_line[934]["lines"] == []


# ---- estimates ---------------------------------------------------------------------------

def test_estimates_are_speech_at_the_rate_plus_named_pauses(sheet):
    rate = sheet["speaking_rate"]["chars_per_minute"]
    by_line = {c["line"]: c for c in sheet["cues"]}
    vote_b = by_line[125]
    assert [h["text"] for h in vote_b["holds"]] == ["停三秒"]
    assert vote_b["estimated_s"] == pytest.approx(vote_b["speech_chars"] * 60 / rate + 3, abs=0.051)
    plain = by_line[117]
    assert plain["holds"] == [] and plain["estimated_s"] == pytest.approx(plain["speech_chars"] * 60 / rate, abs=0.051)
    assert plain["speech_chars"] == cues.speech_chars("".join(plain["lines"])) > 0
    step = by_line[940]
    assert [h["text"] for h in step["holds"]] == ["整张投三秒"]
    # A screen the notes give a time (「一分钟后就切走」) lasts at least that long.
    muon = by_line[874]
    assert muon["holds"] == [{"text": "一分钟后就切走", "seconds": 60.0, "kind": "budget"}]
    assert muon["estimated_s"] == pytest.approx(max(60.0, muon["speech_chars"] * 60 / rate), abs=0.051)
    assert by_line[40]["estimated_s"] >= 180  # 「这三分钟全靠嘴」


def test_section_and_total_times_add_up(sheet):
    for section in sheet["sections"]:
        assert section["estimated_s"] == pytest.approx(
            sum(c["estimated_s"] for c in sheet["cues"] if c["section"] == section["number"]), abs=0.2)
    assert sheet["total_estimated_s"] == pytest.approx(sum(s["estimated_s"] for s in sheet["sections"]), abs=0.5)
    assert "估算" in sheet["estimate"]


def test_speaking_rate_comes_from_config(config_copy):
    text = (config_copy / "cues.yaml").read_text(encoding="utf-8").replace("chars_per_minute: 240", "chars_per_minute: 120")
    write_cues_config(config_copy, text)
    slow = cues.build_sheet(config_dir=config_copy)
    fast = cues.build_sheet()
    for a, b in zip(slow["cues"], fast["cues"]):
        pauses = sum(h["seconds"] for h in a["holds"] if h["kind"] == "pause")
        if not any(h["kind"] == "budget" for h in a["holds"]):
            assert a["estimated_s"] - pauses == pytest.approx(2 * (b["estimated_s"] - pauses), abs=0.2)


def test_chinese_numbers_in_holds():
    assert [cues.zh_number(t) for t in ("三", "两", "十", "十五", "二十", "一百", "两百五", "半", "12")] == [3, 2, 10, 15, 20, 100, 250, 0.5, 12]


# ---- what parsing cannot decide fails until config settles it ---------------------------

def test_a_cue_neither_parsed_nor_overridden_fails(config_copy):
    text = (config_copy / "cues.yaml").read_text(encoding="utf-8")
    start = text.index("  - line: 482")
    end = text.index("  - line: 509")
    write_cues_config(config_copy, text[:start] + text[end:])
    with pytest.raises(UsageError, match=r"lecture-notes.txt:482: .*同一张图.*config/cues.yaml"):
        cues.build_sheet(config_dir=config_copy)


def test_a_pan_with_nothing_on_screen_is_undecided():
    notes = ["🖥 屏幕：平移到 Ⓑ。", "🖥 本节主屏：课件 第一节　标题　·　本节无图"]
    parsed = cues.parse_cues(notes)
    with pytest.raises(UsageError, match=r"x.txt:1: .*no figure is on screen"):
        cues.resolve(parsed, [], "x.txt")


@pytest.mark.parametrize("entry, message", [
    ("  - {line: 482, text: 别的字, scene: fig-optimizers, why: x}", r"override for line 482 expects 「别的字」"),
    ("  - {line: 483, text: 同一张图, scene: fig-optimizers, why: x}", r"line 483 of lecture-notes.txt is not a 🖥 line"),
    ("  - {line: 482, text: 同一张图, scene: fig-nothing, why: x}", r"'fig-nothing' is not a figure the notes name"),
    ("  - {line: 482, text: 同一张图, scene: fig-optimizers}", r"cues.yaml:\d+: invalid config: .*'why' is a required"),
    ("  - {line: 42, text: 本节, why: x}", r"line 42 is a 本节主屏 section marker"),
])
def test_bad_overrides_get_one_line_reasons(config_copy, entry, message):
    write_cues_config(config_copy, f"speaking_rate: {{chars_per_minute: 240}}\noverrides:\n{entry}\n")
    with pytest.raises(UsageError, match=message) as caught:
        cues.build_sheet(config_dir=config_copy)
    assert "\n" not in str(caught.value)


def test_bad_speaking_rate_names_the_file_and_line(config_copy):
    write_cues_config(config_copy, "speaking_rate:\n  chars_per_minute: -5\n")
    with pytest.raises(UsageError, match=r"cues.yaml:2: invalid config: speaking_rate.chars_per_minute"):
        cues.build_sheet(config_dir=config_copy)


def test_malformed_screen_line_is_named():
    with pytest.raises(UsageError, match=r"n.txt:2: a 🖥 line must start"):
        cues.parse_cues(["", "🖥 投影：fig-x"], "n.txt")


def test_tuning_the_track_does_not_re_render(config_copy, monkeypatch):
    from studio.engine import cache, registry
    from studio import config

    entry = registry.discover()["fig-circuit"]
    monkeypatch.setenv("LECTURE_CONFIG_DIR", str(config_copy))
    before = cache.cache_key(entry, "low", config.presets()["low"])
    write_cues_config(config_copy, "speaking_rate: {chars_per_minute: 200}\n")
    assert cache.cache_key(entry, "low", config.presets()["low"]) == before
    (config_copy / "presets.yaml").write_text((ROOT / "config" / "presets.yaml").read_text() + "\n# changed\n")
    assert cache.cache_key(entry, "low", config.presets()["low"]) != before  # other config still counts


# ---- against a render: clips or placeholders, cues.json ------------------------------------

def test_cues_json_maps_views_to_clips_or_placeholders(tmp_path, sheet):
    manifest = synthetic_manifest()
    published = cues.publish(tmp_path, manifest, sheet)
    on_disk = json.loads((tmp_path / "cues.json").read_text(encoding="utf-8"))
    assert on_disk == published
    assert stat.S_IMODE((tmp_path / "cues.json").stat().st_mode) & 0o044 == 0o044  # others can read it
    by_line = {c["line"]: c for c in on_disk["cues"]}
    assert [m["file"] for m in by_line[176]["media"]] == ["fig-circuit/A.mp4"]
    assert [m["file"] for m in by_line[200]["media"]] == ["fig-circuit/C.mp4"]
    reverse = by_line[287]
    assert reverse["rendered"] and reverse["media"] == [
        {"view": "whole", "file": "anim-reverse.mp4", "poster": "anim-reverse.png", "loop": True, "whole": True}]
    slider = by_line[60]
    assert slider["rendered"] is False and slider["media"] == [{"view": "A", "file": None, "placeholder": True}]
    assert all("media" not in c for c in on_disk["cues"] if c["kind"] != "figure")
    assert len(on_disk["cues"]) == 65 and on_disk["quality"] == "low"


def test_first_view_is_the_first_panel_or_the_whole_clip():
    walkthrough, loop = synthetic_manifest()["scenes"]
    assert cues.view_media(walkthrough, "first")["file"] == "fig-circuit/A.mp4"
    assert cues.view_media(loop, "first")["file"] == "anim-reverse.mp4"
    assert cues.view_media(walkthrough, "D") is None and cues.view_media(None, "A") is None


# ---- a figure the notes name that is no scene ------------------------------------------------

def notes_with(tmp_path: Path, line: int, text: str) -> Path:
    changed = list(NOTES_LINES)
    changed[line - 1] = text
    path = tmp_path / "lecture-notes.txt"
    path.write_text("\n".join(changed) + "\n", encoding="utf-8")
    return path


def test_the_real_notes_name_only_scenes(sheet):
    assert sheet["warnings"] == []
    assert cues.build_sheet(strict=True, errata=[])["warnings"] == []


def test_a_typo_in_a_figure_id_warns_with_the_nearest_scene(tmp_path):
    """Issue 29: 「🖥 屏幕：fig-slidr」 gave three placeholder cues and no word."""
    notes = notes_with(tmp_path, 60, "🖥 屏幕：fig-slidr")
    typo = cues.build_sheet(notes, errata=[])
    assert typo["warnings"] == ["L60: 「fig-slidr」 names no scene — did you mean fig-slider?"]
    with pytest.raises(UsageError, match=r"L60: 「fig-slidr」 names no scene — did you mean fig-slider\?") as caught:
        cues.build_sheet(notes, strict=True, errata=[])
    assert "\n" not in str(caught.value)


def test_a_figure_far_from_every_scene_says_so():
    parsed = cues.parse_cues(["🖥 屏幕：fig-zzzzzzzzzz", "🖥 本节主屏：课件 第一节　标题　·　主图 fig-slidr"])
    assert cues.nameless_figures(parsed, ["fig-slider", "fig-vote"]) == [
        "L1: 「fig-zzzzzzzzzz」 names no scene — no scene id is close (python render.py --list)",
        "L2: 「fig-slidr」 names no scene — did you mean fig-slider?"]


# ---- section cards are their own section -----------------------------------------------------

def test_section_cues_are_their_own_section(sheet):
    """Issue 29: a section card had the next section's title but the previous section's
    本节主屏 line (deck slide 19, L331). Each card now carries the section it opens: its title,
    its 本节主屏 line and the speech that opens it; the last card, the section it closes."""
    sections = {s["number"]: s for s in sheet["sections"]}
    cards = [c for c in sheet["cues"] if c["kind"] == "section"]
    for card in cards:
        own = sections[card["opens"] if card["opens"] is not None else card["marks"]]
        raw = NOTES_LINES[card["marker_line"] - 1]
        assert card["marker_line"] == own["line"] and card["text"] in raw, card["line"]
        marker = cues.MARKER.match(card["text"])
        assert int(cues.zh_number(marker["num"])) == own["number"] == card["section"], card["line"]
        assert card["title"] == own["title"] and card["main_figure"] == own["main_figure"]
        previous_marker = sections.get(own["number"] - 1)
        for item in card["script"]:   # all of it is said in the section it opens
            assert (previous_marker["line"] if previous_marker else 0) < item["line"] < own["line"], card["line"]
    slide_19 = sheet["cues"][18]
    assert slide_19["line"] == 331 and slide_19["title"].startswith("第二节")
    assert slide_19["text"].startswith("课件 第二节") and slide_19["lines"][0].startswith("上一节结束时")
