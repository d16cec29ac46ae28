"""The benchmark's arithmetic, verdicts, table and JSON on synthetic measurements (nothing is timed)."""

from __future__ import annotations

import io
import json
import re

import pytest

from bench import measure, report


def synthetic(**batch_overrides) -> dict:
    """Two rendered scenes and one failed, with round numbers whose derived values are known by hand."""
    scenes = [
        {"id": "fig-a", "status": "done", "frames": 600, "video_s": 10.0, "command_s": 15.0, "render_s": 14.0,
         "worker_s": 12.0, "post_s": 3.0, "encode_only_s": 10.0, "worker_cpu_s": 20.0, "worker_main_cpu_s": 5.0,
         "encode_cpu_s": 16.0, "peak_rss_kb": 512 * 1024, "manim_s": 45.0,
         "manim_peak_rss_kb": 400 * 1024, "preview_s": 9.0, "gif_bytes": 4_000_000,
         "ssim": 0.9990, "manim_ssim": 0.9985, "mp4_bytes": 3_000_000, "manim_mp4_bytes": 1_000_000},
        {"id": "anim-b", "status": "done", "frames": 1200, "video_s": 20.0, "command_s": 60.0, "render_s": 58.0, "worker_s": 55.0,
         "post_s": 5.0, "encode_only_s": 20.0, "peak_rss_kb": 900 * 1024, "manim_s": 300.0,
         "manim_peak_rss_kb": 1000 * 1024, "preview_s": 21.0, "gif_bytes": 12_000_000,
         "ssim": 0.9970, "manim_ssim": 0.9985},
        {"id": "broken", "status": "failed", "render_s": 2.0, "error": "RuntimeError: boom"},
    ]
    batch = {"jobs": 2, "wall_jobs1_s": 80.0, "wall_default_s": 50.0, "cpu_jobs1_s": 120.0, "cpu_default_s": 95.0, "noop_s": 1.5, "noop_all_cached": True,
             "manim_total_s": 345.0, "manim_cpu_total_s": 240.0, "import_manim_s": 1.2, **batch_overrides}
    meta = {"quality": "high", "width": 1920, "height": 1080, "fps": 60, "cpus": 2}
    return {"meta": meta, "scenes": scenes, "batch": batch, "problems": []}


def verdict(summary: dict, key: str, scope: str) -> dict:
    return next(t for t in summary["targets"] if t["key"] == key and t["scope"] == scope)


def test_per_scene_ratios():
    rows = {r["id"]: r for r in report.summarise(synthetic())["scenes"]}
    assert rows["fig-a"]["render_over_encode"] == pytest.approx(1.5)
    assert rows["anim-b"]["render_over_encode"] == pytest.approx(3.0)
    assert rows["fig-a"]["manim_over_pipeline"] == pytest.approx(3.0)
    assert rows["anim-b"]["manim_over_pipeline"] == pytest.approx(5.0)
    # 4 MB over 10 s and 12 MB over 20 s
    assert rows["fig-a"]["gif_mb_per_10s"] == pytest.approx(4.0)
    assert rows["anim-b"]["gif_mb_per_10s"] == pytest.approx(6.0)
    assert rows["fig-a"]["worker_cpu_over_encode_cpu"] == pytest.approx(1.25)
    assert rows["anim-b"]["worker_cpu_over_encode_cpu"] is None          # CPU not sampled
    assert rows["broken"]["render_over_encode"] is None
    # the whole command (15 s), not the pipeline's own 14 s, against the floor
    # bound: (5 s drawing + 16 s x264) over 2 cores = 10.5 s against a 10 s floor
    assert rows["fig-a"]["bound_over_encode"] == pytest.approx(1.05)
    assert rows["anim-b"]["bound_over_encode"] is None                   # CPU not sampled


