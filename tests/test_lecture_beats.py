"""Lecture mode by beat, the clean audience screen, the presenter window, rehearsal timings,
the notes' marks and the printed appendix, in headless Chromium on a hand-made render
(tests/fixtures_beats.py: flat-colour beat clips, so screenshots say what is on screen)."""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image
from selenium.webdriver.common.keys import Keys

from tests.fixtures_beats import BEAT_COLOURS, ERRATUM, HALF_S, LOOP_COLOUR, demo_sheet, make_beats_output
from tests.test_page_browser import (CHROMIUM, chromium, press, require_browser, save_screenshot, speaker_state,
                                     wait_for)
from tests.test_page_browser import lecture_state as lecture

pytestmark = pytest.mark.browser

COLOUR_TOLERANCE = 16   # per channel: H.264's 4:2:0 round trip moves flat colours a little
# On the audience screen all of these step on (a clicker sends PageDown): space → PageDown ↓.
NEXT_KEYS = (" ", Keys.ARROW_RIGHT, Keys.PAGE_DOWN, Keys.ARROW_DOWN)


@pytest.fixture(scope="module")
def talk(tmp_path_factory) -> Path:
    require_browser()
    return make_beats_output(tmp_path_factory.mktemp("beats") / "low")


@pytest.fixture()
def browser():
    with chromium() as driver:
        yield driver


# ---- helpers ---------------------------------------------------------------------------

def wait_step(driver: Any, number: int) -> dict[str, Any]:
    wait_for(driver, lambda: lecture(driver)["step"] == str(number),
             f"lecture mode is on step {lecture(driver)['step']}, expected {number}", timeout=5)
    return lecture(driver)


def wait_held(driver: Any, label: str) -> dict[str, Any]:
    wait_for(driver, lambda: lecture(driver)["ended"], f"{label}: the clip never ended", timeout=10)
    return lecture(driver)


def open_lecture(driver: Any, talk: Path, at: str = "") -> None:
    driver.get((talk / "index.html").as_uri() + at)
    if not at:
        driver.find_element("css selector", "header.top button.lecture-start").click()
    wait_for(driver, lambda: lecture(driver)["open"], "lecture mode did not open")


def open_speaker(driver: Any) -> tuple[str, str]:
    main = driver.current_window_handle
    press(driver, "p")
    wait_for(driver, lambda: len(driver.window_handles) == 2, "P did not open the presenter window")
    speaker = next(h for h in driver.window_handles if h != main)
    driver.switch_to.window(speaker)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})
    return main, speaker


def screenshot(driver: Any, path: Path) -> np.ndarray:
    """Save and read back a screenshot (also into PAGE_SCREENSHOT_DIR when that is set)."""
    path = save_screenshot(driver, path.parent, path.stem)
    return np.asarray(Image.open(path).convert("RGB")).astype(int)


def share_of(pixels: np.ndarray, colour: tuple[int, int, int]) -> float:
    """The fraction of pixels within COLOUR_TOLERANCE of ``colour`` on every channel."""
    close = np.all(np.abs(pixels - np.array(colour)) <= COLOUR_TOLERANCE, axis=-1)
    return float(close.mean())


def crop(driver: Any, pixels: np.ndarray, selector: str) -> np.ndarray:
    box = driver.execute_script("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
                                "return [r.left, r.top, r.right, r.bottom].map(Math.round);", selector)
    left, top, right, bottom = box
    assert right - left > 4 and bottom - top > 4, f"{selector} is not on screen: {box}"
    return pixels[top + 2:bottom - 2, left + 2:right - 2]


def file_name(src: str) -> str:
    """A page URL as the path inside the quality folder (the fixture's folder is .../low/)."""
    return src.rsplit("/low/", 1)[-1]


# ---- 1. lecture mode steps by beat -------------------------------------------------------

