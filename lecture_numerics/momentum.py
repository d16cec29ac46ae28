"""fig-momentum: plain gradient descent and the heavy ball on one tilted double well, run for real.

Loss f(x) = H·((x/w)² − 1)² + T·x/w: a shallow pit on the right, a deeper valley on the left,
the start high on the right wall (config/scenarios.yaml, block momentum). Both runs use the
same learning rate η; the heavy ball adds β·(x_k − x_{k−1}) (Polyak 1964):
x_{k+1} = x_k − η·f′(x_k) + β·(x_k − x_{k−1}). At the first iterate past the pit's minimum the
step splits into a gradient term (pointing back, to the right) and a momentum term (to the left).
"""

from __future__ import annotations

import numpy as np

from lecture_numerics.optim import BETA1
from lecture_numerics.provenance import chosen, derived
from lecture_numerics.zh import zh_count

CONFIG = "config/scenarios.yaml, block momentum (the loss and run of fig-momentum)"


def _config() -> dict:
    from lecture_numerics.config_files import scenario   # YAML only, from the bottom layer

    return scenario("momentum")


_CFG = _config()
_TUNED = ("tuned with the start so that the heavy ball's crossing of the pit gives the notes' three "
          "values (0.092, 1.304, 1.213) when rounded to three decimals")
HEIGHT = chosen("momentum.loss.height", _CFG["height"], unit="loss", fmt="{:g}", measures="H in f = H·((x/w)² − 1)² + T·x/w",
                reason=f"{CONFIG}: walls steep enough that the pit is visibly a pit")
TILT = chosen("momentum.loss.tilt", _CFG["tilt"], unit="loss", fmt="{:g}", measures="T: the tilt that makes the left valley deeper",
              reason=f"{CONFIG}: the left valley lies deeper than the pit (更深的谷)")
WIDTH = chosen("momentum.loss.width", _CFG["width"], unit="param", fmt="{:g}", measures="w: half the distance between the wells",
               reason=f"{CONFIG}: sets the parameter scale")
START = chosen("momentum.start", _CFG["start"], unit="param", fmt="{:g}", measures="where both runs start, on the right wall",
               reason=f"{CONFIG}: {_TUNED}")
LR = chosen("momentum.lr", _CFG["lr"], unit="", fmt="{:g}", measures="the learning rate of both runs",
            reason=f"{CONFIG}: {_TUNED}")
STEPS = chosen("momentum.steps", _CFG["steps"], unit="steps", measures="length of both runs",
               reason=f"{CONFIG}: long enough for plain descent to stop (|f′| < 1e-9)")


def loss(x, height: float, tilt: float, width: float):
    u = np.asarray(x, dtype=float) / width
    return height * (u * u - 1) ** 2 + tilt * u


def slope(x, height: float, tilt: float, width: float):
    u = np.asarray(x, dtype=float) / width
    return (4 * height * u * (u * u - 1) + tilt) / width


def critical_points(height: float, tilt: float, width: float) -> np.ndarray:
    """Zeros of f′, ascending: deep valley, ridge, pit (roots of 4H·u³ − 4H·u + T in u = x/w)."""
    roots = np.roots([4 * height, 0.0, -4 * height, tilt])
    return np.sort(roots[np.abs(roots.imag) < 1e-12].real) * width


def heavy_ball(start: float, lr: float, beta: float, steps: int, height: float, tilt: float,
               width: float) -> np.ndarray:
    """Iterates x_0 … x_steps of x_{k+1} = x_k − η·f′(x_k) + β·(x_k − x_{k−1}), x_{−1} = x_0."""
    xs = np.empty(steps + 1)
    xs[0] = start
    previous = start
    for k in range(steps):
        xs[k + 1] = xs[k] - lr * slope(xs[k], height, tilt, width) + beta * (xs[k] - previous)
        previous = xs[k]
    return xs


_SHAPE = {"height": HEIGHT, "tilt": TILT, "width": WIDTH}
NO_MOMENTUM = chosen("momentum.plain_beta", 0.0, unit="", fmt="{:g}", measures="β of the gray run",
                     reason="plain gradient descent: no inertia")
GRAY = derived("momentum.gray_path", heavy_ball,
               inputs={"start": START, "lr": LR, "beta": NO_MOMENTUM, "steps": STEPS, **_SHAPE}, unit="param",
               fmt=lambda p: f"{len(p)} points", formula="x_{k+1} = x_k − η·f′(x_k)", measures="gray run (no inertia)")
GREEN = derived("momentum.green_path", heavy_ball,
                inputs={"start": START, "lr": LR, "beta": BETA1, "steps": STEPS, **_SHAPE}, unit="param",
                fmt=lambda p: f"{len(p)} points", formula="x_{k+1} = x_k − η·f′(x_k) + β·(x_k − x_{k−1})",
                measures="green run (heavy ball, β = Adam's β1)")
