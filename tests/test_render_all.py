"""The whole lecture at low quality: every scene's files, sections, loop seams, page, ledger."""

from __future__ import annotations

import json

import numpy as np
import pytest

from studio.engine import registry
from tests.render_helpers import manifest
from tests.video_checks import STILL, drawn_fraction, frames, seam_problems, step

pytestmark = pytest.mark.render

WALKTHROUGHS = ("fig-slider", "fig-vote", "fig-circuit")
LOOPS = ("anim-reverse", "anim-saddle")
# Loops that are in motion through their seam (the others rest on their opening frame):
# for these a repeated frame at the seam is a visible stutter.
MOVING_SEAMS = ("anim-saddle",)


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


def test_every_beat_is_published_and_found_in_the_notes(lecture_render):
    """Each panel's beats: a clip and a poster each, lengths adding up to the panel's, and
    every quoted beat placed on its notes line."""
    qdir = lecture_render / "low"
    unplaced = []
    for scene in manifest(qdir)["scenes"]:
        for section in scene["sections"]:
            beats = section["beats"]
            assert [b["n"] for b in beats] == list(range(1, len(beats) + 1)), f"{scene['id']} {section['name']}"
            for beat in beats:
                assert (qdir / beat["file"]).stat().st_size > 0 and (qdir / beat["poster"]).stat().st_size > 0
                if beat["says"] and not beat["notes_line"]:
                    unplaced.append(f"{scene['id']} {beat['name']}: 「{beat['says']}」")
            assert sum(b["duration_s"] for b in beats) == pytest.approx(section["duration_s"], abs=0.01)
    assert not unplaced, "beats whose quote the notes do not have:\n" + "\n".join(unplaced)


@pytest.mark.parametrize("scene_id", LOOPS)
def test_loops_are_seamless(lecture_render, scene_id):
    """Last frame → first is a step like the ones beside it: no jump, no stutter, no pop."""
    qdir = lecture_render / "low"
    data = manifest(qdir)
    video = frames(qdir / f"{scene_id}.mp4", data["width"], data["height"])
    assert len(video) > 10 and drawn_fraction(video[0]) > 0.01, f"{scene_id}: blank or too short to judge"
    assert seam_problems(video) == []

    # The check would catch faults in this very loop: a small element that vanishes at
    # the seam, and (where the picture moves through the seam) a repeated frame.
    popped = video.copy()
    popped[len(video) // 2:, 20:28, 20:28] = (31, 119, 180)
    assert any("pops" in p for p in seam_problems(popped)), scene_id
    moving = min(step(video[0], video[1]), step(video[-2], video[-1])) > STILL
    assert moving is (scene_id in MOVING_SEAMS), f"{scene_id}: seam motion is not what MOVING_SEAMS says"
    if moving:
        stutter = np.concatenate([video, video[:1]])
        assert any("repeated frame" in p for p in seam_problems(stutter)), scene_id


def test_shortest_scene_at_high_quality(lecture_render, tmp_path):
    """The one high-quality render of the suite: the shortest real scene, 1920×1080 at 60 fps,
    showing the same picture as its low-quality render."""
    import subprocess
    import sys

    from PIL import Image

    from tests.render_helpers import ROOT, probe

    low = manifest(lecture_render / "low")
    shortest = min(low["scenes"], key=lambda s: s["duration_s"])
    result = subprocess.run([sys.executable, str(ROOT / "render.py"), shortest["id"], "--quality", "high",
                             "--out", str(tmp_path), "--jobs", "1"],
                            cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    qdir = tmp_path / "high"
    data = manifest(qdir)
    assert (data["width"], data["height"], data["fps"]) == (1920, 1080, 60)
    [scene] = data["scenes"]
    assert scene["id"] == shortest["id"]
    # Each animation is rounded to whole frames, at 15 fps for low and 60 for high: a scene of
    # many short plays drifts by a few percent between the two.
    assert scene["duration_s"] == pytest.approx(shortest["duration_s"], rel=0.03)

    info = probe(qdir / scene["files"]["mp4"])
    stream = info["streams"][0]
    assert (stream["codec_name"], stream["pix_fmt"], stream["width"], stream["height"]) == ("h264", "yuv420p", 1920, 1080)
    assert stream["avg_frame_rate"] == "60/1"
    assert int(stream["nb_frames"]) == pytest.approx(60 * scene["duration_s"], abs=2)

    gif = qdir / scene["files"]["gif"]
    gif_stream = probe(gif)["streams"][0]
    assert gif_stream["width"] == 960
    assert gif.stat().st_size <= 500_000 * scene["duration_s"], "gif over 5 MB per 10 s"

    poster = Image.open(qdir / scene["files"]["png"]).convert("RGB")
    assert poster.size == (1920, 1080)
    small = np.asarray(poster.resize((low["width"], low["height"]), Image.Resampling.LANCZOS)).astype(np.int16)
    low_poster = np.asarray(Image.open(lecture_render / "low" / shortest["files"]["png"]).convert("RGB")).astype(np.int16)
    assert drawn_fraction(small) > 0.01
    assert step(small, low_poster) < 3.0, "the high-quality poster does not show the low-quality picture"


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
