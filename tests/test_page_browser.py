"""The rehearsal page in a real browser: Debian's Chromium, headless, opened from file://.

``assert_page_works(quality_dir)`` checks any published quality folder (manifest.json +
index.html + ledger.html + media): every video loads with the manifest's duration, the
presenter's arrow keys step through sections, a loop keeps looping, the ledger link
resolves, and nothing is fetched from outside the folder. The tests run it on a synthetic
folder; set PAGE_QUALITY_DIR=scratch/low to run it on a real render as well.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import unquote, urlparse

import pytest

from tests.fixtures_media import SAMPLE_LEDGER, make_synthetic_output

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
VIEWPORT = (1280, 720)
LOAD_TIMEOUT_S = 20

CHROMIUM_FLAGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run", "--disable-quic", "--autoplay-policy=no-user-gesture-required",
    # Nothing may be fetched: every host name fails to resolve.
    "--host-resolver-rules=MAP * ~NOTFOUND",
    f"--window-size={VIEWPORT[0]},{VIEWPORT[1]}",
]


def require_browser() -> None:
    """Skip on a developer machine without Chromium; in CI a missing browser is a failure."""
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    if not missing:
        return
    reason = f"{', '.join(missing)} not installed (Debian packages: chromium, chromium-driver)"
    if os.environ.get("CI"):
        pytest.fail(f"CI needs the browser: {reason}")
    pytest.skip(reason)


@contextmanager
def chromium() -> Iterator[Any]:
    """Headless Chromium with a throw-away profile, driven by the system chromedriver."""
    from selenium import webdriver

    profile = tempfile.mkdtemp(prefix="page-test-profile-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in [*CHROMIUM_FLAGS, f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=str(CHROMEDRIVER)),
                              options=options)
    # --window-size counts the (invisible) browser frame; pin the page's viewport itself.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": VIEWPORT[0], "height": VIEWPORT[1], "deviceScaleFactor": 1, "mobile": False})
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


# ---- small browser helpers ----------------------------------------------------------

def wait_for(driver: Any, condition, message: str, timeout: float = LOAD_TIMEOUT_S) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: condition(), message)


def media_state(driver: Any, video: Any) -> dict[str, Any]:
    return driver.execute_script(
        "const v = arguments[0]; return {ready: v.readyState, duration: v.duration, src: v.currentSrc,"
        " error: v.error && v.error.code, paused: v.paused, ended: v.ended, loop: v.loop,"
        " time: v.currentTime};", video)


def wait_playable(driver: Any, video: Any, label: str) -> dict[str, Any]:
    """Wait until the element has decoded a frame (HAVE_CURRENT_DATA) or failed."""
    wait_for(driver, lambda: media_state(driver, video)["ready"] >= 2 or media_state(driver, video)["error"],
             f"{label}: video never became playable")
    state = media_state(driver, video)
    assert not state["error"], f"{label}: media error {state['error']} for {state['src']}"
    return state


PROBE_SCRIPT = """
const [sources, done] = [arguments[0], arguments[arguments.length - 1]];
Promise.all(sources.map((src) => new Promise((resolve) => {
  const v = document.createElement("video");
  v.muted = true; v.preload = "auto";
  const report = () => resolve({src, ready: v.readyState, duration: v.duration, error: v.error && v.error.code});
  v.addEventListener("loadeddata", report, {once: true});
  v.addEventListener("error", report, {once: true});
  setTimeout(report, 15000);
  v.src = src;
}))).then(done);
"""


def probe_media(driver: Any, sources: list[str]) -> list[dict[str, Any]]:
    """Load every file in its own <video>, as a deck pasting our snippet would."""
    driver.set_script_timeout(LOAD_TIMEOUT_S)
    return driver.execute_async_script(PROBE_SCRIPT, sources)


def press(driver: Any, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(key).perform()


def assert_duration(label: str, measured: float, expected: float, fps: float) -> None:
    tolerance_s = 2 / fps + 1e-3  # within two frames
    assert abs(measured - expected) <= tolerance_s, (
        f"{label}: browser reports {measured:.3f} s, manifest says {expected:.3f} s")


def same_file(src_url: str, quality_dir: Path, relative: str) -> bool:
    return Path(unquote(urlparse(src_url).path)).resolve() == (quality_dir / relative).resolve()


def save_screenshot(driver: Any, folder: Path, name: str) -> Path:
    """Save into ``folder``; with PAGE_SCREENSHOT_DIR set, also there as <folder name>-<name>.png."""
    path = folder / f"{name}.png"
    driver.save_screenshot(str(path))
    extra = os.environ.get("PAGE_SCREENSHOT_DIR")
    if extra:
        Path(extra).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(extra) / f"{folder.name}-{name}.png")
    return path


# ---- the checks -----------------------------------------------------------------------

def check_scene_list(driver: Any, quality_dir: Path, manifest: dict[str, Any]) -> None:
    from selenium.webdriver.common.by import By

    scenes, fps = manifest["scenes"], manifest["fps"]
    cards = driver.find_elements(By.CSS_SELECTOR, "section.scene")
    assert [c.get_attribute("data-scene-id") for c in cards] == [s["id"] for s in scenes], "scenes out of lecture order"
    for card, scene in zip(cards, scenes):
        label = scene["id"]
        assert scene["title"] in card.find_element(By.TAG_NAME, "h2").text
        video = card.find_element(By.CSS_SELECTOR, "video.player")
        shown = scene["sections"][0] if scene["sections"] and not scene["loop"] else None
        expected_file = shown["file"] if shown else scene["files"]["mp4"]
        state = wait_playable(driver, video, label)
        assert same_file(state["src"], quality_dir, expected_file), f"{label}: player shows {state['src']}"
        assert_duration(label, state["duration"], shown["duration_s"] if shown else scene["duration_s"], fps)
        assert state["loop"] == bool(scene["loop"]), f"{label}: loop attribute is {state['loop']}"
        poster_ok = driver.execute_script(
            "const img = new Image(); img.src = arguments[0].poster;"
            "return img.decode().then(() => img.naturalWidth > 0, () => false);", video)
        assert poster_ok, f"{label}: poster does not load"


def check_section_tabs(driver: Any, quality_dir: Path, manifest: dict[str, Any]) -> None:
    """In the list, a walkthrough's tabs swap the player to that one section's clip."""
    from selenium.webdriver.common.by import By

    for scene in (s for s in manifest["scenes"] if not s["loop"] and len(s["sections"]) >= 2):
        card = driver.find_element(By.CSS_SELECTOR, f'section.scene[data-scene-id="{scene["id"]}"]')
        video = card.find_element(By.CSS_SELECTOR, "video.player")
        tabs = card.find_elements(By.CSS_SELECTOR, ".section-tab")
        assert len(tabs) == len(scene["sections"]), f"{scene['id']}: one tab per section"
        last = scene["sections"][-1]
        driver.execute_script("arguments[0].click();", tabs[-1])
        wait_for(driver, lambda: same_file(media_state(driver, video)["src"], quality_dir, last["file"]),
                 f"{scene['id']}: tab {last['name']} did not load its clip", timeout=3)
        state = wait_playable(driver, video, f"{scene['id']} tab {last['name']}")
        assert_duration(last["file"], state["duration"], last["duration_s"], manifest["fps"])
        assert "active" in tabs[-1].get_attribute("class")
        driver.execute_script("arguments[0].pause();", video)


def check_copy_buttons(driver: Any, quality_dir: Path, manifest: dict[str, Any]) -> None:
    """Each scene's copy button puts a <video> tag on the clipboard that plays in a deck."""
    from selenium.webdriver.common.by import By

    driver.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    driver.set_script_timeout(5)
    for scene in manifest["scenes"]:
        card = driver.find_element(By.CSS_SELECTOR, f'section.scene[data-scene-id="{scene["id"]}"]')
        driver.execute_script("arguments[0].click();", card.find_element(By.CSS_SELECTOR, "button.copy"))
        copied = driver.execute_async_script(
            "const done = arguments[0]; navigator.clipboard.readText().then(done, (e) => done('failed: ' + e));")
        tag = driver.execute_script(
            "const t = document.createElement('template'); t.innerHTML = arguments[0];"
            "const v = t.content.querySelector('video'); return v && {src: v.getAttribute('src'),"
            " poster: v.getAttribute('poster'), flags: ['autoplay', 'muted', 'loop', 'playsinline'].filter(a => v.hasAttribute(a))};",
            copied)
        assert tag, f"{scene['id']}: clipboard holds no <video> tag: {copied!r}"
        assert (quality_dir / unquote(tag["src"])).is_file() and (quality_dir / unquote(tag["poster"])).is_file()
        expected = ["autoplay", "muted", "loop", "playsinline"] if scene["loop"] else ["autoplay", "muted", "playsinline"]
        assert tag["flags"] == expected, f"{scene['id']}: snippet flags {tag['flags']}"


