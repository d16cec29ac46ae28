"""How many scenes fit in memory at once, and whether a dead worker ran out of it.

Every scene renders in its own worker process, and a worker's peak memory grows with the
picture size (mostly x264's frames, see ``studio.engine.worker.encoder_settings``). The benchmark
measures each scene's peak per quality and records it in ``config/memory.json``
(``bench/run.py --record-memory``); the default ``--jobs`` is the largest number of workers
whose peaks fit in the memory available now, with headroom, and never more than the cores.

The table is JSON, not YAML, on purpose: every ``config/*.yaml`` is part of each scene's
cache key, and re-measuring memory must not make every scene render again.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from pathlib import Path

import jsonschema

from studio import config
from studio.errors import UsageError

FOOTPRINT_FILE = "memory.json"
# Workers may use this share of MemAvailable: the rest is for the parent, the post-processing
# ffmpeg, page cache for the videos being written, and other people's programs growing.
HEADROOM = 0.85
GB = 1e9
MEMINFO = Path("/proc/meminfo")
VMSTAT = Path("/proc/vmstat")
CGROUP_ROOT = Path("/sys/fs/cgroup")

_SCENE = {"type": "object", "required": ["peak_kb"],
          "properties": {"peak_kb": {"type": "integer", "minimum": 1}}}
FOOTPRINT_SCHEMA = {
    "type": "object",
    "required": ["qualities"],
    "properties": {
        "qualities": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "required": ["width", "height", "scenes"],
                "properties": {
                    "width": {"type": "integer", "minimum": 1},
                    "height": {"type": "integer", "minimum": 1},
                    "scenes": {"type": "object", "minProperties": 1, "additionalProperties": _SCENE},
                },
            },
        },
    },
}


def footprint_path() -> Path:
    return config.config_dir() / FOOTPRINT_FILE


def footprints() -> dict:
    """The measured table (``{"qualities": {}}`` when none was recorded yet)."""
    path = footprint_path()
    if not path.is_file():
        return {"qualities": {}}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise UsageError(f"{path}: does not parse as JSON ({error})") from None
    problems = sorted(jsonschema.Draft202012Validator(FOOTPRINT_SCHEMA).iter_errors(data), key=lambda e: list(e.path))
    if problems:
        where = ".".join(str(p) for p in problems[0].absolute_path) or "top level"
        raise UsageError(f"{path}: invalid memory table: {where}: {problems[0].message}")
    return data


@dataclass(frozen=True)
class Footprint:
    peak_bytes: float
    basis: str          # what the number rests on, for messages


def expected_peak(preset: dict, scene_ids: list[str], table: dict) -> Footprint | None:
    """One worker's expected peak for a batch of these scenes at this preset.

    The measurement at the smallest recorded picture at least as large as this one is an
    upper bound; a picture larger than any recorded one is scaled by pixels. Within it,
    the largest peak among the batch's scenes, or among all recorded scenes when one of
    them was never measured (a new scene could be the heaviest)."""
    qualities = table.get("qualities", {})
    if not qualities:
        return None
    pixels = preset["width"] * preset["height"]
    size = lambda item: item[1]["width"] * item[1]["height"]
    larger = sorted((item for item in qualities.items() if size(item) >= pixels), key=size)
    name, entry = larger[0] if larger else max(qualities.items(), key=size)
    scale = max(1.0, pixels / size((name, entry)))
    scenes = entry["scenes"]
    known = [scenes[s]["peak_kb"] for s in scene_ids if s in scenes]
    peak_kb = max(known) if scene_ids and len(known) == len(scene_ids) else max(s["peak_kb"] for s in scenes.values())
    basis = f"measured at {name}" if scale == 1.0 else f"scaled by pixels from {name}"
    return Footprint(peak_kb * 1024 * scale, basis)


def _cgroup_dir() -> Path | None:
    """This process's cgroup v2 folder (where a container's memory limit lives)."""
    try:
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            if line.startswith("0::"):
                return CGROUP_ROOT / line[3:].lstrip("/")
    except OSError:
        pass
    return None


def available_bytes() -> int | None:
    """Memory a new process can get now: MemAvailable, or less when a cgroup limit is lower."""
    found = None
    try:
        for line in MEMINFO.read_text().splitlines():
            if line.startswith("MemAvailable:"):
                found = int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    group = _cgroup_dir()
    if found is not None and group is not None:
        try:
            limit = (group / "memory.max").read_text().strip()
            if limit != "max":
                found = min(found, int(limit) - int((group / "memory.current").read_text()))
        except (OSError, ValueError):
            pass
    return found


@dataclass(frozen=True)
class JobPlan:
    quality: str
    cores: int
    scenes: int                   # scenes in the batch: more workers than that never run
    available: int | None         # bytes
    footprint: Footprint | None

    @property
    def fit(self) -> int | None:
        """How many workers' peaks fit in the available memory with headroom (None: unknown)."""
        if self.available is None or self.footprint is None:
            return None
        return math.floor(HEADROOM * max(self.available, 0) / self.footprint.peak_bytes)

    @property
    def default_jobs(self) -> int:
        fit = self.fit
        return max(1, self.cores if fit is None else min(self.cores, fit))

    def _numbers(self, workers: int) -> str:
        each = self.footprint.peak_bytes / GB
        return (f"{workers} {self.quality} worker{'s' if workers > 1 else ''} need about {workers * each:.1f} GB "
                f"({each:.1f} GB each, {self.footprint.basis}), {self.available / GB:.1f} GB available, "
                f"{HEADROOM * self.available / GB:.1f} GB of it for workers")

    def default_note(self) -> str | None:
        """A line when memory, not the cores, chose the default (None when the cores did)."""
        fit = self.fit
        if fit is None or fit >= min(self.cores, self.scenes):
            return None
        if fit < 1:
            return f"warning: even one worker may not fit: {self._numbers(1)}; rendering with --jobs 1 anyway"
        return f"--jobs {fit} (not {min(self.cores, self.scenes)}) so the workers fit in memory: {self._numbers(fit + 1)}"

    def warning(self, jobs: int) -> str | None:
        """A line when an explicit --jobs would not fit (it is kept: the user may know better)."""
        fit = self.fit
        running = min(jobs, self.scenes)
        if fit is None or running <= max(fit, 1):
            return None
        return f"warning: --jobs {jobs} may run out of memory: {self._numbers(running)}; the default would be {self.default_jobs}"