def test_whole_lecture_bytes_beside_time():
    raw = synthetic(deck_bytes=90_000_000, deck_quality="medium")
    raw["scenes"][1].update(mp4_bytes=5_000_000, manim_mp4_bytes=3_000_000)
    summary = report.summarise(raw)
    b = summary["batch"]
    # Rendered scenes only (the failed one has no files): 3 + 5 MB ours, 1 + 3 MB stock's.
    assert (b["mp4_total_bytes"], b["manim_mp4_total_bytes"], b["gif_total_bytes"]) == (8_000_000, 4_000_000, 16_000_000)
    assert b["mp4_total_over_stock"] == pytest.approx(2.0)
    table = report.format_table(summary)
    assert re.search(r"MP4 bytes, whole lecture\s+8\.0 MB", table)
    assert re.search(r"ours ÷ stock\s+2\.00×", table)
    assert re.search(r"deck bytes \(render.py --pptx, clips at medium\)\s+90\.0 MB", table)
    # A scene without stock's MP4 leaves the total ratio open rather than wrong.
    raw["scenes"][1].pop("manim_mp4_bytes")
    assert report.summarise(raw)["batch"]["mp4_total_over_stock"] is None


def test_batch_bound_needs_every_scene():
    only_a = synthetic()
    only_a["scenes"] = only_a["scenes"][:1]
    assert report.summarise(only_a)["batch"]["bound_over_floors"] == pytest.approx(1.05)
    assert report.summarise(synthetic())["batch"]["bound_over_floors"] is None


def test_batch_measures_count_only_rendered_scenes():
    batch = report.summarise(synthetic())["batch"]
    assert batch["video_s"] == pytest.approx(30.0)               # the failed scene adds nothing
    assert batch["realtime_factor"] == pytest.approx(30.0 / 50.0)
    assert batch["parallel_efficiency"] == pytest.approx(80.0 / (2 * 50.0))
    # longest scene 58 s of 72 s total (in a batch: no per-command start-up): 2 jobs can at
    # best finish in 58 s → 72 / 116
    assert batch["efficiency_ceiling"] == pytest.approx(72.0 / 116.0)
    assert batch["manim_over_pipeline_jobs1"] == pytest.approx(345.0 / 80.0)
    assert batch["manim_cpu_over_pipeline_cpu"] == pytest.approx(2.0)
    assert batch["cores_used_jobs1"] == pytest.approx(1.5)
    assert batch["cores_used_default"] == pytest.approx(1.9)


def test_ideal_efficiency_when_scenes_balance():
    assert report.ideal_efficiency([10.0, 10.0, 10.0, 10.0], 2) == pytest.approx(1.0)
    assert report.ideal_efficiency([30.0], 2) == pytest.approx(0.5)
    assert report.ideal_efficiency([], 2) is None


def test_ours_against_stock_manim():
    """Issue 31's figures: each command ÷ stock manim's, the batch ÷ stock one after another,
    SSIM ÷ stock's SSIM, and (information) the MP4's size ÷ stock's."""
    summary = report.summarise(synthetic())
    rows = {r["id"]: r for r in summary["scenes"]}
    assert rows["fig-a"]["ours_over_stock"] == pytest.approx(15.0 / 45.0)
    assert rows["anim-b"]["ours_over_stock"] == pytest.approx(60.0 / 300.0)
    assert rows["fig-a"]["ssim_over_stock"] == pytest.approx(0.9990 / 0.9985)
    assert rows["fig-a"]["mp4_over_stock"] == pytest.approx(3.0)
    assert rows["fig-a"]["cpu_ours_over_stock"] is None                     # CPU not measured
    assert rows["broken"]["ours_over_stock"] is None
    assert summary["batch"]["batch_over_stock"] == pytest.approx(50.0 / 345.0)
    assert verdict(summary, "ours_over_stock", "fig-a")["met"] is True
    assert verdict(summary, "ours_over_stock", "broken")["met"] is None
    assert verdict(summary, "batch_over_stock", "batch")["met"] is True
    assert verdict(summary, "ssim_over_stock", "fig-a")["met"] is True
    assert verdict(summary, "ssim_over_stock", "anim-b")["met"] is False      # 0.9970 < 0.9985
    raw = synthetic()
    raw["scenes"][0]["command_s"] = 30.0                                       # 30 of stock's 45 s: 0.67
    assert verdict(report.summarise(raw), "ours_over_stock", "fig-a")["met"] is False


