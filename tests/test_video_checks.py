"""The loop-seam check bites: synthetic loops with a known fault must fail it.

Frames are drawn with numpy (no rendering): a dot going round a ring at constant speed on
a white background, with a little noise like a video codec's. A seamless loop passes; the
same loop with its first frame repeated at the end (a stutter), with a panel that is not
faded back out (a jump) or with a small element that pops at the seam fails.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.video_checks import drawn_fraction, seam_problems

WIDTH, HEIGHT, FRAMES = 320, 180, 24


def _loop(frames: int = FRAMES, *, turns: float = 1.0, seed: int = 0) -> np.ndarray:
    """``frames`` frames of a dot at angle 2π·turns·i/frames: frame ``frames`` would be frame 0."""
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:HEIGHT, 0:WIDTH]
    video = np.full((frames, HEIGHT, WIDTH, 3), 255, np.int16)
    for i in range(frames):
        angle = 2 * np.pi * turns * i / frames
        cx, cy = WIDTH / 2 + 60 * np.cos(angle), HEIGHT / 2 + 60 * np.sin(angle)
        video[i][(xx - cx) ** 2 + (yy - cy) ** 2 <= 14 ** 2] = (214, 39, 40)
    noise = rng.integers(-2, 3, size=video.shape, dtype=np.int16)
    return np.clip(video + noise, 0, 255)


def _with_pop(video: np.ndarray, size: int, x: int = 250, y: int = 20) -> np.ndarray:
    """A ``size`` px square shown in the second half of the loop only: it vanishes at the seam."""
    popped = video.copy()
    popped[len(video) // 2:, y:y + size, x:x + size] = (31, 119, 180)
    return popped


def test_a_seamless_loop_passes():
    video = _loop()
    assert drawn_fraction(video[0]) > 0.005  # the check is not looking at blank frames
    assert seam_problems(video) == []


def test_a_repeated_frame_at_the_seam_fails():
    video = _loop()
    stutter = np.concatenate([video, video[:1]])  # the last frame repeats the first
    problems = seam_problems(stutter)
    assert len(problems) == 1 and "repeated frame" in problems[0], problems


def test_a_held_still_seam_may_repeat_its_frame():
    """A loop that rests at its seam (the picture holds) does not stutter on a repeat."""
    video = _loop()
    held = np.concatenate([video, np.repeat(video[:1], 4, axis=0)])
    assert seam_problems(held) == []


def test_a_jump_at_the_seam_fails():
    """A large panel fades in over the loop and is not faded back out: it vanishes at the seam."""
    video = _loop()
    for i in range(FRAMES):
        shade = round(255 - 200 * i / (FRAMES - 1))
        video[i, 40:140, 20:120] = (shade, shade, 255)
    problems = seam_problems(video)
    assert any("bigger than the neighbouring steps" in p for p in problems), problems


@pytest.mark.parametrize("size", [6, 10])
def test_a_small_element_popping_at_the_seam_fails(size):
    video = _with_pop(_loop(), size)
    # Too small to move the whole-frame mean past the neighbouring steps' allowance …
    assert np.abs(video[-1] - video[0]).mean() < np.abs(video[1] - video[0]).mean() * 1.1 + 1.0
    # … but seen by the local check, at its place.
    problems = seam_problems(video)
    assert len(problems) == 1 and "pops at the seam near" in problems[0], problems
    assert "x=2" in problems[0] and "y=" in problems[0]


def test_a_pop_on_a_held_still_loop_fails():
    video = np.concatenate([_loop()[:1]] * 12)  # a still picture, noise only
    assert seam_problems(video) == []
    assert any("pops" in p for p in seam_problems(_with_pop(video, 6)))
