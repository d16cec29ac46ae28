"""Panel preview: ``render.py --preview ID --section X`` shows panel X (``A``) or one beat
of it (``A.2``) in seconds.

Only X is rendered (the worker runs the panels before it with animations skipped
and stops when X ends, studio/manim_hooks/panel_only.py), at low quality, with no GIF or poster.
The clip is published as ``<out>/preview/low/<id>/<X>.mp4`` with its own cache record,
keyed by the scene's low-quality key and the panel's name. When the scene's full
low-quality render is current, its clip of X is the same picture, so that one is shown
and nothing runs.

Nothing is written until the worker has finished: a panel name the scene does not have
is a one-line usage error that leaves the output folder as it was.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from studio import atomic, config
from studio.engine import cache, launch
from studio.media import clips, toolcheck
from studio.errors import UsageError
from studio.lock import output_lock
from studio.engine.registry import SceneEntry

QUALITY = "low"
PREVIEW_DIR = "preview"
EXIT_NO_PANEL = 3  # studio.engine.worker's code for "the scene has no such panel"


@dataclass
class PanelPreview:
    clip: Path
    state: str            # "cached" (a panel render), "full" (the scene's full render), "rendered"
    seconds: float
    error: str = ""       # set when the worker failed
    log: Path | None = None


def panel_key(scene_key: str, section: str) -> str:
    """The scene's key at low quality plus the panel: another panel is another clip."""
    return hashlib.sha256(f"{scene_key}\0panel\0{section}".encode()).hexdigest()[:16]


def clip_path(out_dir: Path, scene_id: str, section: str) -> Path:
    return out_dir / PREVIEW_DIR / QUALITY / scene_id / f"{section}.mp4"


def record_path(out_dir: Path, scene_id: str, section: str) -> Path:
    return out_dir / PREVIEW_DIR / QUALITY / ".cache" / f"{scene_id}.{section}.json"


def _cached_panel(out_dir: Path, entry: SceneEntry, section: str, key: str) -> Path | None:
    clip = clip_path(out_dir, entry.scene_id, section)
    try:
        record = json.loads(record_path(out_dir, entry.scene_id, section).read_text())
    except (OSError, ValueError):
        return None
    return clip if record.get("cache_key") == key and clip.is_file() else None


def _full_render_clip(out_dir: Path, entry: SceneEntry, section: str, scene_key: str) -> Path | None:
    """X's clip from a current full low-quality render (an unknown X is a usage error)."""
    from studio.engine.pipeline import is_cached, read_record

    quality_dir = out_dir / QUALITY
    if not is_cached(quality_dir, entry.scene_id, scene_key):
        return None
    panels = read_record(quality_dir, entry.scene_id)["sections"]
    clips = {p["name"]: p["file"] for p in panels}
    clips.update({f"{p['name']}.{b['n']}": b["file"] for p in panels for b in p.get("beats", [])})
    if section not in clips:
        raise UsageError(_no_panel(entry.scene_id, section, list(clips)))
    return quality_dir / clips[section]


def _no_panel(scene_id: str, section: str, names: list[str]) -> str:
    from studio.media.clips import panel_of

    panels = list(dict.fromkeys(panel_of(name) for name in names))
    beats = [name for name in names if name not in panels]
    listed = f"its panels: {', '.join(panels) or 'none'}" + (f"; its beats: {', '.join(beats)}" if beats else "")
    return f"{scene_id} has no panel or beat {section!r}; {listed}"


def _check_writable(out_dir: Path) -> None:
    """Fail before rendering when the folder (or the nearest one that exists) is not
    writable, without creating anything: a bad panel name must leave no trace."""
    existing = out_dir
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        raise UsageError(f"output folder {out_dir} is not writable")


def _run_worker(entry: SceneEntry, section: str, staging: Path, log_path: Path) -> int:
    with open(log_path, "w") as log:
        child = launch.start("studio.engine.worker", entry.scene_id, QUALITY, str(staging), "--section", section, stderr=log)
        try:
            return child.wait()
        finally:
            if child.poll() is None:  # interrupted: the worker must not outlive us
                child.terminate()
                child.wait()


def render_panel(entry: SceneEntry, section: str, out_dir: Path, *, force: bool = False) -> PanelPreview:
    """The clip of panel ``section`` of ``entry`` at low quality: from a cache, or rendered."""
    started = time.monotonic()
    scene_key = cache.cache_key(entry, QUALITY, config.presets()[QUALITY])
    key = panel_key(scene_key, section)
    if not force:
        found = _full_render_clip(out_dir, entry, section, scene_key)
        if found is not None:
            return PanelPreview(found, "full", time.monotonic() - started)
        found = _cached_panel(out_dir, entry, section, key)
        if found is not None:
            return PanelPreview(found, "cached", time.monotonic() - started)

    _check_writable(out_dir)
    toolcheck.check_theme_fonts(config.theme())
    toolcheck.check_encoder()
    staging = Path(tempfile.mkdtemp(prefix=f"lecture-panel-{entry.scene_id}-"))
    try:
        log_path = staging / "render.log"
        code = _run_worker(entry, section, staging, log_path)
        result_file = staging / "result.json"
        result = json.loads(result_file.read_text()) if result_file.is_file() else {}
        if code == EXIT_NO_PANEL:
            raise UsageError(_no_panel(entry.scene_id, section, result.get("panels", [])))
        clip = clip_path(out_dir, entry.scene_id, section)
        if code != 0 or not result.get("sections"):
            reason = f"worker died (signal {-code})" if code < 0 else launch.last_error(log_path)
            kept = out_dir / PREVIEW_DIR / QUALITY / "logs" / f"{entry.scene_id}.{section}.log"
            atomic.publish(log_path, kept)
            return PanelPreview(clip, "failed", time.monotonic() - started, reason, kept)
        staged = staging / "clip.mp4"
        clips.join([Path(beat["file"]) for beat in result["sections"]], staged)
        with output_lock(out_dir):
            # Record gone before the clip changes, written after: a run killed in between
            # is never taken as cached.
            record = record_path(out_dir, entry.scene_id, section)
            record.unlink(missing_ok=True)
            atomic.publish(staged, clip)
            atomic.write_json(record, {"id": entry.scene_id, "section": section, "cache_key": key})
        return PanelPreview(clip, "rendered", time.monotonic() - started)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def run(entry: SceneEntry, section: str, out_dir: Path, *, force: bool, show) -> int:
    """The CLI's ``--preview ID --section X``: render or find the clip, then ``show`` it."""
    preview = render_panel(entry, section, out_dir, force=force)
    if preview.state == "failed":
        print(f"FAILED {entry.scene_id} panel {section}: {preview.error}\n       log: {preview.log}")
        return 1
    how = {"rendered": "rendered", "cached": "cached", "full": "from the scene's full render"}[preview.state]
    print(f"{entry.scene_id} panel {section}: {how} in {preview.seconds:.1f} s")
    show(preview.clip)
    return 0
