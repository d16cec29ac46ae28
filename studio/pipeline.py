"""Render a batch of scenes: cache check, one process per scene, encode, publish, manifest.

Published files live in ``<out>/<quality>/``. Work happens in ``<out>/.staging/`` and a
finished scene's files are moved into place one by one with atomic renames. A scene's
cache record (``<out>/<quality>/.cache/<id>.json``) is removed before its files change and
written only after they all changed, so an interrupted scene is never taken as cached.
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from studio import atomic, beats, cache, clips, config, cues, encode, launch, memory
from studio.errors import UsageError
from studio.lock import output_lock
from studio.progress import Progress, SceneState
from studio.registry import SceneEntry

STAGING = ".staging"
CACHE = ".cache"


@dataclass
class Batch:
    entries: list[SceneEntry]
    quality: str
    out_dir: Path
    jobs: int
    force: bool = False

    @property
    def quality_dir(self) -> Path:
        return self.out_dir / self.quality


class Interrupted(Exception):
    """SIGINT/SIGTERM arrived: workers were stopped, nothing half-written was published."""


def record_path(quality_dir: Path, scene_id: str) -> Path:
    return quality_dir / CACHE / f"{scene_id}.json"


def read_record(quality_dir: Path, scene_id: str) -> dict | None:
    try:
        return json.loads(record_path(quality_dir, scene_id).read_text())
    except (OSError, ValueError):
        return None


def is_cached(quality_dir: Path, scene_id: str, key: str) -> bool:
    """Cached when the record's key matches and every published file is present."""
    record = read_record(quality_dir, scene_id)
    if record is None or record.get("cache_key") != key:
        return False
    files = [*record["files"].values(), *(s["file"] for s in record["sections"]),
             *(f for s in record["sections"] for b in s.get("beats", []) for f in (b["file"], b["poster"]))]
    return all((quality_dir / f).is_file() for f in files)


