"""fig-onelr: one global learning rate in a valley steep one way and flat the other, run for real.

Loss ½(λ_flat·x² + λ_steep·y²): x (across) is the flat parameter, y (up) the steep one, the
bottom at the origin, to the right of the start. Blue steps η_blue = c/λ_steep with c just
under the divergence threshold 2; red steps 1.1 × that. Each coordinate is multiplied by
(1 − ηλ) per step, so red's steep factor |1 − 1.1c| > 1 bounces it out while blue's |1 − c|
< 1 settles. The same step c is the one fig-beststep's rows count with (halfway.py).
"""

from __future__ import annotations

import numpy as np

from lecture_numerics.provenance import chosen, derived
from lecture_numerics.step import KAPPA_FIGURE, STEP_TIMES_LAMBDA, gradient_descent
from lecture_numerics.zh import zh_count

LAMBDA_STEEP = chosen("onelr.lambda_steep", 1.0, unit="1/param²", fmt="{:g}",
                      measures="curvature of the steep direction (sets the units: steps are in 1/λ_steep)",
                      reason="any value: only κ and η·λ_steep shape the runs")
# Blue's step is the one fig-beststep's rows count with: one declaration, in step.py.
STEP_FRACTION = STEP_TIMES_LAMBDA
RED_OVER_BLUE = chosen("onelr.red_over_blue", 1.1, unit="×", fmt="{:g}",
                       measures="red's learning rate ÷ blue's",
                       reason="the notes' 差一成 (red 10 % larger than blue)",
                       notes="1.1", notes_quote="红色比蓝色大百分之十。就这么点，一个炸了，一个没炸。")
START = chosen("onelr.start", (-25.0, 3.0), unit="param", fmt="({0[0]:g}, {0[1]:g})",
               measures="start point (flat, steep) of both runs",
               reason="steep offset ≥ 3 for a flat offset of 25, so that bouncing visibly takes most of blue's path")
BLUE_STEPS = chosen("onelr.blue_steps", 60, unit="steps", measures="length of blue's run",
                    reason="blue's flat coordinate is within 1 % of the bottom by then (0.924⁶⁰ ≈ 0.009)")
# The plotted window (flat, steep): red counts as gone once it leaves it.
WINDOW = ((-27.0, 2.0), (-6.0, 6.0))


def run(lr: float, kappa: float, lambda_steep: float, start: tuple[float, float], steps: int) -> np.ndarray:
    """Gradient descent positions (steps + 1, 2) as (flat, steep)."""
    return gradient_descent(lr, (lambda_steep / kappa, lambda_steep), start, steps)


def exit_step(path: np.ndarray, window=WINDOW) -> int:
    """First step whose point lies outside the window (len(path) if none)."""
    (x0, x1), (y0, y1) = window
    outside = (path[:, 0] < x0) | (path[:, 0] > x1) | (path[:, 1] < y0) | (path[:, 1] > y1)
    hits = np.flatnonzero(outside)
    return int(hits[0]) if hits.size else len(path)


def progress_share(path: np.ndarray) -> float:
    """Share of the path's length that moves along the flat axis (toward the bottom)."""
    steps = np.diff(path, axis=0)
    return float(np.abs(steps[:, 0]).sum() / np.hypot(steps[:, 0], steps[:, 1]).sum())


BLUE_LR = derived("onelr.blue_lr", lambda c, lam: c / lam, inputs={"c": STEP_FRACTION, "lam": LAMBDA_STEEP},
                  unit="", fmt="{:.2f}", formula="c ÷ λ_steep", measures="blue's learning rate")
RED_LR = derived("onelr.red_lr", lambda blue, ratio: blue * ratio, inputs={"blue": BLUE_LR, "ratio": RED_OVER_BLUE},
                 unit="", fmt="{:.2f}", formula="η_blue × 1.1", measures="red's learning rate")
BLUE_PATH = derived(
    "onelr.blue_path", lambda lr, kappa, lam, start, steps: run(lr, kappa, lam, start, steps),
    inputs={"lr": BLUE_LR, "kappa": KAPPA_FIGURE, "lam": LAMBDA_STEEP, "start": START, "steps": BLUE_STEPS},
    unit="param", fmt=lambda p: f"{len(p)} points", formula="gradient descent on ½(λ_steep/κ·x² + λ_steep·y²)",
    measures="blue's iterates (flat, steep)")


def _red_path(lr, kappa, lam, start, steps):
    path = run(lr, kappa, lam, start, steps)
    return path[: exit_step(path) + 1]


