"""Pixel checks on rendered video: decoded frames, blank detection, loop seams.

The seam check is tested on synthetic frames (tests/test_video_checks.py) so it is known
to catch the two ways a loop visibly jumps: a repeated frame (the loop stutters) and a
small element that pops in or out between the last frame and the first.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np


def frames(path: Path, width: int, height: int) -> np.ndarray:
    """Every frame of a video as int16 RGB, shape (n, height, width, 3)."""
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
                         capture_output=True, check=True).stdout
    return np.frombuffer(raw, np.uint8).reshape(-1, height, width, 3).astype(np.int16)


def image(path: Path) -> np.ndarray:
    """A PNG (or any still) as int16 RGB, shape (height, width, 3)."""
    from PIL import Image

    with Image.open(path) as picture:
        return np.asarray(picture.convert("RGB")).astype(np.int16)


def step(a: np.ndarray, b: np.ndarray) -> float:
    """Mean absolute difference of two frames, in grey levels."""
    return float(np.abs(a - b).mean())


def drawn_fraction(frame: np.ndarray, background=(255, 255, 255)) -> float:
    """Share of pixels that differ clearly from the background (0 for a blank frame)."""
    return float((np.abs(frame - np.asarray(background, np.int16)).max(axis=-1) > 40).mean())


# A step below this (grey levels, whole-frame mean) is coding noise: the picture held still.
STILL = 0.3
# Tiles for the local check: small enough that one small element dominates its tile. The
# grid is laid four times, shifted by half a tile, so an element never straddles them all.
TILE = 16
# Local seam change allowed beyond what the steps around the seam show nearby. The real
# loops at low quality measure at most 5 (key-frame versus predicted-frame noise around
# text, the turning mesh); a 6 px dot appearing on a still background measures 12 to 22.
TILE_SLACK = 8.0


def _tile_steps(a: np.ndarray, b: np.ndarray, dy: int, dx: int) -> np.ndarray:
    diff = np.abs(a - b).mean(axis=-1)[dy:, dx:]
    h, w = (diff.shape[0] // TILE) * TILE, (diff.shape[1] // TILE) * TILE
    return diff[:h, :w].reshape(h // TILE, TILE, w // TILE, TILE).mean(axis=(1, 3))


def _around(tiles: np.ndarray) -> np.ndarray:
    """Each tile's value replaced by the largest in its 3×3 neighbourhood (motion moves
    an edge into the next tile between two steps)."""
    padded = np.pad(tiles, 1, mode="edge")
    h, w = tiles.shape
    return np.max([padded[i:i + h, j:j + w] for i in range(3) for j in range(3)], axis=0)


def seam_pop(video: np.ndarray) -> tuple[float, int, int]:
    """How much more a spot changes across the seam than in the two steps on each side
    of it nearby (grey levels), and where (x, y)."""
    worst = (-np.inf, 0, 0)
    for dy in (0, TILE // 2):
        for dx in (0, TILE // 2):
            seam = _tile_steps(video[-1], video[0], dy, dx)
            beside = np.maximum.reduce([_around(_tile_steps(video[a], video[b], dy, dx))
                                        for a, b in ((-3, -2), (-2, -1), (0, 1), (1, 2))])
            local = seam - beside * 1.5
            y, x = np.unravel_index(int(np.argmax(local)), local.shape)
            if local[y, x] > worst[0]:
                worst = (float(local[y, x]), int(x * TILE + dx), int(y * TILE + dy))
    return worst


def seam_problems(video: np.ndarray) -> list[str]:
    """Why the loop (last frame → first) would be seen to jump; empty when it is seamless.

    - The seam step must not be bigger than the neighbouring steps (a jump).
    - When the picture moves on both sides of the seam, the seam step must not be much
      smaller either: a last frame that repeats the first makes the loop stutter.
    - No spot may change much more across the seam than it does nearby in the steps
      around it: an element popping in or out, too small to move the whole-frame mean.
      (A pop inside a region that is moving anyway is not caught.)
    """
    if len(video) < 5:
        return [f"only {len(video)} frames"]
    problems = []
    seam, after, before = step(video[-1], video[0]), step(video[0], video[1]), step(video[-2], video[-1])
    # The first frame is a key frame and the others are predicted, so their coding noise
    # differs: allow 10 % and one grey level on top of the neighbouring steps.
    if seam > max(after, before) * 1.1 + 1.0:
        problems.append(f"seam step {seam:.2f} is bigger than the neighbouring steps ({before:.2f}, {after:.2f})")
    moving = min(after, before)
    if moving > STILL and seam < 0.5 * moving:
        problems.append(f"seam step {seam:.2f} is much smaller than the neighbouring steps "
                        f"({before:.2f}, {after:.2f}): a repeated frame, the loop stutters")
    pop, x, y = seam_pop(video)
    if pop > TILE_SLACK:
        problems.append(f"something pops at the seam near x={x}, y={y} "
                        f"(it changes {pop:.1f} grey levels more there than in the steps around the seam)")
    return problems
