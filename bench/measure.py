"""Timed runs of the pipeline, stock manim and x264, with peak memory.

Every measurement runs a real command as a child process and times it from the outside.
Peak RSS of a whole command comes from ``wait4`` (the largest process in its tree that was
waited for); per-scene worker peaks come from sampling ``VmHWM`` in /proc while it runs.
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from studio.media import encode
from studio.engine import zygote  # noqa: E402
from studio.engine.pipeline import STAGING  # noqa: E402
from studio.engine.registry import SceneEntry  # noqa: E402
from studio.media.toolcheck import ffmpeg_binary  # noqa: E402

PYTHON = sys.executable
# "[1/2] fig-x: done in 9.1 s (two workers, …)", "[2/2] fig-y: failed in 2.0 s: why"
PROGRESS_LINE = re.compile(r"^\[\d+/\d+\] (?P<id>\S+): (?P<state>\w+)(?: in (?P<wall>[\d.]+) s)?"
                           r"(?:: (?P<error>.*)| \((?P<how>.*)\))?$")
# x264 settings manim 0.22 uses for its movie (manim/_config/video_encoder.py: crf 23; preset is x264's default).
X264 = ["-c:v", "libx264", "-crf", "23", "-preset", "medium", "-pix_fmt", "yuv420p"]
RAW_CHUNK_BYTES = 2 * 1024**3   # raw frames held in /dev/shm at once while timing the encoder
SAMPLE_EVERY_S = 0.2
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Run:
    wall_s: float
    returncode: int
    stdout: str
    stderr: list[tuple[float, str]]   # (seconds since start, line)
    peak_rss_kb: int
    cpu_s: float = 0.0                 # user + system CPU of the whole process tree


def run_timed(cmd: list[str], env: dict | None = None, cwd: Path = ROOT) -> Run:
    """Run ``cmd`` to completion; time it, timestamp its stderr lines, take its tree's peak RSS."""
    start = time.perf_counter()
    child = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out: list[str] = []
    err: list[tuple[float, str]] = []
    readers = [threading.Thread(target=lambda: out.extend(child.stdout)),
               threading.Thread(target=lambda: err.extend((time.perf_counter() - start, line.rstrip("\n"))
                                                          for line in child.stderr))]
    for reader in readers:
        reader.start()
    try:
        _, status, usage = os.wait4(child.pid, 0)
    except BaseException:  # interrupted: don't leave a render running behind us
        child.terminate()
        child.wait()
        raise
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    for reader in readers:
        reader.join()
    return Run(wall, child.returncode, "".join(out), err, usage.ru_maxrss, usage.ru_utime + usage.ru_stime)


