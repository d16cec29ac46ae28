"""「这个数从哪来？」 in headless Chromium, on fig-step as published (tests/fixtures_numbers.py:
the scene constructed, so each beat lists the keys the kit drew; the real notes' cue sheet
and the real ledger; flat-colour clips):

- the presenter window's 「本屏数字」 at fig-step's first Ⓐ beat lists exactly that beat's
  numbers, each with its kind;
- choosing 9.76 TiB there (a click) projects a card showing 671B × 16 字节 ÷ 1024⁴ with each
  input's kind and source; N and an index do the same from the keyboard;
- Esc returns to the same beat, held exactly as it was (same clip, same frame, same pixels);
- every card of every number of the ledger fits 1280×720 with no text under 20 px.

Set NUMBERS_SCREENSHOT_DIR to keep the screenshots (the panel, and one card per kind).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from studio.track.number_sources import kind_of, record
from tests.fixtures_numbers import SCENE, fig_step_beats, make_fig_step_output
from tests.test_page_browser import chromium, lecture_state, press, require_browser, speaker_state, wait_for

pytestmark = pytest.mark.browser

BILL = "bill.v3.total_tib"
MIN_TEXT_PX = 20
SAME_FRAME = 2   # largest per-channel difference between the held frame before and after a card


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    require_browser()
    quality_dir = tmp_path_factory.mktemp("numbers") / "low"
    manifest, sheet, ledger = make_fig_step_output(quality_dir)
    return quality_dir, manifest, sheet, ledger


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    keep = os.environ.get("NUMBERS_SCREENSHOT_DIR")
    folder = Path(keep) if keep else tmp_path_factory.mktemp("shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def talk_position(sheet: dict[str, Any], view: str, beat: int) -> tuple[int, int, int, dict[str, Any]]:
    """(cue index, step within the cue, step of the whole talk, step) of fig-step's beat."""
    number = 0
    for cue in sheet["cues"]:
        for position, step in enumerate(cue["steps"]):
            if cue.get("scene") == SCENE and step.get("view") == view and step.get("beat") == beat:
                return cue["index"], position, number, step
            number += 1
    raise AssertionError(f"{SCENE} {view}.{beat} is on no step of the talk")


def panel_rows(driver: Any) -> list[dict[str, str]]:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#speaker-numbers li')).map(li => ({"
        " key: li.dataset.key, kind: li.querySelector('.kind').textContent,"
        " value: li.querySelector('.number-value').textContent,"
        " source: li.querySelector('.number-source').textContent, projected: li.classList.contains('projected')}));")


CARD_STATE = """
const box = document.getElementById('lecture-number');
const card = box.querySelector('.number-card');
if (box.hidden || !card) return {shown: false};
const texts = Array.from(card.querySelectorAll('*')).filter(e => Array.from(e.childNodes).some(
  n => n.nodeType === 3 && n.textContent.trim()));
const sizes = texts.map(e => parseFloat(getComputedStyle(e).fontSize));
const r = box.getBoundingClientRect();
const outside = texts.filter(e => { const b = e.getBoundingClientRect();
  return b.right > r.right + 0.5 || b.bottom > r.bottom + 0.5 || b.left < r.left - 0.5 || b.top < r.top - 0.5; });
return {shown: true, key: box.dataset.key, kind: box.dataset.kind, text: card.innerText,
  fits: card.scrollHeight <= card.clientHeight + 1 && card.scrollWidth <= card.clientWidth + 1,
  outside: outside.map(e => e.textContent.slice(0, 40)), smallest: Math.min(...sizes),
  box: [r.width, r.height], window: [innerWidth, innerHeight],
  inputs: Array.from(card.querySelectorAll('.number-inputs li[data-kind]')).map(li => ({
    kind: li.dataset.kind, value: li.querySelector('.input-value').textContent,
    source: li.querySelector('.input-source').textContent}))};
"""


def card_state(driver: Any) -> dict[str, Any]:
    return driver.execute_script(CARD_STATE)


def frame(driver: Any) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")).astype(int)


