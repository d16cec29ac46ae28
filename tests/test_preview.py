"""`render.py --preview ID --section X`: that panel alone, the same frames as a full render."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.render_helpers import ROOT, command, env, render

pytestmark = pytest.mark.render


def frame_digests(path: Path) -> list[str]:
    """One md5 per decoded frame, in order (equal lists: the same pictures, frame for frame)."""
    out = subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-f", "framemd5", "-"],
                         capture_output=True, text=True, check=True).stdout
    return [line.rsplit(",", 1)[1].strip() for line in out.splitlines() if line and not line.startswith("#")]


def published(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")
                  if p.is_file() and not any(part.startswith(".") for part in p.relative_to(folder).parts))


@pytest.fixture(scope="module")
def tiny_full(tmp_path_factory):
    out = tmp_path_factory.mktemp("full")
    result = render("tiny", "--quality", "low", "--out", str(out))
    assert result.returncode == 0, result.stderr + result.stdout
    return out


def test_panel_preview_renders_that_panel_only(tiny_full, tmp_path):
    out = tmp_path / "preview"
    result = render("--preview", "tiny", "--section", "B", "--out", str(out))
    assert result.returncode == 0, result.stderr + result.stdout
    clip = out / "preview" / "low" / "tiny" / "B.mp4"
    assert result.stdout.strip().splitlines()[-1] == str(clip)
    assert "rendered" in result.stdout
    # No whole-scene files, no GIF, no poster, no other panel: just the clip.
    assert published(out) == ["preview/low/tiny/B.mp4"]
    ours, full = frame_digests(clip), frame_digests(tiny_full / "low" / "tiny" / "B.mp4")
    assert len(full) == 15  # B is 1 s at 15 fps
    assert ours == full
    assert ours != frame_digests(tiny_full / "low" / "tiny" / "A.mp4")[: len(ours)]


def test_beat_preview_renders_that_beat_only(tiny_full, tmp_path):
    out = tmp_path / "preview"
    result = render("--preview", "tiny", "--section", "A.2", "--out", str(out))
    assert result.returncode == 0, result.stderr + result.stdout
    assert published(out) == ["preview/low/tiny/A.2.mp4"]
    ours = frame_digests(out / "preview" / "low" / "tiny" / "A.2.mp4")
    assert ours == frame_digests(tiny_full / "low" / "tiny" / "A" / "2.mp4")
    assert ours != frame_digests(tiny_full / "low" / "tiny" / "A" / "1.mp4")[: len(ours)]
    # From a current full render, the beat's clip is found by name.
    found = render("--preview", "tiny", "--section", "A.1", "--out", str(tiny_full))
    assert found.stdout.strip().splitlines()[-1] == str(tiny_full / "low" / "tiny" / "A" / "1.mp4")


def test_an_unknown_beat_names_the_beats_there_are(tmp_path):
    result = render("--preview", "tiny", "--section", "A.7", "--out", str(tmp_path / "out"))
    assert result.returncode == 2
    assert "tiny has no panel or beat 'A.7'" in result.stderr and "A.1, A.2, B.1" in result.stderr
    assert not (tmp_path / "out").exists()


def test_warm_repeat_renders_nothing(tmp_path):
    out = tmp_path / "out"
    first = render("--preview", "tiny", "--section", "A", "--out", str(out))
    assert first.returncode == 0, first.stderr
    clip = out / "preview" / "low" / "tiny" / "A.mp4"
    before = (clip.stat().st_mtime_ns, hashlib.sha256(clip.read_bytes()).hexdigest())
    again = render("--preview", "tiny", "--section", "A", "--out", str(out))
    assert again.returncode == 0, again.stderr
    assert "cached" in again.stdout and again.stdout.strip().splitlines()[-1] == str(clip)
    assert (clip.stat().st_mtime_ns, hashlib.sha256(clip.read_bytes()).hexdigest()) == before
    # Another panel is another cache entry, rendered on its own.
    other = render("--preview", "tiny", "--section", "B", "--out", str(out))
    assert "rendered" in other.stdout, other.stdout
    assert published(out) == ["preview/low/tiny/A.mp4", "preview/low/tiny/B.mp4"]


def test_a_current_full_render_is_used_as_is(tiny_full):
    before = published(tiny_full)
    result = render("--preview", "tiny", "--section", "A", "--out", str(tiny_full))
    assert result.returncode == 0, result.stderr
    assert "from the scene's full render" in result.stdout
    assert result.stdout.strip().splitlines()[-1] == str(tiny_full / "low" / "tiny" / "A.mp4")
    assert published(tiny_full) == before


def test_a_failing_panel_is_reported_with_its_log(tmp_path):
    out = tmp_path / "out"
    result = render("--preview", "broken", "--section", "A", "--out", str(out))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert "FAILED broken panel A: RuntimeError: this scene is broken on purpose" in result.stdout
    log = out / "preview" / "low" / "logs" / "broken.A.log"
    assert f"log: {log}" in result.stdout and "broken on purpose" in log.read_text()
    assert not (out / "preview" / "low" / "broken").exists()


def test_real_scene_panel_matches_its_full_render(tmp_path):
    """fig-optimizers' second panel (A, after B): B is skipped, cleared, then A's beats are drawn. The
    full render parses every text into an empty text cache and the preview loads them from
    it, so this also holds the cache to the parsed picture. The full render is the worker's
    alone (the pipeline only remuxes its section clips; its GIF and poster are not needed)."""
    real = env(LECTURE_SCENES_DIR=str(ROOT / "scenes"), LECTURE_TEXT_CACHE=str(tmp_path / "text"), PYTHONPATH=str(ROOT))
    staging = tmp_path / "full"
    staging.mkdir()
    full = subprocess.run([sys.executable, "-m", "studio.engine.worker", "fig-optimizers", "low", str(staging)],
                          cwd=ROOT, env=real, capture_output=True, text=True, timeout=600)
    assert full.returncode == 0, full.stderr[-2000:]
    sections = {s["name"]: Path(s["file"]) for s in json.loads((staging / "result.json").read_text())["sections"]}
    panels = list(dict.fromkeys(name.split(".")[0] for name in sections))
    assert panels == ["B", "A"]               # Ⓑ's ruler first, as the notes say
    beats_of_a = [name for name in sections if name.startswith("A.")]
    assert len(beats_of_a) > 1                # so the panel clip must join several beats
    assert any((tmp_path / "text").glob("*.pickle"))
    panel = subprocess.run(command("--preview", "fig-optimizers", "--section", "A", "--out", str(tmp_path / "panel")),
                           cwd=ROOT, env=real, capture_output=True, text=True, timeout=600)
    assert panel.returncode == 0, panel.stderr + panel.stdout
    ours = frame_digests(tmp_path / "panel" / "preview" / "low" / "fig-optimizers" / "A.mp4")
    theirs = [digest for name in beats_of_a for digest in frame_digests(sections[name])]
    assert len(theirs) > 60
    assert ours == theirs
