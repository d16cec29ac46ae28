"""The saddle of anim-saddle: one surface, its slope and curvature at the centre, and the
two paths through the flat point.

The surface is z = (x² − y²) / 2. At the centre the gradient (x, −y) vanishes: the ground
is flat. The Hessian is diag(+1, −1): along x the ground curves up (the red path rises on
both sides), along y it curves down (the green path falls on both sides). A flat point
with one downhill direction left is not a trap: 「脚下确实是平的 —— 可绿色那条路一直都在」.
"""

from __future__ import annotations

import numpy as np

from lecture_numerics.provenance import chosen, derived
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


BLACK_POINT = chosen("saddle.centre", CENTRE, unit="", fmt=str,
                     measures="where the black point sits on z = (x² − y²)/2",
                     reason="the saddle's flat point: the origin, where both paths cross")

SLOPE_AT_CENTRE = derived(
    "saddle.slope_at_centre",
    lambda centre: float(np.linalg.norm(gradient(*centre))),
    inputs={"centre": BLACK_POINT}, unit="",
    formula="|∇z(0, 0)| with ∇z = (x, −y) for z = (x² − y²) / 2",
    measures="steepness of the ground at the black point (zero: it is flat)",
    fmt=lambda v: f"{v:g}", notes_quote=NOTES_QUOTE,
)

CURVATURE_UP = derived(
    "saddle.curvature_up",
    lambda centre: curvatures(*centre)[0],
    inputs={"centre": BLACK_POINT}, unit="",
    formula="larger eigenvalue of the Hessian diag(+1, −1) of z = (x² − y²) / 2",
    measures="how the red path bends at the black point (positive: it rises both ways)",
    fmt=_signed, notes_quote="红线沿一个方向往上翘",
)

CURVATURE_DOWN = derived(
    "saddle.curvature_down",
    lambda centre: curvatures(*centre)[1],
    inputs={"centre": BLACK_POINT}, unit="",
    formula="smaller eigenvalue of the Hessian diag(+1, −1) of z = (x² − y²) / 2",
    measures="how the green path bends at the black point (negative: it falls both ways)",
    fmt=_signed, notes_quote="绿线沿另一个方向往下沉",
)

DIRECTIONS = derived(
    "saddle.directions",
    lambda centre: len(np.linalg.eigvalsh(hessian(*centre))),
    inputs={"centre": BLACK_POINT}, unit="principal directions",
    formula="number of eigenvalues of the Hessian of z(x, y) (one per principal direction)",
    measures="directions in which the saddle's curvature is read (one up, one down)",
    fmt=zh_count,
)


# ---- fig-saddle Ⓒ: the crawl near a nearly flat pass -------------------------------------------
# The falling cut of a nearly flat pass, z = −ε·y²/2, and plain gradient descent along it from
# just off the flat point: y ← y − η·z′(y) = (1 + η·ε)·y. Each step is ε·η times how far the ball
# already is, so near the top the steps are tiny and the ball crawls (「在那儿磨很久很久」).
_CRAWL_REASON = ("a small curvature (a nearly flat pass) and a start just off the flat point: the first "
                 "steps are a few hundredths of the way, so the crawl is seen before the ball rolls off")
CRAWL_CURVATURE = chosen("saddle.crawl.curvature", 0.1, unit="loss/param²", fmt="{:g}",
                         measures="ε in z = −ε·y²/2, the falling cut of Ⓒ's nearly flat pass", reason=_CRAWL_REASON)
CRAWL_LR = chosen("saddle.crawl.lr", 1.0, unit="", fmt="{:g}", measures="η of the crawl's gradient descent",
                  reason="one: each step multiplies the distance from the flat point by 1 + ε")
CRAWL_START = chosen("saddle.crawl.start", 0.02, unit="param", fmt="{:g}",
                     measures="where the crawl starts, just off the flat point", reason=_CRAWL_REASON)
CRAWL_END = chosen("saddle.crawl.end", 3.0, unit="param", fmt="{:g}",
                   measures="the end of the drawn cut: the run stops once past it", reason="the width of Ⓒ's drawing")
CRAWL_NEAR = chosen("saddle.crawl.near_share", 0.1, unit="share of the cut", fmt="{:g}",
                    measures="「still at the top」: within this share of the cut from the flat point",
                    reason="a tenth of the way: on screen, the dots there sit on top of each other")


def crawl(start: float, lr: float, curvature: float, end: float) -> np.ndarray:
    """Iterates of y ← y + η·ε·y (descent on z = −ε·y²/2) from ``start`` until past ``end``."""
    ys = [start]
    while ys[-1] <= end:
        ys.append(ys[-1] + lr * curvature * ys[-1])
    return np.array(ys)


CRAWL_PATH = derived("saddle.crawl.path", crawl,
                     inputs={"start": CRAWL_START, "lr": CRAWL_LR, "curvature": CRAWL_CURVATURE, "end": CRAWL_END},
                     unit="param", fmt=lambda p: f"{len(p)} points", formula="y ← y − η·z′(y), z = −ε·y²/2",
                     measures="the ball's positions along the nearly flat pass's falling cut")
CRAWL_STEPS_NEAR = derived(
    "saddle.crawl.steps_near_top",
    lambda path, end, share: int(np.count_nonzero(np.asarray(path) < share * end)),
    inputs={"path": CRAWL_PATH, "end": CRAWL_END, "share": CRAWL_NEAR}, unit="steps", fmt="{}",
    formula="iterates with y < share · end", measures="how many steps the ball spends near the flat point",
    notes_quote="那就会在那儿磨很久很久")
