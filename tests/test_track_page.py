"""The lecture track on the rehearsal page, read back with the HTML parser of test_page."""

from __future__ import annotations

import json

import pytest

from studio import cues
from studio.page import build_page
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
