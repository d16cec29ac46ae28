"""studio/engine/zygote.py: a worker forked from the zygote is a worker like one started on its own:
the same files byte for byte, its exit status and its errors where the pipeline looks for
them; and a zygote that is not there leaves the pipeline starting workers itself."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bench.measure import WorkerPeaks
from studio.engine import launch, pipeline, zygote
from tests import render_helpers as rh


@pytest.fixture(autouse=True)
def fixture_scenes(monkeypatch):
    monkeypatch.setenv("LECTURE_SCENES_DIR", str(rh.FIXTURE_SCENES))


@pytest.fixture
def forker():
    started = zygote.Zygote()
    yield started
    started.close()


def run(child, log: Path) -> tuple[int, str, str]:
    out = child.stdout.read()
    return child.wait(), out, log.read_text(errors="replace")


def worker_files(staging: Path) -> dict[str, str]:
    """The worker's movie, beat clips and stills, by path inside its folder."""
    return {k: v for k, v in rh.snapshot(staging).items()
            if k.endswith((".mp4", ".png", ".jpg")) and "partial_movie_files" not in k}


def test_a_forked_worker_writes_what_a_started_one_writes(tmp_path, forker):
    forked, started = tmp_path / "forked", tmp_path / "started"
    forked.mkdir(), started.mkdir()
    with open(tmp_path / "forked.log", "w") as log:
        code, out, _ = run(forker.start(["tiny", "low", str(forked)], stderr=log), tmp_path / "forked.log")
    assert code == 0
    assert "PROGRESS" in out                                  # live progress reaches the pipeline
    with open(tmp_path / "started.log", "w") as log:
        child = launch.start("studio.engine.worker", "tiny", "low", str(started), stdout=subprocess.PIPE, stderr=log,
                             text=True)
        assert run(child, tmp_path / "started.log")[0] == 0
    assert json.loads((forked / zygote.PID_FILE).read_text())["scene"] == "tiny"
    files = worker_files(forked)
    assert files and any(name.endswith(".mp4") for name in files)
    assert files == worker_files(started)


def test_a_failing_worker_says_why_in_its_log_and_exits_non_zero(tmp_path, forker):
    log_path = tmp_path / "broken.log"
    with open(log_path, "w") as log:
        code, _, logged = run(forker.start(["broken", "low", str(tmp_path)], stderr=log), log_path)
    assert code != 0
    assert "Error" in launch.last_error(log_path), logged[-500:]


def test_a_terminated_worker_reports_the_signal(tmp_path, forker):
    log_path = tmp_path / "slow.log"
    with open(log_path, "w") as log:
        child = forker.start(["slow", "low", str(tmp_path)], stderr=log)
    child.stdout.readline()          # it has started drawing
    child.terminate()
    assert child.wait() == -signal.SIGTERM


def test_the_benchmark_finds_forked_workers_by_their_pid_file(tmp_path, forker):
    staging = tmp_path / pipeline.STAGING / "slow-x"
    staging.mkdir(parents=True)
    with open(tmp_path / "slow.log", "w") as log:
        child = forker.start(["slow", "low", str(staging)], stderr=log)
    child.stdout.readline()
    try:
        assert WorkerPeaks(tmp_path).workers() == {str(child.pid): "slow"}
    finally:
        child.terminate()
        child.wait()


def test_without_a_zygote_the_pipeline_starts_workers_itself(tmp_path):
    gone = zygote.Zygote()
    gone.process.kill()
    gone.process.wait()
    deadline = time.monotonic() + 10
    while not gone._gone.is_set() and time.monotonic() < deadline:
        time.sleep(0.01)
    with pytest.raises(zygote.ZygoteGone):
        gone.start(["tiny", "low", str(tmp_path)], stderr=subprocess.DEVNULL)
    gone.close()

    renderer = pipeline.Renderer.__new__(pipeline.Renderer)
    renderer.zygote = gone
    renderer.batch = type("B", (), {"quality": "low"})()
    renderer.lock = threading.Lock()
    notes = []
    renderer.progress = type("P", (), {"note": staticmethod(notes.append)})()
    with open(tmp_path / "w.log", "w") as log:
        child = renderer._start_worker(["tiny", "low", str(tmp_path)], log)
        assert isinstance(child, subprocess.Popen)
        child.communicate()
    assert child.returncode == 0
    # The fallback is said once, naming the zygote's log.
    assert len(notes) == 1 and str(gone.log_path) in notes[0]


def test_a_zygote_that_cannot_import_says_why_in_its_log(tmp_path, monkeypatch):
    # A zygote whose preload fails (here: a module that is not there) ends at once; what it
    # printed is in the log that the fallback's warning names, not thrown away.
    monkeypatch.setattr(launch, "module_command",
                        lambda *_: [sys.executable, "-c", "import studio.no_such_module"])
    broken = zygote.Zygote(tmp_path / "zygote.log")
    broken.process.wait(timeout=60)
    with pytest.raises(zygote.ZygoteGone):
        broken.start(["tiny", "low", str(tmp_path)], stderr=subprocess.DEVNULL)
    broken.close()
    assert "No module named 'studio.no_such_module'" in (tmp_path / "zygote.log").read_text()
