"""fig-vote, rendered for real, stepped beat by beat in lecture mode in headless Chromium:
every → plays the next beat's own clip, and the clip ends held on its last frame."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from selenium.webdriver.common.keys import Keys

from tests.render_helpers import ROOT, env, render
from tests.test_lecture_beats import file_name, open_lecture, wait_held, wait_step
from tests.test_page_browser import chromium, press, require_browser

pytestmark = [pytest.mark.browser, pytest.mark.render]

FAST = 4.0   # the clips play at 4× so the walk takes seconds; what is checked is where each one ends


@pytest.fixture(scope="module")
def vote_render(tmp_path_factory) -> Path:
    require_browser()
    out = tmp_path_factory.mktemp("vote")
    result = render("fig-vote", "--quality", "low", "--out", str(out), timeout=900,
                    LECTURE_SCENES_DIR=str(ROOT / "scenes"))
    assert result.returncode == 0, result.stderr + result.stdout
    return out / "low"


def test_every_beat_of_fig_vote_steps_and_ends_held(vote_render):
    sheet = json.loads((vote_render / "cues.json").read_text())
    vote_cues = [c for c in sheet["cues"] if c.get("scene") == "fig-vote"]
    steps = [s for c in vote_cues for s in c["steps"]]
    manifest = json.loads((vote_render / "manifest.json").read_text())
    beats = [b["file"] for s in next(x for x in manifest["scenes"] if x["id"] == "fig-vote")["sections"]
             for b in s["beats"]]
    assert [s["file"] for s in steps] == beats, "the cues do not step through fig-vote's beats in order"
    assert len(beats) == 21          # Ⓐ 5, Ⓑ 9, Ⓒ 7
    with chromium() as driver:
        first = vote_cues[0]["index"]
        open_lecture(driver, vote_render, at=f"#lecture={first}/0")
        start = int(wait_step(driver, int(driver.execute_script(
            "return document.getElementById('lecture').dataset.step")))["step"])
        for n, beat in enumerate(beats):
            if n:
                press(driver, Keys.ARROW_RIGHT)
            wait_step(driver, start + n)
            driver.execute_script(f"document.getElementById('lecture-video').playbackRate = {FAST};")
            held = wait_held(driver, beat)
            assert file_name(held["source"]) == beat, f"step {n + 1} plays {held['source']}"
            assert held["paused"] and held["time"] >= held["duration"] - 0.2, f"{beat} did not end held: {held}"
        errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert not errors, errors
