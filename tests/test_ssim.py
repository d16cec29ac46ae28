"""bench/ssim.py: SSIM of yuv420p pictures, on cases with a known answer and against ffmpeg."""

from __future__ import annotations

import re
import subprocess

import numpy as np
import pytest

from bench import ssim

WIDTH, HEIGHT = 64, 48


def noise_picture(seed: int) -> np.ndarray:
    """A yuv420p picture as PyAV stores it: (height·3/2, width) bytes."""
    return np.random.default_rng(seed).integers(0, 256, (HEIGHT * 3 // 2, WIDTH), dtype=np.uint8)


def planes(picture: np.ndarray):
    return ssim.yuv420p_planes(picture, WIDTH, HEIGHT)


def test_identical_pictures_score_one():
    picture = noise_picture(1)
    assert ssim.picture_ssim(planes(picture), planes(picture.copy())) == 1.0


def test_flat_planes_follow_the_closed_form():
    """Two flat planes, p and q: no variance, no covariance, so each window's SSIM is the
    luminance term alone, (2·μa·μb + c1) / (μa² + μb² + c1) with c1 = (0.01·255)², the same for
    every window. In sums of 64 pixels: (2·64²·p·q + C1) / (64²·(p² + q²) + C1)."""
    p, q = 100, 180
    a, b = np.full((HEIGHT, WIDTH), p, np.uint8), np.full((HEIGHT, WIDTH), q, np.uint8)
    c1 = (0.01 * 255) ** 2
    expected = (2 * p * q + c1) / (p * p + q * q + c1)
    assert ssim.plane_ssim(a, b) == pytest.approx(expected, rel=1e-4)  # C1 is rounded to an integer, as in x264
    assert ssim.plane_ssim(a, b) == pytest.approx((2 * 64 * 64 * p * q + 416) / (64 * 64 * (p * p + q * q) + 416), abs=1e-12)


def test_a_picture_weights_its_planes_by_their_pixels():
    """A change in U alone counts a sixth: Y has 4 of the 6 pixel counts, U and V one each."""
    a = noise_picture(2)
    b = a.copy()
    y, u, v = planes(b)
    u[:] = 255 - u
    expected = (4 * 1.0 + 1 * ssim.plane_ssim(planes(a)[1], u) + 1 * 1.0) / 6
    assert ssim.picture_ssim(planes(a), planes(b)) == pytest.approx(expected, abs=1e-12)


def ffmpeg_ssim(a: np.ndarray, b: np.ndarray, tmp_path) -> dict[str, float]:
    (tmp_path / "a.yuv").write_bytes(a.tobytes())
    (tmp_path / "b.yuv").write_bytes(b.tobytes())
    raw = ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", f"{WIDTH}x{HEIGHT}"]
    result = subprocess.run(["ffmpeg", "-hide_banner", "-nostdin", *raw, "-i", str(tmp_path / "a.yuv"), *raw, "-i",
                             str(tmp_path / "b.yuv"), "-lavfi", "ssim", "-f", "null", "-"],
                            capture_output=True, text=True, check=True)
    return {k: float(v) for k, v in re.findall(r"\b([YUV]|All):([\d.]+)", result.stderr)}


@pytest.mark.parametrize("strength", [4, 40])
def test_agrees_with_ffmpegs_ssim_filter(strength, tmp_path):
    """A second implementation: ffmpeg's ssim filter, on noise with mild and strong distortion."""
    a = noise_picture(3)
    rng = np.random.default_rng(4)
    b = np.clip(a.astype(int) + rng.integers(-strength, strength + 1, a.shape), 0, 255).astype(np.uint8)
    theirs = ffmpeg_ssim(a, b, tmp_path)
    ours_y = ssim.plane_ssim(planes(a)[0], planes(b)[0])
    assert ours_y == pytest.approx(theirs["Y"], abs=2e-6)
    assert ssim.picture_ssim(planes(a), planes(b)) == pytest.approx(theirs["All"], abs=2e-6)
    assert theirs["All"] < 0.9999  # the distortion is really there


def test_planes_of_different_shapes_are_refused():
    with pytest.raises(ValueError, match="differ in shape"):
        ssim.plane_ssim(np.zeros((8, 8), np.uint8), np.zeros((8, 16), np.uint8))
