"""fig-step as the pipeline publishes it, without rendering video: the scene is constructed
(animations skipped, a few seconds) so its beats carry the ledger keys the kit really drew,
and the real notes' cue sheet and the real ledger are published against it
(studio.present.publish.write_page: cues.json, index.html, ledger.html). Each beat's clip is two flat
colours (tests/fixtures_beats.py), the one it ends on its own, so a screenshot tells which
beat is held.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from tests.fixtures_beats import FPS, HALF_S, HEIGHT, START_COLOUR, WIDTH, flat_image, two_colour_clip

SCENE = "fig-step"


@functools.lru_cache(maxsize=None)
def fig_step_beats() -> tuple[dict[str, Any], ...]:
    """fig-step's beats as the worker records them: name, panel, n, says, numbers, ..."""
    from studio.engine.stills import build_scene
    from studio.engine.worker import beat_records

    return tuple(beat_records(build_scene(SCENE)))


def beat_colour(index: int) -> tuple[int, int, int]:
    return (40 + (index * 53) % 180, 60 + (index * 97) % 160, 80 + (index * 31) % 150)


def lecture_ledger() -> dict[str, dict[str, Any]]:
    from lecture_numerics.ledger import ledger_entries
    from studio.engine import registry

    return ledger_entries({sid: e.ledger_keys for sid, e in registry.discover().items()})


def make_fig_step_output(quality_dir: Path) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Clips, posters and the manifest of fig-step's beats; then cues.json and the page, as a
    render publishes them. Returns (manifest, published cue sheet, ledger)."""
    from studio.present import publish

    quality_dir.mkdir(parents=True, exist_ok=True)
    beats = fig_step_beats()
    sections: dict[str, list[dict[str, Any]]] = {}
    before = START_COLOUR
    for index, beat in enumerate(beats):
        stem = f"{SCENE}/{beat['panel']}/{beat['n']}"
        colour = beat_colour(index)
        two_colour_clip(quality_dir / f"{stem}.mp4", before, colour)
        flat_image(quality_dir / f"{stem}.jpg", colour)
        before = colour
        sections.setdefault(beat["panel"], []).append({
            "n": beat["n"], "name": beat["name"], "file": f"{stem}.mp4", "poster": f"{stem}.jpg",
            "duration_s": 2 * HALF_S, "says": beat["says"], "takeaway": beat["takeaway"], "stars": beat["stars"],
            "warning": beat["warning"], "numbers": beat["numbers"]})
    for panel in sections:
        two_colour_clip(quality_dir / SCENE / f"{panel}.mp4", START_COLOUR, START_COLOUR)
    two_colour_clip(quality_dir / f"{SCENE}.mp4", START_COLOUR, before)
    flat_image(quality_dir / f"{SCENE}.png", before)
    manifest = {"quality": "low", "width": WIDTH, "height": HEIGHT, "fps": FPS, "scenes": [{
        "id": SCENE, "title": "一步训练的账单", "duration_s": 2 * HALF_S * len(beats), "loop": False,
        "files": {"mp4": f"{SCENE}.mp4", "png": f"{SCENE}.png"},
        "sections": [{"name": name, "file": f"{SCENE}/{name}.mp4", "duration_s": 2 * HALF_S * len(panel_beats),
                      "beats": panel_beats} for name, panel_beats in sections.items()],
        "ledger_keys": sorted({k for b in beats for k in b["numbers"]})}]}
    (quality_dir / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")
    ledger = lecture_ledger()
    published = publish.write_page(quality_dir, manifest, ledger)
    return manifest, published, ledger
