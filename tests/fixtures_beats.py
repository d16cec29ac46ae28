"""A hand-made render with beats, for the lecture-mode tests: the cue sheet is written here
in the shape studio/track/cue_steps.py gives cues.json (figure cues with "steps", "errata", rehearsal fields),
not derived from the real notes, so each test knows exactly what every key press must show.

Every beat clip is two flat colours: the colour the beat before it ended on, then its own.
So a screenshot tells which clip is on screen and whether it is held on its last frame, and
anything else drawn over it (a control bar, a key legend) shows up as other pixels.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from PIL import Image

FPS = 15
WIDTH, HEIGHT = 320, 180
HALF_S = 0.6   # each colour of a beat clip lasts this long
SCENE = "fig-demo"
START_COLOUR = (32, 64, 128)
# The colour each beat ends on, in order: A.1 A.2 B.1 B.2.
BEAT_COLOURS = {"A.1": (192, 48, 48), "A.2": (48, 160, 80), "B.1": (48, 80, 192), "B.2": (192, 160, 32)}
LOOP_COLOUR = (120, 40, 140)

LEDGER: dict[str, dict[str, Any]] = {
    "demo.bytes": {"value": 2, "unit": "B", "kind": "sourced", "display": "2",
                   "citation": "IEEE 754-2019 §3.6, table 3.5 (binary16)", "scenes": [SCENE]},
    "demo.params": {"value": 7e9, "unit": "", "kind": "chosen", "display": "70 亿",
                    "reason": "the speaker's example: a 7B model", "scenes": [SCENE]},
    "demo.total": {"value": 14e9, "unit": "B", "kind": "derived", "display": "14 GB",
                   "formula": "total = params × bytes", "inputs": {"params": "demo.params", "bytes": "demo.bytes"},
                   "scenes": [SCENE]},
    "demo.warmup": {"value": 2000, "unit": "步", "kind": "sourced", "display": "2000",
                    "citation": "Kalra & Barkeshli 2024, abstract", "status": "待核", "scenes": [SCENE]},
}

ERRATUM = {"line": 112, "said": "15 GB", "right": "14 GB", "why": "70 亿个参数各占 2 字节，是 14 GB。",
           "key": "demo.total"}


def hex_colour(rgb: tuple[int, int, int]) -> str:
    return "0x%02X%02X%02X" % rgb


def two_colour_clip(path: Path, first: tuple[int, int, int], last: tuple[int, int, int]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    source = f"color=c={{}}:size={WIDTH}x{HEIGHT}:rate={FPS}:d={HALF_S}"
    subprocess.run(
        ["ffmpeg", "-loglevel", "error", "-y",
         "-f", "lavfi", "-i", source.format(hex_colour(first)), "-f", "lavfi", "-i", source.format(hex_colour(last)),
         "-filter_complex", "[0][1]concat=n=2:v=1[v]", "-map", "[v]",
         "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-movflags", "+faststart", str(path)],
        check=True)


def flat_image(path: Path, colour: tuple[int, int, int]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (WIDTH, HEIGHT), colour).save(path)


def beat_steps() -> list[dict[str, Any]]:
    """The demo cue's four steps: Ⓐ in two beats, then Ⓑ in two; six script lines each."""
    steps = []
    for n, name in enumerate(BEAT_COLOURS):
        panel, beat = name.split(".")
        steps.append({
            "scene": SCENE, "view": panel, "panel": panel, "beat": int(beat),
            "file": f"{SCENE}/{panel}/{beat}.mp4", "poster": f"{SCENE}/{panel}/{beat}.jpg", "loop": False,
            "says": f"第 {n + 1} 拍的话", "lines": list(range(6 * n, 6 * n + 6)),
            "errata": [ERRATUM] if name == "A.2" else [], "estimated_s": 20.0,
            "rehearsed_s": 25.0 if name == "A.1" else None,
        })
    return steps


def demo_script() -> list[dict[str, Any]]:
    """24 long lines, so the presenter's script box has to scroll."""
    script = []
    for i in range(24):
        line = 101 + i
        if i % 6 == 5:
            script.append({"note": f"⛔ 第 {i} 行：这里停一拍，不要急着翻页。", "line": line})
        else:
            script.append({"say": f"第 {i} 行讲的话，要说得慢一点，让后排也听得清楚，数字都在屏幕上。", "line": line})
    return script


def cue(index: int, line: int, kind: str, section: int, **fields: Any) -> dict[str, Any]:
    base = {"index": index, "line": line, "kind": kind, "text": fields.pop("text", ""), "screen": "",
            "hints": [], "scene": None, "views": [], "whole": False, "section": section, "marks": None,
            "opens": None, "title": None, "main_figure": None, "estimated_s": 10.0, "script": [], "lines": [],
            "errata": [], "rehearsed_s": None}
    base.update(fields)
    if kind != "figure":
        base["steps"] = [{"scene": None, "view": None, "panel": None, "beat": None, "file": None, "poster": None,
                          "loop": False, "says": None, "lines": list(range(len(base["script"]))), "errata": [],
                          "estimated_s": base["estimated_s"]}]
    return base


