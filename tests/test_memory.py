"""Memory: workers planned from measured peaks, warnings with numbers, OOM kills named as such.

The machine's memory is never exhausted here: /proc/meminfo, /proc/vmstat and the cgroup
files are replaced by small files written by the tests.
"""

from __future__ import annotations

import itertools
import json
import shutil

import pytest

from bench import report
from studio import cli, config
from studio.engine import memory, registry, worker
from studio.present import publish
from studio.errors import UsageError
from tests.render_helpers import FIXTURE_SCENES, ROOT

HIGH = {"width": 1920, "height": 1080, "fps": 60}
GIB_KB = 1024 * 1024           # a peak of GIB_KB kB is 1 GiB
GIB = 1024 ** 3


@pytest.fixture
def machine(tmp_path, monkeypatch):
    """A config folder with a memory table and a fake /proc: call ``set(available_gib, cores)``."""
    folder = tmp_path / "config"
    shutil.copytree(ROOT / "config", folder)
    table = {"qualities": {
        "high": {"width": 1920, "height": 1080, "fps": 60,
                 "scenes": {"light": {"peak_kb": GIB_KB}, "heavy": {"peak_kb": 2 * GIB_KB}}},
        "4k": {"width": 3840, "height": 2160, "fps": 60, "scenes": {"light": {"peak_kb": 3 * GIB_KB}}},
    }}
    (folder / "memory.json").write_text(json.dumps(table))
    monkeypatch.setenv("LECTURE_CONFIG_DIR", str(folder))
    meminfo = tmp_path / "meminfo"
    monkeypatch.setattr(memory, "MEMINFO", meminfo)
    monkeypatch.setattr(memory, "_cgroup_dir", lambda: None)

    def set_machine(available_gib: float, cores: int) -> None:
        meminfo.write_text(f"MemTotal:       99999999 kB\nMemAvailable:   {int(available_gib * GIB_KB)} kB\n")
        monkeypatch.setattr(memory.os, "cpu_count", lambda: cores)

    return set_machine


def test_default_jobs_shrink_when_memory_is_short(machine, capsys):
    machine(available_gib=40, cores=8)
    assert cli.choose_jobs(None, "high", HIGH, ["light"] * 8) == 8          # plenty: the cores decide
    assert capsys.readouterr().err == ""
    machine(available_gib=4, cores=8)
    assert cli.choose_jobs(None, "high", HIGH, ["light"] * 8) == 3          # 0.85 × 4 GiB / 1 GiB
    note = capsys.readouterr().err.strip()
    assert note.startswith("render.py: --jobs 3 (not 8)") and "1.1 GB each" in note and "4.3 GB available" in note
    assert cli.choose_jobs(None, "high", HIGH, ["heavy", "light"]) == 1     # the heavier scene sets the pace
    machine(available_gib=0.5, cores=8)
    assert cli.choose_jobs(None, "high", HIGH, ["light"]) == 1              # never fewer than one
    assert "even one worker may not fit" in capsys.readouterr().err


def test_explicit_jobs_that_do_not_fit_are_kept_with_a_warning(machine, capsys):
    machine(available_gib=4, cores=8)
    assert cli.choose_jobs(6, "high", HIGH, ["light"] * 8) == 6
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1
    assert "--jobs 6 may run out of memory" in lines[0]
    assert "6 high workers need about 6.4 GB (1.1 GB each" in lines[0] and "the default would be 3" in lines[0]
    assert cli.choose_jobs(3, "high", HIGH, ["light"] * 8) == 3             # fits: nothing said
    assert cli.choose_jobs(6, "high", HIGH, ["light", "light"]) == 6        # only two scenes: two workers fit
    assert capsys.readouterr().err == ""


