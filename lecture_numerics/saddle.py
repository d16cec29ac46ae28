"""The saddle of anim-saddle: one surface, its slope and curvature at the centre, and the
two paths through the flat point.

The surface is z = (x² − y²) / 2. At the centre the gradient (x, −y) vanishes: the ground
is flat. The Hessian is diag(+1, −1): along x the ground curves up (the red path rises on
both sides), along y it curves down (the green path falls on both sides). A flat point
with one downhill direction left is not a trap: 「脚下确实是平的 —— 可绿色那条路一直都在」.
"""

from __future__ import annotations

import numpy as np

from lecture_numerics.provenance import derived
from lecture_numerics.zh import zh_count

NOTES_FILE = "lecture-notes.txt, 第三节 (fig-saddle / anim-saddle)"
NOTES_QUOTE = "站在那个点上，脚下确实是平的 —— 可绿色那条路一直都在。"

CENTRE = (0.0, 0.0)
# Half the side of the square patch drawn: wide enough that both paths visibly bend.
HALF_WIDTH = 1.0


def height(x, y):
    """z = (x² − y²) / 2 (works on scalars and numpy arrays alike)."""
    return (np.square(x) - np.square(y)) / 2


def gradient(x, y) -> np.ndarray:
    """(∂z/∂x, ∂z/∂y) = (x, −y)."""
    return np.array([x, -y], dtype=float)


def hessian(x: float = 0.0, y: float = 0.0) -> np.ndarray:
    """Second derivatives; constant for a quadratic surface."""
    return np.array([[1.0, 0.0], [0.0, -1.0]])


def curvatures(x: float = 0.0, y: float = 0.0) -> tuple[float, float]:
    """Hessian eigenvalues, rising one first: one positive (up), one negative (down)."""
    h = hessian(x, y)
    # A 2×2 symmetric matrix: eigenvalues from its trace and determinant.
    mean, det = np.trace(h) / 2, np.linalg.det(h)
    spread = np.sqrt(mean * mean - det)
    return float(mean + spread), float(mean - spread)


def _path_along(direction: np.ndarray, samples: int, half_width: float) -> np.ndarray:
    s = np.linspace(-half_width, half_width, samples)
    x = CENTRE[0] + s * direction[0]
    y = CENTRE[1] + s * direction[1]
    return np.column_stack([x, y, height(x, y)])


def rising_path(samples: int = 65, half_width: float = HALF_WIDTH) -> np.ndarray:
    """Points (x, y, z) on the surface along the upward-curving direction (the red path)."""
    return _path_along(np.array([1.0, 0.0]), samples, half_width)


def falling_path(samples: int = 65, half_width: float = HALF_WIDTH) -> np.ndarray:
    """Points (x, y, z) on the surface along the downward-curving direction (the green path)."""
    return _path_along(np.array([0.0, 1.0]), samples, half_width)


def flat_point() -> np.ndarray:
    """The saddle point (x, y, z), where the gradient is zero."""
    x, y = CENTRE
    return np.array([x, y, float(height(x, y))])


def grid(cells: int, half_width: float = HALF_WIDTH) -> np.ndarray:
    """Vertices of a (cells+1)×(cells+1) grid on the surface, shape (cells+1, cells+1, 3).
    With an even cell count both paths run along grid lines through the centre."""
    s = np.linspace(-half_width, half_width, cells + 1)
    x, y = np.meshgrid(s, s, indexing="xy")
    return np.stack([x, y, height(x, y)], axis=-1)


def _signed(value: float) -> str:
    return "0" if value == 0 else f"{value:+g}".replace("-", "−")


SLOPE_AT_CENTRE = derived(
    "saddle.slope_at_centre",
    lambda: float(np.linalg.norm(gradient(*CENTRE))),
    inputs={}, unit="",
    formula="|∇z(0, 0)| with ∇z = (x, −y) for z = (x² − y²) / 2",
    measures="steepness of the ground at the black point (zero: it is flat)",
    fmt=lambda v: f"{v:g}", notes_quote=NOTES_QUOTE,
)

CURVATURE_UP = derived(
    "saddle.curvature_up",
    lambda: curvatures(*CENTRE)[0],
    inputs={}, unit="",
    formula="larger eigenvalue of the Hessian diag(+1, −1) of z = (x² − y²) / 2",
    measures="how the red path bends at the black point (positive: it rises both ways)",
    fmt=_signed, notes_quote="红线沿一个方向往上翘",
)

CURVATURE_DOWN = derived(
    "saddle.curvature_down",
    lambda: curvatures(*CENTRE)[1],
    inputs={}, unit="",
    formula="smaller eigenvalue of the Hessian diag(+1, −1) of z = (x² − y²) / 2",
    measures="how the green path bends at the black point (negative: it falls both ways)",
    fmt=_signed, notes_quote="绿线沿另一个方向往下沉",
)

DIRECTIONS = derived(
    "saddle.directions",
    lambda: len(np.linalg.eigvalsh(hessian(*CENTRE))),
    inputs={}, unit="principal directions",
    formula="number of eigenvalues of the Hessian of z(x, y) (one per principal direction)",
    measures="directions in which the saddle's curvature is read (one up, one down)",
    fmt=zh_count,
)