def check_every_file_plays(driver: Any, manifest: dict[str, Any]) -> None:
    expected = {}
    for scene in manifest["scenes"]:
        expected[scene["files"]["mp4"]] = scene["duration_s"]
        expected.update({s["file"]: s["duration_s"] for s in scene["sections"]})
    for result, (file, duration_s) in zip(probe_media(driver, list(expected)), expected.items()):
        assert not result["error"] and result["ready"] >= 2, f"{file}: not playable ({result})"
        assert_duration(file, result["duration"], duration_s, manifest["fps"])


def presenter_state(driver: Any) -> dict[str, Any]:
    return driver.execute_script(
        "const p = document.getElementById('presenter');"
        "return {open: !p.hidden, scene: p.dataset.scene, section: document.getElementById('presenter-section').textContent,"
        " src: document.getElementById('presenter-video').currentSrc, width: p.getBoundingClientRect().width,"
        " height: p.getBoundingClientRect().height};")


def show_last_frame(driver: Any, video: Any) -> None:
    driver.execute_script("const v = arguments[0]; v.pause(); v.currentTime = Math.max(0, v.duration - 0.05);", video)
    wait_for(driver, lambda: driver.execute_script("return !arguments[0].seeking && arguments[0].readyState >= 2;", video),
             "seeking to the last frame did not finish", timeout=5)