def plan(quality: str, preset: dict, scene_ids: list[str], cores: int | None = None,
         available: int | None = None) -> JobPlan:
    """The job plan for rendering ``scene_ids`` at ``quality`` now (arguments override the machine)."""
    cores = cores or os.cpu_count() or 1
    available = available_bytes() if available is None else available
    return JobPlan(quality, cores, max(1, len(scene_ids)), available, expected_peak(preset, scene_ids, footprints()))


# -- out of memory --------------------------------------------------------------------

def oom_kill_count() -> int | None:
    """Processes the kernel has killed for lack of memory: machine-wide and in our cgroup.

    Only the change across a worker's life is used: a worker that died of SIGKILL while it
    grew means the out-of-memory killer took it."""
    total, seen = 0, False
    sources = [(VMSTAT, "oom_kill ")]
    group = _cgroup_dir()
    if group is not None:
        sources.append((group / "memory.events", "oom_kill "))
    for path, prefix in sources:
        try:
            for line in path.read_text().splitlines():
                if line.startswith(prefix):
                    total, seen = total + int(line.split()[1]), True
        except (OSError, ValueError, IndexError):
            continue
    return total if seen else None


def oom_killed(before: int | None, after: int | None) -> bool:
    return before is not None and after is not None and after > before


def oom_reason(running: int) -> str:
    """The summary's words for a worker the kernel killed for memory, with a --jobs to try."""
    if running > 1:
        return f"out of memory: try --jobs {max(1, running // 2)} (the kernel killed the worker; {running} were running)"
    return ("out of memory even with --jobs 1: try a lower --quality or close other programs "
            "(the kernel killed the worker)")


# -- recording (bench/run.py --record-memory) ----------------------------------------

def record(quality: str, preset: dict, peaks_kb: dict[str, int], how: dict) -> Path:
    """Merge one benchmark run's worker peaks into the table; scenes not measured keep theirs."""
    from studio import atomic

    path = footprint_path()
    table = {"about": "Peak RSS of one render worker per scene and quality, measured by bench/run.py "
                      "(studio/engine/memory.py reads it to choose the default --jobs).", **footprints()}
    qualities = table.setdefault("qualities", {})
    entry = qualities.get(quality, {})
    if (entry.get("width"), entry.get("height")) != (preset["width"], preset["height"]):
        entry = {}  # the preset changed size: old peaks no longer describe it
    entry.update(width=preset["width"], height=preset["height"], fps=preset["fps"])
    scenes = entry.setdefault("scenes", {})
    for scene_id, peak in peaks_kb.items():
        scenes[scene_id] = {"peak_kb": int(peak), **how}
    qualities[quality] = entry
    atomic.write_json(path, table)
    return path
