"""Interrupted, failing, concurrent and repeated runs never lose or corrupt output.

Each test drives render.py for real against fixture scenes: signals really interrupt a
render in flight, a SIGKILL really takes down the whole process group.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from tests.render_helpers import ROOT, command, decoded_frames_digest, env, manifest, probe, render, snapshot
from tests.video_checks import drawn_fraction, frames, step

pytestmark = pytest.mark.render


def _published_ok(qdir: Path, before: dict[str, str]) -> None:
    """Every published file is either exactly as before, absent, or a whole new file."""
    now = snapshot(qdir)
    for name, digest in now.items():
        if name in before and before[name] == digest:
            continue
        path = qdir / name
        if name.endswith((".mp4", ".gif")):
            probe(path)  # a truncated video does not probe
        elif name.endswith(".json"):
            json.loads(path.read_text())
        elif name.endswith(".png"):
            assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def _start(out: Path, *ids: str) -> subprocess.Popen:
    return subprocess.Popen(command(*ids, "--quality", "low", "--out", str(out), "--jobs", "2"),
                            cwd=ROOT, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def _wait_until_rendering(out: Path, timeout: float = 60) -> None:
    """Block until a worker has started writing into the staging folder."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any((out / ".staging").rglob("*.mp4")):
            return
        time.sleep(0.05)
    raise AssertionError("render never got going")


@pytest.fixture()
def published(tmp_path):
    """An output folder with a finished render of tiny and slow in it."""
    first = render("tiny", "slow", "--quality", "low", "--out", str(tmp_path))
    assert first.returncode == 0, first.stderr
    return tmp_path


def _touch_sources(tmp_path: Path) -> dict[str, str]:
    """Make tiny and slow stale (a config change) so the next run re-renders them."""
    folder = tmp_path / "config-changed"
    import shutil

    shutil.copytree(ROOT / "config", folder)
    with open(folder / "theme.yaml", "a") as handle:
        handle.write("\n# changed\n")
    return {"LECTURE_CONFIG_DIR": str(folder)}


