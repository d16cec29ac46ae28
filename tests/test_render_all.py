"""The whole lecture at low quality: every scene's files, sections, loop seams, page, ledger."""

from __future__ import annotations

import json
import subprocess

import numpy as np
import pytest

from studio import registry
from tests.render_helpers import manifest

pytestmark = pytest.mark.render

WALKTHROUGHS = ("fig-slider", "fig-vote", "fig-circuit")
LOOPS = ("anim-reverse", "anim-saddle")


def _frames(path, width, height) -> np.ndarray:
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
                         capture_output=True, check=True).stdout
    return np.frombuffer(raw, np.uint8).reshape(-1, height, width, 3).astype(np.int16)


def test_every_scene_is_published(lecture_render):
    qdir = lecture_render / "low"
    data = manifest(qdir)
    assert [s["id"] for s in data["scenes"]] == list(registry.discover())
    for scene in data["scenes"]:
        for name in scene["files"].values():
            assert (qdir / name).stat().st_size > 0
        if scene["id"] in WALKTHROUGHS:
            assert [s["name"] for s in scene["sections"]] == ["A", "B", "C"]
            for section in scene["sections"]:
                assert (qdir / section["file"]).is_file()
        assert scene["loop"] is (scene["id"] in LOOPS)


@pytest.mark.parametrize("scene_id", LOOPS)
def test_loops_are_seamless(lecture_render, scene_id):
    """The seam (last frame → first) is no bigger a step than the frames beside it."""
    qdir = lecture_render / "low"
    data = manifest(qdir)
    frames = _frames(qdir / f"{scene_id}.mp4", data["width"], data["height"])
    step = lambda a, b: float(np.abs(frames[a] - frames[b]).mean())  # noqa: E731
    seam = step(-1, 0)
    # The first frame is a key frame and the others are predicted, so their coding noise
    # differs: allow 10 % and one grey level on top of the neighbouring steps.
    neighbours = max(step(0, 1), step(-2, -1)) * 1.1 + 1.0
    assert seam <= neighbours, f"{scene_id}: seam step {seam:.2f} > neighbouring steps {neighbours:.2f}"


def test_ledger_lists_every_number_shown(lecture_render):
    ledger = json.loads((lecture_render / "ledger.json").read_text())
    for entry in registry.discover().values():
        for key in entry.ledger_keys:
            assert key in ledger, f"{entry.scene_id} shows {key}, missing from the ledger"
            assert entry.scene_id in ledger[key]["scenes"]
    assert (lecture_render / "ledger.md").read_text().count("\n") > 20


@pytest.mark.browser
def test_rehearsal_page_plays_the_real_render(lecture_render, tmp_path_factory):
    from tests.test_page_browser import assert_page_works

    shots = tmp_path_factory.mktemp("page-shots")
    result = assert_page_works(lecture_render / "low", shots)
    assert result["ledger_rows"] > 0
