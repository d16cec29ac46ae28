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
        title = (f"{done}/{len(self.states)} finished · {video:.1f} s of video · "
                 f"{time.monotonic() - self._started:.0f} s elapsed")
        table = Table(title=title, title_justify="left")
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


# Title, header and the table's rules: the lines a table takes beyond its rows.
TABLE_FRAME_LINES = 6