def test_lecture_mode_steps_by_beat_and_holds_each_beats_last_frame(talk, browser):
    sheet = demo_sheet()
    open_lecture(browser, talk)
    assert wait_step(browser, 0)["card"], "the title cue is a card"
    beats = sheet["cues"][1]["steps"]
    for n, beat in enumerate(beats, start=1):
        press(browser, NEXT_KEYS[n - 1])
        state = wait_step(browser, n)
        assert state["count"] == f"2/5 · {n}/4", f"beat {n}: position reads {state['count']!r}"
        held = wait_held(browser, beat["file"])
        assert file_name(held["source"]) == beat["file"], f"step {n} plays {held['source']}"
        assert held["paused"] and not held["loop"] and held["time"] >= held["duration"] - 1.5 / 15, held
        time.sleep(0.3)  # held: nothing rewinds or moves on by itself
        assert lecture(browser)["step"] == str(n) and lecture(browser)["ended"]
    press(browser, Keys.ARROW_LEFT)  # ← back to Ⓐ's second beat
    assert file_name(wait_step(browser, 3)["source"]) == beats[2]["file"]
    press(browser, Keys.PAGE_UP)  # PageUp, as a clicker sends it
    assert file_name(wait_step(browser, 2)["source"]) == beats[1]["file"]
    for n in (3, 4, 5):
        press(browser, Keys.ARROW_RIGHT)
        wait_step(browser, n)
    loop = lecture(browser)
    assert loop["loop"] and file_name(loop["source"]) == "anim-spin.mp4" and loop["count"] == "3/5"
    time.sleep(2 * HALF_S + 0.5)
    assert not lecture(browser)["ended"], "a loop keeps looping"
    press(browser, Keys.ARROW_RIGHT)
    assert wait_step(browser, 6)["card"], "an unbuilt figure is a card"
    press(browser, Keys.ARROW_RIGHT)
    assert wait_step(browser, 7)["card"]
    errors = [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors


# ---- 2. the audience screen carries nothing but the picture -------------------------------

def test_audience_screen_shows_no_controls_in_fullscreen_until_the_mouse_moves(talk, browser, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains

    open_lecture(browser, talk, "#lecture=1/0")
    wait_step(browser, 1)
    press(browser, "f")
    wait_for(browser, lambda: lecture(browser)["full"], "F did not enter fullscreen", timeout=5)
    wait_held(browser, "Ⓐ beat 1")
    time.sleep(0.5)  # past the bar's fade
    shot = screenshot(browser, tmp_path / "audience-fullscreen.png")
    assert share_of(shot, BEAT_COLOURS["A.1"]) > 0.995, (
        f"the fullscreen audience screen is not just the held picture: "
        f"{share_of(shot, BEAT_COLOURS['A.1']):.4f} of it is the beat's colour")
    text = browser.execute_script(
        "return Array.from(document.querySelectorAll('#lecture *')).filter(e => e.offsetParent !== null"
        " && getComputedStyle(e).visibility === 'visible' && e.textContent.trim() && !e.children.length)"
        ".map(e => e.textContent.trim());")
    assert text == [], f"control text visible on the audience screen: {text}"

    ActionChains(browser).move_by_offset(200, 150).move_by_offset(40, 30).perform()
    wait_for(browser, lambda: lecture(browser)["barShown"], "moving the mouse did not show the controls", timeout=3)
    time.sleep(0.3)
    with_bar = screenshot(browser, tmp_path / "audience-mouse.png")
    assert share_of(with_bar, BEAT_COLOURS["A.1"]) < 0.98, "the controls should show while the mouse moves"
    wait_for(browser, lambda: not lecture(browser)["barShown"], "the controls did not hide again", timeout=4)
    time.sleep(0.4)
    assert share_of(screenshot(browser, tmp_path / "audience-idle.png"), BEAT_COLOURS["A.1"]) > 0.995


# ---- 3. the presenter window ----------------------------------------------------------------

def test_presenter_shows_the_current_screen_and_the_next_beat(talk, browser, tmp_path):
    open_lecture(browser, talk, "#lecture=1/0")
    wait_step(browser, 1)
    main, _ = open_speaker(browser)
    wait_for(browser, lambda: speaker_state(browser)["step"] == "1", "the presenter window did not follow")
    wait_for(browser, lambda: speaker_state(browser)["nowEnded"], "the presenter's screen never ended its clip", timeout=10)
    state = speaker_state(browser)
    assert state["count"] == "2/5 · 1/4"
    assert file_name(state["nowSrc"]) == "fig-demo/A/1.mp4"
    assert file_name(state["nextSrc"]) == "fig-demo/A/2.jpg", "the next preview is the next beat, not the next cue"
    assert "同一条" in state["nextLabel"]
    rehearsed = [browser.find_element("id", f"speaker-{what}-rehearsed").text for what in ("cue", "section")]
    assert rehearsed == ["/ 排 1:30", "/ 排 1:35"], f"cues.json's rehearsed times beside the estimates: {rehearsed}"
    assert state["current"] == list(range(6)) and not state["errataShown"]
    time.sleep(0.3)
    shot = screenshot(browser, tmp_path / "presenter.png")
    assert share_of(crop(browser, shot, "#speaker-current-media > *"), BEAT_COLOURS["A.1"]) > 0.97, \
        "the presenter's current screen is not what the audience sees"
    assert share_of(crop(browser, shot, "#speaker-next-media > *"), BEAT_COLOURS["A.2"]) > 0.97

    press(browser, Keys.ARROW_RIGHT)  # → in the presenter window steps the talk
    wait_for(browser, lambda: speaker_state(browser)["step"] == "2", "→ in the presenter did not step")
    state = speaker_state(browser)
    assert state["current"] == list(range(6, 12)) and state["scroll"] > 0, "the beat's lines are not in view"
    assert state["errataShown"] and len(state["errata"]) == 1
    assert ERRATUM["said"] in state["errata"][0] and ERRATUM["right"] in state["errata"][0] and "L112" in state["errata"][0]
    box = crop(browser, screenshot(browser, tmp_path / "presenter-errata.png"), "#speaker-errata")
    assert share_of(box, (0x8E, 0x1B, 0x1B)) > 0.5, "the errata box is not red"
    last_line = browser.execute_script("return document.querySelector('#speaker-script p[data-index=\"23\"]').offsetTop;")
    assert last_line > browser.execute_script("return document.getElementById('speaker-script').clientHeight;"), \
        "the script must overflow its box for this test"

    for key, grows in ((Keys.ARROW_DOWN, True), ("j", True), (Keys.ARROW_UP, False), ("k", False)):
        before = speaker_state(browser)["scroll"]
        press(browser, key)
        wait_for(browser, lambda: (speaker_state(browser)["scroll"] > before) == grows and speaker_state(browser)["scroll"] != before,
                 f"{key!r} did not scroll the script", timeout=3)
    browser.switch_to.window(main)
    before = speaker_scroll_via(browser, main)
    press(browser, "j")  # J on the audience screen scrolls the presenter's script, too
    time.sleep(0.6)
    assert lecture(browser)["step"] == "2", "scrolling keys must not step the talk"
    assert speaker_scroll_via(browser, main) > before


def speaker_scroll_via(driver: Any, main: str) -> float:
    other = next(h for h in driver.window_handles if h != main)
    driver.switch_to.window(other)
    scroll = speaker_state(driver)["scroll"]
    driver.switch_to.window(main)
    return scroll


def test_presenter_clock_pauses_resets_and_shows_the_time_of_day(talk, browser):
    open_lecture(browser, talk, "#lecture=1/0")
    open_speaker(browser)
    wait_for(browser, lambda: speaker_state(browser)["step"] == "1", "the presenter window did not follow")
    assert re.fullmatch(r"\d{1,2}:\d{2}:\d{2}", speaker_state(browser)["clock"]), speaker_state(browser)["clock"]
    wait_for(browser, lambda: speaker_state(browser)["elapsed"] not in ("0:00",), "the clock does not run", timeout=5)
    browser.find_element("id", "speaker-pause").click()
    wait_for(browser, lambda: browser.find_element("id", "speaker-pause").text == "继续", "pause did not pause")
    paused = speaker_state(browser)["elapsed"]
    time.sleep(1.6)
    assert speaker_state(browser)["elapsed"] == paused, "a paused clock moved"
    browser.find_element("id", "speaker-reset").click()
    wait_for(browser, lambda: speaker_state(browser)["elapsed"] == "0:00", "reset did not go back to 0:00", timeout=3)
    press(browser, "t")  # T continues
    wait_for(browser, lambda: speaker_state(browser)["elapsed"] == "0:02", "T did not start the clock again", timeout=5)


# ---- 4. rehearsal timings ---------------------------------------------------------------------

TRACK_CELLS = {"title": 'li[data-cue="0"] .cue-rehearsed', "demo": 'li[data-cue="1"] .cue-rehearsed',
               "loop": 'li[data-cue="2"] .cue-rehearsed', "one": 'tr[data-section="1"] td.rehearsed',
               "two": 'tr[data-section="2"] td.rehearsed'}


def track(driver: Any) -> dict[str, Any]:
    """The rehearsed times the track shows: [text, data-seconds] per cell, the flagged sections."""
    cell = "const e = document.querySelector(arguments[0]); return e && [e.textContent, e.dataset.seconds || null];"
    shown = {name: driver.execute_script(cell, selector) for name, selector in TRACK_CELLS.items()}
    shown["over"] = driver.execute_script(
        "return Array.from(document.querySelectorAll('#track tr.over-target')).map(r => r.dataset.section);")
    shown["status"] = driver.find_element("id", "timings-status").text
    return shown


def stored(driver: Any) -> dict[str, Any] | None:
    return driver.execute_script("return JSON.parse(localStorage.getItem('lecture-timings:assets/lecture-notes.txt'));")


def test_rehearsal_records_times_exports_and_imports_them_back(talk, browser, tmp_path):
    browser.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path)})
    browser.get((talk / "index.html").as_uri())
    assert track(browser)["one"] == ["1 分 35 秒", "95"] and track(browser)["over"] == ["1"], "cues.json's times first"
    browser.execute_script("document.querySelector('[data-rehearse]').click();")
    wait_step(browser, 0)
    time.sleep(1.0)
    press(browser, Keys.ARROW_RIGHT)
    wait_step(browser, 1)
    time.sleep(1.5)
    press(browser, Keys.ARROW_RIGHT)
    wait_step(browser, 2)
    time.sleep(0.8)
    press(browser, Keys.ESCAPE)  # Esc ends the rehearsal
    wait_for(browser, lambda: not lecture(browser)["open"], "Esc did not close lecture mode")

    recorded = stored(browser)
    assert recorded["version"] == 1 and recorded["notes"] == "assets/lecture-notes.txt"
    assert set(recorded["cues"]) == {"10", "100"}
    demo = recorded["cues"]["100"]
    assert set(demo["beats"]) == {"A.1", "A.2"}
    assert demo["beats"]["A.1"] == pytest.approx(1.5, abs=0.6) and demo["beats"]["A.2"] == pytest.approx(0.8, abs=0.6)
    assert demo["seconds"] == pytest.approx(sum(demo["beats"].values()), abs=0.11)
    assert recorded["cues"]["10"]["seconds"] == pytest.approx(1.0, abs=0.6)
    before = track(browser)
    assert before["demo"] == [f"排 {int(demo['seconds'] + 0.5)} 秒", str(demo["seconds"])]
    section_one = recorded["cues"]["10"]["seconds"] + demo["seconds"]
    assert float(before["one"][1]) == pytest.approx(section_one, abs=0.11)
    assert before["over"] == [], "section 1 was rehearsed in seconds: under its 60 s target"
    assert before["loop"] == ["", None], "a cue not rehearsed shows no time"

    browser.find_element("id", "timings-export").click()
    exported = tmp_path / "timings.json"
    wait_for(browser, lambda: exported.is_file() and exported.stat().st_size > 0, "the export did not download")
    data = json.loads(exported.read_text(encoding="utf-8"))
    assert data["cues"] == recorded["cues"] and re.match(r"\d{4}-\d\d-\d\dT", data["recorded"])
    from studio.track.rehearsal import load_timings

    assert load_timings(exported)["cues"] == data["cues"], "render.py --timings must read what the page exports"

    browser.find_element("id", "timings-clear").click()
    assert stored(browser) is None and track(browser)["demo"] == ["排 1 分 30 秒", "90"], "cleared: cues.json's times again"
    upload = browser.find_element("id", "timings-import")
    upload.send_keys(str(exported))
    wait_for(browser, lambda: "已导入 2" in track(browser)["status"], "the import did not report")
    assert stored(browser)["cues"] == recorded["cues"]
    after = track(browser)
    assert (after["demo"], after["one"], after["title"]) == (before["demo"], before["one"], before["title"])

    long_run = tmp_path / "long.json"
    long_run.write_text(json.dumps({"version": 1, "cues": {"140": {"seconds": 700, "beats": {"whole.1": 700}}}}))
    upload.send_keys(str(long_run))
    # An import replaces what was kept: section 1 is back to cues.json's 95 s (over 60 s) too.
    wait_for(browser, lambda: track(browser)["over"] == ["1", "2"], "a section over its target is not flagged")
    assert "超时 1 分 40 秒" in browser.find_element("css selector", 'tr[data-section="2"] td.flag').text

    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"version": 2, "cues": {}}))
    upload.send_keys(str(wrong))
    wait_for(browser, lambda: "版本" in track(browser)["status"], "a wrong file is not refused with a reason")
    wrong.write_text(json.dumps({"version": 1, "cues": {"100": {"seconds": 5, "beats": {"A": 5}}}}))
    upload.send_keys(str(wrong))
    wait_for(browser, lambda: "beats" in track(browser)["status"], "a beat not named <view>.<n> is not refused")
    assert stored(browser)["cues"]["140"]["seconds"] == 700, "a refused file must not change what is kept"