class Renderer:
    """Runs one batch; shared state guarded by the GIL and per-scene ownership."""

    def __init__(self, batch: Batch, progress: Progress):
        self.batch = batch
        self.progress = progress
        self.preset = config.presets()[batch.quality]
        self.staging_root = batch.out_dir / STAGING
        self.children: set[subprocess.Popen] = set()
        self.stopping = threading.Event()
        self.running = max(1, batch.jobs)   # workers at once (fewer when fewer scenes are stale)

    # -- one scene -------------------------------------------------------------------
    def render_scene(self, entry: SceneEntry, key: str) -> None:
        if self.stopping.is_set():
            return
        sid = entry.scene_id
        staging = Path(tempfile.mkdtemp(dir=self.staging_root, prefix=f"{sid}-"))
        log_path = staging / "render.log"
        try:
            with self.worker_slots:
                if self.stopping.is_set():
                    return
                self.progress.update(sid, state="rendering", started=time.monotonic())
                result = self._run_worker(entry, staging, log_path)
            if result is None:
                return
            self.progress.update(sid, state="encoding")
            staged = self._postprocess(entry, result, staging)
            if self.stopping.is_set():
                return
            self.progress.update(sid, state="publishing")
            self._publish(entry, key, staged)
            self.progress.update(sid, state="done", finished=time.monotonic())
        except Exception as error:  # a broken scene must not stop the batch
            self._fail(sid, f"{type(error).__name__}: {error}", log_path)
        finally:
            shutil.rmtree(staging, ignore_errors=True)

    def _run_worker(self, entry: SceneEntry, staging: Path, log_path: Path) -> dict | None:
        sid = entry.scene_id
        oom_kills = memory.oom_kill_count()
        with open(log_path, "w") as log:
            child = launch.start("studio.worker", sid, self.batch.quality, str(staging),
                                 stdout=subprocess.PIPE, stderr=log, text=True)
            self.children.add(child)
            try:
                for line in child.stdout:
                    if line.startswith("PROGRESS "):
                        self.progress.update(sid, video_s=float(line.split()[1]))
                    else:
                        log.write(line)
                returncode = child.wait()
            finally:
                self.children.discard(child)
        if self.stopping.is_set():
            return None
        if returncode != 0:
            if returncode == -signal.SIGKILL and memory.oom_killed(oom_kills, memory.oom_kill_count()):
                reason = memory.oom_reason(self.running)
            elif returncode < 0:
                reason = f"worker died (signal {-returncode})"
            else:
                reason = launch.last_error(log_path)
            self._fail(sid, reason, log_path)
            return None
        return json.loads((staging / "result.json").read_text())

    def _postprocess(self, entry: SceneEntry, result: dict, staging: Path) -> dict[str, Path]:
        """Encode the slide-ready files into ``staging/publish``; return name -> staged path."""
        sid, out = entry.scene_id, staging / "publish"
        (out / sid).mkdir(parents=True)
        movie = Path(result["movie"])
        staged = {f"{sid}.mp4": out / f"{sid}.mp4", f"{sid}.gif": out / f"{sid}.gif", f"{sid}.png": out / f"{sid}.png"}
        encode.faststart_mp4(movie, staged[f"{sid}.mp4"])
        panels = clips.group_beats(result["sections"])
        # The poster is what the deck shows before playing: a loop's opening frame, a
        # walkthrough's first panel complete, otherwise the finished picture.
        poster_source = Path(panels[0][1][-1]["file"]) if panels else movie
        encode.poster(poster_source, staged[f"{sid}.png"], first_frame=entry.loop)
        for panel, panel_beats in panels:
            for beat in panel_beats:
                stem = f"{sid}/{panel}/{clips.beat_number(beat['name'])}"
                staged[f"{stem}.mp4"], staged[f"{stem}.jpg"] = out / f"{stem}.mp4", out / f"{stem}.jpg"
                staged[f"{stem}.mp4"].parent.mkdir(parents=True, exist_ok=True)
                encode.faststart_mp4(Path(beat["file"]), staged[f"{stem}.mp4"])
                encode.poster(staged[f"{stem}.mp4"], staged[f"{stem}.jpg"], first_frame=False)
            name = f"{sid}/{panel}.mp4"
            staged[name] = out / name
            clips.join([Path(b["file"]) for b in panel_beats], staged[name])
        # The GIF reads the frames the worker scaled for it while encoding, not the 1080p60 movie.
        self.progress.update(sid, state="gif")
        gif_source = Path(result["gif_frames"]) if result.get("gif_frames") else movie
        encode.gif(gif_source, staged[f"{sid}.gif"], self.preset["width"], self.preset["fps"], result["duration_s"])
        staged[".record"] = self._record(entry, result, staged)
        return staged

    def _record(self, entry: SceneEntry, result: dict, staged: dict[str, Path]) -> Path:
        sid = entry.scene_id
        info = encode.probe(staged[f"{sid}.mp4"])
        record = {
            "id": sid, "title": entry.title, "duration_s": round(info["duration_s"], 3), "loop": entry.loop,
            "files": {"mp4": f"{sid}.mp4", "gif": f"{sid}.gif", "png": f"{sid}.png"},
            "sections": section_records(sid, result, staged, info["duration_s"]),
            "ledger_keys": list(entry.ledger_keys),
        }
        path = staged[f"{sid}.mp4"].parent / "record.json"
        path.write_text(json.dumps(record, ensure_ascii=False))
        return path

    def _publish(self, entry: SceneEntry, key: str, staged: dict[str, Path]) -> None:
        qdir, sid = self.batch.quality_dir, entry.scene_id
        record = json.loads(staged.pop(".record").read_text())
        record["cache_key"] = key
        record_path(qdir, sid).unlink(missing_ok=True)
        for name, path in staged.items():
            atomic.publish(path, qdir / name)
        fresh = {qdir / name for name in staged}
        for old in [*(qdir / sid).rglob("*.mp4"), *(qdir / sid).rglob("*.jpg")]:
            if old not in fresh:
                old.unlink()
        for folder in sorted((qdir / sid).glob("*/"), reverse=True):
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()
        atomic.write_json(record_path(qdir, sid), record)

    def _fail(self, sid: str, reason: str, log_path: Path) -> None:
        kept = self.batch.quality_dir / "logs" / f"{sid}.log"
        if log_path.exists():
            atomic.publish(log_path, kept)
        self.progress.update(sid, state="failed", error=reason, log=str(kept), finished=time.monotonic())

    # -- the batch -------------------------------------------------------------------
    def stop(self) -> None:
        self.stopping.set()
        for child in list(self.children):
            try:
                child.terminate()
            except ProcessLookupError:
                pass

    def run(self, todo: list[tuple[SceneEntry, str]]) -> None:
        self.running = max(1, min(self.batch.jobs, len(todo)))
        # --jobs counts workers. A scene's post-processing (GIF, poster, remuxes) starts after
        # its worker has handed its slot on, so the next worker starts at once and the
        # lower-priority ffmpeg (studio/encode.py) takes the cycles x264 leaves idle.
        self.worker_slots = threading.Semaphore(self.running)
        with ThreadPoolExecutor(max_workers=self.running + 1) as pool:
            futures = [pool.submit(self.render_scene, entry, key) for entry, key in todo]
            while not all(f.done() for f in futures):
                time.sleep(0.1)
            for future in futures:
                future.result()


