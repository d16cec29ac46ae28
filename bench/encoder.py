#!/usr/bin/env python3
"""Choose the x264 setting by measurement: ``python bench/encoder.py --scenes ID ... [--write]``.

1. Reference: each scene rendered by the worker with x264 lossless (crf 0: the exact yuv420p
   pictures our converter hands x264), one clip per animation as always.
2. Candidates: each clip of the reference re-encoded as the worker encodes it (PyAV, the same
   stream options, one encoder per clip), for every preset:crf; we keep the encoder's CPU
   seconds (this process's own CPU: the reference is decoded by an ffmpeg child beforehand),
   the bytes, and the SSIM of the joined clips against the reference (ffmpeg's ssim filter on
   every frame, checked against bench/ssim.py on the first frames of each scene).
3. Choice: the cheapest candidate (CPU summed over the scenes) whose SSIM is at least stock
   manim's (x264 medium, crf 23) on every scene, and whose bytes are at most SIZE_CAP times
   stock's on every scene. ``--write`` records it, with the table, in config/encoder.yaml.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import av
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import measure, ssim  # noqa: E402
from studio import config
from studio.media import encode
from studio.engine import registry  # noqa: E402
from studio.media.clips import join_as_manim  # noqa: E402
from studio.media.toolcheck import ffmpeg_binary  # noqa: E402

STOCK = ("medium", 23, "")      # manim 0.22: crf 23, x264's default preset
REFERENCE = ("ultrafast", 0, "")    # crf 0 is lossless for 8-bit x264
# Ultrafast with CABAC back on: the same pictures as ultrafast's (entropy coding is lossless),
# in fewer bytes, for a few percent more CPU.
CABAC = "cabac=1"
CANDIDATES = (STOCK, ("veryfast", 23, ""), ("superfast", 23, ""), ("ultrafast", 23, ""),
              ("ultrafast", 22, CABAC), ("ultrafast", 23, CABAC), ("ultrafast", 24, CABAC),
              ("ultrafast", 25, CABAC))
SIZE_CAP = 1.5                  # every scene's bytes at most 1.5× stock's (issue: clips a speaker can carry)
CHECK_FRAMES = 24               # frames per scene scored by bench/ssim.py as well
SSIM_LINE = re.compile(r"All:(?P<all>[\d.]+)")
STATS_LINE = re.compile(r"n:(?P<n>\d+) Y:(?P<y>[\d.]+) U:(?P<u>[\d.]+) V:(?P<v>[\d.]+) All:(?P<all>[\d.]+)")


def label(setting: tuple[str, float, str]) -> str:
    """PRESET:CRF, then +PARAMS when x264 options are added (ultrafast:24+cabac=1)."""
    return f"{setting[0]}:{setting[1]:g}" + (f"+{setting[2]}" if setting[2] else "")


def file_name(setting: tuple[str, float, str]) -> str:
    """The label without colons or '=', which ffmpeg's filter options would take for separators."""
    return re.sub(r"[^A-Za-z0-9.+-]", "-", label(setting))


def parse_setting(text: str) -> tuple[str, float, str]:
    setting, _, params = text.partition("+")
    preset, _, crf = setting.partition(":")
    try:
        return preset, float(crf), params
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not PRESET:CRF[+X264PARAMS] (e.g. ultrafast:24+cabac=1)") from None


def x264_options(setting: tuple[str, float, str]) -> dict[str, str]:
    options = {"preset": setting[0], "crf": f"{setting[1]:g}"}
    if setting[2]:
        options["x264-params"] = setting[2]
    return options