# ---- 5. the marks need no emoji font ------------------------------------------------------------

def test_marks_are_drawn_by_the_page_in_the_presenter_window(talk, browser, tmp_path):
    open_lecture(browser, talk, "#lecture=1/0")
    open_speaker(browser)
    wait_for(browser, lambda: speaker_state(browser)["step"] == "1", "the presenter window did not follow")
    kinds = browser.execute_script("return Array.from(document.querySelectorAll('#speaker .mark')).map(m => m.className);")
    assert {"mark mark-star", "mark mark-stop", "mark mark-screen"} <= set(kinds), kinds
    hints = browser.execute_script("return Array.from(document.querySelectorAll('#speaker-hints li')).map(l => l.textContent);")
    assert hints == demo_sheet()["cues"][1]["hints"], "the marks stay in the text"
    shot = screenshot(browser, tmp_path / "marks.png")
    star = crop(browser, shot, "#speaker-hints li.star .mark")
    stop = crop(browser, shot, "#speaker-hints li.warn .mark")
    assert share_of(star, (0xF2, 0xB7, 0x05)) > 0.2, "⭐ is not drawn as a gold star"
    assert share_of(stop, (0xD6, 0x2D, 0x2D)) > 0.3, "⛔ is not drawn as a red disc"


# ---- 6. the appendix prints as a handout ---------------------------------------------------------