def open_presenter(driver: Any, scene_id: str) -> Any:
    from selenium.webdriver.common.by import By

    driver.find_element(By.CSS_SELECTOR, f'section.scene button[data-present="{scene_id}"]').click()
    wait_for(driver, lambda: presenter_state(driver)["open"], f"{scene_id}: presenter did not open")
    return driver.find_element(By.ID, "presenter-video")


def check_walkthrough_presenter(driver: Any, quality_dir: Path, manifest: dict[str, Any], shots: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    scene = next(s for s in manifest["scenes"] if not s["loop"] and len(s["sections"]) >= 2)
    sections = scene["sections"]
    video = open_presenter(driver, scene["id"])
    state = presenter_state(driver)
    window = driver.execute_script("return [innerWidth, innerHeight];")
    assert [state["width"], state["height"]] == window, f"presenter does not fill the window {window}"

    def expect_section(index: int) -> None:
        section = sections[index]
        wait_for(driver, lambda: presenter_state(driver)["section"] == section["name"],
                 f"presenter shows {presenter_state(driver)['section']!r}, expected {section['name']!r}", timeout=3)
        now = wait_playable(driver, video, f"presenter {scene['id']} {section['name']}")
        assert same_file(now["src"], quality_dir, section["file"]), f"presenter plays {now['src']}"
        assert_duration(section["file"], now["duration"], section["duration_s"], manifest["fps"])

    expect_section(0)
    bar = driver.find_element(By.CSS_SELECTOR, "#presenter .presenter-bar")
    wait_for(driver, lambda: not bar.is_displayed(), "the presenter's bar stays over the picture", timeout=4)
    show_last_frame(driver, video)  # a section's last frame is its finished panel
    save_screenshot(driver, shots, "presenter")
    press(driver, Keys.ARROW_RIGHT)
    expect_section(1)
    press(driver, Keys.ARROW_LEFT)
    expect_section(0)
    for index in range(1, len(sections)):
        press(driver, Keys.SPACE)
        expect_section(index)
    press(driver, Keys.ESCAPE)
    wait_for(driver, lambda: not presenter_state(driver)["open"], "Esc did not close the presenter", timeout=3)


def check_loop_presenter(driver: Any, quality_dir: Path, manifest: dict[str, Any]) -> None:
    """Jump to the loop's last moments: it must wrap to the start, not stop."""
    from selenium.webdriver.common.keys import Keys

    scenes = manifest["scenes"]
    position, scene = next((i, s) for i, s in enumerate(scenes) if s["loop"])
    video = open_presenter(driver, scene["id"])
    state = wait_playable(driver, video, f"presenter {scene['id']}")
    assert state["loop"] and same_file(state["src"], quality_dir, scene["files"]["mp4"])
    driver.execute_script("arguments[0].currentTime = arguments[0].duration - 0.2;", video)
    wait_for(driver, lambda: media_state(driver, video)["time"] < scene["duration_s"] / 2,
             f"{scene['id']}: loop did not wrap around", timeout=5)
    after = media_state(driver, video)
    assert not after["paused"] and not after["ended"], f"{scene['id']}: loop stopped ({after})"
    press(driver, Keys.ARROW_RIGHT)
    following = scenes[position + 1]["id"] if position + 1 < len(scenes) else scene["id"]
    wait_for(driver, lambda: presenter_state(driver)["scene"] == following,
             f"→ on a loop should move on to {following}", timeout=3)
    press(driver, Keys.ESCAPE)


# ---- lecture mode and its presenter window --------------------------------------------

NOTES_ROOT = Path(__file__).resolve().parent.parent


def cue_steps(cue: dict[str, Any]) -> list[dict[str, Any]]:
    """What each → shows in a cue: cues.json's "steps" (one per beat), else one per view."""
    if cue.get("steps"):
        return cue["steps"]
    if cue["kind"] != "figure":
        return [{"view": None, "file": None, "poster": None, "loop": False}]
    return [{"view": m["view"], "file": m.get("file"), "poster": m.get("poster"), "loop": bool(m.get("loop"))}
            for m in cue["media"]]


def lecture_steps(sheet: dict[str, Any]) -> list[tuple[dict[str, Any], int, dict[str, Any]]]:
    """(cue, step index within the cue, step) for every step of the talk."""
    return [(cue, i, step) for cue in sheet["cues"] for i, step in enumerate(cue_steps(cue))]


def lecture_state(driver: Any) -> dict[str, Any]:
    return driver.execute_script(
        "const o = document.getElementById('lecture'), v = document.getElementById('lecture-video');"
        "const c = document.getElementById('lecture-card');"
        "return {open: !o.hidden, step: o.dataset.step, cue: o.dataset.cue, view: o.dataset.view, line: o.dataset.line,"
        " card: !c.hidden, title: document.getElementById('lecture-title').textContent,"
        " video: !v.hidden, src: v.currentSrc, source: v.src, loop: v.loop, atEnd: o.classList.contains('at-end'),"
        " count: document.getElementById('lecture-count').textContent, ended: v.ended, paused: v.paused,"
        " time: v.currentTime, duration: v.duration, full: document.fullscreenElement === o,"
        " barShown: getComputedStyle(o.querySelector('.lecture-bar')).visibility === 'visible'};")


def speaker_state(driver: Any) -> dict[str, Any]:
    return driver.execute_script(
        "const s = document.getElementById('speaker'), box = document.getElementById('speaker-script');"
        "const items = Array.from(box.querySelectorAll('p')).map("
        "  p => [Number(p.dataset.line), p.className.split(' ')[0], p.textContent]);"
        "const next = document.getElementById('speaker-next-media');"
        "const media = next.querySelector('video, img');"
        "const now = document.getElementById('speaker-current-media').querySelector('video, img');"
        "const text = (id) => document.getElementById(id).textContent;"
        "return {shown: !s.hidden, cue: s.dataset.cue, step: s.dataset.step, view: s.dataset.view, items,"
        " current: Array.from(box.querySelectorAll('p.current')).map(p => Number(p.dataset.index)),"
        " scroll: box.scrollTop, nowSrc: now ? (now.currentSrc || now.src) : null, nowEnded: Boolean(now && now.ended),"
        " nextStep: next.dataset.step, count: text('speaker-count'), clock: text('speaker-clock'),"
        " errata: Array.from(document.querySelectorAll('#speaker-errata li')).map(li => li.textContent),"
        " errataShown: !document.getElementById('speaker-errata').hidden,"
        " hints: Array.from(document.querySelectorAll('#speaker-hints li')).map(li => li.textContent),"
        " nextCue: next.dataset.cue, nextSrc: media ? (media.currentSrc || media.src) : null,"
        " nextLabel: text('speaker-next-label'), elapsed: text('speaker-elapsed'),"
        " cueEst: text('speaker-cue-est'), sectionEst: text('speaker-section-est'),"
        " waiting: !document.getElementById('speaker-waiting').hidden};")


def mm_ss(seconds: float) -> str:
    whole = int(seconds + 0.5)  # half up, like the page
    return f"{whole // 60}:{whole % 60:02d}"


def check_speaker_follows(driver: Any, quality_dir: Path, sheet: dict[str, Any], number: int,
                          notes: list[str]) -> None:
    """The presenter window shows this step's cue: its hints and script, verbatim from the
    notes, with this step's lines highlighted; the screen as projected; the estimates; and
    what the next key press shows (the next step, not the next cue)."""
    steps = lecture_steps(sheet)
    cue, _, step = steps[number]
    wait_for(driver, lambda: speaker_state(driver)["step"] == str(number),
             f"presenter window stayed on step {speaker_state(driver)['step']}, expected {number} (L{cue['line']})",
             timeout=5)
    state = speaker_state(driver)
    assert state["cue"] == str(cue["index"])
    expected = [[i["line"], "say" if "say" in i else "stage", i.get("say", i.get("note"))] for i in cue["script"]]
    assert state["items"] == expected, f"L{cue['line']}: presenter shows other lines"
    for line, _, text in state["items"]:
        assert text in notes[line - 1], f"L{cue['line']}: {text!r} is not on notes line {line}"
    assert [t for _, kind, t in state["items"] if kind == "say"] == cue["lines"]
    lines = step.get("lines", list(range(len(cue["script"]))))
    assert state["current"] == sorted(lines), f"L{cue['line']} step {number}: highlights {state['current']}"
    assert state["hints"] == cue["hints"]
    assert state["cueEst"] == mm_ss(cue["estimated_s"])
    section = next(s for s in sheet["sections"] if s["number"] == cue["section"])
    assert state["sectionEst"] == mm_ss(section["estimated_s"])
    if step.get("file"):
        assert state["nowSrc"] and same_file(state["nowSrc"], quality_dir, step["file"]), state["nowSrc"]
    wrong = step.get("errata") if cue.get("steps") else cue.get("errata")
    assert state["errataShown"] == bool(wrong) and len(state["errata"]) == len(wrong or [])
    if number + 1 == len(steps):
        assert state["nextStep"] == "" and "最后" in state["nextLabel"]
        return
    following_cue, _, following = steps[number + 1]
    assert state["nextStep"] == str(number + 1) and f"L{following_cue['line']}" in state["nextLabel"]
    shown = following.get("poster") or following.get("file")
    if shown:
        assert state["nextSrc"] and same_file(state["nextSrc"], quality_dir, shown), state["nextSrc"]
    else:
        assert state["nextSrc"] is None


def check_lecture_step(driver: Any, quality_dir: Path, number: int, cue: dict[str, Any],
                       media: dict[str, Any]) -> None:
    wait_for(driver, lambda: lecture_state(driver)["step"] == str(number),
             f"lecture mode shows {lecture_state(driver)}, expected step {number} (L{cue['line']})", timeout=5)
    state = lecture_state(driver)
    assert (state["cue"], state["line"], state["view"]) == (str(cue["index"]), str(cue["line"]), media["view"] or "")
    if media.get("file"):
        video = driver.find_element("id", "lecture-video")
        now = wait_playable(driver, video, f"lecture L{cue['line']} {media['view']}")
        assert state["video"] and not state["card"]
        assert same_file(now["src"], quality_dir, media["file"]), f"L{cue['line']}: plays {now['src']}"
        assert now["loop"] == bool(media.get("loop")), f"L{cue['line']}: loop is {now['loop']}"
    else:
        assert state["card"] and not state["video"], f"L{cue['line']}: expected a card"
        expected = cue["scene"] if cue["kind"] == "figure" else cue["title"]
        assert expected in state["title"], f"L{cue['line']}: card says {state['title']!r}"


def reveal_controls(driver: Any) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    overlay = driver.find_element("id", "lecture")
    ActionChains(driver).move_to_element_with_offset(overlay, 10, 10).move_by_offset(30, 20).perform()
    wait_for(driver, lambda: driver.find_element("id", "lecture-speaker").is_displayed(),
             "moving the mouse did not show the lecture controls", timeout=3)


def check_lecture_mode(driver: Any, quality_dir: Path, manifest: dict[str, Any], shots: Path) -> int:
    """Lecture mode steps through every cue of cues.json in order (→ and space), playing each
    view's clip or showing its card; the presenter window it opens follows every step with
    the cue's lines as the notes have them, and its keys drive the talk too."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    sheet = json.loads((quality_dir / "cues.json").read_text(encoding="utf-8"))
    notes = (NOTES_ROOT / sheet["notes"]).read_text(encoding="utf-8").splitlines()
    steps = lecture_steps(sheet)
    assert [c["index"] for c in sheet["cues"]] == list(range(len(sheet["cues"])))
    main = driver.current_window_handle
    driver.find_element(By.CSS_SELECTOR, "header.top button.lecture-start").click()  # the sticky header: always in view
    wait_for(driver, lambda: lecture_state(driver)["open"], "lecture mode did not open")
    window = driver.execute_script("return [innerWidth, innerHeight];")
    size = driver.execute_script("const r = document.getElementById('lecture').getBoundingClientRect(); return [r.width, r.height];")
    assert size == window, f"lecture mode does not fill the window {window}"
    reveal_controls(driver)  # the bar shows only while the mouse moves
    driver.find_element(By.ID, "lecture-speaker").click()
    wait_for(driver, lambda: len(driver.window_handles) == 2, "the presenter window did not open")
    speaker = next(h for h in driver.window_handles if h != main)

    visited, shot = [], False
    for number, (cue, _, media) in enumerate(steps):
        if number:
            press(driver, Keys.SPACE if number % 2 else Keys.ARROW_RIGHT)
        check_lecture_step(driver, quality_dir, number, cue, media)
        visited.append(cue["index"])
        driver.switch_to.window(speaker)
        check_speaker_follows(driver, quality_dir, sheet, number, notes)
        if not shot and media and media.get("file") and not media.get("loop"):
            save_screenshot(driver, shots, "speaker")
        driver.switch_to.window(main)
        if not shot and media and media.get("file") and not media.get("loop"):
            show_last_frame(driver, driver.find_element(By.ID, "lecture-video"))
            save_screenshot(driver, shots, "lecture")
            shot = True
    assert list(dict.fromkeys(visited)) == list(range(len(sheet["cues"]))), "cues skipped or out of order"
    assert shot, "no rendered clip on the track: nothing to screenshot"

    press(driver, Keys.ARROW_RIGHT)  # past the end: stays, flashes
    wait_for(driver, lambda: lecture_state(driver)["atEnd"], "→ past the last cue did not flash", timeout=3)
    assert lecture_state(driver)["cue"] == str(steps[-1][0]["index"])

    driver.switch_to.window(speaker)  # the presenter window's keys drive the talk
    press(driver, Keys.ARROW_LEFT)
    driver.switch_to.window(main)
    before_last = steps[-2]
    wait_for(driver, lambda: lecture_state(driver)["cue"] == str(before_last[0]["index"]),
             "← in the presenter window did not step back", timeout=5)
    press(driver, Keys.ESCAPE)
    wait_for(driver, lambda: not lecture_state(driver)["open"], "Esc did not close lecture mode", timeout=3)
    driver.switch_to.window(speaker)
    wait_for(driver, lambda: speaker_state(driver)["waiting"], "presenter window still shows a cue after Esc", timeout=5)
    assert_nothing_fetched_or_broken(driver)
    driver.close()
    driver.switch_to.window(main)
    return len(steps)


def check_track_times(driver: Any, quality_dir: Path) -> None:
    """The page lists each section's estimated time and the total, labelled as estimates."""
    from selenium.webdriver.common.by import By

    sheet = json.loads((quality_dir / "cues.json").read_text(encoding="utf-8"))
    rows = driver.find_elements(By.CSS_SELECTOR, "#track table.section-times tbody tr")
    assert [r.get_attribute("data-section") for r in rows] == [str(s["number"]) for s in sheet["sections"]]
    for row, section in zip(rows, sheet["sections"]):
        assert section["title"].split("\u3000")[0] in row.text
        assert float(row.find_element(By.CSS_SELECTOR, "td.est").get_attribute("data-seconds")) == section["estimated_s"]
    total = driver.find_element(By.CSS_SELECTOR, "#track tfoot td.total-est")
    assert float(total.get_attribute("data-seconds")) == sheet["total_estimated_s"]
    assert "估算" in driver.find_element(By.CSS_SELECTOR, "#track .estimate-note").text


def check_ledger_links(driver: Any, quality_dir: Path, shots: Path) -> int:
    """The header link and every number's link land on an existing ledger entry."""
    from selenium.webdriver.common.by import By

    ledger_link = driver.find_element(By.CSS_SELECTOR, "a.ledger-link").get_attribute("href")
    number_links = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, ".scene-numbers a")]
    ledger_file = Path(unquote(urlparse(ledger_link).path))
    assert ledger_file.is_file() and ledger_file.parent.resolve() == quality_dir.resolve()
    driver.get(ledger_link)
    rows = driver.find_elements(By.CSS_SELECTOR, "tr.entry")
    for link in number_links:
        target = unquote(urlparse(link).fragment)
        found = driver.execute_script("const e = document.getElementById(arguments[0]); return e && e.textContent;", target)
        assert found, f"{link}: no such entry in the ledger page"
    save_screenshot(driver, shots, "ledger")
    return len(rows)


