"""Our render draws exactly what plain Manim draws: every RGBA frame, compared by digest, with
and without the Manim hooks (studio/manim_hooks), at low quality. Each render runs in a
process of its own (tests/manim_parity_run.py), so no hook leaks from one into the other.

The hooked scene is rendered twice over one empty text cache: the first parses every text
(textcache stores it), the second loads it all from the cache, so a cache hit that restored
less than a parse would show as a different frame. And plain ``manim render -ql`` still
renders a lecture scene file on its own, as the Manim CE convention expects.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.render_helpers import FIXTURE_SCENES, ROOT

pytestmark = pytest.mark.render

FIXTURES = ("tiny", "cutable", "loopy")
LECTURE = ("fig-act-bill", "anim-saddle")   # a walkthrough (text, beats, panels) and the 3-D loop


def frames(scene_id: str, mode: str, tmp_path, text_cache, fixtures: bool) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["LECTURE_TEXT_CACHE"] = str(text_cache)
    if fixtures:
        env["LECTURE_SCENES_DIR"] = str(FIXTURE_SCENES)
    staging = tmp_path / f"{scene_id}-{mode}"
    result = subprocess.run([sys.executable, "-m", "tests.manim_parity_run", scene_id, mode, str(staging)],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def assert_same_frames(scene_id: str, tmp_path, fixtures: bool) -> None:
    cache = tmp_path / "text-cache"
    plain = frames(scene_id, "plain", tmp_path / "plain", cache, fixtures)
    assert len(plain) > 0 and len(set(plain)) > 1, "the scene draws a picture that changes"
    parsed = frames(scene_id, "hooked", tmp_path / "parsed", cache, fixtures)
    if not fixtures:   # the lecture's scenes are mostly text; loopy draws none
        assert any(cache.iterdir()), "the first hooked render stored its texts"
    loaded = frames(scene_id, "hooked", tmp_path / "loaded", cache, fixtures)
    for name, hooked in (("hooks, texts parsed", parsed), ("hooks, texts from the cache", loaded)):
        assert len(hooked) == len(plain), f"{name}: {len(hooked)} frames, plain Manim {len(plain)}"
        differ = [i for i, (a, b) in enumerate(zip(plain, hooked)) if a != b]
        assert not differ, f"{name}: {len(differ)} frames differ from plain Manim's, first at frame {differ[0]}"


@pytest.mark.parametrize("scene_id", FIXTURES)
def test_fixture_frames_match_plain_manim(scene_id, tmp_path):
    assert_same_frames(scene_id, tmp_path, fixtures=True)


@pytest.mark.parametrize("scene_id", LECTURE)
def test_lecture_frames_match_plain_manim(scene_id, tmp_path):
    assert_same_frames(scene_id, tmp_path, fixtures=False)


def test_plain_manim_cli_renders_a_scene_file(tmp_path):
    result = subprocess.run(["manim", "render", "-ql", "--media_dir", str(tmp_path), "--disable_caching",
                             "--progress_bar", "none", "scenes/fig_act_bill.py", "FigActBill"],
                            cwd=ROOT, capture_output=True, text=True, timeout=600,
                            env={**os.environ, "PATH": f"{os.path.dirname(sys.executable)}:{os.environ['PATH']}"})
    assert result.returncode == 0, result.stderr[-3000:]
    movies = list(tmp_path.rglob("FigActBill.mp4"))
    assert movies and movies[0].stat().st_size > 10_000
