"""Turn raw benchmark measurements into derived measures, target verdicts, a table and JSON.

Pure: no processes, no clocks. ``bench/measure.py`` produces the raw numbers and
``bench/run.py`` wires the two together, so this part is testable on synthetic numbers.

Definitions (also printed under the table):
- ours ÷ stock (issue 31's figures): each scene's whole `render.py ID --force` command (the
  default jobs; `--jobs 1` when the run records memory) divided by stock `manim render` of the same scene file at the same preset; the
  default-jobs batch divided by stock manim rendering the same scenes one after another; the
  SSIM of our MP4 against a lossless render divided by the SSIM of stock manim's MP4.
- render ÷ encode-only (information since issue 31): the pipeline's per-scene wall (worker start to files published)
  divided by the wall x264 needs to re-encode the same frames (crf 23, preset medium, yuv420p):
  the scene's encoder floor.
- batch ÷ floors: the default-jobs batch wall divided by the sum of the scenes' floors.
- real-time factor: the batch's seconds of video divided by the default-jobs batch wall.
- parallel efficiency: the summed one-scene commands' wall / (jobs × wall(--jobs default)).
- GIF size per 10 s: GIF bytes / 10⁶ per 10 s of video (MB = 10⁶ bytes).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

MB = 1_000_000
GB = 1e9


@dataclass(frozen=True)
class Target:
    key: str
    label: str
    limit: float
    at_most: bool          # True: value ≤ limit passes; False: value ≥ limit passes
    unit: str = ""

    def met(self, value: float | None) -> bool | None:
        if value is None:
            return None
        return value <= self.limit if self.at_most else value >= self.limit

    def describe(self) -> str:
        sign = "≤" if self.at_most else "≥"
        limit = f"{self.limit * 100:g} %" if self.unit == "%" else f"{self.limit:g}{self.unit}"
        return f"{sign} {limit}"


TARGETS = {
    "ours_over_stock": Target("ours_over_stock", "whole command ÷ stock manim (each scene)", 0.6, True),
    "batch_over_stock": Target("batch_over_stock", "batch, default jobs ÷ stock manim one after another", 0.5, True),
    "ssim_over_stock": Target("ssim_over_stock", "SSIM ours ÷ stock's, against lossless (each scene)", 1.0, False),
    "realtime_factor": Target("realtime_factor", "batch video s ÷ wall (default jobs)", 1.0, False),
    "parallel_efficiency": Target("parallel_efficiency", "parallel efficiency (2 jobs)", 0.85, False, "%"),
    "noop_s": Target("noop_s", "no-op re-run wall", 1.0, True, " s"),
    "preview_s": Target("preview_s", "cold preview at low (each scene)", 15.0, True, " s"),
    "panel_cold_s": Target("panel_cold_s", "beat preview cold, slowest beat (each scene)", 5.0, True, " s"),
    "panel_warm_s": Target("panel_warm_s", "beat preview warm repeat (each scene)", 0.5, True, " s"),
    "gif_mb_per_10s": Target("gif_mb_per_10s", "GIF MB per 10 s (each scene)", 5.0, True, " MB"),
}
# A worker's peak memory limit per quality (issue 17): the default --jobs is planned from
# these peaks (config/memory.json), so each must stay small enough to run several at once.
WORKER_PEAK_GB = {"high": 1.5, "4k": 4.0}
TARGETS["worker_peak_gb"] = Target("worker_peak_gb", "peak RSS per worker (each scene, at high)",
                                   WORKER_PEAK_GB["high"], True, " GB")


def _ratio(numerator: float | None, denominator: float | None) -> float | None:
    if numerator is None or not denominator:
        return None
    return numerator / denominator


def scene_row(raw: dict, cores: int | None = None) -> dict:
    """Derived measures for one scene from its raw measurements (missing ones stay None)."""
    row = dict(raw)
    # The measure: `render.py ID` end to end (start-up, worker, GIF, poster, clips).
    row["render_over_encode"] = _ratio(raw.get("command_s"), raw.get("encode_only_s"))
    # No pipeline that draws these frames and x264-encodes them can beat this on these cores:
    # the drawing thread's CPU plus x264's, spread perfectly over every core, against the floor.
    drawn = raw.get("worker_main_cpu_s")
    encoded = raw.get("encode_cpu_s")
    row["bound_over_encode"] = (_ratio((drawn + encoded) / cores, raw.get("encode_only_s"))
                                if cores and drawn is not None and encoded is not None else None)
    row["manim_over_pipeline"] = _ratio(raw.get("manim_s"), raw.get("command_s"))
    row["ours_over_stock"] = _ratio(raw.get("command_s"), raw.get("manim_s"))
    # The same in CPU seconds: on a shared machine a command's wall depends on who else runs.
    row["cpu_ours_over_stock"] = _ratio(raw.get("command_cpu_s"), raw.get("manim_cpu_s"))
    row["ssim_over_stock"] = _ratio(raw.get("ssim"), raw.get("manim_ssim"))
    row["mp4_over_stock"] = _ratio(raw.get("mp4_bytes"), raw.get("manim_mp4_bytes"))
    # The same comparison in CPU seconds: far less sensitive to other people's load than wall.
    row["worker_cpu_over_encode_cpu"] = _ratio(raw.get("worker_cpu_s"), raw.get("encode_cpu_s"))
    # GB = 10⁹ bytes; the kernel's kB are KiB.
    row["worker_peak_gb"] = raw["peak_rss_kb"] * 1024 / GB if raw.get("peak_rss_kb") is not None else None
    gif_mb = raw["gif_bytes"] / MB if raw.get("gif_bytes") is not None else None
    row["gif_mb_per_10s"] = _ratio(gif_mb * 10 if gif_mb is not None else None, raw.get("video_s"))
    return row


def ideal_efficiency(render_s: list[float], jobs: int) -> float | None:
    """The best efficiency this batch allows: scenes don't split, so the wall is at least
    the longest scene and at least the total shared over the jobs."""
    if not render_s or jobs < 1:
        return None
    total = sum(render_s)
    best_wall = max(max(render_s), total / jobs)
    return total / (jobs * best_wall) if best_wall else None


def batch_summary(raw: dict, rows: list[dict]) -> dict:
    jobs = raw.get("jobs")
    wall_1, wall_n = raw.get("wall_jobs1_s"), raw.get("wall_default_s")
    rendered = [r for r in rows if r.get("video_s") is not None and r.get("status") == "done"]
    video_s = sum(r["video_s"] for r in rendered) if rendered else None
    summary = dict(raw)
    summary["video_s"] = video_s
    summary["realtime_factor"] = _ratio(video_s, wall_n)
    floors = [r.get("encode_only_s") for r in rendered]
    summary["floors_s"] = sum(floors) if floors and None not in floors else None
    summary["batch_over_floors"] = _ratio(wall_n, summary["floors_s"])
    # Each scene's bound is its best wall ÷ its floor; the batch's is their summed best walls.
    best = [r["bound_over_encode"] * r["encode_only_s"] for r in rendered if r.get("bound_over_encode") is not None]
    summary["bound_over_floors"] = (_ratio(sum(best), summary["floors_s"])
                                    if rendered and len(best) == len(rendered) else None)
    # Speed-up per job needs the one-worker walls: measured only when the scenes ran --jobs 1.
    one_worker = raw.get("scene_jobs", 1) == 1
    summary["parallel_efficiency"] = _ratio(wall_1, jobs * wall_n) if jobs and wall_n and one_worker else None
    summary["efficiency_ceiling"] = ideal_efficiency([r["render_s"] for r in rendered if r.get("render_s")], jobs or 0)
    peaks = [r["worker_peak_gb"] for r in rows if r.get("worker_peak_gb") is not None]
    summary["worker_peak_gb"] = max(peaks) if peaks else None
    summary["cores_used_jobs1"] = _ratio(raw.get("cpu_jobs1_s"), wall_1)
    summary["cores_used_default"] = _ratio(raw.get("cpu_default_s"), wall_n)
    summary["manim_over_pipeline_jobs1"] = _ratio(raw.get("manim_total_s"), wall_1)
    summary["manim_over_pipeline_default"] = _ratio(raw.get("manim_total_s"), wall_n)
    summary["batch_over_stock"] = _ratio(wall_n, raw.get("manim_total_s"))
    summary["manim_cpu_over_pipeline_cpu"] = _ratio(raw.get("manim_cpu_total_s"), raw.get("cpu_jobs1_s"))
    for kind in ("mp4", "gif", "manim_mp4"):
        sizes = [r.get(f"{kind}_bytes") for r in rendered]
        summary[f"{kind}_total_bytes"] = sum(sizes) if sizes and None not in sizes else None
    summary["mp4_total_over_stock"] = _ratio(summary["mp4_total_bytes"], summary["manim_mp4_total_bytes"])
    return summary


def verdicts(rows: list[dict], batch: dict, quality: str) -> list[dict]:
    """One line per target: the measured value (worst scene for per-scene targets) and met or not."""
    out = []

    def add(target: Target, value, scope: str, note: str = "") -> None:
        out.append({"key": target.key, "label": target.label, "scope": scope, "value": value,
                    "target": target.describe(), "met": target.met(value), "note": note})

    off_quality = "" if quality == "high" else f"target is defined at high; measured at {quality}"
    for row in rows:
        add(TARGETS["ours_over_stock"], row.get("ours_over_stock"), row["id"], off_quality)
    partial = batch.get("partial_note", "")
    add(TARGETS["batch_over_stock"], batch.get("batch_over_stock"), "batch",
        "; ".join(n for n in (off_quality, partial) if n))
    for row in rows:
        add(TARGETS["ssim_over_stock"], row.get("ssim_over_stock"), row["id"])
    add(TARGETS["realtime_factor"], batch.get("realtime_factor"), "batch", off_quality)
    jobs_note = "" if batch.get("jobs") == 2 else f"measured with {batch.get('jobs')} jobs"
    add(TARGETS["parallel_efficiency"], batch.get("parallel_efficiency"), "batch", jobs_note)
    cached = batch.get("noop_all_cached")
    noop_note = {True: "", False: "re-run was not all cached", None: "pipeline printed no summary"}[cached]
    noop_note = noop_note if batch.get("noop_s") is not None else ""
    add(TARGETS["noop_s"], batch.get("noop_s"), "batch", noop_note)
    for row in rows:
        add(TARGETS["preview_s"], row.get("preview_s"), row["id"])
    for row in rows:
        note = f"--section {row['panel_worst']}" if row.get("panel_worst") else ""
        add(TARGETS["panel_cold_s"], row.get("panel_cold_s"), row["id"], note)
        add(TARGETS["panel_warm_s"], row.get("panel_warm_s"), row["id"])
    for row in rows:
        add(TARGETS["gif_mb_per_10s"], row.get("gif_mb_per_10s"), row["id"], off_quality)
    peak_target = TARGETS["worker_peak_gb"]
    if quality in WORKER_PEAK_GB:
        peak_target = replace(peak_target, label=f"peak RSS per worker (each scene, at {quality})",
                              limit=WORKER_PEAK_GB[quality])
    for row in rows:
        if quality in WORKER_PEAK_GB:
            add(peak_target, row.get("worker_peak_gb"), row["id"])
        else:  # shown beside the targets there are, judged only where one is set
            out.append({"key": peak_target.key, "label": f"peak RSS per worker (each scene, at {quality})",
                        "scope": row["id"], "value": row.get("worker_peak_gb"), "target": "—", "met": None,
                        "note": f"no target at {quality}; " + ", ".join(f"≤ {v:g} GB at {q}" for q, v in WORKER_PEAK_GB.items())})
    return out


def summarise(raw: dict) -> dict:
    """The whole report: meta, per-scene rows, batch summary and target verdicts."""
    rows = [scene_row(s, raw["meta"].get("cpus")) for s in raw["scenes"]]
    batch = batch_summary(raw.get("batch", {}), rows)
    return {"meta": raw.get("meta", {}), "scenes": rows, "batch": batch,
            "targets": verdicts(rows, batch, raw.get("meta", {}).get("quality", "high")),
            "problems": raw.get("problems", [])}


# -- text ----------------------------------------------------------------------------

def _num(value, digits: int = 1, suffix: str = "") -> str:
    if value is None:
        return "—"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value}{suffix}"
    return f"{value:.{digits}f}{suffix}"


def _verdict(met: bool | None) -> str:
    return {True: "met", False: "NOT met", None: "n/a"}[met]


def _grid(header: list[str], lines: list[list[str]]) -> list[str]:
    widths = [max(len(h), *(len(line[i]) for line in lines)) if lines else len(h) for i, h in enumerate(header)]
    fmt = lambda cells: "  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths)))
    return [fmt(header), "  ".join("-" * w for w in widths), *(fmt(line) for line in lines)]


SCENE_COLUMNS = ["scene", "status", "frames", "video s", "command s", "manim s", "ours/stock", "CPU ours/stock", "SSIM", "stock SSIM",
                 "SSIM ratio", "MP4/stock", "render s", "worker s", "post s", "gif s", "encode s",
                 "cmd/enc", "bound/enc", "wkr CPU s", "main CPU s", "enc CPU s", "CPU ratio", "RSS MB", "manim RSS", "preview s", "panel cold s", "panel warm s", "GIF MB/10s"]


def _scene_cells(r: dict) -> list[str]:
    rss = lambda kb: None if kb is None else kb / 1024
    return [r["id"], r.get("status") or "—", _num(r.get("frames")), _num(r.get("video_s")), _num(r.get("command_s")),
            _num(r.get("manim_s")), _num(r.get("ours_over_stock"), 2), _num(r.get("cpu_ours_over_stock"), 2),
            _num(r.get("ssim"), 5), _num(r.get("manim_ssim"), 5),
            _num(r.get("ssim_over_stock"), 4), _num(r.get("mp4_over_stock"), 2),
            _num(r.get("render_s")),
            _num(r.get("worker_s")), _num(r.get("post_s")), _num(r.get("gif_s")), _num(r.get("encode_only_s")),
            _num(r.get("render_over_encode"), 2), _num(r.get("bound_over_encode"), 2), _num(r.get("worker_cpu_s")), _num(r.get("worker_main_cpu_s")),
            _num(r.get("encode_cpu_s")),
            _num(r.get("worker_cpu_over_encode_cpu"), 2), _num(rss(r.get("peak_rss_kb")), 0),
            _num(rss(r.get("manim_peak_rss_kb")), 0),
            _num(r.get("preview_s")), _num(r.get("panel_cold_s")), _num(r.get("panel_warm_s"), 2),
            _num(r.get("gif_mb_per_10s"), 2)]


def _batch_lines(b: dict) -> list[list[str]]:
    pct = lambda v: None if v is None else v * 100
    return [
        ["batch video", _num(b.get("video_s"), 1, " s")],
        ["wall, one scene at a time (summed commands)", _num(b.get("wall_jobs1_s"), 1, " s")],
        [f"wall, --jobs {b.get('jobs')} (default)", _num(b.get("wall_default_s"), 1, " s")],
        ["cores we got, one scene at a time (CPU s ÷ wall)", _num(b.get("cores_used_jobs1"), 2)],
        ["cores we got, default jobs", _num(b.get("cores_used_default"), 2)],
        ["parallel efficiency", _num(pct(b.get("parallel_efficiency")), 0, " %")],
        ["  ceiling from scene lengths", _num(pct(b.get("efficiency_ceiling")), 0, " %")],
        ["real-time factor (video ÷ default wall)", _num(b.get("realtime_factor"), 2, "×")],
        ["summed encoder floors (x264 alone)", _num(b.get("floors_s"), 1, " s")],
        ["  default wall ÷ floors", _num(b.get("batch_over_floors"), 2, "×")],
        ["  best possible ÷ floors (drawing + x264 CPU ÷ cores)", _num(b.get("bound_over_floors"), 2, "×")],
        ["no-op re-run", _num(b.get("noop_s"), 2, " s")],
        ["peak RSS per worker (largest scene, one at a time)", _num(b.get("worker_peak_gb"), 2, " GB")],
        ["import manim alone", _num(b.get("import_manim_s"), 2, " s")],
        ["MP4 bytes, whole lecture", _num(_mb(b.get("mp4_total_bytes")), 1, " MB")],
        ["  stock manim's MP4 bytes", _num(_mb(b.get("manim_mp4_total_bytes")), 1, " MB")],
        ["  ours ÷ stock", _num(b.get("mp4_total_over_stock"), 2, "×")],
        ["GIF bytes, whole lecture", _num(_mb(b.get("gif_total_bytes")), 1, " MB")],
        [f"deck bytes (render.py --pptx, clips at {b.get('deck_quality') or '—'})", _num(_mb(b.get("deck_bytes")), 1, " MB")],
        ["stock manim, sequential, caching off", _num(b.get("manim_total_s"), 1, " s")],
        ["  stock ÷ ours, one scene at a time", _num(b.get("manim_over_pipeline_jobs1"), 2, "×")],
        ["  stock ÷ ours default jobs", _num(b.get("manim_over_pipeline_default"), 2, "×")],
        ["  ours default jobs ÷ stock (the target)", _num(b.get("batch_over_stock"), 2, "×")],
        ["  stock CPU s ÷ ours CPU s (one scene at a time)", _num(b.get("manim_cpu_over_pipeline_cpu"), 2, "×")],
    ]


def _mb(n: int | None) -> float | None:
    return None if n is None else n / MB


def _target_value(t: dict) -> str:
    if t["key"] == "parallel_efficiency":
        return _num(None if t["value"] is None else t["value"] * 100, 0, " %")
    return _num(t["value"], 2)


def format_table(summary: dict) -> str:
    meta, b = summary["meta"], summary["batch"]
    head = (f"benchmark at {meta.get('quality')} ({meta.get('width')}x{meta.get('height')}@{meta.get('fps')}), "
            f"encoder {meta.get('encoder', 'default')}, "
            f"{meta.get('cpus')} cores, load {meta.get('load_before')} → {meta.get('load_after')}, {meta.get('started')}")
    lines = [head, ""]
    lines += _grid(SCENE_COLUMNS, [_scene_cells(r) for r in summary["scenes"]])
    lines += ["", *_grid(["batch", "value"], _batch_lines(b)), ""]
    lines += _grid(["target", "scope", "value", "target", "verdict", "note"],
                   [[t["label"], t["scope"], _target_value(t), t["target"], _verdict(t["met"]), t["note"]]
                    for t in summary["targets"]])
    for problem in summary.get("problems", []):
        lines.append(f"problem: {problem['step']} exited {problem['exit']}: {problem['stderr_tail']}")
    met = sum(t["met"] is True for t in summary["targets"])
    judged = sum(t["met"] is not None for t in summary["targets"])
    lines += ["", f"{met}/{judged} targets met.",
              "ours/stock = command s ÷ manim s (stock `manim render --disable_caching` at the same preset, run right "
              "after ours: the target); CPU ours/stock = the same two commands' CPU seconds (information); "
              "SSIM = our MP4 against a lossless render of the same frames (ffmpeg's ssim 'All', every frame), stock SSIM = "
              "stock manim's MP4 against it; MP4/stock = our MP4 bytes ÷ stock's; "
              "command s = `render.py ID --force` alone (default jobs: two workers cut one scene; --jobs 1 with --record-memory), end to end; cmd/enc = command s ÷ encode s (the target); "
              "bound/enc = (main CPU + enc CPU) ÷ cores ÷ encode s, the best ratio drawing these frames and x264-encoding them "
              "allows on these cores; "
              "render s = pipeline per scene (worker start → files published) = worker s + post s (mp4 remux, GIF, poster, "
              "section clips); gif s = the GIF step alone (the second encode of the frames); encode s = x264 alone "
              "on the same frames; main CPU = the worker's main thread (import, build, draw; the rest of wkr CPU is manim's "
              "encoder threads); CPU ratio = worker CPU ÷ x264 CPU (load-independent view of rend/enc); manim s = stock `manim render` command wall; RSS = peak of the scene's worker; "
              "panel cold s = the slowest beat's `--preview ID --section A.2` (a panel's name where beats are not "
              "previewed yet) into a fresh folder (the last one only with --quick), panel warm s = the same command repeated."]
    return "\n".join(lines)


def to_json(summary: dict) -> str:
    return json.dumps(summary, indent=2, ensure_ascii=False)
