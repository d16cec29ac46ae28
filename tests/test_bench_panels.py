"""Panel previews in the benchmark's report: worst cold panel and warm repeat, beside their targets."""

from __future__ import annotations

import pytest

from bench import report
from tests.test_bench import synthetic, verdict


def with_panels() -> dict:
    raw = synthetic()
    raw["scenes"][0].update(panels=[{"section": "A.1", "cold_s": 3.2, "warm_s": 0.4},
                                    {"section": "B.2", "cold_s": 4.9, "warm_s": 0.45}],
                            panel_cold_s=4.9, panel_worst="B.2", panel_warm_s=0.45)
    raw["scenes"][1].update(panels=[{"section": "C", "cold_s": 7.5, "warm_s": 1.3}],
                            panel_cold_s=7.5, panel_worst="C", panel_warm_s=1.3)
    return raw


def test_panel_targets_are_judged_per_scene():
    summary = report.summarise(with_panels())
    cold_a, cold_b = verdict(summary, "panel_cold_s", "fig-a"), verdict(summary, "panel_cold_s", "anim-b")
    assert (cold_a["met"], cold_a["value"], cold_a["note"]) == (True, 4.9, "--section B.2")
    assert (cold_b["met"], cold_b["target"]) == (False, "≤ 5 s")                  # 7.5 s > 5 s
    assert verdict(summary, "panel_warm_s", "fig-a")["met"] is True
    assert verdict(summary, "panel_warm_s", "anim-b")["met"] is False             # 1.3 s > 0.5 s
    # A scene the step did not measure (failed, or the step skipped) is not judged.
    assert verdict(summary, "panel_cold_s", "broken")["met"] is None
    assert verdict(summary, "panel_warm_s", "broken")["met"] is None


def test_panel_columns_in_the_table():
    text = report.format_table(report.summarise(with_panels()))
    header = next(line for line in text.splitlines() if line.startswith("scene"))
    assert "panel cold s" in header and "panel warm s" in header
    row = next(line for line in text.splitlines() if line.startswith("anim-b"))
    assert "7.5" in row and "1.30" in row
    assert "beat preview cold, slowest beat" in text


@pytest.mark.parametrize("quick, expected", [(True, ["C"]), (False, ["A", "B", "C"])])
def test_quick_measures_the_last_panel_only(tmp_path, monkeypatch, quick, expected):
    from bench import measure, run

    asked = []
    monkeypatch.setattr(measure, "panel_names", lambda ids, env: {"fig-x": ["A", "B", "C"]})
    monkeypatch.setattr(measure, "panel_preview", lambda sid, section, out, env: asked.append(section) or
                        measure.Run(1.0 + len(asked), 0, "", [], 0))
    monkeypatch.setattr(run.registry, "select", lambda ids: [type("E", (), {"scene_id": "fig-x"})()])
    args = run.parse_args(["--scenes", "fig-x", *(["--quick"] if quick else [])])
    bench = run.Measurements(args, tmp_path, lambda message: None)
    bench.panels()
    assert asked == [s for s in expected for _ in ("cold", "warm")]
    row = bench.rows["fig-x"]
    assert [m["section"] for m in row["panels"]] == expected
    assert row["panel_cold_s"] == max(m["cold_s"] for m in row["panels"])


def test_beats_fall_back_to_their_panel_until_the_preview_takes_them(tmp_path, monkeypatch):
    """`--section A.2` exits 2 on a preview that knows only panels: the panel is measured
    instead, once per panel, cold then warm."""
    from bench import measure, run

    asked = []

    def preview(sid, section, out, env):
        asked.append(section)
        return measure.Run(1.0, 2 if "." in section else 0, "", [], 0)

    monkeypatch.setattr(measure, "panel_names", lambda ids, env: {"fig-x": ["A.1", "A.2", "B.1"]})
    monkeypatch.setattr(measure, "panel_preview", preview)
    monkeypatch.setattr(run.registry, "select", lambda ids: [type("E", (), {"scene_id": "fig-x"})()])
    bench = run.Measurements(run.parse_args(["--scenes", "fig-x"]), tmp_path, lambda message: None)
    bench.panels()
    assert asked == ["A.1", "A", "A", "A.2", "B.1", "B", "B"]
    assert [m["section"] for m in bench.rows["fig-x"]["panels"]] == ["A", "B"]
    assert bench.problems == []
