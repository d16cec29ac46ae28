"""Independent references for the numbers drawn by the second half of 第三节 (fig-onelr,
fig-momentum, fig-beststep, fig-lr-curve, fig-muon): closed forms and plain loops, written
again here without the numerics' code. ``oracles(v)`` is merged into test_drawn_oracles.ORACLES;
``v(key)`` reads an input (sourced or chosen), never a result."""

from __future__ import annotations

import math
from typing import Any, Callable


def _blue_progress_share(v) -> float:
    c, kappa = v("onelr.blue_step_times_lambda"), v("step.kappa_figure")
    x, y = v("onelr.start")
    across = length = 0.0
    for _ in range(v("onelr.blue_steps")):
        dx, dy = -c / kappa * x, -c * y
        across += abs(dx)
        length += math.hypot(dx, dy)
        x, y = x + dx, y + dy
    return across / length


def oracles(v: Callable[[str], Any]) -> dict[str, Any]:
    c, ratio = (lambda: v("onelr.blue_step_times_lambda")), (lambda: v("onelr.red_over_blue"))
    return {
        "onelr.run_count": lambda: 2,                                   # red and blue, counted on the picture
        "onelr.blue_steep_factor": lambda: abs(1 - c()),                # |1 − η·λ_steep| with λ_steep = 1
        "onelr.red_steep_factor": lambda: abs(1 - ratio() * c()),
        "onelr.blue_progress_share": lambda: _blue_progress_share(v),
    }