def assert_legible(state: dict[str, Any], label: str) -> None:
    assert state["box"] == state["window"], f"{label}: the card does not cover the screen"
    assert state["fits"] and not state["outside"], f"{label}: text runs out of the card: {state['outside']}"
    assert state["smallest"] >= MIN_TEXT_PX, f"{label}: text of {state['smallest']} px"


def test_presenter_lists_the_beats_numbers_and_a_chosen_one_is_projected_and_taken_back(published, shots):
    quality_dir, _, sheet, ledger = published
    cue, position, number, first_a = talk_position(sheet, "A", 1)
    drawn = next(b["numbers"] for b in fig_step_beats() if b["name"] == "A.1")
    with chromium() as driver:
        driver.get((quality_dir / "index.html").as_uri() + f"#lecture={cue}/{position}")
        wait_for(driver, lambda: lecture_state(driver)["step"] == str(number), "lecture mode did not open at Ⓐ 1")
        main = driver.current_window_handle
        press(driver, "p")
        wait_for(driver, lambda: len(driver.window_handles) == 2, "the presenter window did not open")
        speaker = next(h for h in driver.window_handles if h != main)
        driver.switch_to.window(speaker)
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})
        wait_for(driver, lambda: speaker_state(driver)["step"] == str(number), "the presenter window is not at Ⓐ 1")

        # 本屏数字 at the first Ⓐ beat: exactly the keys the kit drew there, each with its kind
        rows = panel_rows(driver)
        assert [r["key"] for r in rows] == list(dict.fromkeys(drawn)) == [n["key"] for n in first_a["numbers"]]
        assert [r["kind"] for r in rows] == [kind_of(ledger[k]) for k in drawn]
        assert all(r["value"] and r["source"] for r in rows)
        driver.save_screenshot(str(shots / "presenter-numbers.png"))

        # the next beat shows 9.76 TiB: held on its last frame, then chosen in the presenter window
        press(driver, Keys.ARROW_RIGHT)
        wait_for(driver, lambda: speaker_state(driver)["step"] == str(number + 1), "→ did not step to Ⓐ 2")
        keys = [r["key"] for r in panel_rows(driver)]
        assert BILL in keys
        new = driver.execute_script("return Array.from(document.querySelectorAll('#speaker-numbers li.new'))"
                                    ".map(li => li.dataset.key);")
        assert new == [k for k in keys if k not in drawn] and BILL in new   # what this beat brings
        driver.save_screenshot(str(shots / "presenter-numbers-a2.png"))
        driver.switch_to.window(main)
        wait_for(driver, lambda: lecture_state(driver)["ended"], "Ⓐ 2's clip never ended on its last frame", timeout=10)
        wait_for(driver, lambda: not lecture_state(driver)["barShown"], "the lecture bar stays up", timeout=5)
        held, held_frame = lecture_state(driver), frame(driver)

        driver.switch_to.window(speaker)
        driver.find_element(By.CSS_SELECTOR, f'#speaker-numbers li[data-key="{BILL}"] button').click()
        wait_for(driver, lambda: any(r["projected"] for r in panel_rows(driver)), "the panel does not mark the card")
        driver.switch_to.window(main)
        wait_for(driver, lambda: card_state(driver)["shown"], "no card on the projected screen")
        card = card_state(driver)
        assert card["key"] == BILL and card["kind"] == "推来的" and "9.76 TiB" in card["text"]
        assert "671B × 16 字节 ÷ 1024⁴" in card["text"]
        assert [(i["value"], i["kind"]) for i in card["inputs"]] == [
            ("671B 个参数", "查来的"), ("2 字节/参数", "查来的"), ("2 字节/参数", "查来的"), ("12 字节/参数", "推来的")]
        assert all(i["source"].startswith(("出处：", "公式：")) for i in card["inputs"])
        assert_legible(card, BILL)
        driver.save_screenshot(str(shots / "card-derived-bill.png"))

        # Esc: the same beat, held exactly as it was
        press(driver, Keys.ESCAPE)
        wait_for(driver, lambda: not card_state(driver)["shown"], "Esc did not take the card off")
        after = lecture_state(driver)
        for field in ("open", "step", "cue", "src", "ended", "paused", "time"):
            assert after[field] == held[field], (field, held[field], after[field])
        back = frame(driver)
        if os.environ.get("NUMBERS_SCREENSHOT_DIR"):
            Image.fromarray(held_frame.astype(np.uint8)).save(shots / "held-before-card.png")
            Image.fromarray(back.astype(np.uint8)).save(shots / "held-after-esc.png")
        changed = np.argwhere(np.abs(back - held_frame).max(axis=2) > SAME_FRAME)
        assert not len(changed), f"the held frame changed under the card: {len(changed)} px, e.g. {changed[:3].tolist()}"

        # N and the index, on the audience screen's keyboard; Esc from the presenter window
        index = keys.index(BILL) + 1
        press(driver, "n")
        for digit in str(index):
            press(driver, digit)
        wait_for(driver, lambda: card_state(driver).get("key") == BILL, f"N {index} did not project {BILL}")
        driver.switch_to.window(speaker)
        wait_for(driver, lambda: any(r["projected"] for r in panel_rows(driver)), "the panel missed the keyed card")
        press(driver, Keys.ESCAPE)
        driver.switch_to.window(main)
        wait_for(driver, lambda: not card_state(driver)["shown"], "Esc in the presenter window left the card up")
        assert lecture_state(driver)["step"] == str(number + 1) and lecture_state(driver)["open"]
        errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert not errors, errors


