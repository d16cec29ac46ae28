"""A small synthetic render output for the rehearsal-page tests.

Real H.264 clips made by ffmpeg (so a browser really decodes them), a poster, a manifest
shaped like the pipeline's and a small ledger. Clip lengths differ on purpose: a player
showing the wrong file then shows the wrong duration.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

FPS = 15
WIDTH, HEIGHT = 320, 180

# Walkthrough section lengths in seconds (whole frames at 15 fps) and the loop's length.
SECTION_SECONDS = {"A": 2.0, "B": 1.4, "C": 2.6}
LOOP_SECONDS = 1.2

SAMPLE_LEDGER: dict[str, dict[str, Any]] = {
    "circuit.a": {
        "value": 2, "unit": "", "kind": "sourced", "display": "2",
        "citation": "讲稿第一节：电路的输入 a", "note": "", "notes_value": "2", "agrees": True,
        "scenes": ["fig-circuit"],
    },
    "circuit.b": {
        "value": -3, "unit": "", "kind": "sourced", "display": "−3",
        "citation": "讲稿第一节：电路的输入 b", "notes_value": "-3", "agrees": True,
        "scenes": ["fig-circuit"],
    },
    "circuit.f": {
        "value": -6, "unit": "", "kind": "derived", "display": "−6",
        "formula": "f = a × b", "inputs": {"a": "circuit.a", "b": "circuit.b"},
        "note": "前向传播的输出", "notes_value": "-6", "agrees": True, "scenes": ["fig-circuit"],
    },
    "reverse.speedup": {
        "value": 1000, "unit": "倍", "kind": "derived", "display": "1000",
        "formula": "speedup = n_inputs / n_outputs", "inputs": {"n_inputs": "reverse.n_inputs"},
        "notes_value": "1000", "agrees": False, "scenes": ["anim-reverse"],
    },
    "reverse.n_inputs": {
        "value": 1000, "unit": "", "kind": "sourced", "display": "1000",
        "citation": "Baydin et al. 2018, Automatic Differentiation in ML: a Survey, §3",
        "scenes": ["anim-reverse"],
    },
}


def make_clip(path: Path, seconds: float, pattern: str = "testsrc") -> Path:
    """An H.264 yuv420p mp4 with its index up front, like the pipeline writes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi",
         "-i", f"{pattern}=size={WIDTH}x{HEIGHT}:rate={FPS}", "-t", f"{seconds}",
         "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
         "-movflags", "+faststart", str(path)],
        check=True)
    return path


def make_still(video: Path, path: Path) -> Path:
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", str(video), "-frames:v", "1", str(path)],
                   check=True)
    return path


def make_gif(video: Path, path: Path) -> Path:
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", str(video), "-loop", "0", str(path)],
                   check=True)
    return path


def synthetic_manifest() -> dict[str, Any]:
    """The manifest of the synthetic output: one walkthrough (A, B, C), then one loop."""
    walkthrough_s = round(sum(SECTION_SECONDS.values()), 3)
    return {
        "quality": "low", "width": WIDTH, "height": HEIGHT, "fps": FPS,
        "scenes": [
            {"id": "fig-circuit", "title": "一个能用眼睛检查的电路", "duration_s": walkthrough_s, "loop": False,
             "files": {"mp4": "fig-circuit.mp4", "gif": "fig-circuit.gif", "png": "fig-circuit.png"},
             "sections": [{"name": name, "file": f"fig-circuit/{name}.mp4", "duration_s": s}
                          for name, s in SECTION_SECONDS.items()],
             "cache_key": "synthetic-circuit", "ledger_keys": ["circuit.a", "circuit.b", "circuit.f"]},
            {"id": "anim-reverse", "title": "前向模式与反向模式", "duration_s": LOOP_SECONDS, "loop": True,
             "files": {"mp4": "anim-reverse.mp4", "gif": "anim-reverse.gif", "png": "anim-reverse.png"},
             "sections": [], "cache_key": "synthetic-reverse",
             "ledger_keys": ["reverse.speedup", "reverse.n_inputs"]},
        ],
    }


def make_synthetic_output(quality_dir: Path) -> Path:
    """Write clips, posters, gifs, manifest.json, cues.json (the real notes' cue sheet against
    these two scenes: the other figures are placeholders) and the rehearsal page."""
    from studio.track import cues
    from studio.present.page import build_page

    if shutil.which("ffmpeg") is None:
        raise RuntimeError("ffmpeg is needed to make the test clips (Debian package: ffmpeg)")
    manifest = synthetic_manifest()
    patterns = iter(["testsrc", "smptebars", "rgbtestsrc", "testsrc2", "smptehdbars"])
    for scene in manifest["scenes"]:
        for section in scene["sections"]:
            make_clip(quality_dir / section["file"], section["duration_s"], next(patterns))
        files = scene["files"]
        mp4 = make_clip(quality_dir / files["mp4"], scene["duration_s"], "testsrc2" if scene["loop"] else "testsrc")
        make_still(mp4, quality_dir / files["png"])
        make_gif(mp4, quality_dir / files["gif"])
    (quality_dir / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=2), encoding="utf-8")
    published = cues.publish(quality_dir, manifest)
    for name, content in build_page(manifest, SAMPLE_LEDGER, published).items():
        (quality_dir / name).write_text(content, encoding="utf-8")
    return quality_dir
