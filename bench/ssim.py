"""SSIM of yuv420p pictures, computed as x264 and ffmpeg's ``ssim`` filter compute it.

Per plane: sums over 4×4 blocks, combined into 8×8 windows that overlap by 4 pixels; each
window's SSIM from those sums (Wang et al. 2004 with C1 = (0.01·255)², C2 = (0.03·255)²,
scaled to sums of 64 pixels); the plane's SSIM is the mean over its windows. A picture's
SSIM weights its planes by their pixel counts (Y 4, U 1, V 1 for yuv420p), so 1.0 means
identical pictures. Implemented apart from ffmpeg so the benchmark's scores can be checked
against a second implementation (tests/test_ssim.py does, on noise and on a real frame).
"""

from __future__ import annotations

import numpy as np

# ffmpeg's vf_ssim.c (from x264): the constants rounded to integers, for sums of 64 pixels.
C1 = round(0.01 * 0.01 * 255 * 255 * 64)
C2 = round(0.03 * 0.03 * 255 * 255 * 64 * 63)


def _block_sums(plane: np.ndarray) -> np.ndarray:
    """Sums over the 4×4 blocks that fit in ``plane`` (int64)."""
    rows, cols = plane.shape[0] // 4, plane.shape[1] // 4
    cut = plane[:rows * 4, :cols * 4].astype(np.int64)
    return cut.reshape(rows, 4, cols, 4).sum(axis=(1, 3))


def _windows(blocks: np.ndarray) -> np.ndarray:
    """Sums over 8×8 windows: each 2×2 group of neighbouring 4×4 blocks."""
    return blocks[:-1, :-1] + blocks[1:, :-1] + blocks[:-1, 1:] + blocks[1:, 1:]


def plane_ssim(a: np.ndarray, b: np.ndarray) -> float:
    """Mean SSIM of two 8-bit planes of the same shape (at least 8×8)."""
    if a.shape != b.shape:
        raise ValueError(f"planes differ in shape: {a.shape} and {b.shape}")
    if min(a.shape) < 8:
        raise ValueError(f"plane {a.shape} is smaller than one 8×8 window")
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    s1, s2 = _windows(_block_sums(a64)), _windows(_block_sums(b64))
    ss = _windows(_block_sums(a64 * a64 + b64 * b64))
    s12 = _windows(_block_sums(a64 * b64))
    # Window sums are over 64 pixels: variance and covariance times 64², as in x264.
    variances = (ss * 64 - s1 * s1 - s2 * s2).astype(np.float64)
    covariance = (s12 * 64 - s1 * s2).astype(np.float64)
    s1, s2 = s1.astype(np.float64), s2.astype(np.float64)
    ssim = ((2 * s1 * s2 + C1) * (2 * covariance + C2)) / ((s1 * s1 + s2 * s2 + C1) * (variances + C2))
    return float(ssim.mean())


def yuv420p_planes(frame: np.ndarray, width: int, height: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Y, U, V of a yuv420p picture stored as PyAV's ``to_ndarray()`` gives it: (height·3/2, width)."""
    flat = frame.reshape(-1)
    luma = width * height
    chroma = (width // 2) * (height // 2)
    y = flat[:luma].reshape(height, width)
    u = flat[luma:luma + chroma].reshape(height // 2, width // 2)
    v = flat[luma + chroma:luma + 2 * chroma].reshape(height // 2, width // 2)
    return y, u, v


def picture_ssim(a: tuple[np.ndarray, ...], b: tuple[np.ndarray, ...]) -> float:
    """SSIM of two pictures given as planes, each plane weighted by its pixel count (ffmpeg's "All")."""
    weights = np.array([plane.size for plane in a], dtype=np.float64)
    scores = np.array([plane_ssim(x, y) for x, y in zip(a, b)])
    return float((weights * scores).sum() / weights.sum())