def demo_sheet() -> dict[str, Any]:
    script = demo_script()
    steps = beat_steps()
    loop_step = {"scene": "anim-spin", "view": "whole", "panel": None, "beat": None, "file": "anim-spin.mp4",
                 "poster": "anim-spin.png", "loop": True, "says": None, "lines": [0], "errata": [], "estimated_s": 15.0}
    cues = [
        cue(0, 10, "title", 1, text="讲座标题", title="第一节　一个能检查的例子",
            script=[{"say": "大家好，今天讲训练时的显存。", "line": 11}], lines=["大家好，今天讲训练时的显存。"]),
        cue(1, 100, "figure", 1, text=f"🖥 屏幕：{SCENE} Ⓐ，再到 Ⓑ ⭐ 先看红色", screen=f"{SCENE} Ⓐ，再到 Ⓑ",
            hints=["⭐ 先看红色", "⛔ 别提前说答案"], scene=SCENE, views=["A", "B"], rendered=True,
            scene_title="演示图", estimated_s=80.0, script=script,
            lines=[s["say"] for s in script if "say" in s], steps=steps, errata=[ERRATUM], rehearsed_s=90.0),
        cue(2, 140, "figure", 2, text="🖥 屏幕：anim-spin", screen="anim-spin", scene="anim-spin", views=["whole"],
            whole=True, rendered=True, scene_title="转圈", estimated_s=15.0,
            script=[{"say": "这个一直在转。", "line": 141}], lines=["这个一直在转。"], steps=[loop_step]),
        cue(3, 150, "figure", 2, text="🖥 屏幕：fig-later Ⓐ", screen="fig-later Ⓐ", scene="fig-later", views=["A"],
            rendered=False, estimated_s=12.0, script=[{"say": "这张图还在做。", "line": 151}], lines=["这张图还在做。"],
            steps=[{"scene": "fig-later", "view": "A", "panel": "A", "beat": 1, "file": None, "poster": None,
                    "loop": False, "says": None, "lines": [0], "errata": [], "estimated_s": 12.0}]),
        cue(4, 160, "section", 2, text="🖥 本节主屏：课件 第二节 收尾", title="第二节　收尾", opens=None, marks=2),
    ]
    sections = [
        {"number": 1, "title": "第一节　一个能检查的例子", "line": 9, "estimated_s": 90.0, "cues": 2,
         "target_s": 60.0, "rehearsed_s": 95.0, "over_target": True},
        {"number": 2, "title": "第二节　收尾", "line": 160, "estimated_s": 37.0, "cues": 3,
         "target_s": 600.0, "rehearsed_s": None, "over_target": False},
    ]
    return {"notes": "assets/lecture-notes.txt", "estimate": "估算：按字数和语速折算。", "sections": sections,
            "total_estimated_s": 127.0, "cues": cues, "quality": "low"}


def demo_manifest() -> dict[str, Any]:
    beats = {panel: [] for panel in "AB"}
    for step in beat_steps():
        beats[step["panel"]].append({"n": step["beat"], "name": f"{step['panel']}.{step['beat']}",
                                     "file": step["file"], "poster": step["poster"], "duration_s": 2 * HALF_S})
    return {"quality": "low", "width": WIDTH, "height": HEIGHT, "fps": FPS, "scenes": [
        {"id": SCENE, "title": "演示图", "duration_s": 8 * HALF_S, "loop": False,
         "files": {"mp4": f"{SCENE}.mp4", "png": f"{SCENE}.png"},
         "sections": [{"name": p, "file": f"{SCENE}/{p}.mp4", "duration_s": 4 * HALF_S, "beats": beats[p]} for p in "AB"],
         "ledger_keys": list(LEDGER)},
        {"id": "anim-spin", "title": "转圈", "duration_s": 2 * HALF_S, "loop": True,
         "files": {"mp4": "anim-spin.mp4", "png": "anim-spin.png"}, "sections": [], "ledger_keys": []},
    ]}


def make_beats_output(quality_dir: Path) -> Path:
    """Clips, posters, manifest.json, cues.json and the rehearsal page for the demo talk."""
    from studio.present.page import build_page

    before = START_COLOUR
    for step in beat_steps():
        colour = BEAT_COLOURS[f"{step['panel']}.{step['beat']}"]
        two_colour_clip(quality_dir / step["file"], before, colour)
        flat_image(quality_dir / step["poster"], colour)
        before = colour
    for panel in "AB":  # the panel clips and the whole clip are not stepped through here
        two_colour_clip(quality_dir / SCENE / f"{panel}.mp4", START_COLOUR, START_COLOUR)
    two_colour_clip(quality_dir / f"{SCENE}.mp4", START_COLOUR, before)
    flat_image(quality_dir / f"{SCENE}.png", before)
    two_colour_clip(quality_dir / "anim-spin.mp4", LOOP_COLOUR, LOOP_COLOUR)
    flat_image(quality_dir / "anim-spin.png", LOOP_COLOUR)
    manifest, sheet = demo_manifest(), demo_sheet()
    (quality_dir / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")
    (quality_dir / "cues.json").write_text(json.dumps(sheet, ensure_ascii=False), encoding="utf-8")
    for name, content in build_page(manifest, LEDGER, sheet).items():
        (quality_dir / name).write_text(content, encoding="utf-8")
    return quality_dir
