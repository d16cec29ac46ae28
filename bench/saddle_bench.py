"""anim-saddle at 1080p60: render wall against the wall x264 alone needs for the same frames.

    .venv/bin/python bench/saddle_bench.py [--skip-stock] [--repeat 3] [--quality high] [--json PATH]

Two renders, each in a fresh process through manim's Python API with the settings the
pipeline's worker uses (studio/engine/worker.py), so the wall includes start-up and manim's own
x264 encode of the movie:

- ours: the anim-saddle scene (ShadedMesh, one vectorised pass per frame);
- stock: manim's ``Surface`` in a ``ThreeDScene`` showing the same mesh (same grid, paths,
  dot, duration and full turn), the per-face way (skipped with ``--skip-stock``).

Ours is measured as ``--repeat`` render/encode pairs (each encode right after its render,
so both meet about the same load from others on the shared cores) and the pair with the
median ratio is reported; stock, which takes minutes, once.

For each output the frames are decoded to raw yuv420p in RAM first, then only the x264
encode of those frames is timed (libx264, crf 23, preset medium, yuv420p, same fps: what
manim 0.22 writes). Ratio = render wall ÷ encode-only wall; the target is ≤ 2.0.
Prints a table and writes JSON (default bench/results/saddle.json).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TARGET_RATIO = 2.0
X264 = ["-c:v", "libx264", "-crf", "23", "-preset", "medium", "-pix_fmt", "yuv420p"]


# ---- the two scenes, rendered in a child process ---------------------------------------

def stock_scene_class():
    """Manim's own per-face Surface showing the anim-saddle mesh, turned once, with the
    same texts held still in the frame (the stock way: fixed-in-frame mobjects)."""
    import numpy as np
    from manim import DOWN, RIGHT, TAU, UL, Dot3D, ParametricFunction, Surface, ThreeDScene

    from scenes.kit.panels import EDGE_BUFF, caption
    from scenes.kit.text import words

    from lecture_numerics import saddle
    from scenes import anim_saddle as ours
    from scenes.kit import theme

    view = ours.START_VIEW
    half = saddle.HALF_WIDTH

    class StockSaddle(ThreeDScene):
        def construct(self):
            self.camera.background_color = theme.background()
            self.set_camera_orientation(phi=np.pi / 2 - view.elevation, theta=view.azimuth - np.pi / 2,
                                        zoom=view.scale)
            heading = words("垭口：一个方向往上，另一个方向往下", size="heading").to_corner(UL, buff=EDGE_BUFF)
            key = ours.legend().to_edge(RIGHT, buff=EDGE_BUFF + 0.1).shift(DOWN * 0.2)
            line = caption("站在那个点上，脚下确实是平的 —— 可绿色那条路一直都在", color="good")
            self.add_fixed_in_frame_mobjects(heading, key, line)
            surface = Surface(lambda u, v: np.array([u, v, saddle.height(u, v)]),
                              u_range=[-half, half], v_range=[-half, half],
                              resolution=(ours.MESH_CELLS, ours.MESH_CELLS),
                              fill_color=theme.color("accent"), checkerboard_colors=False,
                              fill_opacity=1.0, stroke_width=0.5)
            red = ParametricFunction(lambda s: np.array([s, 0.0, saddle.height(s, 0.0)]),
                                     t_range=[-half, half], color=theme.color("backward"), stroke_width=8)
            green = ParametricFunction(lambda s: np.array([0.0, s, saddle.height(0.0, s)]),
                                       t_range=[-half, half], color=theme.color("good"), stroke_width=8)
            self.add(surface, red, green, Dot3D(saddle.flat_point(), radius=ours.DOT_RADIUS,
                                                color=theme.color("ink"), resolution=(8, 8)))
            self.begin_ambient_camera_rotation(rate=TAU / ours.ROCK_SECONDS)
            self.wait(ours.ROCK_SECONDS)

    return StockSaddle


def render_child(kind: str, quality: str, media: Path) -> None:
    """Render one scene like studio/engine/worker.py does: manim's Python API, caching off."""
    from manim import tempconfig

    from studio import config

    preset = config.presets()[quality]
    if kind == "ours":
        from scenes.anim_saddle import AnimSaddle as scene_cls
    else:
        scene_cls = stock_scene_class()
    settings = {
        "pixel_width": preset["width"], "pixel_height": preset["height"], "frame_rate": preset["fps"],
        "media_dir": str(media), "disable_caching": True, "save_sections": True,
        "write_to_movie": True, "format": "mp4", "progress_bar": "none", "verbosity": "WARNING",
        "output_file": kind, "preview": False,
    }
    with tempconfig(settings):
        scene_cls().render()


