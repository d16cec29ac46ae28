"""studio/manim_hooks/skipdraw.py: a skipped play draws nothing (manim draws two frames per skipped play
and writes neither). That the first drawn play after a skip still draws what a whole render
draws is tested where skipping is used: tests/test_preview.py (a panel against its full
render) and tests/test_split_render.py (a tail's beats against a whole render's)."""

from __future__ import annotations

import pytest
from manim.camera.camera import Camera

from studio.engine import registry, stills
from studio.manim_hooks import skipdraw
from tests import render_helpers as rh


@pytest.fixture(autouse=True)
def fixture_scenes(monkeypatch):
    monkeypatch.setenv("LECTURE_SCENES_DIR", str(rh.FIXTURE_SCENES))


def frames_drawn_building(monkeypatch, scene_id: str) -> int:
    """How often the camera drew while the scene was built with every play skipped."""
    drawn = []
    original = Camera.capture_mobjects
    monkeypatch.setattr(Camera, "capture_mobjects", lambda self, *a, **k: drawn.append(1) or original(self, *a, **k))
    stills.build_scene_class(registry.load_class(registry.select([scene_id])[0]))
    monkeypatch.setattr(Camera, "capture_mobjects", original)
    return len(drawn)


def test_skipped_plays_draw_nothing(monkeypatch):
    assert frames_drawn_building(monkeypatch, "cutable") > 0       # manim on its own draws them
    skipdraw.install()
    try:
        assert frames_drawn_building(monkeypatch, "cutable") == 0
    finally:
        skipdraw.uninstall()


def last_frame_of_still(tmp_path, scene_id: str):
    """The scene rendered as manim renders a still image (PNG: every play skipped, the last
    frame drawn at the end): the frame it saves."""
    from manim import tempconfig

    with tempconfig({"format": "png", "media_dir": str(tmp_path), "pixel_width": 320, "pixel_height": 180,
                     "disable_caching": True, "progress_bar": "none", "verbosity": "WARNING"}):
        scene = registry.load_class(registry.select([scene_id])[0])()
        scene.render()
        return scene.renderer.get_frame()


def test_a_still_image_is_drawn_as_plain_manim_draws_it(tmp_path):
    plain = last_frame_of_still(tmp_path / "plain", "tiny")
    assert len({tuple(p) for p in plain.reshape(-1, plain.shape[-1])[::97]}) > 1   # not one flat colour
    skipdraw.install()
    try:
        hooked = last_frame_of_still(tmp_path / "hooked", "tiny")
    finally:
        skipdraw.uninstall()
    assert (hooked == plain).all()