def printed_text(page: Path, folder: Path) -> str:
    """``page`` printed by headless Chromium to PDF, as pdftotext reads it back, white space removed."""
    pdf = folder / f"{page.stem}.pdf"
    subprocess.run([str(CHROMIUM), "--headless=new", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
                    "--host-resolver-rules=MAP * ~NOTFOUND", f"--user-data-dir={folder / 'profile'}",
                    f"--print-to-pdf={pdf}", page.as_uri()],
                   check=True, capture_output=True, timeout=120)
    text = subprocess.run(["pdftotext", str(pdf), "-"], check=True, capture_output=True, text=True).stdout
    return re.sub(r"\s+", "", text)


def test_printing_the_page_gives_the_appendix_and_nothing_else(talk, tmp_path):
    flat = printed_text(talk / "index.html", tmp_path)
    for group in ("查来的", "推来的", "示例取值", "待核", "讲稿勘误"):
        assert group in flat, f"the handout has no {group} group"
    for shown in ("IEEE754-2019§3.6,table3.5", "total=params×bytes", "params=70亿", "thespeaker'sexample",
                  "Kalra&Barkeshli2024", "L112", "15GB", "14GB"):
        assert shown in flat, f"the handout lacks {shown!r}"
    for control in ("讲课模式", "排练计时", "提词窗口", "嵌入代码", "复制", "演示模式", "打印附录", "讲稿轨道"):
        assert control not in flat, f"the handout shows the page's {control!r}"


def test_the_ledger_page_prints_its_table(talk, tmp_path):
    flat = printed_text(talk / "ledger.html", tmp_path)
    assert all(key in flat for key in ("demo.bytes", "demo.total", "demo.params", "demo.warmup"))
    assert "返回排练页" not in flat