def test_expected_peak_for_unmeasured_scenes_and_sizes(machine):
    table = memory.footprints()
    high = memory.expected_peak(HIGH, ["light"], table)
    assert (high.peak_bytes, high.basis) == (GIB, "measured at high")
    assert memory.expected_peak(HIGH, ["light", "new-scene"], table).peak_bytes == 2 * GIB   # unknown: the heaviest
    medium = memory.expected_peak({"width": 1280, "height": 720, "fps": 30}, ["heavy"], table)
    assert medium.peak_bytes == 2 * GIB                                       # bounded by the larger picture
    eight_k = memory.expected_peak({"width": 7680, "height": 4320, "fps": 60}, ["light"], table)
    assert (eight_k.peak_bytes, eight_k.basis) == (4 * 3 * GIB, "scaled by pixels from 4k")
    assert memory.expected_peak(HIGH, ["light"], {"qualities": {}}) is None


def test_without_a_memory_reading_the_cores_decide(machine, monkeypatch):
    machine(available_gib=1, cores=4)
    monkeypatch.setattr(memory, "MEMINFO", memory.MEMINFO.parent / "missing")
    assert memory.plan("high", HIGH, ["light"] * 4).default_jobs == 4


def test_a_cgroup_limit_below_memavailable_counts(tmp_path, monkeypatch):
    meminfo, group = tmp_path / "meminfo", tmp_path / "group"
    meminfo.write_text(f"MemAvailable:   {8 * GIB_KB} kB\n")
    group.mkdir()
    (group / "memory.max").write_text(f"{2 * GIB}\n")
    (group / "memory.current").write_text(f"{GIB // 2}\n")
    monkeypatch.setattr(memory, "MEMINFO", meminfo)
    monkeypatch.setattr(memory, "_cgroup_dir", lambda: group)
    assert memory.available_bytes() == GIB * 3 // 2
    (group / "memory.max").write_text("max\n")
    assert memory.available_bytes() == 8 * GIB


def test_broken_memory_table_is_one_line(machine):
    path = memory.footprint_path()
    path.write_text('{"qualities": {"high": {"width": 1920, "height": 1080, "scenes": {"x": {"peak_kb": -1}}}}}')
    with pytest.raises(UsageError, match=r"memory.json: invalid memory table: qualities.high.scenes.x.peak_kb"):
        memory.footprints()
    path.write_text("{nope")
    with pytest.raises(UsageError, match="memory.json: does not parse as JSON"):
        memory.footprints()


def test_record_merges_scenes_and_forgets_a_resized_preset(machine):
    memory.record("high", HIGH, {"light": 5 * GIB_KB, "new": 7}, {"commit": "abc"})
    scenes = memory.footprints()["qualities"]["high"]["scenes"]
    assert scenes["light"] == {"peak_kb": 5 * GIB_KB, "commit": "abc"} and scenes["new"]["peak_kb"] == 7
    assert scenes["heavy"]["peak_kb"] == 2 * GIB_KB                           # not measured this time: kept
    memory.record("high", {"width": 2560, "height": 1440, "fps": 60}, {"light": 9}, {})
    assert set(memory.footprints()["qualities"]["high"]["scenes"]) == {"light"}


def test_encoders_in_flight_follow_the_picture_size():
    presets = config.presets()
    inflight = {q: worker.encoder_settings(p)["max_inflight_encoders"] for q, p in presets.items()}
    assert inflight["4k"] < inflight["high"] < inflight["low"] <= worker.MAX_INFLIGHT_ENCODERS
    assert inflight["4k"] == 1
    queues = {q: worker.encoder_settings(p)["encoder_queue_size"] for q, p in presets.items()}
    frame_bytes = {q: p["width"] * p["height"] * 4 for q, p in presets.items()}
    # frames waiting for the encoders, at most: no more bytes at 4k than at high
    held = {q: inflight[q] * queues[q] * frame_bytes[q] for q in presets}
    assert held["4k"] <= held["high"]


# -- out of memory --------------------------------------------------------------------

