"""A small render output with beats and a hand-made cue sheet with steps, shaped like the
pipeline's manifest (beats) and the published cues.json (steps, errata), for the deck tests. Real H.264 clips (ffmpeg), beat posters as the beat's last frame in JPEG.

The talk: a title card; fig-circuit Ⓐ in two beats (the second with an erratum and two
numbers on screen, NUMBERS_SHOWN); fig-circuit Ⓑ; fig-circuit projected whole; the loop
anim-reverse; a figure not rendered; and the two section markers, each with its own
section's title and lines.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from tests.fixtures_media import HEIGHT, WIDTH, make_clip, make_still

# Beat lengths in seconds, per panel: every clip a different length.
BEATS = {"A": (1.2, 0.8), "B": (1.4,)}
LOOP_SECONDS = 1.0
ERRATUM = {"line": 14, "said": "4.15 TiB", "right": "4.07 TiB",
           "why": "激活按逐算子账单是 4.07 TiB，讲稿用的是旧的粗估", "key": "act_bill.total"}
# The ledger keys fig-circuit Ⓐ's second beat ends with on screen, as the kit drew them.
NUMBERS_SHOWN = ("act_bill.total", "stability.zloss")
LONG_LINE = ("这一行故意写得很长，长到在讲稿页上要折好几行：它数一数每个中文字占一个字宽，"
             "English words and numbers like 4.07 TiB, 671B and 10⁻³ take less, ") * 2


def last_frame_jpeg(video: Path, target: Path) -> Path:
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-sseof", "-0.1", "-i", str(video),
                    "-update", "1", "-q:v", "3", str(target)], check=True)
    return target


def beat_manifest(quality_dir: Path) -> dict[str, Any]:
    """Clips, beat posters and the manifest of one walkthrough with beats and one loop."""
    patterns = iter(["testsrc", "smptebars", "rgbtestsrc", "testsrc2", "smptehdbars", "pal75bars"])
    sections = []
    start = 0.0
    for panel, lengths in BEATS.items():
        beats = []
        for n, seconds in enumerate(lengths, start=1):
            clip = make_clip(quality_dir / "fig-circuit" / panel / f"{n}.mp4", seconds, next(patterns))
            last_frame_jpeg(clip, clip.with_suffix(".jpg"))
            beats.append({"n": n, "name": f"{panel}.{n}", "file": f"fig-circuit/{panel}/{n}.mp4",
                          "poster": f"fig-circuit/{panel}/{n}.jpg", "start_s": start, "end_s": start + seconds,
                          "duration_s": seconds, "says": None, "takeaway": None, "notes_line": None})
            start += seconds
        make_clip(quality_dir / "fig-circuit" / f"{panel}.mp4", sum(lengths), next(patterns))
        sections.append({"name": panel, "file": f"fig-circuit/{panel}.mp4", "duration_s": sum(lengths),
                         "beats": beats})
    whole = make_clip(quality_dir / "fig-circuit.mp4", start, "testsrc")
    make_still(whole, quality_dir / "fig-circuit.png")
    loop = make_clip(quality_dir / "anim-reverse.mp4", LOOP_SECONDS, "testsrc2")
    make_still(loop, quality_dir / "anim-reverse.png")
    manifest = {
        "quality": "low", "width": WIDTH, "height": HEIGHT, "fps": 15,
        "scenes": [
            {"id": "fig-circuit", "title": "一个能用眼睛检查的电路", "duration_s": start, "loop": False,
             "files": {"mp4": "fig-circuit.mp4", "png": "fig-circuit.png"}, "sections": sections},
            {"id": "anim-reverse", "title": "前向模式与反向模式", "duration_s": LOOP_SECONDS, "loop": True,
             "files": {"mp4": "anim-reverse.mp4", "png": "anim-reverse.png"}, "sections": []},
        ],
    }
    (quality_dir / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")
    return manifest


def _say(line: int, text: str) -> dict[str, Any]:
    return {"say": text, "line": line}


def _step(scene: str, view: str, beat: int | None, file: str | None, poster: str | None, lines: list[int],
          errata: list[dict] | None = None, loop: bool = False) -> dict[str, Any]:
    return {"scene": scene, "view": view, "panel": None if view == "whole" else view, "beat": beat,
            "file": file, "poster": poster, "loop": loop, "says": None, "lines": lines,
            "errata": errata or [], "estimated_s": 6.0}


def _cue(index: int, line: int, kind: str, text: str, script: list[dict], **fields) -> dict[str, Any]:
    cue = {"index": index, "line": line, "kind": kind, "text": text, "screen": text, "hints": [],
           "scene": None, "views": [], "section": 0, "marks": None, "opens": None, "title": "",
           "main_figure": None, "script": script, "lines": [s["say"] for s in script if "say" in s],
           "estimated_s": 12.0, "errata": []}
    cue.update(fields)
    if kind != "figure":  # a card: one step, no clip, every line
        cue["steps"] = [{"scene": None, "view": None, "panel": None, "beat": None, "file": None, "poster": None,
                         "loop": False, "says": None, "lines": list(range(len(script))), "errata": [],
                         "estimated_s": cue["estimated_s"]}]
    return cue


def beat_sheet() -> dict[str, Any]:
    """The cue sheet of the talk above, steps, errata and numbers filled in as cues.py publishes them."""
    from studio.track.number_sources import sheet_numbers, step_numbers

    circuit_a = [_say(11, "先看红色。"), {"note": "⭐ 停两秒", "line": 12}, _say(13, "再看蓝色。"),
                 _say(14, "激活要 4.15 TiB。"), _say(15, LONG_LINE)]
    cues = [
        _cue(0, 2, "title", "课件 s零", [_say(3, "开场的第一句。"), _say(4, "⚠️ 开场的第二句。")],
             title="第零节　开场"),
        _cue(1, 10, "figure", "fig-circuit，先只放 Ⓐ ⭐ 停两秒", circuit_a, hints=["⭐ 停两秒"],
             scene="fig-circuit", views=["A"], rendered=True, errata=[ERRATUM], steps=[
                 _step("fig-circuit", "A", 1, "fig-circuit/A/1.mp4", "fig-circuit/A/1.jpg", [0, 1]),
                 {**_step("fig-circuit", "A", 2, "fig-circuit/A/2.mp4", "fig-circuit/A/2.jpg", [2, 3, 4], [ERRATUM]),
                  "rehearsed_s": 71.4, "numbers": step_numbers(list(NUMBERS_SHOWN), sample_ledger())}]),
        _cue(2, 16, "figure", "平移到 Ⓑ", [_say(17, "⛔ 这是 Ⓑ。")], scene="fig-circuit", views=["B"],
             rendered=True, steps=[_step("fig-circuit", "B", 1, "fig-circuit/B/1.mp4", "fig-circuit/B/1.jpg", [0])]),
        _cue(3, 19, "section", "课件 第一节 电路 · 主图 fig-circuit", [_say(20, "第一节开头这一句。")], marks=0,
             section=1, opens=1, title="第一节　电路"),
        _cue(4, 22, "figure", "fig-circuit 整张投", [_say(23, "🖥 整张看一眼。")], scene="fig-circuit",
             views=["whole"], rendered=True, section=1,
             steps=[_step("fig-circuit", "whole", None, "fig-circuit.mp4", "fig-circuit.png", [0])]),
        _cue(5, 25, "figure", "anim-reverse", [_say(26, "反向模式一遍就够。")], scene="anim-reverse",
             views=["whole"], rendered=True, section=1,
             steps=[_step("anim-reverse", "whole", None, "anim-reverse.mp4", "anim-reverse.png", [0], loop=True)]),
        _cue(6, 28, "figure", "fig-slider，先只放 Ⓐ", [_say(29, "这张还没做。")], scene="fig-slider",
             views=["A"], rendered=False, section=1,
             steps=[_step("fig-slider", "A", None, None, None, [0])]),
        _cue(7, 31, "section", "课件 第一节 电路 · 主图 fig-circuit", [_say(32, "讲完了。")], marks=1,
             section=1, opens=None, title="第一节　电路", main_figure="fig-circuit"),
    ]
    return {"notes": "assets/lecture-notes.txt", "quality": "low", "cues": cues,
            "sections": [{"number": 0, "title": "第零节　开场"}, {"number": 1, "title": "第一节　电路"}],
            "numbers": sheet_numbers(cues, sample_ledger())}


def sample_ledger() -> dict[str, dict[str, Any]]:
    """One number of each kind, and an input no scene draws (it belongs where its user is shown)."""
    def entry(key, kind, display, scenes, **fields):
        return {"key": key, "kind": kind, "display": display, "unit": fields.pop("unit", ""), "value": None,
                "measures": fields.pop("measures", ""), "scenes": scenes, "status": fields.pop("status", ""),
                "role": "shown" if scenes else "input", "notes_quote": "", **fields}

    return {
        "act_bill.total": entry("act_bill.total", "derived", "4.07", ["fig-circuit"], unit="TiB",
                                measures="V3 激活账单", measures_zh="V3 的激活账单", unit_zh="TiB",
                                formula="Σ 每个算子的字节 × 层数 ÷ 2^40",
                                inputs={"layers": {"key": "model.v3.layers", "display": "61", "unit": "", "value": 61}}),
        "model.v3.layers": entry("model.v3.layers", "sourced", "61", [], measures="V3 的层数",
                                 citation="DeepSeek-V3 技术报告 §4.2"),
        "reverse.n_inputs": entry("reverse.n_inputs", "chosen", "1000", ["anim-reverse"],
                                  reason="讲者的例子", notes_quote="一千个输入"),
        "spoken.reverse_once": entry("spoken.reverse_once", "chosen", "1", [], unit="遍",
                                     measures="反向模式走几遍", reason="讲者的例子", notes_quote="反向模式一遍就够"),
        "stability.zloss": entry("stability.zloss", "sourced", "1e-3", ["fig-slider"], status="待核",
                                 citation="ST-MoE 表 4（转写，未读原文）"),
    }


def real_notes_sheet() -> dict[str, Any]:
    """The real notes' cue sheet against a render of nothing, each cue given the steps of a
    sheet without beats (one per view, each with every line of its cue), all placeholders:
    the whole talk's text in the deck's notes, at no rendering cost."""
    from studio.track import cues

    sheet = cues.with_media(cues.build_sheet(), {"scenes": []})
    for cue in sheet["cues"]:
        every_line = list(range(len(cue["script"])))
        views = cue["views"] if cue["kind"] == "figure" else [None]
        cue["steps"] = [{"scene": cue.get("scene"), "view": view, "panel": None, "beat": None, "file": None,
                         "poster": None, "loop": False, "says": None, "lines": every_line,
                         "errata": cue.get("errata") or [], "estimated_s": cue["estimated_s"] / len(views)}
                        for view in views]
    return sheet