CRITICAL = derived("momentum.critical_points", critical_points, inputs=_SHAPE, unit="param",
                   fmt=lambda v: ", ".join(f"{x:.3f}" for x in v), formula="roots of f′(x) = 0",
                   measures="deep valley, ridge and pit bottom")


def crossing(path, critical) -> int:
    """k: the first iterate past the pit's minimum (moving left)."""
    return int(np.flatnonzero(np.asarray(path) < critical[2])[0])


CROSSING = derived("momentum.crossing.step", crossing, inputs={"path": GREEN, "critical": CRITICAL}, unit="step",
                   formula="first k with x_k < x_pit", measures="the green iterate just past the pit bottom")
_QUOTE_G = "第一项，梯度这一项：零点零九二，朝右。"
_QUOTE_M = "第二项，惯性这一项：一点三零四，朝左。"
_QUOTE_N = "两个加起来，净移动一点二一三，朝左 —— 继续往前。"
_ROUND_NOTE = ("shown with three decimals, as the speaker reads them (0.092, 1.304, 1.213); rounded, they do not "
               "subtract exactly (1.304 − 0.092 = 1.212): the screen composes the three arrows tip to tail and "
               "prints no subtraction, and the unrounded terms do add up (1.30421 − 0.09155 = 1.21266)")
GRADIENT_TERM = derived(
    "momentum.crossing.gradient_term", lambda path, k, lr, height, tilt, width: float(-lr * slope(path[k], height, tilt, width)),
    inputs={"path": GREEN, "k": CROSSING, "lr": LR, **_SHAPE}, unit="param", fmt="{:.3f}",
    formula="−η·f′(x_k) (positive: to the right, back toward the pit)", measures="the gradient arrow at the crossing",
    note=_ROUND_NOTE, notes="0.092", notes_quote=_QUOTE_G)
MOMENTUM_TERM = derived(
    "momentum.crossing.momentum_term", lambda path, k, beta: float(beta * (path[k - 1] - path[k])),
    inputs={"path": GREEN, "k": CROSSING, "beta": BETA1}, unit="param", fmt="{:.3f}",
    formula="β·(x_{k−1} − x_k) (positive: to the left, onward)", measures="the momentum arrow at the crossing",
    note=_ROUND_NOTE, notes="1.304", notes_quote=_QUOTE_M)
NET = derived(
    "momentum.crossing.net", lambda path, k: float(path[k] - path[k + 1]),
    inputs={"path": GREEN, "k": CROSSING}, unit="param", fmt="{:.3f}",
    formula="x_k − x_{k+1} (positive: to the left)", measures="the net move at the crossing",
    note=_ROUND_NOTE, notes="1.213", notes_quote=_QUOTE_N)
GRAY_FINAL_SLOPE = derived(
    "momentum.gray_final_slope", lambda path, height, tilt, width: float(abs(slope(path[-1], height, tilt, width))),
    inputs={"path": GRAY, **_SHAPE}, unit="loss/param", fmt="{:.0e}",
    formula="|f′(x_last)| of the gray run", measures="the slope where the gray run stops (it is truly stuck)")


def _count(gray, green) -> int:
    return len([gray, green])


RUN_COUNT = derived("momentum.run_count", _count, inputs={"gray": GRAY, "green": GREEN}, unit="runs", fmt=zh_count,
                    formula="the runs drawn (gray, green)", measures="runs on the one loss")

# --- Ⓒ: β as a memory knob -------------------------------------------------------------------------
BAR_COUNT = chosen("momentum.bar_count", 30, unit="bars", measures="bars drawn for β^k, k = 0 … 29",
                   reason="three windows of β = 0.9: the weights are down to 0.9²⁹ ≈ 5 %")
BETA_LOW = chosen("momentum.knob.beta_low", 0.8, unit="", fmt="{:g}", measures="the knob's short-memory stop",
                  reason="a shorter memory for contrast (the bottom of the range the notes attribute to Polyak, 待核)")
BETA_HIGH = chosen("momentum.knob.beta_high", 0.99, unit="", fmt="{:g}", measures="the knob's long-memory stop",
                   reason="a longer memory for contrast: a window of a hundred steps, ten times 0.9's (the top of the "
                          "range the notes attribute to Polyak, 待核)")
WEIGHTS = derived("momentum.bar_weights", lambda beta, count: beta ** np.arange(count),
                  inputs={"beta": BETA1, "count": BAR_COUNT}, unit="", fmt=lambda v: f"{len(v)} bars",
                  formula="β^k, k = 0 … count − 1", measures="weight of the gradient from k steps ago")


# The knob's other two stops, drawn as the same row of bars (Ⓒ turns the knob).
WEIGHTS_LOW = derived("momentum.bar_weights_low", lambda beta, count: beta ** np.arange(count),
                      inputs={"beta": BETA_LOW, "count": BAR_COUNT}, unit="", fmt=lambda v: f"{len(v)} bars",
                      formula="β^k, k = 0 … count − 1", measures="the bars at the knob's short-memory stop")
