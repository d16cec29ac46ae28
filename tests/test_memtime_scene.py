"""anim-memtime: the numbers it draws follow the configured scenario, agree with the
lecture's own quantities for the lecture's case, and the marks sit where the data is."""

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
from lecture_numerics.timeline import Scenario, memory_timeline

ROOT = Path(__file__).resolve().parent.parent

DRAWN_TEXTS = """
import json
from manim import Text
from studio.stills import section_stills
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
    keys = {k for t in drawn_texts() for k in t["keys"]}
    # Axis ticks follow whatever scenario is configured (memtime.axis.*).
    assert keys and all(k.startswith(("timeline.v3.", "bill.v3.", "memtime.axis.")) for k in keys), keys
    assert {"timeline.v3.activation_peak_gib", "timeline.v3.gradient_peak_tib", "timeline.v3.total_peak_tib"} <= keys


def test_lecture_quantities_agree_with_the_simulator_run_from_config():
    from scenes.anim_memtime import CONFIGURED_READOUTS, LECTURE_READOUTS
    from scenes.kit.text import fill

    for name, template in LECTURE_READOUTS.items():
        assert fill(template)[0] == fill(CONFIGURED_READOUTS[name])[0], name


def test_stored_inputs_match_the_closed_form():
    # Storyboard: 61 layers × 131072 tokens × 7168 wide × 2 B = 106.75 GiB at the end of forward.
    closed_form = 61 * 131072 * 7168 * 2
    tl = memory_timeline(lecture_scenario())
    assert format_bytes(closed_form) == "106.75 GiB"
    last_forward = max(i for i, e in enumerate(tl.event) if e == "forward")
    assert tl.bytes["activations"][last_forward] == closed_form


def test_other_scenarios_draw_numbers_computed_for_them(tmp_path):
    # The notes' batch at which activations catch up with the resident block (~94 sequences).
    changes = {"batch": 94}
    texts = drawn_texts(config_with(tmp_path, **changes))
    keys = {k for t in texts for k in t["keys"]}
    assert keys and all(k.startswith(("timeline.configured.", "memtime.axis.")) for k in keys), keys
    expected = memory_timeline(Scenario(**{**lecture_scenario().__dict__, **changes}))
    peak = format_bytes(expected.total_peak[1])
    # manim's Text drops spaces from .text
    assert any(t["text"] == f"总峰值{peak}".replace(" ", "") for t in texts), (peak, [t["text"] for t in texts])
    assert peak != format_bytes(memory_timeline(lecture_scenario()).total_peak[1])


def test_total_peak_mark_sits_on_the_top_of_the_stack():
    from scenes.anim_memtime import AnimMemtime
    from scenes.kit.charts import BrokenScale

    scene = AnimMemtime.__new__(AnimMemtime)
    tl = memory_timeline(lecture_scenario())
    chart, zoom = scene.build_charts(tl)
    chart.settle(1.0)
    zoom.settle(1.0)
    when, size = tl.total_peak
    top_of_stack = chart.settled["activations"].get_top()[1]
    assert chart.point(when, size)[1] == pytest.approx(top_of_stack, abs=1e-6)
    assert zoom.point(*tl.activation_peak)[1] == pytest.approx(zoom.settled.get_top()[1], abs=1e-6)
    # The broken scale is continuous on each side of the break and keeps order.
    s: BrokenScale = chart.scale
    assert s.below(s.floor) < s.above(s.floor) < s.above(size) <= s.top
    values = np.linspace(s.floor, s.ceiling, 50)
    assert np.all(np.diff(s.above(values)) > 0)
