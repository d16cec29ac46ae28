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


def halfway_steps(kappa: float, lambda_steep: float = 1.0, max_steps: int = 100_000) -> int:
    """Steps until the flat coordinate is at most half its start, at the largest safe step."""
    lr = largest_safe_step(lambda_steep)
    x, y = 1.0, 1.0
    for k in range(1, max_steps + 1):
        x, y = x - lr * lambda_steep * x, y - lr * (lambda_steep / kappa) * y
        if not math.isfinite(x) or abs(x) > 1.0 + 1e-9:
            raise ArithmeticError("the steep direction diverged")
        if y <= 0.5:
            return k
    raise ArithmeticError("flat direction never reached halfway")


_NOTE = ("The notes' 364 comes from a step of 1.9/λ_steep (95 % of the divergence threshold "
         "2/λ_steep): ln 2 / −ln(1 − 1.9/1000) = 364.5; their 0.37·κ is ln 2 / 1.9 with ln 2 ≈ 0.7. "
         "At the threshold itself the coefficient is ln 2 / 2 = 0.347 and κ = 1000 takes 347 steps; "
         "κ = 25 gives 9 either way.")
_QUOTE = "这时候平的那个方向走完一半， 要零点三七乘以陡峭比那么多步。图上这个谷陡峭比是二十五，所以九步。"

HALFWAY_25 = derived(
    "step.halfway_steps_kappa25", halfway_steps,
    inputs={"kappa": KAPPA_FIGURE}, unit="steps", fmt="{}",
    formula="first k with (1 − η·λ_steep/κ)^k ≤ ½ at η = 2/λ_steep (gradient descent run)",
    measures="steps for the flat direction to go halfway at the largest safe step, κ = 25",
    notes="9", notes_quote=_QUOTE)
HALFWAY_1000 = derived(
    "step.halfway_steps_kappa1000", halfway_steps,
    inputs={"kappa": KAPPA_MODEL}, unit="steps", fmt="{}",
    formula="first k with (1 − η·λ_steep/κ)^k ≤ ½ at η = 2/λ_steep (gradient descent run)",
    measures="the same for κ = 1000", note=_NOTE,
    notes="364", notes_quote="按一千算，同一条公式给出三百六十四步。而这已经是最快的了。")
HALFWAY_COEFFICIENT = derived(
    "step.halfway_coefficient", lambda kappa: halfway_steps(kappa) / kappa,
    inputs={"kappa": KAPPA_MODEL}, unit="× κ", fmt="{:.2f}",
    formula="halfway steps ÷ κ at κ = 1000 (→ ln 2 / 2 as κ grows)",
    measures="halfway steps per unit of steepness ratio", note=_NOTE,
    notes="0.37", notes_quote=_QUOTE)