@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM", "SIGKILL"])
def test_interrupted_run_leaves_published_files_whole(published, how):
    out, qdir = published, published / "low"
    before = snapshot(qdir)
    child = subprocess.Popen(command("tiny", "slow", "--quality", "low", "--out", str(out), "--force"),
                             cwd=ROOT, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
    _wait_until_rendering(out)
    time.sleep(0.5)
    # The check below sees the workers, forked by the zygote or started on their own: while
    # rendering, the session holds more than the render process itself.
    assert set(_session(child.pid)) - {child.pid}, "no worker seen while rendering"
    if how == "SIGKILL":
        os.killpg(child.pid, signal.SIGKILL)        # the whole process group, workers included
    else:
        os.kill(child.pid, getattr(signal, how))    # the parent only: it must stop its workers
    stdout, stderr = child.communicate(timeout=60)
    assert child.returncode != 0
    if how != "SIGKILL":
        assert child.returncode == 130 and "interrupted" in stderr and "Traceback" not in stderr
        assert not (out / ".staging").exists() or not any((out / ".staging").iterdir())
    _published_ok(qdir, before)
    # No worker outlives the run.
    time.sleep(0.5)
    assert _session(child.pid) == [], "a worker survived the interrupted render"
    # The next run completes and leaves a consistent folder.
    again = render("tiny", "slow", "--quality", "low", "--out", str(out))
    assert again.returncode == 0, again.stderr
    assert not list(qdir.rglob(".*.tmp"))
    data = manifest(qdir)
    assert {s["id"] for s in data["scenes"]} == {"tiny", "slow"}
    for scene in data["scenes"]:
        assert probe(qdir / scene["files"]["mp4"])["format"]["duration"]


def _session(sid: int) -> list[int]:
    """The live processes of session ``sid`` (the render was started in a session of its
    own, so its zygote and every worker, forked or not, are in it; their command lines are
    the zygote's, so a name match would not find them)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == sid and fields[0] != "Z":   # session, and not a zombie
            found.append(int(stat.parent.name))
    return sorted(found)


def test_killed_scene_is_not_taken_as_cached(published, tmp_path):
    out, qdir = published, published / "low"
    changed = _touch_sources(tmp_path)
    child = subprocess.Popen(command("slow", "--quality", "low", "--out", str(out)), cwd=ROOT, env=env(**changed),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    _wait_until_rendering(out)
    os.killpg(child.pid, signal.SIGKILL)
    child.communicate(timeout=30)
    again = render("slow", "--quality", "low", "--out", str(out), **changed)
    assert again.returncode == 0, again.stderr
    assert "1 rendered, 0 cached" in again.stdout


def test_two_runs_on_one_folder_take_turns(tmp_path):
    first = _start(tmp_path, "tiny", "slow")
    _wait_until_rendering(tmp_path)
    second = subprocess.run(command("tiny", "--quality", "low", "--out", str(tmp_path)), cwd=ROOT, env=env(),
                            capture_output=True, text=True, timeout=300)
    first_out, first_err = first.communicate(timeout=300)
    assert first.returncode == 0, first_err
    assert second.returncode == 0, second.stderr
    assert "another render is writing to" in second.stderr and "waiting" in second.stderr
    assert {s["id"] for s in manifest(tmp_path / "low")["scenes"]} == {"tiny", "slow"}


def test_rendering_twice_gives_identical_frames(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for out in (a, b):
        result = render("tiny", "loopy", "--quality", "low", "--out", str(out))
        assert result.returncode == 0, result.stderr
    for name in ("tiny.mp4", "loopy.mp4", "tiny/A.mp4"):
        assert decoded_frames_digest(a / "low" / name) == decoded_frames_digest(b / "low" / name), name
        # Identical blank videos would prove nothing: the frames show something, and it moves.
        video = frames(a / "low" / name, 854, 480)
        assert drawn_fraction(video[-1]) > 0.005, f"{name} ends blank"
        assert max(step(video[i], video[i + 1]) for i in range(len(video) - 1)) > 0.5, f"{name} never changes"


def test_failed_publish_step_is_not_cached(tmp_path, monkeypatch):
    """If publishing stops half way, the scene's cache record is gone, so it re-renders."""
    from studio import atomic
    from studio.engine import pipeline

    result = render("tiny", "--quality", "low", "--out", str(tmp_path))
    assert result.returncode == 0
    qdir = tmp_path / "low"
    key = json.loads((qdir / ".cache" / "tiny.json").read_text())["cache_key"]
    assert pipeline.is_cached(qdir, "tiny", key)

    calls = []

    def publish_then_die(source, target):
        calls.append(target)
        if len(calls) == 2:
            raise KeyboardInterrupt
        atomic_publish(source, target)

    atomic_publish = atomic.publish
    monkeypatch.setattr(atomic, "publish", publish_then_die)
    staged = {}
    for name in ("tiny.mp4", "tiny.gif", "tiny.png"):
        path = tmp_path / "staged" / name
        path.parent.mkdir(exist_ok=True)
        path.write_bytes((qdir / name).read_bytes())
        staged[name] = path
    record = tmp_path / "staged" / "record.json"
    record.write_text((qdir / ".cache" / "tiny.json").read_text())
    staged[".record"] = record
    renderer = pipeline.Renderer.__new__(pipeline.Renderer)
    renderer.batch = pipeline.Batch(entries=[], quality="low", out_dir=tmp_path, jobs=1)
    entry = type("E", (), {"scene_id": "tiny"})()
    with pytest.raises(KeyboardInterrupt):
        renderer._publish(entry, key, staged)
    assert not pipeline.is_cached(qdir, "tiny", key)


class _Quiet:
    def update(self, *_args, **_kwargs):
        pass


def test_next_worker_starts_while_the_last_scene_is_post_processed(tmp_path, monkeypatch):
    """--jobs counts workers: with one, scene 2's worker runs during scene 1's GIF, and no two
    workers ever run at once."""
    from studio.engine import pipeline

    events, lock = [], threading.Lock()

    def log(what, sid):
        with lock:
            events.append((time.monotonic(), what, sid))

    def worker(self, entry, staging, log_path):
        log("worker start", entry.scene_id)
        time.sleep(0.2)
        log("worker end", entry.scene_id)
        return {}

    def post(self, entry, result, staging):
        log("post start", entry.scene_id)
        time.sleep(0.5)
        log("post end", entry.scene_id)
        return {}

    monkeypatch.setattr(pipeline.Renderer, "_run_worker", worker)
    monkeypatch.setattr(pipeline.Renderer, "_postprocess", post)
    monkeypatch.setattr(pipeline.Renderer, "_publish", lambda *args: None)
    (tmp_path / pipeline.STAGING).mkdir()
    entries = [type("E", (), {"scene_id": sid})() for sid in ("s1", "s2", "s3")]
    renderer = pipeline.Renderer(pipeline.Batch(entries=entries, quality="low", out_dir=tmp_path, jobs=1), _Quiet())
    renderer.run([(e, "key") for e in entries])

    at = {(what, sid): t for t, what, sid in events}
    assert at[("worker start", "s2")] < at[("post end", "s1")], "scene 2 waited for scene 1's GIF"
    running = 0
    for _, what, _sid in sorted(events):
        running += {"worker start": 1, "worker end": -1}.get(what, 0)
        assert running <= 1, "two workers at once with --jobs 1"
    assert sum(what == "post end" for _, what, _ in events) == 3
