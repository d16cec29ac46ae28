"""Where in the notes each beat's sentence is said.

A beat quotes the speaker verbatim (scenes/kit/base.py). Its sentence must be found in the
script of a cue that shows its panel, and a panel's beats must quote the notes in order.
``locate`` answers both for the tests, the manifest's ``notes_line`` and the cue sheet.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from studio.errors import UsageError
from studio.track import cues

_SPACE = re.compile(r"\s+")


def squeeze(text: str) -> str:
    """Spaces in the notes are the speaker's breath, not words: compare without them."""
    return _SPACE.sub("", text)


@dataclass(frozen=True)
class Place:
    line: int       # 1-based notes line
    offset: int     # where on that line the quote starts (squeezed characters)


def panel_cues(sheet: dict[str, Any], scene_id: str, panel: str) -> list[dict[str, Any]]:
    """The figure cues that put ``panel`` of ``scene_id`` on screen (whole views included)."""
    found = []
    for cue in sheet["cues"]:
        if cue["kind"] != "figure" or cue.get("scene") != scene_id:
            continue
        views = cue.get("views") or []
        if panel in views or cues.VIEW_WHOLE in views or (cues.VIEW_FIRST in views and panel == "A"):
            found.append(cue)
    return found


def script_lines(cue_list: list[dict[str, Any]]) -> list[tuple[int, str]]:
    """Every script entry (speech and notes) of these cues, and each cue's own 🖥 line, as
    (line, text), in notes order. A panel read without speech of its own (fig-3x Ⓐ:
    「一格一格念那三次矩阵乘」) ties its beats to the stage directions of its cue line."""
    entries = {(e["line"], e.get("say") or e.get("note") or "") for cue in cue_list for e in cue["script"]}
    entries |= {(cue["line"], cue.get("text") or "") for cue in cue_list}
    return sorted(entries)


def locate(says: str, lines: list[tuple[int, str]], after: Place | None = None) -> Place | None:
    """The first place at or after ``after`` where ``says`` stands verbatim (spaces aside)."""
    wanted = squeeze(says)
    for number, text in lines:
        if after is not None and number < after.line:
            continue
        start = after.offset + 1 if after is not None and number == after.line else 0
        at = squeeze(text).find(wanted, start)
        if at >= 0:
            return Place(number, at)
    return None


def place_beats(sheet: dict[str, Any], scene_id: str, panel: str, quotes: list[str | None]) -> list[Place | None]:
    """Each quote's place in the panel's cues, each searched after the one before it (None:
    no quote, or not found in order — the tests name those)."""
    lines = script_lines(panel_cues(sheet, scene_id, panel))
    places: list[Place | None] = []
    after: Place | None = None
    for says in quotes:
        place = locate(says, lines, after) if says else None
        places.append(place)
        after = place or after
    return places


def annotate_manifest(manifest: dict[str, Any], sheet: dict[str, Any]) -> dict[str, Any]:
    """Fill each beat's ``notes_line`` (None when it quotes nothing, or nothing found)."""
    for scene in manifest.get("scenes") or []:
        for section in scene.get("sections") or []:
            beats = section.get("beats") or []
            places = place_beats(sheet, scene["id"], section["name"], [b.get("says") for b in beats])
            for beat, place in zip(beats, places):
                beat["notes_line"] = place.line if place else None
    return manifest


def annotate_from_notes(manifest: dict[str, Any]) -> dict[str, Any]:
    """The engine's manifest with each beat's notes line, from the notes' scripts alone (no
    errata, no timings). Broken notes or cues.yaml leave it as it is: the cue sheet step, which
    runs before any render, names the problem."""
    try:
        return annotate_manifest(manifest, cues.build_sheet(errata=[]))
    except UsageError:
        return manifest
