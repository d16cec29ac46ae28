"""Rehearsal timings: the seconds a rehearsal really spent on each cue and beat.

The rehearsal page records them in the browser and exports them as JSON::

    {"version": 1, "notes": "assets/lecture-notes.txt", "recorded": "<ISO time>",
     "cues": {"<cue notes line>": {"seconds": 61.2, "beats": {"<view>.<n>": 12.0}}}}

A cue is named by its 🖥 line in the notes, a step within it by its view and beat
(:func:`step_key`: ``A.2``, ``whole.1``, ``card.1`` for a title or section card). The cue
sheet carries the rehearsed seconds beside its estimates, and each section its target
length (``sections`` in config/cues.yaml) and whether it runs over.
"""

from __future__ import annotations

import json
import math
from datetime import datetime
from pathlib import Path
from typing import Any

import jsonschema

from studio import config
from studio.errors import UsageError

VERSION = 1
DEFAULT_NAME = "timings.json"   # config/timings.json: read when no file is named
_SECONDS = {"type": "number", "minimum": 0}
SCHEMA = {
    "type": "object",
    "required": ["version", "cues"],
    "properties": {
        "version": {"type": "integer"},
        "notes": {"type": "string"},
        "recorded": {"type": "string"},
        "cues": {
            "type": "object",
            "propertyNames": {"pattern": "^[1-9][0-9]*$"},
            "additionalProperties": {
                "type": "object", "required": ["seconds"], "additionalProperties": False,
                "properties": {
                    "seconds": _SECONDS,
                    "beats": {"type": "object", "propertyNames": {"pattern": r"^[A-Za-z]+\.[1-9][0-9]*$"},
                              "additionalProperties": _SECONDS},
                },
            },
        },
    },
}


def step_key(step: dict[str, Any]) -> str:
    """A step's name in a timings file: its view and beat (a one-step view or card is beat 1)."""
    return f"{step.get('view') or 'card'}.{step.get('beat') or 1}"


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number of seconds")


def load_timings(path: Path) -> dict[str, Any]:
    """An exported timings file, checked; a bad one is a one-line UsageError naming the problem."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise UsageError(f"{path}: cannot read the timings ({error.strerror})") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path}: the timings are not UTF-8 text") from None
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise UsageError(f"{path}:{error.lineno}:{error.colno}: the timings are not JSON: {error.msg}") from None
    except ValueError as error:
        raise UsageError(f"{path}: invalid timings: {error}") from None
    return check_timings(data, str(path))


def timings_for(named: Path | None) -> dict[str, Any] | None:
    """The timings a render uses: the file named (``--timings FILE``), else config/timings.json
    when there is one, else none."""
    if named is not None:
        return load_timings(named)
    default = config.config_dir() / DEFAULT_NAME
    return load_timings(default) if default.is_file() else None


def check_timings(data: Any, source: str = "timings") -> dict[str, Any]:
    """``data`` if it is a timings export this studio reads; otherwise a UsageError."""
    if isinstance(data, dict) and isinstance(data.get("version"), int) and data["version"] != VERSION:
        raise UsageError(f"{source}: timings version {data['version']} is not one this studio reads "
                         f"(it reads version {VERSION})")
    errors = sorted(jsonschema.Draft202012Validator(SCHEMA).iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        where = ".".join(str(p) for p in errors[0].absolute_path) or "top level"
        raise UsageError(f"{source}: invalid timings: {where}: {errors[0].message}")
    for line, cue in data["cues"].items():
        values = {"seconds": cue["seconds"], **{f"beats.{k}": v for k, v in (cue.get("beats") or {}).items()}}
        for name, value in values.items():
            if not math.isfinite(value):
                raise UsageError(f"{source}: invalid timings: cues.{line}.{name}: {value} is not a number of seconds")
    if "recorded" in data:
        try:
            datetime.fromisoformat(data["recorded"])
        except ValueError:
            raise UsageError(f"{source}: invalid timings: recorded: {data['recorded']!r} is not an ISO time") from None
    return data


def rehearsed_by_line(timings: dict[str, Any], cue_lines: list[int], notes: str) -> tuple[dict[int, dict], list[str]]:
    """Each rehearsed cue's record by its notes line, and a warning for each record that
    names no cue of these notes (they were edited since, or the file is for other notes)."""
    warnings = []
    recorded_for = timings.get("notes")
    if recorded_for and recorded_for != notes:
        warnings.append(f"timings: recorded against {recorded_for}, not {notes}")
    known = set(cue_lines)
    found = {}
    for key, record in timings["cues"].items():
        line = int(key)
        if line in known:
            found[line] = record
        else:
            warnings.append(f"timings: L{line} is not a 🖥 line of {notes}; its time is left out")
    return found, warnings


def section_times(sections: list[dict[str, Any]], cues: list[dict[str, Any]],
                  targets_minutes: dict[int, float]) -> None:
    """Each section's rehearsed seconds (None: not rehearsed at all), its target and whether it
    runs over: the rehearsed time of each cue, or its estimate where it was not rehearsed."""
    for section in sections:
        mine = [c for c in cues if c["section"] == section["number"]]
        rehearsed = [c["rehearsed_s"] for c in mine if c.get("rehearsed_s") is not None]
        expected = sum(c["rehearsed_s"] if c.get("rehearsed_s") is not None else c["estimated_s"] for c in mine)
        target = targets_minutes.get(section["number"])
        section["rehearsed_s"] = round(sum(rehearsed), 1) if rehearsed else None
        section["rehearsed_cues"] = len(rehearsed)
        section["expected_s"] = round(expected, 1)
        section["target_s"] = round(target * 60, 1) if target is not None else None
        section["over_target"] = target is not None and expected > target * 60