WEIGHTS_HIGH = derived("momentum.bar_weights_high", lambda beta, count: beta ** np.arange(count),
                       inputs={"beta": BETA_HIGH, "count": BAR_COUNT}, unit="", fmt=lambda v: f"{len(v)} bars",
                       formula="β^k, k = 0 … count − 1", measures="the bars at the knob's long-memory stop")


def window(beta: float) -> float:
    return 1 / (1 - beta)


WINDOW_09 = derived("momentum.window_beta_0p9", window, inputs={"beta": BETA1}, unit="steps", fmt="{:.0f}",
                    formula="1 ÷ (1 − β)", measures="effective memory window of β = 0.9",
                    notes="10", notes_quote="β 等于零点九，就是十步左右。")
WINDOW_LOW = derived("momentum.window_beta_low", window, inputs={"beta": BETA_LOW}, unit="steps", fmt="{:.0f}",
                     formula="1 ÷ (1 − β)", measures="window of the knob's short stop")
WINDOW_HIGH = derived("momentum.window_beta_high", window, inputs={"beta": BETA_HIGH}, unit="steps", fmt="{:.0f}",
                      formula="1 ÷ (1 − β)", measures="window of the knob's long stop")

# --- the brake: a deeper pit, the same heavy ball ------------------------------------------------------
BUMP_HEIGHT = chosen("momentum.deeper.bump_height", _CFG["deeper_bump_height"], unit="loss", fmt="{:g}",
                     measures="height of the bump added on the ridge (deepens the pit)",
                     reason=f"{CONFIG}: high enough that the same heavy ball no longer gets out")
BUMP_WIDTH = chosen("momentum.deeper.bump_width", _CFG["deeper_bump_width"], unit="param", fmt="{:g}",
                    measures="width (standard deviation) of that bump", reason=f"{CONFIG}: about the ridge's own width")


def deeper_loss(x, height, tilt, width, bump_height, bump_width, ridge):
    x = np.asarray(x, dtype=float)
    return loss(x, height, tilt, width) + bump_height * np.exp(-(x - ridge) ** 2 / (2 * bump_width ** 2))


def deeper_slope(x, height, tilt, width, bump_height, bump_width, ridge):
    x = np.asarray(x, dtype=float)
    bump = bump_height * np.exp(-(x - ridge) ** 2 / (2 * bump_width ** 2))
    return slope(x, height, tilt, width) - bump * (x - ridge) / bump_width ** 2


def deeper_heavy_ball(start, lr, beta, steps, height, tilt, width, bump_height, bump_width, critical):
    """The heavy ball of GREEN on the deeper loss (bump centred on the base loss's ridge)."""
    ridge = critical[1]
    xs = np.empty(steps + 1)
    xs[0] = previous = start
    for k in range(steps):
        g = deeper_slope(xs[k], height, tilt, width, bump_height, bump_width, ridge)
        xs[k + 1] = xs[k] - lr * g + beta * (xs[k] - previous)
        previous = xs[k]
    return xs


GREEN_DEEPER = derived(
    "momentum.deeper.green_path", deeper_heavy_ball,
    inputs={"start": START, "lr": LR, "beta": BETA1, "steps": STEPS, **_SHAPE, "bump_height": BUMP_HEIGHT,
            "bump_width": BUMP_WIDTH, "critical": CRITICAL}, unit="param", fmt=lambda p: f"{len(p)} points",
    formula="the heavy ball on f + bump·exp(−(x − x_ridge)² / 2w²)", measures="green run on a deeper pit (it stays in)")

# 「降低的是「从哪儿出发决定一切」的程度，不是消除它」: on the same deeper loss, the same heavy ball
# started on the other wall ends in the deep valley: one landscape, two starts, two ends.
LEFT_START = chosen("momentum.deeper.left_start", -START.value, unit="param", fmt="{:g}",
                    measures="where the second deeper-pit run starts, on the left wall",
                    reason="the mirror of momentum.start (x → −x): as far out on the left wall as the runs' "
                           "start is on the right, so only the side of the ridge differs (not the height: the tilt "
                           "T·x/w puts it lower on the loss than momentum.start)")
GREEN_DEEPER_LEFT = derived(
    "momentum.deeper.green_path_left", deeper_heavy_ball,
    inputs={"start": LEFT_START, "lr": LR, "beta": BETA1, "steps": STEPS, **_SHAPE, "bump_height": BUMP_HEIGHT,
            "bump_width": BUMP_WIDTH, "critical": CRITICAL}, unit="param", fmt=lambda p: f"{len(p)} points",
    formula="the heavy ball on f + bump·exp(−(x − x_ridge)² / 2w²), from the left wall",
    measures="green run on the deeper pit from the left wall (it ends in the deep valley)")
