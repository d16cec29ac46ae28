"""The lecture track on the rehearsal page, read back with the HTML parser of test_page."""

from __future__ import annotations

import json

import pytest

from studio.track import cues
from studio.present.page import build_page
from tests.fixtures_media import SAMPLE_LEDGER, synthetic_manifest
from tests.test_page import parse


@pytest.fixture(scope="module")
def published():
    return cues.with_media(cues.build_sheet(), synthetic_manifest())


@pytest.fixture(scope="module")
def index(published):
    return parse(build_page(synthetic_manifest(), SAMPLE_LEDGER, published)["index.html"])


def test_section_times_and_total_are_shown_as_estimates(index, published):
    track = index.find("section", id="track")
    rows = track.find("table", cls="section-times").find("tbody").find_all("tr")
    assert [r.attrs["data-section"] for r in rows] == [str(s["number"]) for s in published["sections"]]
    for row, section in zip(rows, published["sections"]):
        assert row.find("td", cls="section-title").text() == section["title"]
        est = row.find("td", cls="est")
        assert float(est.attrs["data-seconds"]) == section["estimated_s"] and est.text().startswith("约 ")
    total = track.find("tfoot").find("td", cls="total-est")
    assert float(total.attrs["data-seconds"]) == published["total_estimated_s"]
    assert "估算" in track.find("p", cls="estimate-note").text()


def test_cue_list_has_every_cue_in_order_and_marks_unbuilt_figures(index, published):
    items = index.find("details", cls="cue-list").find_all("li", cls="cue")
    assert [int(i.attrs["data-line"]) for i in items] == [c["line"] for c in published["cues"]]
    by_line = {int(i.attrs["data-line"]): i for i in items}
    assert "not-built" in by_line[60].classes and "未制作" in by_line[60].text()   # fig-slider
    assert "not-built" not in by_line[176].classes                                  # fig-circuit is rendered
    assert by_line[42].find("button").attrs["data-lecture-start"] == "1"


def test_cue_data_carries_clips_script_and_sections(index, published):
    data = json.loads(index.find("script", id="cue-data").text())
    assert [c["line"] for c in data["cues"]] == [c["line"] for c in published["cues"]]
    circuit_a = next(c for c in data["cues"] if c["line"] == 176)
    assert circuit_a["media"] == [{"view": "A", "file": "fig-circuit/A.mp4", "poster": None, "loop": False, "whole": False}]
    assert circuit_a["script"][0] == {"say": "看这个式子：f 等于 a 加 b，再乘 c。", "line": 178}
    assert [s["number"] for s in data["sections"]] == list(range(7))
    assert index.find("div", id="lecture") and index.find("div", id="speaker")
    assert index.find("header", cls="top").find("button", cls="lecture-start")


def test_without_a_cue_sheet_the_page_has_no_track():
    index = parse(build_page(synthetic_manifest(), SAMPLE_LEDGER)["index.html"])
    assert not index.find_all("section", id="track") and not index.find_all("script", id="cue-data")
    assert not index.find_all("div", id="lecture")


def test_cue_text_is_escaped(published):
    hostile = json.loads(json.dumps(published))
    hostile["cues"][2]["script"][0]["say"] = "</script><img src=x onerror=alert(1)>"
    hostile["sections"][1]["title"] = "<b>第一节</b>"
    raw = build_page(synthetic_manifest(), SAMPLE_LEDGER, hostile)["index.html"]
    assert "<img src=x" not in raw and "<b>第一节</b>" not in raw
    data = json.loads(parse(raw).find("script", id="cue-data").text())
    assert data["cues"][2]["script"][0]["say"] == "</script><img src=x onerror=alert(1)>"


# ---- steps, rehearsal times, marks, the appendix (cue sheets shaped as studio/track/cue_steps.py makes them) ----

def demo_index():
    from tests.fixtures_beats import LEDGER, demo_manifest, demo_sheet

    return parse(build_page(demo_manifest(), LEDGER, demo_sheet())["index.html"])