def test_verdicts_against_targets():
    summary = report.summarise(synthetic())
    assert verdict(summary, "realtime_factor", "batch")["met"] is False
    assert verdict(summary, "parallel_efficiency", "batch")["met"] is False   # 80 % < 85 %
    assert verdict(summary, "noop_s", "batch")["met"] is False                 # 1.5 s > 1 s
    assert verdict(summary, "preview_s", "fig-a")["met"] is True
    assert verdict(summary, "preview_s", "anim-b")["met"] is False            # 21 s > 15 s
    assert verdict(summary, "gif_mb_per_10s", "fig-a")["met"] is True          # 4.0 ≤ 5
    assert verdict(summary, "gif_mb_per_10s", "anim-b")["met"] is False


def test_limits_are_inclusive():
    summary = report.summarise(synthetic(wall_jobs1_s=85.0, noop_s=1.0, wall_default_s=172.5))
    assert verdict(summary, "noop_s", "batch")["met"] is True                 # exactly 1 s
    assert verdict(summary, "batch_over_stock", "batch")["met"] is True       # 172.5 of 345 s: exactly 0.5
    raw = synthetic()
    raw["scenes"][0].update(command_s=27.0, ssim=0.9985)                      # exactly 0.6 and 1.0
    summary = report.summarise(raw)
    assert verdict(summary, "ours_over_stock", "fig-a")["met"] is True
    assert verdict(summary, "ssim_over_stock", "fig-a")["met"] is True
    summary = report.summarise(synthetic(wall_jobs1_s=85.0))
    assert verdict(summary, "parallel_efficiency", "batch")["met"] is True    # exactly 85 %


def test_the_floor_ratios_stay_as_information():
    """The x264-medium floor ratios are still computed and shown, but no longer judged."""
    summary = report.summarise(synthetic())
    batch = summary["batch"]
    assert batch["floors_s"] == pytest.approx(30.0)           # the failed scene has no floor
    assert batch["batch_over_floors"] == pytest.approx(50.0 / 30.0)
    assert not {"render_over_encode", "batch_over_floors"} & {t["key"] for t in summary["targets"]}
    assert "cmd/enc" in report.format_table(summary)


def test_notes_flag_off_quality_and_uncached_noop():
    raw = synthetic(noop_all_cached=False, jobs=4)
    raw["meta"]["quality"] = "low"
    summary = report.summarise(raw)
    assert "measured at low" in verdict(summary, "ours_over_stock", "fig-a")["note"]
    assert "not all cached" in verdict(summary, "noop_s", "batch")["note"]
    assert "4 jobs" in verdict(summary, "parallel_efficiency", "batch")["note"]


def test_skipped_steps_give_no_verdict():
    raw = synthetic()
    for key in ("wall_default_s", "noop_s", "noop_all_cached", "manim_total_s"):
        raw["batch"].pop(key)
    for scene in raw["scenes"]:
        scene.pop("preview_s", None)
    summary = report.summarise(raw)
    assert verdict(summary, "parallel_efficiency", "batch")["met"] is None
    assert (verdict(summary, "noop_s", "batch")["met"], verdict(summary, "noop_s", "batch")["note"]) == (None, "")
    assert all(t["met"] is None for t in summary["targets"] if t["key"] == "preview_s")
    assert re.search(r"stock manim, sequential, caching off\s+—", report.format_table(summary))


def test_table_shows_every_scene_target_and_problem():
    raw = synthetic()
    raw["problems"] = [{"step": "render.py --jobs 1", "exit": 1, "stderr_tail": "RuntimeError: boom"}]
    text = report.format_table(report.summarise(raw))
    for scene_id in ("fig-a", "anim-b", "broken"):
        assert scene_id in text
    assert "NOT met" in text and " met " in text
    assert "80 %" in text                      # parallel efficiency
    assert "render.py --jobs 1 exited 1: RuntimeError: boom" in text
    judged = sum(t["met"] is not None for t in report.summarise(raw)["targets"])
    met = sum(t["met"] is True for t in report.summarise(raw)["targets"])
    assert f"{met}/{judged} targets met." in text