def section_records(sid: str, result: dict, staged: dict[str, Path], whole_s: float) -> list[dict]:
    """Per panel: its clip, and each beat with its clip, poster, place in the whole clip,
    and what it says (scenes/kit/base.py). The sections cover the end of the whole clip,
    so the first starts after whatever played before the first panel."""
    said = {b["name"]: b for b in result.get("beats", [])}
    durations = {name: encode.probe(path)["duration_s"] for name, path in staged.items()
                 if name.endswith(".mp4") and name.count("/") == 2}
    t = whole_s - sum(durations.values())
    panels = []
    for panel, panel_beats in clips.group_beats(result["sections"]):
        beat_records = []
        for beat in panel_beats:
            stem = f"{sid}/{panel}/{clips.beat_number(beat['name'])}"
            length = durations[f"{stem}.mp4"]
            meta = said.get(beat["name"], {})
            beat_records.append({
                "n": int(clips.beat_number(beat["name"])), "name": f"{panel}.{clips.beat_number(beat['name'])}",
                "file": f"{stem}.mp4", "poster": f"{stem}.jpg",
                "start_s": round(max(t, 0.0), 3), "end_s": round(t + length, 3), "duration_s": round(length, 3),
                "says": meta.get("says"), "takeaway": meta.get("takeaway"),
            })
            t += length
        panels.append({"name": panel, "file": f"{sid}/{panel}.mp4",
                       "duration_s": round(sum(b["duration_s"] for b in beat_records), 3), "beats": beat_records})
    return panels


def write_manifest(quality: str, quality_dir: Path, known: list[SceneEntry]) -> dict:
    """manifest.json from the cache records of every scene present, in lecture order."""
    preset = config.presets()[quality]
    scenes = []
    for entry in known:
        record = read_record(quality_dir, entry.scene_id)
        if record is not None and is_cached(quality_dir, entry.scene_id, record.get("cache_key", "")):
            scenes.append(record)
    manifest = {"quality": quality, "width": preset["width"], "height": preset["height"],
                "fps": preset["fps"], "scenes": scenes}
    try:
        beats.annotate_manifest(manifest, cues.build_sheet(errata=[]))   # the scripts alone
    except UsageError:
        pass   # the notes or cues.yaml are broken: the cue sheet step names the problem
    atomic.write_json(quality_dir / "manifest.json", manifest)
    return manifest


def render_batch(batch: Batch, known: list[SceneEntry]) -> tuple[dict[str, SceneState], dict]:
    """Render what is stale, publish it, then write the manifest. Returns states and manifest."""
    with output_lock(batch.out_dir):
        staging_root = batch.out_dir / STAGING
        shutil.rmtree(staging_root, ignore_errors=True)  # we hold the lock: anything here is stale
        staging_root.mkdir(parents=True)
        batch.quality_dir.mkdir(parents=True, exist_ok=True)
        atomic.remove_leftovers(batch.out_dir)

        preset = config.presets()[batch.quality]
        keys = {e.scene_id: cache.cache_key(e, batch.quality, preset) for e in batch.entries}
        states = {e.scene_id: SceneState(e.scene_id) for e in batch.entries}
        todo = []
        for entry in batch.entries:
            record = read_record(batch.quality_dir, entry.scene_id)
            if not batch.force and is_cached(batch.quality_dir, entry.scene_id, keys[entry.scene_id]):
                states[entry.scene_id].state = "cached"
            else:
                states[entry.scene_id].expected_s = record.get("duration_s") if record else None
                todo.append((entry, keys[entry.scene_id]))

        with Progress(states, jobs=max(1, min(batch.jobs, len(todo))),
                      times_path=batch.quality_dir / CACHE / "times.json") as progress:
            for state in states.values():
                if state.state == "cached":
                    progress.update(state.scene_id, state="cached")
            renderer = Renderer(batch, progress)
            previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}

            def on_signal(signum, _frame):
                renderer.stop()
                raise Interrupted(signal.Signals(signum).name)

            for sig in previous:
                signal.signal(sig, on_signal)
            try:
                renderer.run(todo)
            except Interrupted:
                renderer.stop()
                raise
            finally:
                for sig, handler in previous.items():
                    signal.signal(sig, handler)
                shutil.rmtree(staging_root, ignore_errors=True)
        manifest = write_manifest(batch.quality, batch.quality_dir, known)
    return states, manifest
