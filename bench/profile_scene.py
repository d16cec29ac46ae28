#!/usr/bin/env python3
"""Where a scene's render time goes: ``python bench/profile_scene.py ID [--quality low] [--cpu]``.

Runs the pipeline's own worker (``python -m cProfile -o … -m studio.engine.worker ID QUALITY STAGING``)
and sums the profile into the known costs. Times are the cumulative time of the named
functions, so groups can overlap (a Text built inside a Transform counts in both). With
``--cpu`` the profile clock is the main thread's CPU time, which leaves out waiting (for the
encoder thread, or for a core on a busy machine); the default clock is wall time.
"""

from __future__ import annotations

import argparse
import os
import pstats
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (label, file the function lives in (path suffix), function names): the costs the issue names.
GROUPS = [
    ("whole worker", "studio/engine/worker.py", ("main",)),
    ("  Scene.render (construct + play + movie files)", "manim/scene/scene.py", ("render",)),
    ("  text built (Text/MarkupText.__init__)", "mobject/text/text_mobject.py", ("__init__",)),
    ("  mobject copies (Mobject.copy → deepcopy)", "manim/mobject/mobject.py", ("copy",)),
    ("  Transform.begin (copies start/target)", "manim/animation/transform.py", ("begin",)),
    ("  updaters (Mobject.update)", "manim/mobject/mobject.py", ("update",)),
    ("  frames drawn (Camera.capture_mobjects)", "manim/camera/camera.py", ("capture_mobjects",)),
    ("    3D mesh drawing (kit ShadedMesh.draw_with_cairo)", "scenes/kit/surface.py", ("draw_with_cairo",)),
    ("    3D via manim (ThreeDCamera.capture_mobjects)", "manim/camera/three_d_camera.py", ("capture_mobjects",)),
    ("  frame handed to encoder (write_frame, blocks when queue full)", "manim/scene/scene_file_writer.py", ("write_frame",)),
    ("  wait for segment encode at end of play (end_animation)", "manim/scene/scene_file_writer.py", ("end_animation",)),
    ("  movie concat (combine_to_movie)", "manim/scene/scene_file_writer.py", ("combine_to_movie",)),
    ("  section clips (combine_to_section_videos)", "manim/scene/scene_file_writer.py", ("combine_to_section_videos",)),
]


def profile_worker(scene_id: str, quality: str, prof: Path, cpu: bool) -> tuple[float, float]:
    """Run the worker under cProfile; returns (wall s, CPU s of the worker process and its children)."""
    staging = Path(tempfile.mkdtemp(prefix=f"profile-{scene_id}-"))
    if cpu:
        runner = ("import cProfile,runpy,sys,time;out=sys.argv[1];sys.argv=['studio.engine.worker',*sys.argv[2:]];"
                  "p=cProfile.Profile(time.thread_time);p.enable();"
                  "\ntry: runpy.run_module('studio.engine.worker',run_name='__main__')\nexcept SystemExit: pass\n"
                  "p.disable();p.dump_stats(out)")
        cmd = [sys.executable, "-c", runner, str(prof), scene_id, quality, str(staging)]
    else:
        cmd = [sys.executable, "-m", "cProfile", "-o", str(prof), "-m", "studio.engine.worker", scene_id, quality, str(staging)]
    start = time.perf_counter()
    child = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    subprocess.run(["rm", "-rf", str(staging)], check=False)
    if child.returncode != 0:
        raise SystemExit(f"worker for {scene_id} exited {child.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


def group_times(stats: pstats.Stats) -> list[tuple[str, float, int]]:
    """(label, cumulative seconds, calls) per group, from the profile's own table."""
    rows = []
    for label, suffix, names in GROUPS:
        total, calls = 0.0, 0
        for (filename, _line, func), (_cc, primitive_calls, _tt, cumulative, _callers) in stats.stats.items():
            if filename.endswith(suffix) and func in names:
                total += cumulative
                calls += primitive_calls
        rows.append((label, total, calls))
    return rows


def hottest(stats: pstats.Stats, count: int) -> list[tuple[float, int, str]]:
    """The functions with the most time of their own (tottime): where the CPU actually goes."""
    items = sorted(stats.stats.items(), key=lambda kv: kv[1][2], reverse=True)[:count]
    return [(tt, nc, f"{Path(f).name}:{line}({func})") for (f, line, func), (_cc, nc, tt, _ct, _c) in items]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/profile_scene.py", description=__doc__.splitlines()[0])
    parser.add_argument("scene_id")
    parser.add_argument("--quality", default="low")
    parser.add_argument("--cpu", action="store_true", help="profile clock = main thread CPU time")
    parser.add_argument("--prof", type=Path, help="keep the .prof file here")
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args(argv)
    prof = args.prof or Path(tempfile.mkstemp(suffix=".prof")[1])
    wall, cpu = profile_worker(args.scene_id, args.quality, prof, args.cpu)
    stats = pstats.Stats(str(prof))
    clock = "main-thread CPU" if args.cpu else "wall"
    print(f"{args.scene_id} at {args.quality}: worker wall {wall:.1f} s, CPU (all threads) {cpu:.1f} s; "
          f"profile clock: {clock} (profiling adds overhead)")
    for label, seconds, calls in group_times(stats):
        print(f"{label:<66} {seconds:7.2f} s  {calls:6d} calls")
    print(f"\nmost time of their own ({clock}):")
    for seconds, calls, where in hottest(stats, args.top):
        print(f"{seconds:7.2f} s  {calls:8d}  {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
