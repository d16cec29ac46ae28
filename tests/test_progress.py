"""The live progress table stays readable with the whole lecture on an 80×24 terminal."""

from __future__ import annotations

import io

from rich.console import Console

from studio import registry
from studio.progress import Progress, SceneState


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
