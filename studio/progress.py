"""Live progress: a table redrawn in place on a terminal, plain lines otherwise."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field

from rich.console import Console
from rich.live import Live
from rich.table import Table


@dataclass
class SceneState:
    scene_id: str
    state: str = "queued"          # queued | rendering | encoding | publishing | done | cached | failed
    video_s: float = 0.0           # seconds of video rendered so far
    expected_s: float | None = None
    started: float | None = None
    finished: float | None = None
    error: str = ""
    log: str = ""

    @property
    def wall_s(self) -> float:
        if self.started is None:
            return 0.0
        return (self.finished or time.monotonic()) - self.started


@dataclass
class Progress:
    states: dict[str, SceneState]
    console: Console = field(default_factory=lambda: Console(stderr=True))
    _live: Live | None = None
    _started: float = field(default_factory=time.monotonic)

    def __enter__(self) -> "Progress":
        if self.console.is_terminal:
            self._live = Live(self._table(), console=self.console, refresh_per_second=4, transient=False)
            self._live.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        if self._live is not None:
            self._live.update(self._table())
            self._live.__exit__(*exc)

    def update(self, scene_id: str, **changes) -> None:
        state = self.states[scene_id]
        before = state.state
        for name, value in changes.items():
            setattr(state, name, value)
        if self._live is not None:
            self._live.update(self._table())
        elif state.state != before:
            self._line(state)

    def _line(self, s: SceneState) -> None:
        done = sum(x.state in ("done", "cached", "failed") for x in self.states.values())
        extra = f" in {s.wall_s:.1f} s" if s.state in ("done", "failed") else ""
        if s.state == "failed":
            extra += f": {s.error}"
        print(f"[{done}/{len(self.states)}] {s.scene_id}: {s.state}{extra}", file=sys.stderr, flush=True)

    def _table(self) -> Table:
        done = sum(x.state in ("done", "cached", "failed") for x in self.states.values())
        video = sum(x.video_s for x in self.states.values())
        title = (f"{done}/{len(self.states)} scenes finished · {video:.1f} s of video rendered · "
                 f"{time.monotonic() - self._started:.0f} s elapsed")
        table = Table(title=title, title_justify="left")
        for column in ("scene", "state", "video", "wall"):
            table.add_column(column)
        for s in self.states.values():
            video = f"{s.video_s:.1f} s" + (f" / {s.expected_s:.1f} s" if s.expected_s else "")
            style = {"failed": "red", "done": "green", "cached": "cyan"}.get(s.state, "")
            table.add_row(s.scene_id, f"[{style}]{s.state}[/]" if style else s.state,
                          video if s.state not in ("queued", "cached") else "", f"{s.wall_s:.1f} s" if s.started else "")
        return table
