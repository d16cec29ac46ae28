"""The live progress table stays readable with the whole lecture on an 80×24 terminal."""

from __future__ import annotations

import io
import json
import time

import pytest

from rich.console import Console

from studio.engine import registry
from studio.engine.progress import Progress, SceneState


def lecture_states(rendering: int, done: int, failed: int = 0) -> dict[str, SceneState]:
    ids = [entry.scene_id for entry in registry.select([])]
    states = {sid: SceneState(sid) for sid in ids}
    for index, sid in enumerate(ids):
        state = ("done" if index < done else "failed" if index < done + failed
                 else "rendering" if index < done + failed + rendering else "queued")
        states[sid].state, states[sid].started = state, 1.0
        states[sid].video_s, states[sid].expected_s = 12.5, 48.0
    return states


def drawn(states: dict[str, SceneState], width: int, height: int) -> list[str]:
    out = io.StringIO()
    console = Console(file=out, width=width, height=height, force_terminal=False)
    console.print(Progress(states, console=console)._table())
    return out.getvalue().splitlines()


def test_the_whole_lecture_fits_80_by_24_with_the_scenes_at_work_in_view():
    states = lecture_states(rendering=2, done=12, failed=1)
    assert len(states) >= 31
    lines = drawn(states, 80, 24)
    assert len(lines) <= 24
    assert max(len(line) for line in lines) <= 80
    text = "\n".join(lines)
    at_work = [sid for sid, s in states.items() if s.state in ("rendering", "failed")]
    assert len(at_work) == 3 and all(sid in text for sid in at_work)
    assert "… 12 more" in text          # the finished ones, folded and counted


def test_a_tall_terminal_shows_every_scene():
    states = lecture_states(rendering=2, done=12)
    text = "\n".join(drawn(states, 80, 60))
    assert all(sid in text for sid in states)
    assert "more" not in text


def timed(sid: str, state: str, *, took: float | None = None, running_for: float | None = None, **fields) -> SceneState:
    """A scene that finished after ``took`` seconds, or has been at work for ``running_for``."""
    now = time.monotonic()
    scene = SceneState(sid, state=state, **fields)
    if took is not None:
        scene.started, scene.finished = now - took, now
    if running_for is not None:
        scene.started = now - running_for
    return scene


def progress_of(*scenes: SceneState, jobs: int = 1) -> Progress:
    return Progress({s.scene_id: s for s in scenes}, console=Console(file=io.StringIO()), jobs=jobs)


def test_time_left_comes_from_each_scenes_recorded_time():
    """40 s recorded, 10 s done: 30 s left; a queued scene's recorded 50 s; a finished one adds
    nothing. Two workers share the 80 s."""
    progress = progress_of(timed("a", "done", took=12.0, video_s=5.0),
                           timed("b", "gif", running_for=10.0, expected_wall_s=40.0),
                           timed("c", "queued", expected_wall_s=50.0), jobs=2)
    assert progress.time_left_s() == pytest.approx(40.0, abs=0.1)


def test_a_scene_never_rendered_is_timed_at_this_runs_pace():
    """"a" took 20 s for 10 s of video: the 15 s scene "b" is expected to take 30 s."""
    progress = progress_of(timed("a", "done", took=20.0, video_s=10.0), timed("b", "queued", expected_s=15.0))
    assert progress.time_left_s() == pytest.approx(30.0, abs=0.1)


def test_a_scene_over_its_time_counts_none_left_and_unknown_is_said():
    assert progress_of(timed("a", "rendering", running_for=30.0, expected_wall_s=20.0)).time_left_s() == 0.0
    assert progress_of(timed("a", "queued")).time_left_s() is None
    lines = drawn({"a": timed("a", "queued")}, 80, 24)
    assert "time left unknown" in "\n".join(lines)


def test_the_table_shows_the_gif_stage_and_the_time_left():
    states = lecture_states(rendering=2, done=12)
    gif_scene = next(sid for sid, s in states.items() if s.state == "rendering")
    states[gif_scene].state = "gif"
    for s in states.values():
        s.expected_wall_s = 60.0
        if s.state == "queued":
            s.started = None
    lines = drawn(states, 80, 24)
    text = "\n".join(lines)
    assert len(lines) <= 24 and max(len(line) for line in lines) <= 80
    assert f"{gif_scene}" in text and " gif " in text
    assert "min left" in text


def test_scene_times_are_recorded_and_read_back(tmp_path):
    """A finished scene's wall time is kept (beside what was recorded before) and read back as
    the next run's expectation; an unreadable record is no record."""
    times = tmp_path / ".cache" / "times.json"
    times.parent.mkdir()
    times.write_text('{"old": 7.5, "bad": "x"}')
    with Progress({"a": timed("a", "queued")}, console=Console(file=io.StringIO()), times_path=times) as progress:
        progress.update("a", state="rendering", started=time.monotonic() - 4.0)
        progress.update("a", state="done", finished=time.monotonic())
    assert json.loads(times.read_text()) == {"old": 7.5, "a": pytest.approx(4.0, abs=0.2)}
    again = {"a": timed("a", "queued"), "old": timed("old", "queued")}
    with Progress(again, console=Console(file=io.StringIO()), times_path=times) as progress:
        assert progress.states["a"].expected_wall_s == pytest.approx(4.0, abs=0.2)
        assert progress.time_left_s() == pytest.approx(4.0 + 7.5, abs=0.3)
    times.write_text("{not json")
    with Progress({"a": timed("a", "queued")}, console=Console(file=io.StringIO()), times_path=times) as progress:
        assert progress.time_left_s() is None


class RecordingStream(io.StringIO):
    """A log file that keeps each write() apart, to see whether an event arrived whole."""

    def __init__(self):
        super().__init__()
        self.writes: list[str] = []

    def write(self, text: str) -> int:
        self.writes.append(text)
        return super().write(text)


def test_a_log_file_gets_one_whole_event_per_write_from_threads_at_once(monkeypatch):
    """`make render > log 2>&1`: scenes report from their own threads, and each event must be
    one line of its own (print() wrote the text and the newline apart, so two events ran together)."""
    import re
    import threading

    stream = RecordingStream()
    monkeypatch.setattr("sys.stderr", stream)
    ids = [f"fig-{n}" for n in range(8)]
    progress = Progress({sid: SceneState(sid) for sid in ids},
                        console=Console(file=io.StringIO(), force_terminal=False))
    start = threading.Barrier(len(ids))

    def report(sid: str) -> None:
        start.wait()
        for state in ("rendering", "encoding", "gif", "publishing"):
            progress.update(sid, state=state)

    threads = [threading.Thread(target=report, args=(sid,)) for sid in ids]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    events = [w for w in stream.writes if w.strip()]
    assert len(events) == 4 * len(ids)
    assert all(w.endswith("\n") and w.count("\n") == 1 for w in events)
    lines = stream.getvalue().splitlines()
    assert all(re.fullmatch(r"\[\d+/8\] fig-\d: \w+", line) for line in lines), lines