# ---- measuring ---------------------------------------------------------------------------

def children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_clocked(cmd: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system, all threads) of one child process."""
    cpu, start = children_cpu_s(), time.perf_counter()
    subprocess.run(cmd, check=True, cwd=ROOT)
    return time.perf_counter() - start, children_cpu_s() - cpu


def timed_render(kind: str, quality: str, work: Path) -> tuple[float, float, Path]:
    media = work / kind
    wall, cpu = run_clocked([sys.executable, __file__, "--child", kind, "--quality", quality,
                             "--media", str(media)])
    return wall, cpu, next(p for p in media.rglob(f"{kind}.mp4") if "sections" not in p.parts)


def probe(mp4: Path) -> dict:
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-count_frames",
                          "-show_entries", "stream=width,height,r_frame_rate,nb_read_frames",
                          "-of", "json", str(mp4)], check=True, capture_output=True, text=True).stdout
    stream = json.loads(out)["streams"][0]
    num, den = (int(x) for x in stream["r_frame_rate"].split("/"))
    return {"width": stream["width"], "height": stream["height"], "fps": num / den,
            "frames": int(stream["nb_read_frames"])}


def encode_only(mp4: Path, info: dict, scratch: Path) -> tuple[float, float]:
    """Wall of x264 alone on the decoded frames (decoding happens before the clock starts)."""
    raw = scratch / f"saddle-bench-{os.getpid()}.yuv"
    try:
        subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-y", "-i", str(mp4), "-f", "rawvideo",
                        "-pix_fmt", "yuv420p", str(raw)], check=True)
        with open(raw, "rb") as f:   # warm the page cache so the encoder never waits on disk
            while f.read(1 << 24):
                pass
        return run_clocked(["ffmpeg", "-v", "error", "-nostdin", "-f", "rawvideo", "-pix_fmt", "yuv420p",
                            "-s", f"{info['width']}x{info['height']}", "-r", f"{info['fps']:g}", "-i", str(raw),
                            *X264, "-f", "mp4", "-y", os.devnull])
    finally:
        raw.unlink(missing_ok=True)


def loop_seam(mp4: Path) -> dict:
    """Mean absolute step (grey levels) from the last decoded frame to the first, beside the
    steps between consecutive frames. Key frames carry different coding noise, so the steps
    into a key frame (x264 places one every 250) are listed too."""
    import av
    import numpy as np

    steps, key_steps, first, previous = [], [], None, None
    with av.open(str(mp4)) as container:
        for frame in container.decode(video=0):
            pixels = frame.to_ndarray(format="rgb24").astype(np.int16)
            if previous is None:
                first = pixels
            else:
                (key_steps if frame.key_frame else steps).append(float(np.abs(pixels - previous).mean()))
            previous = pixels
    return {"seam_step": float(np.abs(first - previous).mean()), "median_step": float(np.median(steps)),
            "max_step": max(steps), "steps_into_key_frames": key_steps}


def scratch_dir() -> Path:
    shm = Path("/dev/shm")
    return shm if shm.is_dir() and shutil.disk_usage(shm).free > 4 * 1024**3 else Path(tempfile.gettempdir())


def measure_pair(kind: str, quality: str, work: Path) -> tuple[dict, Path]:
    """One render and, right after it, x264 alone on its frames (close in time, so both
    see about the same load from others on the shared cores)."""
    print(f"rendering {kind} …", file=sys.stderr, flush=True)
    render_s, render_cpu_s, mp4 = timed_render(kind, quality, work)
    info = probe(mp4)
    print(f"encoding {kind}'s frames with x264 alone …", file=sys.stderr, flush=True)
    encode_s, encode_cpu_s = encode_only(mp4, info, scratch_dir())
    return {"render_s": render_s, "encode_only_s": encode_s, "ratio": render_s / encode_s,
            "render_cpu_s": render_cpu_s, "encode_only_cpu_s": encode_cpu_s,
            "cpu_ratio": render_cpu_s / encode_cpu_s, **info}, mp4


def measure(kind: str, quality: str, work: Path, keep: Path | None, repeat: int = 1) -> dict:
    """``repeat`` render/encode pairs; the row is the pair with the median ratio."""
    pairs = []
    for n in range(repeat):
        pair, mp4 = measure_pair(kind, quality, work / f"{kind}-{n}")
        pairs.append(pair)
    median = sorted(pairs, key=lambda p: p["ratio"])[len(pairs) // 2]
    info = {k: median[k] for k in ("width", "height", "fps", "frames")}
    render_s, encode_s = median["render_s"], median["encode_only_s"]
    render_cpu_s, encode_cpu_s = median["render_cpu_s"], median["encode_only_cpu_s"]
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        shutil.copy(mp4, keep / f"{kind}.mp4")
    seam = loop_seam(mp4) if kind == "ours" else None   # after the clocks: it costs no timing
    # CPU seconds are steadier than walls when others share the cores.
    return {"renderer": kind, **info, "video_s": info["frames"] / info["fps"],
            "render_s": render_s, "encode_only_s": encode_s, "ratio": render_s / encode_s,
            "render_cpu_s": render_cpu_s, "encode_only_cpu_s": encode_cpu_s,
            "cpu_ratio": render_cpu_s / encode_cpu_s,
            "render_ms_per_frame": 1000 * render_s / info["frames"], "loop": seam,
            "pairs": [{k: p[k] for k in ("render_s", "encode_only_s", "ratio", "cpu_ratio")} for p in pairs]}


def table(rows: list[dict]) -> str:
    head = (f"{'renderer':<8} {'frames':>6} {'video s':>7} {'render s':>9} {'x264-only s':>11} {'ratio':>6}"
            f" {'render cpu s':>12} {'x264 cpu s':>10} {'cpu ratio':>9}")
    lines = [head, "-" * len(head)]
    for r in rows:
        if len(r["pairs"]) > 1:
            lines.append(f"{r['renderer']}: ratios of {len(r['pairs'])} render/encode pairs: "
                         + ", ".join(f"{p['ratio']:.2f}" for p in r["pairs"]) + " (median pair below)")
    for r in rows:
        lines.append(f"{r['renderer']:<8} {r['frames']:>6} {r['video_s']:>7.2f} {r['render_s']:>9.1f} "
                     f"{r['encode_only_s']:>11.1f} {r['ratio']:>6.2f} {r['render_cpu_s']:>12.1f}"
                     f" {r['encode_only_cpu_s']:>10.1f} {r['cpu_ratio']:>9.2f}")
    ours = rows[0]
    verdict = "met" if ours["ratio"] <= TARGET_RATIO else "NOT met"
    lines.append(f"target: ours render ÷ x264-only ≤ {TARGET_RATIO:g} → {verdict}")
    if len(rows) > 1:
        lines.append(f"stock ÷ ours render wall: {rows[1]['render_s'] / ours['render_s']:.1f}×")
    loop = ours["loop"]
    lines.append(f"loop seam (last → first frame): {loop['seam_step']:.3f} grey levels; consecutive frames: "
                 f"median {loop['median_step']:.3f}, max {loop['max_step']:.3f}; into key frames: "
                 + ", ".join(f"{s:.3f}" for s in loop["steps_into_key_frames"]))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quality", default="high")
    parser.add_argument("--skip-stock", action="store_true", help="only our renderer (stock takes minutes)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="render/encode pairs for ours; the median pair is reported (default 3)")
    parser.add_argument("--json", type=Path, default=ROOT / "bench" / "results" / "saddle.json")
    parser.add_argument("--keep", type=Path, help="copy the rendered movies into this folder")
    parser.add_argument("--child", choices=["ours", "stock"], help=argparse.SUPPRESS)
    parser.add_argument("--media", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        render_child(args.child, args.quality, args.media)
        return 0

    load_at_start = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="saddle-bench-") as tmp:
        rows = [measure("ours", args.quality, Path(tmp), args.keep, args.repeat)]
        if not args.skip_stock:
            rows.append(measure("stock", args.quality, Path(tmp), args.keep))
    report = {"scene": "anim-saddle", "quality": args.quality, "target_ratio": TARGET_RATIO,
              "cores": os.cpu_count(), "load_avg_at_start": load_at_start,
              "load_avg_at_end": os.getloadavg(), "rows": rows}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=2))
    print(table(rows))
    print(f"written {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
