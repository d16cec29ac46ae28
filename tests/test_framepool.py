"""studio/manim_hooks/framepool.py: a drawn frame is handed over, not copied, and its buffer is drawn
into again only once nobody holds the frame; a render with the pool is the render without."""

from __future__ import annotations

import gc
import subprocess
import sys
from types import SimpleNamespace

import numpy as np
import pytest

from studio.manim_hooks.framepool import FramePool


def camera() -> SimpleNamespace:
    return SimpleNamespace(pixel_array=np.zeros((4, 6, 4), np.uint8))


def draw(cam, value: int) -> None:
    cam.pixel_array[...] = value      # as Camera.reset and the drawing do: every pixel written


def test_the_drawn_buffer_is_handed_over_and_the_camera_draws_elsewhere():
    pool, cam = FramePool(size=4), camera()
    draw(cam, 1)
    first_buffer = cam.pixel_array
    frame = pool.hand_over(cam)
    assert frame.base is first_buffer, "the frame was copied"
    assert cam.pixel_array is not first_buffer
    draw(cam, 2)
    assert (frame == 1).all(), "drawing the next frame changed the one handed over"


def test_a_buffer_comes_back_only_when_its_frame_is_let_go():
    pool, cam = FramePool(size=3), camera()
    held = []
    for value in range(3):
        draw(cam, value)
        held.append(pool.hand_over(cam))
    # three buffers, all held: the next frame is copied, and what was handed over stays intact
    draw(cam, 7)
    copied = pool.hand_over(cam)
    assert copied.base is None
    assert [int(f[0, 0, 0]) for f in held] == [0, 1, 2]
    del held[0]
    gc.collect()
    draw(cam, 8)
    reused = pool.hand_over(cam)
    assert reused.base is not None and len(pool.buffers) == 3
    draw(cam, 9)
    assert [int(f[0, 0, 0]) for f in held] == [1, 2] and int(reused[0, 0, 0]) == 8


WITHOUT_POOL = """
import sys
from studio.manim_hooks import framepool
from studio.engine import worker
framepool.install = lambda pool=None: None
sys.exit(worker.main(sys.argv[1:]))
"""


@pytest.mark.render
def test_a_render_with_the_pool_is_the_render_without(tmp_path):
    from tests.render_helpers import ROOT, env

    movies = {}
    for name, command in (("pool", ["-m", "studio.engine.worker"]), ("copies", ["-c", WITHOUT_POOL])):
        staging = tmp_path / name
        staging.mkdir()
        subprocess.run([sys.executable, *command, "tiny", "low", str(staging)], cwd=ROOT,
                       env=env(PYTHONPATH=str(ROOT)), check=True, capture_output=True)
        movies[name] = next(staging.rglob("tiny.mp4")).read_bytes()
    assert movies["pool"] == movies["copies"]