def test_cue_data_carries_each_beat_as_a_step():
    from tests.fixtures_beats import ERRATUM

    data = json.loads(demo_index().find("script", id="cue-data").text())
    demo = data["cues"][1]
    assert [(s["view"], s["beat"], s["key"]) for s in demo["steps"]] == [
        ("A", 1, "A.1"), ("A", 2, "A.2"), ("B", 1, "B.1"), ("B", 2, "B.2")]
    assert [s["poster"] for s in demo["steps"]] == [f"fig-demo/{p}/{n}.jpg" for p, n in ("A1", "A2", "B1", "B2")]
    assert demo["steps"][1]["errata"] == [ERRATUM] and demo["steps"][0]["errata"] == []
    assert demo["steps"][2]["lines"] == list(range(12, 18)) and demo["errata"] == [ERRATUM]
    assert [len(c["steps"]) for c in data["cues"]] == [1, 4, 1, 1, 1]


def test_a_sheet_without_steps_gives_one_step_per_view(index, published):
    data = json.loads(index.find("script", id="cue-data").text())
    for cue, source in zip(data["cues"], published["cues"]):
        if source.get("steps"):
            continue  # the cue sheet already has beats: nothing to stand in for
        views = cue["views"] if cue["kind"] == "figure" else [None]
        assert [s["view"] for s in cue["steps"]] == views
        assert all(s["lines"] == list(range(len(cue["script"]))) for s in cue["steps"])


def test_step_files_are_url_encoded():
    from tests.fixtures_beats import LEDGER, demo_manifest, demo_sheet

    sheet = demo_sheet()
    sheet["cues"][1]["steps"][0]["file"] = "fig demo/A/1#.mp4"
    data = json.loads(parse(build_page(demo_manifest(), LEDGER, sheet)["index.html"]).find("script", id="cue-data").text())
    assert data["cues"][1]["steps"][0]["file"] == "fig%20demo/A/1%23.mp4"


def test_track_shows_rehearsed_time_beside_the_estimate_and_flags_sections_over_target():
    index = demo_index()
    one, two = index.find("table", cls="section-times").find("tbody").find_all("tr")
    assert "over-target" in one.classes and one.find("td", cls="flag").text() == "超时 35 秒"
    assert one.find("td", cls="rehearsed").attrs["data-seconds"] == "95.0" and one.find("td", cls="rehearsed").text() == "1 分 35 秒"
    assert one.find("td", cls="target").text() == "1 分 00 秒"
    assert "over-target" not in two.classes and two.find("td", cls="rehearsed").text() == "—"
    demo = index.find("li", data_cue="1")
    assert demo.find("span", cls="cue-rehearsed").text() == "排 1 分 30 秒"
    assert index.find("a", id="timings-export").attrs["download"] == "timings.json"
    assert index.find("input", id="timings-import").attrs["type"] == "file"


def test_marks_are_drawn_by_the_page_not_an_emoji_font(index):
    meta = index.find("section", id="track").find("p", cls="meta")
    mark = meta.find("span", cls="mark")
    assert mark.classes == {"mark", "mark-screen"} and mark.text() == "🖥"
    from studio.present.page_html import marked

    assert marked("⚠️ 注意 ⭐⭐") == ('<span class="mark mark-warn">⚠️</span> 注意 '
                                    '<span class="mark mark-star">⭐</span><span class="mark mark-star">⭐</span>')
    assert marked("<b>⛔</b>") == '&lt;b&gt;<span class="mark mark-stop">⛔</span>&lt;/b&gt;'


def test_the_page_carries_the_appendix_for_print():
    from tests.fixtures_beats import ERRATUM, LEDGER

    appendix = demo_index().find("section", id="appendix")
    groups = [g.find("h2").text() for g in appendix.find_all("section", cls="ledger-group")]
    assert [g.split("（")[0] for g in groups] == ["讲稿勘误", "查来的 · 有出处", "推来的 · 有公式和输入",
                                                  "示例取值 · 为图挑的输入", "待核 · 出处未能核实"]
    rows = appendix.find_all("tr", cls="entry")
    assert sorted(r.attrs["id"] for r in rows) == sorted(f"n-{k}" for k in LEDGER)
    erratum = appendix.find("section", id="appendix-errata").find("tbody").text()
    assert all(str(ERRATUM[k]) in erratum for k in ("line", "said", "right", "why", "key"))