SHOW_EVERY_CARD = """
const [records, keys, cardState, done] = arguments;
const at = LectureTrack.steps.findIndex(s => s.step.numbers && s.step.numbers.length);
const holder = LectureTrack.steps[Number(document.getElementById('lecture').dataset.step)].step;
holder.numbers = keys.map(key => ({key, value: records[key].value, kind: records[key].kind, source: records[key].source}));
Object.assign(LectureTrack.sheet.numbers, records);
const measure = new Function(cardState);
const results = {};
let n = 0;
function next() {
  if (n >= keys.length) { done(results); return; }
  const key = keys[n++];
  window.postMessage({channel: 'lecture-track', type: 'number', key, id: 'fit-' + n}, '*');
  setTimeout(() => { results[key] = measure(); next(); }, 0);
}
next();
"""


def test_every_numbers_card_fits_the_projector_with_text_of_20_px_or_more(published, shots):
    """Every key of the ledger as a card at 1280×720 (as if on screen): nothing runs out of
    the card, no text under 20 px; one screenshot per kind."""
    quality_dir, _, sheet, ledger = published
    cue, position, number, _ = talk_position(sheet, "A", 1)
    records = {key: record(key, ledger) for key in ledger}
    with chromium() as driver:
        driver.get((quality_dir / "index.html").as_uri() + f"#lecture={cue}/{position}")
        wait_for(driver, lambda: lecture_state(driver)["step"] == str(number), "lecture mode did not open")
        driver.set_script_timeout(180)
        results = driver.execute_async_script(SHOW_EVERY_CARD, records, list(records), CARD_STATE)
        bad = {key: s for key, s in results.items() if not s["shown"] or s["key"] != key or not s["fits"]
               or s["outside"] or s["smallest"] < MIN_TEXT_PX}
        if os.environ.get("NUMBERS_SCREENSHOT_DIR"):
            (shots / "unfit.json").write_text(json.dumps(bad, ensure_ascii=False, indent=1), encoding="utf-8")
        assert not bad, f"{len(bad)} cards do not fit: " + ", ".join(list(bad)[:20])
        # one card per kind, the one with the most to say, for the eye
        for kind in ("查来的", "推来的", "示例取值", "待核"):
            key = max((k for k in records if records[k]["kind"] == kind and not records[k].get("missing")),
                      key=lambda k: len(json.dumps(records[k], ensure_ascii=False)))
            driver.execute_async_script(
                "const [key, done] = arguments; window.postMessage({channel: 'lecture-track', type: 'number', key,"
                " id: 'shot-' + key}, '*'); setTimeout(done, 50);", key)
            driver.save_screenshot(str(shots / f"card-{kind}-{key}.png"))