def test_oom_counters_are_read_from_vmstat_and_the_cgroup(tmp_path, monkeypatch):
    vmstat, group = tmp_path / "vmstat", tmp_path / "group"
    vmstat.write_text("pgfault 12\noom_kill 7\n")
    group.mkdir()
    (group / "memory.events").write_text("low 0\noom 3\noom_kill 2\noom_group_kill 0\n")
    monkeypatch.setattr(memory, "VMSTAT", vmstat)
    monkeypatch.setattr(memory, "_cgroup_dir", lambda: group)
    assert memory.oom_kill_count() == 9
    monkeypatch.setattr(memory, "VMSTAT", tmp_path / "missing")
    monkeypatch.setattr(memory, "_cgroup_dir", lambda: None)
    assert memory.oom_kill_count() is None
    assert not memory.oom_killed(None, 3) and not memory.oom_killed(3, 3) and memory.oom_killed(3, 4)


def test_oom_reason_suggests_fewer_jobs():
    assert memory.oom_reason(8).startswith("out of memory: try --jobs 4 ")
    assert memory.oom_reason(2).startswith("out of memory: try --jobs 1 ")
    assert memory.oom_reason(1).startswith("out of memory even with --jobs 1: try a lower --quality")


# Stands in for a worker that the kernel kills while it grows: allocate, then SIGKILL.
GROW_AND_DIE = "import os, signal; held = bytearray(64 << 20); os.kill(os.getpid(), signal.SIGKILL)"


def _render_with_dying_workers(tmp_path, monkeypatch, oom_kill_count):
    import subprocess
    import sys

    from studio.engine import pipeline

    real_popen = subprocess.Popen
    monkeypatch.setattr(pipeline.subprocess, "Popen", lambda cmd, **kw: real_popen([sys.executable, "-c", GROW_AND_DIE], **kw))
    monkeypatch.setattr(memory, "oom_kill_count", oom_kill_count)
    monkeypatch.setenv("LECTURE_SCENES_DIR", str(FIXTURE_SCENES))
    entries = registry.select(["tiny", "loopy"])
    batch = pipeline.Batch(entries=entries, quality="low", out_dir=tmp_path, jobs=2, force=True)
    states, _ = pipeline.render_batch(batch, entries)
    return publish.summary(states, batch.quality_dir)


def test_oom_killed_worker_is_reported_as_out_of_memory(tmp_path, monkeypatch, capsys):
    counter = itertools.count()        # the kernel's OOM-kill count rises while the workers run
    assert _render_with_dying_workers(tmp_path, monkeypatch, lambda: next(counter)) == cli.EXIT_FAILED
    out = capsys.readouterr().out
    for scene_id in ("tiny", "loopy"):
        assert f"FAILED {scene_id}: out of memory: try --jobs 1 (the kernel killed the worker; 2 were running)" in out
    assert (tmp_path / "low" / "logs" / "tiny.log").is_file()


def test_a_sigkill_without_an_oom_kill_is_not_called_out_of_memory(tmp_path, monkeypatch, capsys):
    assert _render_with_dying_workers(tmp_path, monkeypatch, lambda: 5) == cli.EXIT_FAILED
    out = capsys.readouterr().out
    assert "FAILED tiny: worker died (signal 9)" in out and "out of memory" not in out


# -- the benchmark reports each worker's peak beside the target -----------------------

@pytest.mark.parametrize("quality, peak_gib, met, target", [
    ("high", 1.3, True, "≤ 1.5 GB"), ("high", 1.45, False, "≤ 1.5 GB"),     # 1.45 GiB = 1.56 GB
    ("4k", 3.7, True, "≤ 4 GB"), ("low", 0.3, None, "—"),
])
def test_bench_reports_worker_peak_beside_target(quality, peak_gib, met, target):
    peak_kb = int(peak_gib * GIB_KB)
    raw = {"meta": {"quality": quality}, "scenes": [{"id": "s", "status": "done", "peak_rss_kb": peak_kb}],
           "batch": {"jobs": 2}, "problems": []}
    summary = report.summarise(raw)
    row = next(t for t in summary["targets"] if t["key"] == "worker_peak_gb")
    assert (row["met"], row["target"]) == (met, target)
    assert row["value"] == pytest.approx(peak_kb * 1024 / 1e9)               # GB = 10⁹ bytes, kB = KiB
    assert summary["batch"]["worker_peak_gb"] == row["value"]
    assert f"peak RSS per worker (each scene, at {quality})" in report.format_table(summary)
