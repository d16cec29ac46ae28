"""Render a batch of scenes: cache check, one process per scene, encode, publish, manifest.

Published files live in ``<out>/<quality>/``. Work happens in ``<out>/.staging/`` and a
finished scene's files are moved into place one by one with atomic renames. A scene's
cache record (``<out>/<quality>/.cache/<id>.json``) is removed before its files change and
written only after they all changed, so an interrupted scene is never taken as cached.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from studio import atomic, config, manim_hooks
from studio.engine import cache, launch, memory, zygote
from studio.media import clips, encode
from studio.lock import output_lock
from studio.engine.progress import Progress, SceneState
from studio.engine.registry import SceneEntry

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
        self.lock = threading.Lock()        # guards the zygote handle between scene threads
        self.running = max(1, batch.jobs)   # workers at once (fewer when fewer scenes are stale)
        self.cut_scenes = False             # one scene, two workers (set by run)
        self.zygote: zygote.Zygote | None = None   # forks the workers, imports done (set by render_batch)

    # -- one scene -------------------------------------------------------------------
    def render_scene(self, entry: SceneEntry, key: str) -> None:
        if self.stopping.is_set():
            return
        sid = entry.scene_id
        staging = Path(tempfile.mkdtemp(dir=self.staging_root, prefix=f"{sid}-"))
        log_path = staging / "render.log"
        try:
            aim = cut_aim(self.batch.out_dir, sid, self.preset["fps"]) if self.cut_scenes else None
            if aim is None:
                result = self._render_whole(entry, staging, log_path)
            else:
                result = self._render_cut(entry, staging, log_path, aim)
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

    def _render_whole(self, entry: SceneEntry, staging: Path, log_path: Path) -> dict | None:
        with self.worker_slots:
            if self.stopping.is_set():
                return None
            self.progress.update(entry.scene_id, state="rendering", started=time.monotonic())
            return self._run_worker(entry, staging, log_path)

    def _render_cut(self, entry: SceneEntry, staging: Path, log_path: Path, aim: int) -> dict | None:
        """Two workers on one scene, head and tail (studio/manim_hooks/split_render.py), the tail from the
        first beat at or after frame ``aim``; then their parts joined, or the head's render
        alone when it did not end at the tail's cut."""
        sid = entry.scene_id
        parts = {"head": ["--part", "head", str(staging)], "tail": ["--part", "tail", str(staging), "--aim", str(aim)]}
        drawn: dict[str, float] = {}
        results: dict[str, dict | None] = {}

        def run_part(name: str) -> None:
            folder = staging / name
            folder.mkdir()
            with self.worker_slots:
                if self.stopping.is_set():
                    return
                if name == "head":
                    self.progress.update(sid, state="rendering", started=time.monotonic())
                results[name] = self._run_worker(entry, folder, log_path.with_name(f"render-{name}.log"),
                                                 parts[name], lambda s: drawn.update({name: s}) or sum(drawn.values()))

        with ThreadPoolExecutor(max_workers=2, thread_name_prefix=f"{sid}-part") as pool:
            list(pool.map(run_part, parts))
        for name in parts:   # the part logs, in order, are the scene's log
            part_log = log_path.with_name(f"render-{name}.log")
            if part_log.exists():
                with open(log_path, "a") as log:
                    log.write(f"--- {name} ---\n{part_log.read_text(errors='replace')}")
        head, tail = results.get("head"), results.get("tail")
        if head is None:
            return None
        if head.get("cut_at") is None:
            return head            # no cut happened: the head rendered the whole scene
        if tail is None:
            return None            # the tail failed (already reported) or we are stopping
        if not head["written_frames"] == head["cut_at"] == tail["cut_at"] or not tail["written_frames"]:
            # The frame count both parts plan by did not match what manim wrote, or the tail
            # drew nothing after the cut: render the scene whole (slow, never wrong).
            whole = staging / "whole"
            whole.mkdir()
            self.progress.update(sid, how="the two workers' frame counts disagreed, so rendered whole")
            return self._render_whole(entry, whole, log_path)
        self.progress.update(sid, how=f"two workers, the second from {tail['cut_at'] / self.preset['fps']:.1f} s"
                             + (f" (beat {tail['sections'][0]['name']})" if tail["sections"] else ""))
        return join_parts(head, tail, staging)

    def _run_worker(self, entry: SceneEntry, staging: Path, log_path: Path, extra: list[str] | None = None,
                    total_drawn=None) -> dict | None:
        sid = entry.scene_id
        oom_kills = memory.oom_kill_count()
        with open(log_path, "w") as log:
            child = self._start_worker([sid, self.batch.quality, str(staging), *(extra or [])], log)
            self.children.add(child)
            try:
                for line in child.stdout:
                    if line.startswith("PROGRESS "):
                        seconds = float(line.split()[1])
                        self.progress.update(sid, video_s=total_drawn(seconds) if total_drawn else seconds)
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

    def _start_worker(self, argv: list[str], log):
        """``python -m studio.engine.worker argv``, forked by the zygote when it is there."""
        forker = self.zygote   # one read: two scenes' threads may find it gone at once
        if forker is not None:
            try:
                return forker.start(argv, stderr=log)
            except zygote.ZygoteGone as gone:
                with self.lock:
                    said, self.zygote = self.zygote is None, None
                if not said:
                    self.progress.note(f"the zygote stopped ({gone}; its log: {forker.log_path}): "
                                       "each worker now starts on its own, about 0.8 s more each")
        return launch.start("studio.engine.worker", *argv, stdout=subprocess.PIPE, stderr=log, text=True)

    def _postprocess(self, entry: SceneEntry, result: dict, staging: Path) -> dict[str, Path]:
        """Encode the slide-ready files into ``staging/publish``; return name -> staged path.

        Every step reads only the worker's files and writes its own, so they run side by side
        (one ffmpeg per core, the GIF first as the longest); in a batch they yield to the next
        scene's worker (studio/media/encode.NICENESS)."""
        sid, out = entry.scene_id, staging / "publish"
        (out / sid).mkdir(parents=True)
        movie = Path(result["movie"])
        staged = {f"{sid}.mp4": out / f"{sid}.mp4", f"{sid}.gif": out / f"{sid}.gif", f"{sid}.png": out / f"{sid}.png"}
        panels = clips.group_beats(result["sections"])
        stills = result.get("stills", {})
        # The GIF reads the frames the worker scaled for it while encoding, not the 1080p60 movie.
        gif_source = Path(result["gif_frames"]) if result.get("gif_frames") else movie
        steps = [
            lambda: encode.gif(gif_source, staged[f"{sid}.gif"], self.preset["width"], self.preset["fps"],
                               result["duration_s"]),
            # The worker wrote the movie and the beats faststart (studio/manim_hooks/fastencode.py): they
            # are published as they are.
            functools.partial(link_or_copy, movie, staged[f"{sid}.mp4"]),
            functools.partial(publish_poster, entry, panels, stills, movie, staged[f"{sid}.png"]),
        ]
        beat_lengths: dict[str, float] = {}
        for panel, panel_beats in panels:
            for beat in panel_beats:
                stem = f"{sid}/{panel}/{clips.beat_number(beat['name'])}"
                staged[f"{stem}.mp4"], staged[f"{stem}.jpg"] = out / f"{stem}.mp4", out / f"{stem}.jpg"
                staged[f"{stem}.mp4"].parent.mkdir(parents=True, exist_ok=True)
                steps.append(functools.partial(publish_beat, beat, stills.get(f"{beat['name']}.jpg"), staged, stem,
                                               beat_lengths))
            name = f"{sid}/{panel}.mp4"
            staged[name] = out / name
            steps.append(functools.partial(clips.join, [Path(b["file"]) for b in panel_beats], staged[name]))
        self.progress.update(sid, state="gif")
        run_side_by_side(steps)
        staged[".record"] = self._record(entry, result, staged, beat_lengths)
        return staged

    def _record(self, entry: SceneEntry, result: dict, staged: dict[str, Path], beat_lengths: dict[str, float]) -> Path:
        sid = entry.scene_id
        duration_s = encode.duration_s(staged[f"{sid}.mp4"])
        record = {
            "id": sid, "title": entry.title, "duration_s": round(duration_s, 3), "loop": entry.loop,
            "files": {"mp4": f"{sid}.mp4", "gif": f"{sid}.gif", "png": f"{sid}.png"},
            "sections": section_records(sid, result, beat_lengths, duration_s),
            # Where the next render can cut the scene in two (cut_aim).
            "play_starts_s": [round(t, 4) for t in result.get("play_starts_s", [])],
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
        # With a core for each half, one scene is rendered by two workers at once.
        # A cut leans on the Manim hooks (split_render): with untested versions, whole scenes.
        self.cut_scenes = len(todo) == 1 and self.batch.jobs >= 2 and manim_hooks.supported()
        self.running = max(1, min(self.batch.jobs, 2 if self.cut_scenes else len(todo)))
        # --jobs counts workers. A scene's post-processing (GIF, poster, remuxes) starts after
        # its worker has handed its slot on, so the next worker starts at once and the
        # lower-priority ffmpeg (studio/media/encode.py) takes the cycles x264 leaves idle.
        self.worker_slots = threading.Semaphore(self.running)
        with ThreadPoolExecutor(max_workers=self.running + 1) as pool:
            futures = [pool.submit(self.render_scene, entry, key) for entry, key in todo]
            pending = futures
            while pending:   # woken when the last is done; the timeout lets a signal's handler run
                pending = wait(pending, timeout=0.5).not_done
            for future in futures:
                future.result()


def start_zygote(log_path: Path | None = None) -> zygote.Zygote | None:
    """The process the batch's workers are forked from (studio/engine/zygote.py); None, and each
    worker starts on its own, where it cannot start."""
    try:
        return zygote.Zygote(log_path)
    except OSError:
        return None


def publish_beat(beat: dict, still: str | None, staged: dict[str, Path], stem: str, lengths: dict[str, float]) -> None:
    """A beat's clip, its poster (its last frame) and its length as published. The clip is
    joined by the panel's step too, so it is linked, not moved."""
    link_or_copy(Path(beat["file"]), staged[f"{stem}.mp4"])
    if still:
        link_or_copy(Path(still), staged[f"{stem}.jpg"])
    else:   # a worker that made no stills (never in a full render): decode the clip's end
        encode.poster(staged[f"{stem}.mp4"], staged[f"{stem}.jpg"], first_frame=False)
    lengths[f"{stem}.mp4"] = encode.duration_s(staged[f"{stem}.mp4"])


def publish_poster(entry: SceneEntry, panels: list, stills: dict[str, str], movie: Path, target: Path) -> None:
    """What the deck shows before playing (README): a loop's opening frame, a walkthrough's
    first panel complete, otherwise the finished picture; drawn by the worker
    (studio/manim_hooks/slide_stills.py). The movie must still be there when a still is missing."""
    name = "first.png" if entry.loop else f"{panels[0][1][-1]['name']}.png" if panels else "last.png"
    if name in stills:
        link_or_copy(Path(stills[name]), target)
    else:
        encode.poster(Path(panels[0][1][-1]["file"]) if panels else movie, target, first_frame=entry.loop)


def link_or_copy(source: Path, target: Path) -> None:
    """``target`` is ``source``'s bytes: a hard link where it can be (staging is one folder)."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


def run_side_by_side(steps: list) -> None:
    """Call each step, as many at once as there are cores; the first failure is raised
    once every step has ended (none is left writing into the staging folder)."""
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1, thread_name_prefix="post") as pool:
        futures = [pool.submit(step) for step in steps]
    for future in futures:
        future.result()


# A second worker costs a second start-up (importing manim, building the scene up to the
# cut): a few seconds of CPU, which only a scene longer than this repays.
MIN_CUT_VIDEO_S = 5.0


def cut_aim(out_dir: Path, scene_id: str, fps: int) -> int | None:
    """Where the tail of a cut scene should start (studio/manim_hooks/split_render.py): the play whose
    start is nearest the middle, as the scene's last render at any quality recorded them
    (their times in seconds do not depend on the quality; a record from before plays were
    recorded has its beats' starts). None, so one worker renders it, when the scene was never
    rendered, is shorter than MIN_CUT_VIDEO_S or has nothing to cut between. The aim is a
    frame early, so "the first play at or after it" is that play whatever the rounding."""
    for quality in config.presets():
        record = read_record(out_dir / quality, scene_id)
        if not record:
            continue
        starts = record.get("play_starts_s") or [beat["start_s"] for panel in record.get("sections", [])
                                                  for beat in panel["beats"]]
        if starts[1:] and record["duration_s"] >= MIN_CUT_VIDEO_S:
            middle = record["duration_s"] / 2
            return max(0, round(min(starts[1:], key=lambda t: abs(t - middle)) * fps) - 1)
    return None


def join_parts(head: dict, tail: dict, staging: Path) -> dict:
    """One worker result from a cut scene's two: the movie and the GIF's frames joined from
    both parts' clips (stream copy, as manim joins a whole render's, so the timestamps are
    the whole render's), the sections and beats one after another. A beat the cut fell
    inside is in both parts: its clip is joined from both parts' clips of it."""
    movie, gif_frames = staging / "joined.mp4", staging / "joined.gif-frames.mp4"
    clips.join_as_manim([Path(c) for c in [*head["clips"], *tail["clips"]]], movie)
    gif_clips = [Path(c) for c in [*head["gif_clips"], *tail["gif_clips"]]]
    if gif_clips:
        clips.join_as_manim(gif_clips, gif_frames, timestamps="concat")
    sections = [*head["sections"], *tail["sections"]]
    if head["sections"] and tail["sections"] and head["sections"][-1]["name"] == tail["sections"][0]["name"]:
        sections[len(head["sections"]) - 1:len(head["sections"]) + 1] = [join_split_beat(head, tail, staging)]
    said = {b["name"]: b for b in [*head["beats"], *tail["beats"]]}
    return {"movie": str(movie), "duration_s": head["duration_s"] + tail["duration_s"],
            "sections": sections, "beats": list(said.values()),
            "gif_frames": str(gif_frames) if gif_clips else None,
            "stills": {**head.get("stills", {}), **tail.get("stills", {})},
            "play_starts_s": sorted({*head.get("play_starts_s", []), *tail.get("play_starts_s", [])})}


def join_split_beat(head: dict, tail: dict, staging: Path) -> dict:
    """The beat the head ends in and the tail starts in: its clip as a whole render's section
    (manim joins a section from its plays' clips), its length both parts'."""
    first, last = head["sections"][-1], tail["sections"][0]
    # The head's last drawn section and the tail's first (a part's drawn sections, in order).
    plays = [Path(c) for c in [*head["section_clips"][-1]["clips"], *tail["section_clips"][0]["clips"]]]
    target = staging / f"joined-{first['name']}.mp4"
    clips.join_as_manim(plays, target)
    return {"name": first["name"], "file": str(target), "duration_s": first["duration_s"] + last["duration_s"]}


def section_records(sid: str, result: dict, durations: dict[str, float], whole_s: float) -> list[dict]:
    """Per panel: its clip, and each beat with its clip, poster, place in the whole clip,
    and what it says (scenes/kit/base.py). ``durations`` are the published beat clips'
    lengths by file name. The sections cover the end of the whole clip, so the first starts
    after whatever played before the first panel."""
    said = {b["name"]: b for b in result.get("beats", [])}
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
                "stars": meta.get("stars", 0), "warning": meta.get("warning", False),
                "numbers": meta.get("numbers", []),
            })
            t += length
        panels.append({"name": panel, "file": f"{sid}/{panel}.mp4",
                       "duration_s": round(sum(b["duration_s"] for b in beat_records), 3), "beats": beat_records})
    return panels


