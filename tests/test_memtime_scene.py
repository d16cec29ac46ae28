"""anim-memtime: the numbers it draws follow the configured scenario, equal the closed forms
of tests/numerics/_timeline_reference.py (not the simulator they come from), and the marks
sit where those closed forms put the peaks."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml

from lecture_numerics.memtime_configured import format_bytes, lecture_scenario
from lecture_numerics.models import GIB, TIB
from lecture_numerics.timeline import memory_timeline

ROOT = Path(__file__).resolve().parent.parent
# The closed forms live beside the numerics tests, which import them the same way.
sys.path.insert(0, str(ROOT / "tests" / "numerics"))
import _timeline_reference as ref  # noqa: E402

DRAWN_TEXTS = """
import json
from manim import Text
from studio.engine.stills import section_stills
texts = []
for still in section_stills("anim-memtime"):
    for mob in still.mobjects:
        for part in mob.get_family():
            if isinstance(part, Text) and getattr(part, "kind", None) == "ledger":
                texts.append({"text": part.text, "keys": list(part.ledger_keys)})
print(json.dumps(texts, ensure_ascii=False))
"""


def drawn_texts(config_dir: Path | None = None) -> list[dict]:
    env = dict(os.environ)
    if config_dir is not None:
        env["LECTURE_CONFIG_DIR"] = str(config_dir)
    out = subprocess.run([sys.executable, "-c", DRAWN_TEXTS], cwd=ROOT, env=env, capture_output=True,
                         text=True, check=True, timeout=300)
    return json.loads(out.stdout.strip().splitlines()[-1])


def config_with(tmp_path: Path, **changes) -> Path:
    folder = tmp_path / "config"
    shutil.copytree(ROOT / "config", folder)
    path = folder / "scenarios.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["memtime"].update(changes)
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return folder


def test_lecture_case_draws_the_lectures_own_quantities():
    texts = drawn_texts()
    keys = {k for t in texts for k in t["keys"]}
    # Axis ticks follow whatever scenario is configured (memtime.axis.*).
    assert keys and all(k.startswith(("timeline.v3.", "bill.v3.", "memtime.axis.")) for k in keys), keys
    assert {"timeline.v3.activation_peak_gib", "timeline.v3.gradient_peak_tib", "timeline.v3.total_peak_tib"} <= keys
    # What is on screen, from the closed forms (manim's Text drops spaces from .text).
    when, total, _ = ref.total_peak()
    assert 0.9 < when < 1.0      # near the end of backward, as the readout says in words
    expected = {f"存下的+重算临时={ref.activation_peak()[1] / GIB:.2f}GiB",  # 174.69, beside its dot
                f"{ref.activations_end_of_forward() / GIB:.2f}GiB",        # 106.75, under 激活峰
                f"{ref.gradient_peak()[1] / TIB:.2f}TiB",                  # 1.22, in the gradients' legend row
                f"总峰值{total / TIB:.2f}TiB",                             # 9.81
                "反向快结束时"}                                            # t = 0.95 of the step
    assert expected <= {t["text"] for t in texts}, (expected, [t["text"] for t in texts])


def test_lecture_quantities_agree_with_the_simulator_run_from_config():
    from scenes.anim_memtime import CONFIGURED_READOUTS, LECTURE_READOUTS
    from scenes.kit.text import fill

    for name, template in LECTURE_READOUTS.items():
        if name == "total_peak_when":   # the lecture's says it in words (反向快结束时), the same phase
            assert fill(template)[0].startswith(fill("{timeline.configured.total_peak_phase}")[0]), name
            continue
        assert fill(template)[0] == fill(CONFIGURED_READOUTS[name])[0], name


def test_stored_inputs_match_the_closed_form():
    # Storyboard: 61 layers × 131072 tokens × 7168 wide × 2 B = 106.75 GiB at the end of forward.
    closed_form = 61 * 131072 * 7168 * 2
    tl = memory_timeline(lecture_scenario())
    assert format_bytes(closed_form) == "106.75 GiB" and closed_form == ref.activations_end_of_forward()
    last_forward = max(i for i, e in enumerate(tl.event) if e == "forward")
    assert tl.bytes["activations"][last_forward] == closed_form


def test_other_scenarios_draw_numbers_computed_for_them(tmp_path):
    # The notes' batch at which activations catch up with the resident block (~94 sequences):
    # far past the 13 where the peak moves, so it sits at the turn, during backward.
    changes = {"batch": 94}
    texts = drawn_texts(config_with(tmp_path, **changes))
    keys = {k for t in texts for k in t["keys"]}
    assert keys and all(k.startswith(("timeline.configured.", "memtime.axis.")) for k in keys), keys
    when, total, layer = ref.total_peak(batch=94)
    assert layer == 60 and total == 14 * ref.V3_PARAMS + ref.activation_peak(batch=94)[1]
    peak = format_bytes(total)
    # manim's Text drops spaces from .text
    shown = {t["text"] for t in texts}
    assert f"总峰值{peak}".replace(" ", "") in shown, (peak, shown)
    assert f"反向，t={when:.2f}" in shown, (when, shown)
    assert f"存下的+重算临时={format_bytes(ref.activation_peak(batch=94)[1])}".replace(" ", "") in shown, shown
    assert peak != format_bytes(ref.total_peak()[1])


def test_total_peak_mark_sits_on_the_top_of_the_stack():
    from scenes.anim_memtime import AnimMemtime
    from scenes.kit.charts import BrokenScale

    scene = AnimMemtime.__new__(AnimMemtime)
    tl = memory_timeline(lecture_scenario())
    chart, zoom = scene.build_charts(tl)
    chart.settle(1.0)
    zoom.settle(1.0)
    # Where the closed forms put the peaks is where the drawn stacks are highest.
    when, size, _ = ref.total_peak()
    # The recompute working set is the top band (over the stored inputs), in the chart and the zoom.
    top_of_stack = chart.settled["working"].get_top()[1]
    assert chart.point(when, size)[1] == pytest.approx(top_of_stack, abs=1e-6)
    assert zoom.point(*ref.activation_peak())[1] == pytest.approx(zoom.work_settled.get_top()[1], abs=1e-6)
    # The solid band, the stored inputs (激活), peaks where forward ends: 106.75 GiB.
    assert zoom.settled.get_top()[1] == pytest.approx(zoom.y(ref.activations_end_of_forward()), abs=1e-6)
    # The broken scale is continuous on each side of the break and keeps order.
    s: BrokenScale = chart.scale
    assert s.below(s.floor) < s.above(s.floor) < s.above(size) <= s.top
    values = np.linspace(s.floor, s.ceiling, 50)
    assert np.all(np.diff(s.above(values)) > 0)


def _update_marks():
    from scenes.anim_memtime import TIME, AnimMemtime

    scene = AnimMemtime.__new__(AnimMemtime)
    tl = memory_timeline(lecture_scenario())
    chart, _ = scene.build_charts(tl)
    return scene.update_marks(chart, tl), chart, tl, TIME


def test_update_mark_occupies_only_the_update_phase():
    """「只在每一步的最后那一瞬间被用一次」: the lit mark spans the update phase of the time
    axis (backward's end → the step's end) and nothing before it; its note points at it."""
    from manim import Text

    marks, chart, tl, time = _update_marks()
    start, end = float(time.x(tl.backward_end)), float(time.x(1.0))
    assert 0 < end - start < 0.05 * (time.right - time.left), "the update is a sliver of the step"
    lit = marks[0]
    tolerance = 1e-6
    assert lit.get_left()[0] >= start - tolerance and lit.get_right()[0] <= end + tolerance, (
        f"the update mark spans x {lit.get_left()[0]:.3f} … {lit.get_right()[0]:.3f}, "
        f"the update phase only {start:.3f} … {end:.3f}")
    assert lit.width >= 0.9 * (end - start), "the mark fills the update phase"
    low, high = chart.resident_band_box("optimizer")
    assert lit.get_bottom()[1] >= low - tolerance and lit.get_top()[1] <= high + tolerance, "it marks the optimizer band"
    note = next(m for m in marks if isinstance(m, Text))
    assert start - note.get_right()[0] < 1.0, "the note stands beside the sliver, not across the band"


def test_the_peak_sentence_comes_after_the_step():
    """The caption 「峰值出现在某一个特定时刻」 is not on screen before any peak exists."""
    from manim import Text

    from scenes.anim_memtime import AnimMemtime
    from studio.engine.stills import build_scene_class

    sentence = "峰值出现在某一个特定时刻，而你要买的是那个峰值"

    class FirstFrame(AnimMemtime):
        def construct(self):
            self.first_texts = None
            super().construct()

        def add(self, *mobjects):
            if getattr(self, "first_texts", ()) is None:
                self.first_texts = {p.text for m in mobjects for p in m.get_family() if isinstance(p, Text)}
            return super().add(*mobjects)

    scene = build_scene_class(FirstFrame, capture_stills=True)
    assert scene.first_texts, "the first frame was not seen"
    assert not any(sentence[:6] in t for t in scene.first_texts), "the peak sentence is on screen from frame 0"
    last = {p.text for m in scene.section_stills[-1].mobjects for p in m.get_family() if isinstance(p, Text)}
    assert any(sentence[:6] in t for t in last), "the peak sentence is on the final frame"


def test_the_finished_picture_holds_for_half_the_clip():
    """The clip plays once and ends on its finished picture: the total peak's marker and the
    peak sentence come on screen before the clip's halfway point, so each is up for at least
    half of it while the speaker says them (a clip whose marks arrive in its last seconds shows
    them for a moment, and a restart wipes them)."""
    from studio.engine.stills import build_scene

    scene = build_scene("anim-memtime")
    duration = scene.renderer.time
    for mark in ("total_peak", "sentence"):
        shown = duration - scene.revealed_at[mark]
        assert shown >= duration / 2, f"{mark} is on screen {shown:.1f} s of a {duration:.1f} s clip"


def test_the_resident_block_is_drawn_taller_than_the_gradients():
    """The broken axis squeezes the resident block; it must not squeeze the optimizer state
    (7.32 TiB) shorter than the gradients at their full size (1.22 TiB) above the break."""
    from scenes.anim_memtime import AnimMemtime

    scene = AnimMemtime.__new__(AnimMemtime)
    tl = memory_timeline(lecture_scenario())
    chart, _ = scene.build_charts(tl)
    low, high = chart.resident_band_box("optimizer")
    s = chart.scale
    gradients = float(s.above(s.floor + tl.gradient_peak[1]) - s.above(s.floor))
    assert high - low > gradients, (high - low, gradients)
