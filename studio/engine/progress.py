"""Live progress: a table redrawn in place on a terminal, plain lines otherwise."""

from __future__ import annotations

import json
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.live import Live
from rich.table import Table

from studio import atomic


# A scene's stages, in order: waiting for a worker, drawing and encoding its clips, the
# slide-ready copies and poster, its GIF, moving the files into place; then how it ended.
STAGES = ("queued", "rendering", "encoding", "gif", "publishing")
ENDED = ("done", "cached", "failed")


@dataclass
class SceneState:
    scene_id: str
    state: str = "queued"          # one of STAGES or ENDED
    video_s: float = 0.0           # seconds of video rendered so far
    expected_s: float | None = None       # seconds of video, from the last render's record
    expected_wall_s: float | None = None  # wall seconds the last render of it took, from its record
    started: float | None = None
    finished: float | None = None
    error: str = ""
    log: str = ""
    how: str = ""                  # how it was rendered, when that is worth saying ("two workers …")

    @property
    def wall_s(self) -> float:
        if self.started is None:
            return 0.0
        return (self.finished or time.monotonic()) - self.started


@dataclass
class Progress:
    states: dict[str, SceneState]
    console: Console = field(default_factory=lambda: Console(stderr=True))
    jobs: int = 1                  # scenes worked on at once (the pipeline sets it)
    # Each scene's wall seconds at its last render, read for the estimate and updated as
    # scenes finish (the pipeline names it: <out>/<quality>/.cache/times.json).
    times_path: Path | None = None
    _times: dict[str, float] = field(default_factory=dict)
    _live: Live | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _started: float = field(default_factory=time.monotonic)

    def __enter__(self) -> "Progress":
        self._times = recorded_times(self.times_path) if self.times_path else {}
        for s in self.states.values():
            if s.expected_wall_s is None:
                s.expected_wall_s = self._times.get(s.scene_id)
        if self.console.is_terminal:
            self._live = Live(self._table(), console=self.console, refresh_per_second=4, transient=False)
            self._live.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        if self._live is not None:
            self._live.update(self._table())
            self._live.__exit__(*exc)
        if self.times_path is not None:
            finished = {s.scene_id: round(s.wall_s, 2) for s in self.states.values() if s.state == "done"}
            if finished:
                atomic.write_json(self.times_path, {**self._times, **finished})

    def update(self, scene_id: str, **changes) -> None:
        state = self.states[scene_id]
        before = state.state
        for name, value in changes.items():
            setattr(state, name, value)
        if self._live is not None:
            self._live.update(self._table())
        elif state.state != before:
            self._line(state)

    def note(self, text: str) -> None:
        """A warning between the progress lines (above the table when it is live)."""
        if self._live is not None:
            self._live.console.print(text)
            return
        with self._lock:
            sys.stderr.write(text + "\n")
            sys.stderr.flush()

    def time_left_s(self) -> float | None:
        """Seconds until the batch ends, from each unfinished scene's expected wall time less
        what it has taken so far, spread over the jobs. A scene never rendered before is
        expected to take its seconds of video at the pace of the scenes finished in this
        run (or their mean, without its length); None while nothing says how long a scene takes."""
        finished = [s for s in self.states.values() if s.state == "done" and s.finished is not None]
        video = sum(s.video_s for s in finished)
        pace = sum(s.wall_s for s in finished) / video if video > 0 else None
        mean = sum(s.wall_s for s in finished) / len(finished) if finished else None
        left = 0.0
        for s in self.states.values():
            if s.state in ENDED:
                continue
            expected = s.expected_wall_s
            if expected is None and s.expected_s and pace is not None:
                expected = s.expected_s * pace
            if expected is None:
                expected = mean
            if expected is None:
                return None
            left += max(expected - s.wall_s, 0.0)
        return left / max(1, self.jobs)

    def _line(self, s: SceneState) -> None:
        done = sum(x.state in ENDED for x in self.states.values())
        extra = f" in {s.wall_s:.1f} s" if s.state in ("done", "failed") else ""
        if s.state == "failed":
            extra += f": {s.error}"
        elif s.state == "done" and s.how:
            extra += f" ({s.how})"
        # One write per event, under a lock: print() writes the text and its newline separately,
        # so two scenes' threads reporting at once ran their events together on one line.
        line = f"[{done}/{len(self.states)}] {s.scene_id}: {s.state}{extra}\n"
        with self._lock:
            sys.stderr.write(line)
            sys.stderr.flush()

    def _table(self) -> Table:
        done = sum(x.state in ENDED for x in self.states.values())
        video = sum(x.video_s for x in self.states.values())
        title = (f"{done}/{len(self.states)} finished · {video:.1f} s of video · "
                 f"{time.monotonic() - self._started:.0f} s elapsed")
        left = self.time_left_s()
        caption = "time left unknown" if left is None else f"about {_duration(left)} left"
        table = Table(title=title, title_justify="left", caption=caption, caption_justify="left")
        for column in ("scene", "state", "video", "wall"):
            table.add_column(column, no_wrap=True, overflow="ellipsis")
        shown, folded = self._rows_that_fit()
        for s in shown:
            video = f"{s.video_s:.1f} s" + (f" / {s.expected_s:.1f} s" if s.expected_s else "")
            style = {"failed": "red", "done": "green", "cached": "cyan"}.get(s.state, "")
            table.add_row(s.scene_id, f"[{style}]{s.state}[/]" if style else s.state,
                          video if s.state not in ("queued", "cached") else "", f"{s.wall_s:.1f} s" if s.started else "")
        for state, count in folded.items():
            table.add_row(f"[dim]… {count} more[/]", f"[dim]{state}[/]", "", "")
        return table

    def _rows_that_fit(self) -> tuple[list[SceneState], dict[str, int]]:
        """Every scene while the table fits the terminal; with the whole lecture on a small
        one, the scenes at work and the failures stay, and the rest fold into one row per
        state (the finished ones first, then the queued)."""
        rows = list(self.states.values())
        room = max(4, self.console.size.height - TABLE_FRAME_LINES)
        if len(rows) <= room:
            return rows, {}
        folded: dict[str, int] = {}
        for state in ("cached", "done", "queued"):
            if len(rows) + len(folded) <= room:
                break
            count = sum(s.state == state for s in rows)
            if count:
                rows = [s for s in rows if s.state != state]
                folded[state] = count
        return rows, folded


def recorded_times(path: Path) -> dict[str, float]:
    """Scene id → wall seconds of its last render; empty when there is no readable record
    (the estimate then learns from this run)."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: float(v) for k, v in data.items() if isinstance(v, (int, float)) and v >= 0}


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"


# Title, header, the table's rules and the time-left caption: the lines a table takes beyond its rows.
TABLE_FRAME_LINES = 7