class WorkerPeaks:
    """Samples the peak RSS (VmHWM) and CPU time of every ``studio.engine.worker`` staged under ``out_dir``.

    CPU is the last sample before the worker exits (within SAMPLE_EVERY_S of its end). A scene
    cut in two (studio/manim_hooks/split_render.py) has two workers: its CPU is theirs summed, its peak
    the larger one's."""

    def __init__(self, out_dir: Path):
        self.out_dir = str(out_dir.resolve())
        self.peaks_kb: dict[str, int] = {}
        self._cpu: dict[tuple[str, str], float] = {}        # (scene, pid) → CPU s
        self._main_cpu: dict[tuple[str, str], float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    @property
    def cpu_s(self) -> dict[str, float]:
        return _per_scene(self._cpu)

    @property
    def main_cpu_s(self) -> dict[str, float]:
        return _per_scene(self._main_cpu)

    def __enter__(self) -> "WorkerPeaks":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()

    def _loop(self) -> None:
        while not self._stop.is_set():
            self.sample()
            self._stop.wait(SAMPLE_EVERY_S)

    def workers(self) -> dict[str, str]:
        """pid → scene id of every worker rendering into ``out_dir``: started as
        ``python -m studio.engine.worker ID QUALITY STAGING``, or forked by the zygote, which has
        the zygote's command line and says who it is in its staging folder (studio/engine/zygote.py)."""
        found = {}
        # os.walk passes over a folder that goes while it looks (Path.glob raises).
        pid_files = [Path(folder, zygote.PID_FILE) for folder, _, files in os.walk(Path(self.out_dir) / STAGING)
                     if zygote.PID_FILE in files]
        for pid_file in pid_files:
            try:
                said = json.loads(pid_file.read_text())
                found[str(said["pid"])] = said["scene"]
            except (OSError, ValueError, KeyError):
                continue   # being written, or its staging folder just went
        for proc in Path("/proc").iterdir():
            try:
                args = (proc / "cmdline").read_bytes().split(b"\0") if proc.name.isdigit() else []
            except OSError:
                continue
            if b"studio.engine.worker" in args:
                at = args.index(b"studio.engine.worker")
                if str(Path(args[at + 3].decode()).resolve()).startswith(self.out_dir):
                    found[proc.name] = args[at + 1].decode()
        return found

    def sample(self) -> None:
        for pid, scene_id in self.workers().items():
            proc = Path("/proc", pid)
            try:
                status = (proc / "status").read_text()
                fields = (proc / "stat").read_text().rpartition(")")[2].split()
                main = (proc / "task" / proc.name / "stat").read_text().rpartition(")")[2].split()
            except (OSError, IndexError, ValueError):
                continue  # the process ended while we looked
            match = re.search(r"^VmHWM:\s+(\d+) kB", status, re.M)
            if match:
                self.peaks_kb[scene_id] = max(self.peaks_kb.get(scene_id, 0), int(match.group(1)))
            ticks = sum(int(f) for f in fields[11:15])  # utime, stime, and those of waited-for children
            key = (scene_id, proc.name)
            self._cpu[key] = max(self._cpu.get(key, 0.0), ticks / CLOCK_TICKS)
            # The main thread builds and draws; manim's encoder runs in other threads.
            main_ticks = int(main[11]) + int(main[12])
            self._main_cpu[key] = max(self._main_cpu.get(key, 0.0), main_ticks / CLOCK_TICKS)


def _per_scene(by_process: dict[tuple[str, str], float]) -> dict[str, float]:
    totals: dict[str, float] = {}
    for (scene_id, _pid), seconds in by_process.items():
        totals[scene_id] = totals.get(scene_id, 0.0) + seconds
    return totals


def pipeline_env(scenes_dir: str | None = None) -> dict:
    """Environment for render.py: no display (previews print their path), fixture scenes if asked."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["PYTHONPATH"] = str(ROOT)
    if scenes_dir:
        env["LECTURE_SCENES_DIR"] = scenes_dir
    return env


def scene_timings(stderr: list[tuple[float, str]]) -> dict[str, dict]:
    """Per-scene phases from the pipeline's plain progress lines (printed when stderr is not a TTY).

    worker_s: "rendering" → "encoding"; post_s: "encoding" → "done"; render_s: the pipeline's own
    "done in X s" figure (worker start to files published)."""
    seen: dict[str, dict[str, float]] = {}
    result: dict[str, dict] = {}
    for at, line in stderr:
        match = PROGRESS_LINE.match(line.strip())
        if not match:
            continue
        sid, state = match["id"], match["state"]
        seen.setdefault(sid, {})[state] = at
        row = result.setdefault(sid, {"status": state})
        row["status"] = state
        if match["wall"]:
            row["render_s"] = float(match["wall"])
        if match["error"]:
            row["error"] = match["error"]
        if match["how"]:
            row["how"] = match["how"]
    for sid, states in seen.items():
        if "rendering" in states and "encoding" in states:
            result[sid]["worker_s"] = states["encoding"] - states["rendering"]
        if "encoding" in states and "done" in states:
            result[sid]["post_s"] = states["done"] - states["encoding"]
    return result


SUMMARY_LINE = re.compile(r"(?P<rendered>\d+) rendered, (?P<cached>\d+) cached, (?P<failed>\d+) failed")


def batch_counts(stdout: str) -> dict[str, int] | None:
    """The pipeline's closing "N rendered, N cached, N failed" line, as numbers."""
    match = SUMMARY_LINE.search(stdout)
    return {k: int(v) for k, v in match.groupdict().items()} if match else None


def failure_tail(run: Run, lines: int = 3) -> str:
    """The last lines a failed command wrote to stderr, for the report."""
    text = [line for _, line in run.stderr if line.strip()]
    return " | ".join(text[-lines:])


def render_cmd(ids: list[str], quality: str, out_dir: Path, jobs: int | None, force: bool) -> list[str]:
    cmd = [PYTHON, str(ROOT / "render.py"), *ids, "--quality", quality, "--out", str(out_dir)]
    if jobs is not None:
        cmd += ["--jobs", str(jobs)]
    return cmd + (["--force"] if force else [])


def pipeline_batch(ids: list[str], quality: str, out_dir: Path, jobs: int | None, env: dict,
                   force: bool = True) -> tuple[Run, dict[str, dict]]:
    """One render.py batch; returns the run and per-scene timings with worker peak RSS."""
    with WorkerPeaks(out_dir) as peaks:
        run = run_timed(render_cmd(ids, quality, out_dir, jobs, force), env)
    timings = scene_timings(run.stderr)
    for sid, peak in peaks.peaks_kb.items():
        timings.setdefault(sid, {})["peak_rss_kb"] = peak
    for sid, cpu in peaks.cpu_s.items():
        timings.setdefault(sid, {})["worker_cpu_s"] = cpu
    for sid, cpu in peaks.main_cpu_s.items():
        timings.setdefault(sid, {})["worker_main_cpu_s"] = cpu
    return run, timings


def published(quality_dir: Path, scene_id: str) -> dict:
    """Frames, seconds and GIF size of a published scene (empty when it was not published)."""
    mp4, gif = quality_dir / f"{scene_id}.mp4", quality_dir / f"{scene_id}.gif"
    if not mp4.is_file():
        return {}
    info = encode.probe(mp4)
    frames = info["frames"] or round(info["duration_s"] * info["fps"])
    return {"frames": frames, "video_s": info["duration_s"], "mp4": str(mp4), "mp4_bytes": mp4.stat().st_size,
            "gif_bytes": gif.stat().st_size if gif.is_file() else None}


def encode_only(mp4: Path, width: int, height: int, fps: int, scratch: Path) -> tuple[float, float]:
    """Wall and CPU seconds x264 needs for the frames of ``mp4``, excluding decoding.

    Frames are decoded to raw yuv420p in ``scratch`` (a RAM disk) chunk by chunk while the
    encoder is idle; only the encoder's runs are timed. The decoder blocks on its pipe between
    chunks, so it takes no CPU while the encoder is timed."""
    frame_bytes = width * height * 3 // 2
    chunk_frames = max(1, RAW_CHUNK_BYTES // frame_bytes)
    raw = scratch / f"bench-raw-{os.getpid()}.yuv"
    decoder = subprocess.Popen([ffmpeg_binary(), "-v", "error", "-nostdin", "-i", str(mp4), "-f", "rawvideo",
                                "-pix_fmt", "yuv420p", "-s", f"{width}x{height}", "-"], stdout=subprocess.PIPE)
    wall = cpu = 0.0
    try:
        while True:
            frames = _copy_frames(decoder.stdout, raw, frame_bytes, chunk_frames)
            if frames == 0:
                break
            run = run_timed([ffmpeg_binary(), "-v", "error", "-nostdin", "-f", "rawvideo", "-pix_fmt", "yuv420p",
                             "-s", f"{width}x{height}", "-r", str(fps), "-i", str(raw), *X264, "-f", "null", "-"])
            if run.returncode != 0:
                raise RuntimeError(f"x264 encode failed: {failure_tail(run)}")
            wall, cpu = wall + run.wall_s, cpu + run.cpu_s
    finally:
        decoder.kill()
        decoder.wait()
        raw.unlink(missing_ok=True)
    return wall, cpu


def _copy_frames(source, target: Path, frame_bytes: int, max_frames: int) -> int:
    """Copy up to ``max_frames`` whole frames from the decoder's pipe into ``target``."""
    frames = 0
    with open(target, "wb") as sink:
        while frames < max_frames:
            frame = source.read(frame_bytes)
            if len(frame) < frame_bytes:
                break
            sink.write(frame)
            frames += 1
    return frames


def gif_encode(mp4: Path, width: int, fps: int, scratch: Path) -> tuple[float, float]:
    """Wall and CPU seconds of the pipeline's own GIF step on ``mp4`` (the second encode of the frames).

    CPU is this process's children's usage before and after: the GIF's ffmpeg is the only child
    that ends in between."""
    target = scratch / f"bench-{os.getpid()}.gif"
    duration_s = encode.probe(mp4)["duration_s"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        encode.gif(mp4, target, width, fps, duration_s)
        wall = time.perf_counter() - start
    finally:
        target.unlink(missing_ok=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def scratch_dir() -> Path:
    shm = Path("/dev/shm")
    return shm if shm.is_dir() and shutil.disk_usage(shm).free > 2 * RAW_CHUNK_BYTES else Path("/tmp")


def manim_baseline(entry: SceneEntry, preset: dict, media_dir: Path, env: dict) -> Run:
    """Stock ``manim render`` of one scene at the preset, caching off, into ``media_dir``."""
    manim = str(Path(PYTHON).with_name("manim"))
    cmd = [manim, "render", "--disable_caching", "-r", f"{preset['width']},{preset['height']}",
           "--fps", str(preset["fps"]), "--media_dir", str(media_dir), "--progress_bar", "none",
           "-v", "WARNING", str(entry.path), entry.class_name]
    return run_timed(cmd, env)


def cold_preview(scene_id: str, out_dir: Path, env: dict) -> Run:
    """``render.py --preview ID`` into a fresh folder: nothing cached, no display."""
    return run_timed([PYTHON, str(ROOT / "render.py"), "--preview", scene_id, "--out", str(out_dir)], env)


def panel_preview(scene_id: str, section: str, out_dir: Path, env: dict) -> Run:
    """``render.py --preview ID --section X``: cold into a fresh folder, warm when repeated."""
    return run_timed([PYTHON, str(ROOT / "render.py"), "--preview", scene_id, "--section", section,
                      "--out", str(out_dir)], env)


def panel_names(ids: list[str], env: dict) -> dict[str, list[str]]:
    """Each scene's panels, in order, from a construct with animations skipped (no render)."""
    run = run_timed([PYTHON, "-m", "studio.engine.stills", "--sections", *ids], env)
    found = {}
    for line in run.stdout.splitlines():
        scene_id, _, names = line.partition("\t")
        found[scene_id] = names.split()
    return found


def import_manim_s(env: dict) -> float:
    return run_timed([PYTHON, "-c", "import manim"], env).wall_s


@dataclass
class Log:
    """Bench progress on stderr, so a long run shows where it is."""
    started: float = field(default_factory=time.perf_counter)

    def __call__(self, message: str) -> None:
        print(f"bench [{time.perf_counter() - self.started:6.0f} s] {message}", file=sys.stderr, flush=True)
