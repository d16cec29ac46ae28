"""One global learning rate in a valley with a steep and a flat direction (fig-onelr, fig-beststep).

Loss ½(λ_steep·x² + λ_flat·y²), κ = λ_steep ÷ λ_flat. Gradient descent multiplies x by
(1 − η·λ_steep) and y by (1 − η·λ_flat) each step, so it diverges once η > 2/λ_steep. At the
largest step that does not diverge, η = 2/λ_steep, the flat direction shrinks by (1 − 2/κ)
per step (λ_steep = 1: only κ matters): halfway takes about ln 2 / 2 · κ ≈ 0.35 κ steps. ``halfway_steps`` runs it.
"""

from __future__ import annotations

import math

import numpy as np

from lecture_numerics.provenance import chosen, derived

KAPPA_MODEL_QUOTE = "真实模型上，这个比值是几个数量级。 按一千算，同一条公式给出三百六十四步。"

KAPPA_FIGURE = chosen("step.kappa_figure", 25, unit="", notes="二十五",
                      notes_quote="图上这个谷陡峭比是二十五，所以九步。",
                      reason="the valley drawn in fig-onelr: elongated enough to see, short enough to run",
                      measures="steepness ratio κ of the valley drawn in fig-onelr")
KAPPA_MODEL = chosen("step.kappa_model", 1000, unit="", notes="一千", notes_quote=KAPPA_MODEL_QUOTE,
                     reason="a round stand-in for a real model's steepness ratio ('several orders of magnitude')",
                     measures="steepness ratio κ taken for a real model")
def gradient_descent(lr: float, curvatures: tuple[float, float], start: tuple[float, float],
                     steps: int) -> np.ndarray:
    """Positions (steps + 1, 2) of gradient descent on ½(λ₁x² + λ₂y²)."""
    lam = np.array(curvatures, dtype=float)
    path = np.empty((steps + 1, 2))
    path[0] = start
    for k in range(steps):
        path[k + 1] = path[k] - lr * lam * path[k]
    return path


def largest_safe_step(lambda_steep: float) -> float:
    """Supremum of the non-diverging steps: the steep direction's factor |1 − ηλ| reaches 1."""
    return 2.0 / lambda_steep


STEP_TIMES_LAMBDA = chosen(
    "step.step_times_lambda", 1.9, unit="", fmt="{:g}", measures="η·λ_steep of the rows and of fig-onelr's blue run",
    reason="95 % of the divergence threshold 2/λ_steep: reproduces the notes' 9 and 364; blue converges while "
           "1.1 × it diverges only for c in (2/1.1, 2)")


def halfway_steps(kappa: float, step_times_lambda: float) -> int:
    """The rows' counting rule: ln 2 ÷ −ln(1 − c/κ), rounded to the nearest step."""
    return round(math.log(2) / -math.log1p(-step_times_lambda / kappa))


_RULE = ("k = ln 2 ÷ −ln(1 − c/κ) at c = η·λ_steep = 1.9 (95 % of the threshold 2/λ_steep), rounded to the "
         "nearest step (the notes' 「同一条公式」)")
_QUOTE = "这时候平的那个方向走完一半， 要零点三七乘以陡峭比那么多步。图上这个谷陡峭比是二十五，所以九步。"

HALFWAY_25 = derived(
    "step.halfway_steps_kappa25", halfway_steps,
    inputs={"kappa": KAPPA_FIGURE, "step_times_lambda": STEP_TIMES_LAMBDA}, unit="steps", fmt="{}",
    formula=_RULE, measures="steps for the flat direction to go halfway at the figure's step, κ = 25",
    notes="9", notes_quote=_QUOTE)
HALFWAY_1000 = derived(
    "step.halfway_steps_kappa1000", halfway_steps,
    inputs={"kappa": KAPPA_MODEL, "step_times_lambda": STEP_TIMES_LAMBDA}, unit="steps", fmt="{}",
    formula=_RULE, measures="the same for κ = 1000",
    note="364.47 rounded; a literal loop (first k with (1 − c/κ)^k ≤ ½) gives 365; at the threshold itself "
         "(c = 2) the formula gives 346.2, i.e. 347 steps",
    notes="364", notes_quote="按一千算，同一条公式给出三百六十四步。而这已经是最快的了。")
HALFWAY_COEFFICIENT = derived(
    "step.halfway_coefficient", lambda c: math.log(2) / c, inputs={"c": STEP_TIMES_LAMBDA}, unit="× κ", fmt="{:.2f}",
    formula="ln 2 ÷ c (large-κ limit of halfway steps ÷ κ)", measures="halfway steps per unit of steepness ratio",
    note="ln 2 ÷ 1.9 = 0.365 → 0.36; the notes' 0.37 is 0.7 ÷ 1.9 (ln 2 taken as 0.7); 0.37 × 1000 = 370, not 364",
    notes="0.37", notes_quote=_QUOTE)