# What the cache record keeps for the next render, not for the slides.
RECORD_ONLY = ("play_starts_s",)


def write_manifest(quality: str, quality_dir: Path, known: list[SceneEntry], annotate=None) -> dict:
    """manifest.json from the cache records of every scene present, in lecture order.
    ``annotate(manifest)`` adds what the layers above know (the track: each beat's cue) before
    it is written; the engine itself knows nothing of the speaker's notes."""
    preset = config.presets()[quality]
    scenes = []
    for entry in known:
        record = read_record(quality_dir, entry.scene_id)
        if record is not None and is_cached(quality_dir, entry.scene_id, record.get("cache_key", "")):
            scenes.append({k: v for k, v in record.items() if k not in RECORD_ONLY})
    manifest = {"quality": quality, "width": preset["width"], "height": preset["height"],
                "fps": preset["fps"], "scenes": scenes}
    if annotate is not None:
        annotate(manifest)
    atomic.write_json(quality_dir / "manifest.json", manifest)
    return manifest


def render_batch(batch: Batch, known: list[SceneEntry], forker: zygote.Zygote | None = None,
                 annotate=None) -> tuple[dict[str, SceneState], dict]:
    """Render what is stale, publish it, then write the manifest (``annotate``, see
    write_manifest). Returns states and manifest. The workers are forked from ``forker``
    (started here when not given), which is closed once they are done."""
    with output_lock(batch.out_dir):
        staging_root = batch.out_dir / STAGING
        shutil.rmtree(staging_root, ignore_errors=True)  # we hold the lock: anything here is stale
        staging_root.mkdir(parents=True)
        batch.quality_dir.mkdir(parents=True, exist_ok=True)
        atomic.remove_leftovers(batch.out_dir)

        # Started first, so its imports overlap working out what is stale.
        forker = forker or start_zygote(batch.quality_dir / CACHE / "zygote.log")
        try:
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
                renderer.zygote = forker
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
        finally:
            if forker is not None:
                forker.close()
        manifest = write_manifest(batch.quality, batch.quality_dir, known, annotate)
    return states, manifest