# -- the reference -------------------------------------------------------------------
def reference(scene_id: str, quality: str, work: Path, reuse: bool = False) -> tuple[Path, list[Path]]:
    """Render the scene losslessly with the worker (or, with ``reuse``, take the one a run
    before left in ``work``); the movie and its clips in movie order."""
    staging = work / "reference" / scene_id
    if reuse and (staging / "result.json").is_file():
        return _reference_files(staging)
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    config_copy = work / "reference-config"
    if not config_copy.is_dir():
        shutil.copytree(config.config_dir(), config_copy)
        (config_copy / "encoder.yaml").write_text(
            f"x264: {{preset: {REFERENCE[0]}, crf: {REFERENCE[1]}}}\n")
    env = dict(measure.pipeline_env(), LECTURE_CONFIG_DIR=str(config_copy))
    run = measure.run_timed([measure.PYTHON, "-m", "studio.engine.worker", scene_id, quality, str(staging)], env)
    if run.returncode != 0:
        raise RuntimeError(f"reference render of {scene_id} failed: {measure.failure_tail(run)}")
    return _reference_files(staging)


def _reference_files(staging: Path) -> tuple[Path, list[Path]]:
    movie = Path(json.loads((staging / "result.json").read_text())["movie"])
    listing = next(staging.rglob("partial_movie_file_list.txt"))
    clips = [Path(m) for m in re.findall(r"^file 'file:(.*)'$", listing.read_text(), re.M)]
    return movie, clips


def decode_raw(clip: Path, target: Path) -> int:
    """The clip's pictures as raw yuv420p in ``target`` (an ffmpeg child: its CPU is not ours)."""
    subprocess.run([ffmpeg_binary(), "-v", "error", "-nostdin", "-y", "-i", str(clip), "-f", "rawvideo",
                    "-pix_fmt", "yuv420p", str(target)], check=True)
    return target.stat().st_size