def test_json_round_trips():
    summary = report.summarise(synthetic())
    loaded = json.loads(report.to_json(summary))
    assert loaded["batch"]["parallel_efficiency"] == pytest.approx(0.8)
    assert [r["id"] for r in loaded["scenes"]] == ["fig-a", "anim-b", "broken"]
    assert {t["key"] for t in loaded["targets"]} == set(report.TARGETS)


def test_progress_lines_give_phases():
    stderr = [(1.0, "[0/2] fig-a: rendering"), (9.0, "[0/2] fig-a: encoding"), (10.0, "[0/2] fig-a: publishing"),
              (11.5, "[1/2] fig-a: done in 10.4 s"), (11.6, "[1/2] bad: rendering"),
              (12.0, "[2/2] bad: failed in 0.4 s: RuntimeError: boom"), (12.1, "some other line"),
              (13.0, "[1/1] fig-c: done in 7.5 s (two workers, the second from beat B.2)")]
    timings = measure.scene_timings(stderr)
    assert timings["fig-a"]["status"] == "done"
    assert timings["fig-a"]["render_s"] == pytest.approx(10.4)
    assert timings["fig-a"]["worker_s"] == pytest.approx(8.0)
    assert timings["fig-a"]["post_s"] == pytest.approx(2.5)
    assert timings["bad"] == {"status": "failed", "render_s": 0.4, "error": "RuntimeError: boom"}
    assert timings["fig-c"] == {"status": "done", "render_s": 7.5, "how": "two workers, the second from beat B.2"}


def test_summary_line_counts():
    assert measure.batch_counts("x\n0 rendered, 3 cached, 0 failed → out/high\n") == {"rendered": 0, "cached": 3, "failed": 0}
    assert measure.batch_counts("Traceback …") is None


def test_raw_frames_are_copied_in_whole_chunks(tmp_path):
    frame_bytes, frames = 6, 10
    source = io.BytesIO(bytes(range(frame_bytes * frames)) + b"xy")   # a torn last frame is dropped
    target = tmp_path / "chunk.yuv"
    copied = []
    while (n := measure._copy_frames(source, target, frame_bytes, max_frames=4)):
        copied.append((n, target.stat().st_size))
    assert copied == [(4, 24), (4, 24), (2, 12)]


def test_ours_and_stock_take_turns_scene_by_scene(tmp_path, monkeypatch):
    """On a shared machine the load drifts: each scene's stock render runs right after ours,
    and the baseline step only sums them (it renders nothing twice)."""
    from bench import run

    calls = []
    entries = [type("E", (), {"scene_id": sid, "path": tmp_path / f"{sid}.py", "class_name": sid.title()})()
               for sid in ("fig-a", "fig-b")]
    monkeypatch.setattr(run.registry, "select", lambda ids: entries)
    monkeypatch.setattr(measure, "pipeline_batch", lambda ids, *a, **k: calls.append(f"ours {ids[0]}") or
                        (measure.Run(10.0, 0, "", [], 0, 9.0), {}))
    monkeypatch.setattr(measure, "published", lambda quality_dir, sid: {})
    monkeypatch.setattr(measure, "manim_baseline", lambda entry, *a: calls.append(f"stock {entry.scene_id}") or
                        measure.Run(20.0, 0, "", [], 0, 19.0))
    bench = run.Measurements(run.parse_args(["--scenes", "fig-a", "fig-b"]), tmp_path, lambda message: None)
    bench.sequential_batch()
    bench.baseline()
    assert calls == ["ours fig-a", "stock fig-a", "ours fig-b", "stock fig-b"]
    assert (bench.batch["manim_total_s"], bench.batch["manim_cpu_total_s"]) == (40.0, 38.0)
    assert bench.rows["fig-a"]["manim_s"] == 20.0 and bench.rows["fig-a"]["command_s"] == 10.0