def assert_nothing_fetched_or_broken(driver: Any) -> None:
    fetched = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name);")
    assert all(name.startswith("file:") for name in fetched), f"page fetched from outside: {fetched}"
    errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, f"browser console errors: {errors}"


def assert_page_works(quality_dir: Path, screenshot_dir: Path | None = None) -> dict[str, Any]:
    """Open ``quality_dir``/index.html from disk and check it the way the lecturer uses it."""
    require_browser()
    quality_dir = Path(quality_dir).resolve()
    manifest = json.loads((quality_dir / "manifest.json").read_text(encoding="utf-8"))
    shots = Path(screenshot_dir or tempfile.mkdtemp(prefix="page-shots-"))
    with chromium() as driver:
        driver.get((quality_dir / "index.html").as_uri())
        check_scene_list(driver, quality_dir, manifest)
        save_screenshot(driver, shots, "list")
        check_section_tabs(driver, quality_dir, manifest)
        check_copy_buttons(driver, quality_dir, manifest)
        check_every_file_plays(driver, manifest)
        assert_nothing_fetched_or_broken(driver)
        if any(not s["loop"] and len(s["sections"]) >= 2 for s in manifest["scenes"]):
            check_walkthrough_presenter(driver, quality_dir, manifest, shots)
        if any(s["loop"] for s in manifest["scenes"]):
            check_loop_presenter(driver, quality_dir, manifest)
        lecture_steps_seen = 0
        if (quality_dir / "cues.json").is_file():
            check_track_times(driver, quality_dir)
            lecture_steps_seen = check_lecture_mode(driver, quality_dir, manifest, shots)
        ledger_rows = check_ledger_links(driver, quality_dir, shots)
        assert_nothing_fetched_or_broken(driver)
    return {"screenshots": shots, "ledger_rows": ledger_rows, "lecture_steps": lecture_steps_seen}


# ---- tests -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def synthetic_quality_dir(tmp_path_factory) -> Path:
    return make_synthetic_output(tmp_path_factory.mktemp("out") / "low")


def test_page_works_on_synthetic_output(synthetic_quality_dir, tmp_path_factory):
    shots = tmp_path_factory.mktemp("synthetic")
    result = assert_page_works(synthetic_quality_dir, shots)
    assert result["ledger_rows"] == len(SAMPLE_LEDGER)
    sheet = json.loads((synthetic_quality_dir / "cues.json").read_text(encoding="utf-8"))
    assert len(sheet["cues"]) == 65 and result["lecture_steps"] == sum(len(cue_steps(c)) for c in sheet["cues"])
    for name in ("list", "presenter", "ledger", "lecture", "speaker"):
        assert (shots / f"{name}.png").stat().st_size > 10_000, f"{name} screenshot is empty"


def test_missing_browser_fails_in_ci_and_skips_elsewhere(monkeypatch, tmp_path):
    import sys

    module = sys.modules[__name__]
    monkeypatch.setattr(module, "CHROMIUM", tmp_path / "no-chromium")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI needs the browser"):
        require_browser()
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="chromium"):
        require_browser()