# -- the candidates ------------------------------------------------------------------
def self_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def encode_clip(raw: Path, target: Path, width: int, height: int, fps: int, setting: tuple[str, float]) -> float:
    """Encode the raw pictures as the worker encodes a clip; this process's CPU seconds for it."""
    frame_bytes = width * height * 3 // 2
    pictures = np.memmap(raw, dtype=np.uint8, mode="r").reshape(-1, height * 3 // 2, width)
    before = self_cpu_s()
    with av.open(str(target), mode="w", format="mp4") as container:
        stream = container.add_stream("libx264", rate=fps, options=x264_options(setting))
        stream.pix_fmt, stream.width, stream.height = "yuv420p", width, height
        for pts, picture in enumerate(pictures):
            frame = av.VideoFrame.from_ndarray(np.asarray(picture), format="yuv420p")
            frame.pts = pts
            for packet in stream.encode(frame):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
    del pictures
    assert raw.stat().st_size % frame_bytes == 0
    return self_cpu_s() - before


def ssim_against(candidate: Path, reference_movie: Path, stats: Path) -> float:
    """ffmpeg's SSIM ("All") of every frame of ``candidate`` against the reference, averaged."""
    result = subprocess.run([ffmpeg_binary(), "-hide_banner", "-nostdin", "-i", str(candidate), "-i",
                             str(reference_movie), "-lavfi", f"[0:v][1:v]ssim=stats_file={stats}",
                             "-f", "null", "-"], capture_output=True, text=True)
    match = SSIM_LINE.search(result.stderr)
    if result.returncode != 0 or not match:
        raise RuntimeError(f"ssim of {candidate.name} failed: {result.stderr.strip()[-300:]}")
    return float(match["all"])


def first_pictures(path: Path, count: int) -> list[np.ndarray]:
    with av.open(str(path)) as container:
        pictures = []
        for frame in container.decode(video=0):
            pictures.append(frame.reformat(format="yuv420p").to_ndarray())
            if len(pictures) == count:
                break
    return pictures


def cross_check(candidate: Path, reference_movie: Path, stats: Path, width: int, height: int) -> float:
    """Largest difference between ffmpeg's per-frame SSIM and bench/ssim.py's on the first frames."""
    ffmpeg_scores = [float(m["all"]) for m in STATS_LINE.finditer(stats.read_text())][:CHECK_FRAMES]
    ours = [ssim.picture_ssim(ssim.yuv420p_planes(a, width, height), ssim.yuv420p_planes(b, width, height))
            for a, b in zip(first_pictures(candidate, CHECK_FRAMES), first_pictures(reference_movie, CHECK_FRAMES))]
    return max(abs(a - b) for a, b in zip(ffmpeg_scores, ours))


def measure_scene(scene_id: str, quality: str, settings: list[tuple[str, float]], work: Path, log,
                  reuse: bool = False) -> dict:
    preset = config.presets()[quality]
    width, height, fps = preset["width"], preset["height"], preset["fps"]
    log(f"{scene_id}: lossless reference")
    movie, clips = reference(scene_id, quality, work, reuse)
    scratch = Path(tempfile.mkdtemp(prefix=f"enc-{scene_id}-", dir=measure.scratch_dir()))
    out = work / "candidates" / scene_id
    shutil.rmtree(out, ignore_errors=True)
    cpu = {label(s): 0.0 for s in settings}
    try:
        raw = scratch / "clip.yuv"
        for index, clip in enumerate(clips):
            decode_raw(clip, raw)
            for setting in settings:
                target = out / file_name(setting) / f"{index:05d}.mp4"
                target.parent.mkdir(parents=True, exist_ok=True)
                cpu[label(setting)] += encode_clip(raw, target, width, height, fps, setting)
        rows = {}
        for setting in settings:
            name = label(setting)
            log(f"{scene_id}: scoring {name}")
            parts = sorted((out / file_name(setting)).glob("*.mp4"))
            joined = out / f"{file_name(setting)}.mp4"
            join_as_manim(parts, joined, timestamps="concat")
            stats = out / f"{file_name(setting)}.ssim.txt"
            score = ssim_against(joined, movie, stats)
            rows[name] = {"preset": setting[0], "crf": setting[1], "params": setting[2], "cpu_s": round(cpu[name], 2),
                          "bytes": joined.stat().st_size, "ssim": score,
                          "ssim_check_max_diff": cross_check(joined, movie, stats, width, height)}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    frames = encode.probe(movie)
    return {"id": scene_id, "frames": frames["frames"], "video_s": frames["duration_s"], "clips": len(clips),
            "candidates": rows}


# -- the choice ------------------------------------------------------------------------
def choose(scenes: list[dict], size_cap: float = SIZE_CAP) -> dict:
    """The cheapest candidate at least as good as stock on every scene, within the size cap.

    Returns {"choice": name or None, "stock": name, "totals": {name: {cpu_s, bytes, size_ratio,
    worst_ssim_margin, qualifies}}}."""
    stock = label(STOCK)
    names = [n for n in scenes[0]["candidates"] if all(n in s["candidates"] for s in scenes)]
    stock_bytes = sum(s["candidates"][stock]["bytes"] for s in scenes)
    totals = {}
    for name in names:
        cpu = sum(s["candidates"][name]["cpu_s"] for s in scenes)
        size = sum(s["candidates"][name]["bytes"] for s in scenes)
        margin = min(s["candidates"][name]["ssim"] - s["candidates"][stock]["ssim"] for s in scenes)
        worst_size = max(s["candidates"][name]["bytes"] / s["candidates"][stock]["bytes"] for s in scenes)
        totals[name] = {"cpu_s": round(cpu, 2), "bytes": size, "size_ratio": size / stock_bytes,
                        "worst_size_ratio": worst_size, "worst_ssim_margin": margin,
                        "qualifies": margin >= 0 and worst_size <= size_cap}
    qualified = [n for n in names if totals[n]["qualifies"]]
    choice = min(qualified, key=lambda n: totals[n]["cpu_s"]) if qualified else None
    return {"choice": choice, "stock": stock, "size_cap": size_cap, "totals": totals}


def table(scenes: list[dict], decision: dict) -> list[str]:
    """One line per candidate: CPU and size over all scenes, SSIM per scene."""
    ids = [s["id"] for s in scenes]
    lines = [f"{'setting':22} cpu s   MB    ×size  " + "  ".join(f"{i[:14]:>14}" for i in ids)]
    for name, total in decision["totals"].items():
        mark = " <- chosen" if name == decision["choice"] else (" (stock)" if name == decision["stock"] else "")
        ssims = "  ".join(f"{s['candidates'][name]['ssim']:14.5f}" for s in scenes)
        lines.append(f"{name:21} {total['cpu_s']:6.1f} {total['bytes'] / 1e6:6.2f} {total['size_ratio']:5.2f}  "
                     f"{ssims}{mark}")
    return lines


def write_choice(scenes: list[dict], decision: dict, command: str, path: Path) -> None:
    preset, crf, params = parse_setting(decision["choice"])
    comment = [
        "# x264 settings for every clip the studio encodes (read by studio/manim_hooks/fastencode.py).",
        "# Chosen by measurement: the cheapest setting whose SSIM against a lossless render is",
        f"# at least stock manim's (x264 {label(STOCK)}) and size <= {SIZE_CAP:g}x stock's, on every scene.",
        f"# Measured {time.strftime('%Y-%m-%d')} on {os.cpu_count()} cores, commit {git_commit()}:",
        f"#   {command}",
        "# CPU = x264's CPU seconds over the scenes; SSIM per scene (ffmpeg's ssim 'All', every frame):",
        *[f"#   {line}" for line in table(scenes, decision)],
        "# A new measurement (the command above with --write) replaces x264: and this comment; it keeps",
        "# the alternatives below.",
    ]
    extra = f"  params: \"{params}\"\n" if params else ""
    path.write_text("\n".join(comment) + f"\nx264:\n  preset: {preset}\n  crf: {crf:g}\n{extra}" + _alternatives(path))


def _alternatives(path: Path) -> str:
    """The named alternatives of the file being replaced, with their comment, as they were:
    a new measurement changes the default, not the choices a user was offered."""
    text = path.read_text() if path.is_file() else ""
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.startswith("alternatives:")), None)
    if start is None:
        return ""
    while start > 0 and lines[start - 1].startswith("#"):
        start -= 1
    return "".join(lines[start:])