RED_PATH = derived(
    "onelr.red_path", _red_path,
    inputs={"lr": RED_LR, "kappa": KAPPA_FIGURE, "lam": LAMBDA_STEEP, "start": START, "steps": BLUE_STEPS},
    unit="param", fmt=lambda p: f"{len(p)} points", formula="the same run at η_red, up to the first point outside the plot",
    measures="red's iterates until it leaves the frame")
RED_EXIT_STEP = derived("onelr.red_exit_step", lambda path: len(path) - 1, inputs={"path": RED_PATH},
                        unit="steps", formula="index of red's first point outside the plotted window",
                        measures="step at which red leaves the picture")
BLUE_STEEP_FACTOR = derived("onelr.blue_steep_factor", lambda lr, lam: abs(1 - lr * lam),
                            inputs={"lr": BLUE_LR, "lam": LAMBDA_STEEP}, unit="× per step", fmt="{:.2f}",
                            formula="|1 − η_blue·λ_steep|", measures="blue's bounce, step over step")
RED_STEEP_FACTOR = derived("onelr.red_steep_factor", lambda lr, lam: abs(1 - lr * lam),
                           inputs={"lr": RED_LR, "lam": LAMBDA_STEEP}, unit="× per step", fmt="{:.2f}",
                           formula="|1 − η_red·λ_steep|", measures="red's bounce, step over step")
BLUE_PROGRESS = derived(
    "onelr.blue_progress_share", progress_share, inputs={"path": BLUE_PATH}, unit="fraction",
    fmt=lambda v: f"{100 * v:.0f}%", formula="Σ|Δx| ÷ Σ‖Δ(x, y)‖ over blue's steps",
    measures="share of blue's path length that goes toward the bottom",
    notes_quote="每一步大半的力气，都花在左右横跳上了。")


def _path_parts(path: np.ndarray) -> tuple[float, float]:
    """(Σ|Δx|, Σ|Δy|): each step split into its move along the valley and its bounce across it."""
    steps = np.abs(np.diff(path, axis=0))
    return float(steps[:, 0].sum()), float(steps[:, 1].sum())


# Ⓐ's split bar: blue's steps, each cut into its bounce (竖着弹) and its move toward the bottom
# (前进); the bar's two parts are these sums, drawn as lengths, no number printed.
BLUE_FORWARD_PATH = derived(
    "onelr.blue_forward_path", lambda path: _path_parts(path)[0], inputs={"path": BLUE_PATH}, unit="param",
    fmt="{:.1f}", formula="Σ|Δx| over blue's steps", measures="how far blue's steps move along the valley, in total")
BLUE_BOUNCE_PATH = derived(
    "onelr.blue_bounce_path", lambda path: _path_parts(path)[1], inputs={"path": BLUE_PATH}, unit="param",
    fmt="{:.1f}", formula="Σ|Δy| over blue's steps", measures="how far blue's steps bounce across the valley, in total")
# Ⓐ's learning-rate axis: from zero, so the gap between blue and red reads against the whole range.
LR_AXIS_TICKS = chosen("onelr.axis.lr_ticks", (0.0, 1.0), unit="", item_fmt="{:g}", fmt=lambda v: f"{len(v)} ticks",
                       measures="ticks of fig-onelr's learning-rate axis",
                       reason="zero and one: the axis starts at zero; 2 is marked as the threshold itself")


def _count_runs(blue, red) -> int:
    return len([blue, red])


RUN_COUNT = derived("onelr.run_count", _count_runs, inputs={"blue": BLUE_PATH, "red": RED_PATH}, unit="runs",
                    fmt=zh_count, formula="the runs drawn (blue, red)", measures="runs in the one valley",
                    notes="两", notes_quote="两条轨迹， 同一个谷、同一套规则，唯一的差别是学习率。")


def _gap_in_tenths(ratio: float) -> int:
    return round((ratio - 1) * 10)


# The notes' 差一成, drawn from the ratio itself: (η_red ÷ η_blue − 1) in tenths (成).
LR_GAP_CHENG = derived("onelr.lr_gap_cheng", _gap_in_tenths, inputs={"ratio": RED_OVER_BLUE}, unit="成",
                       fmt=lambda v: f"{zh_count(v)}成", formula="(η_red ÷ η_blue − 1) × 10",
                       measures="how much larger red's learning rate is, in tenths (成)",
                       notes="一成", notes_quote="现在我告诉你这两个学习率差多少 —— 差一成。")