def git_commit() -> str:
    result = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    return result.stdout.strip() or "unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/encoder.py", description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", nargs="+", required=True, metavar="ID")
    parser.add_argument("--quality", default="high")
    parser.add_argument("--candidates", nargs="+", type=parse_setting, metavar="PRESET:CRF[+X264PARAMS]",
                        help="settings to try (stock medium:23 is always among them)")
    parser.add_argument("--work", type=Path, help="keep the renders and encodes here (default: a temporary folder)")
    parser.add_argument("--json", type=Path, help="where to write the measurements (default bench/results/)")
    parser.add_argument("--reuse", action="store_true",
                        help="take the lossless references a run before left in --work instead of rendering them again")
    parser.add_argument("--write", action="store_true", help="record the choice in config/encoder.yaml")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    settings = list(dict.fromkeys([STOCK, *(args.candidates or CANDIDATES)]))
    log = measure.Log()
    registry.select(args.scenes)  # an unknown id stops here, before anything is rendered
    work = (args.work or Path(tempfile.mkdtemp(prefix="lecture-encoder-"))).resolve()
    target = args.json or ROOT / "bench" / "results" / f"encoder-{args.quality}-{time.strftime('%Y%m%d-%H%M%S')}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        scenes = []
        for scene_id in args.scenes:
            scenes.append(measure_scene(scene_id, args.quality, settings, work, log, args.reuse and args.work is not None))
            target.write_text(json.dumps({"scenes": scenes}, indent=1))
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    decision = choose(scenes)
    command = "bench/encoder.py --quality {} --scenes {}".format(args.quality, " ".join(args.scenes))
    target.write_text(json.dumps({"command": command, "scenes": scenes, "decision": decision}, indent=1))
    print("\n".join(table(scenes, decision)))
    worst_check = max(r["ssim_check_max_diff"] for s in scenes for r in s["candidates"].values())
    print(f"bench/ssim.py against ffmpeg's ssim, first {CHECK_FRAMES} frames of each: largest difference {worst_check:.2e}")
    print(f"choice: {decision['choice'] or 'none qualifies: config/encoder.yaml unchanged'}\nJSON: {target}")
    if args.write and decision["choice"]:
        write_choice(scenes, decision, command, config.CONFIG_DIR / "encoder.yaml")
        print(f"written: {config.CONFIG_DIR / 'encoder.yaml'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
