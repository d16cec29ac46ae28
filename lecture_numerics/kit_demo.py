"""Inputs of demo-kit, the chart kit's showcase (not part of the lecture): axis ticks, a
toy run, bar segments and a tally. Every value is chosen to exercise a widget — linear and
log ticks, a label that fits its segment and one that does not — and measures nothing.
"""

from __future__ import annotations

import numpy as np

from lecture_numerics.axes import power_of_ten_label, tick_formatter, tick_values_log
from lecture_numerics.provenance import chosen, derived

REASON = "demonstrates the kit"


def _ticks(key: str, values: list[float], item_fmt, measures: str):
    return chosen(key, values, unit="", measures=measures, reason=REASON, item_fmt=item_fmt,
                  fmt=lambda ticks: " / ".join(map(item_fmt, ticks)))


LINEAR_X = [0.0, 10.0, 20.0, 30.0, 40.0]
LINEAR_Y = [0.0, 1.0, 2.0, 3.0]
RUN_X_TICKS = _ticks("kit_demo.run_x_ticks", LINEAR_X, tick_formatter(LINEAR_X), "demo plot's step ticks")
RUN_Y_TICKS = _ticks("kit_demo.run_y_ticks", LINEAR_Y, tick_formatter(LINEAR_Y), "demo plot's loss ticks")
LOG_X_TICKS = _ticks("kit_demo.log_x_ticks", tick_values_log(1e-3, 1e3), power_of_ten_label,
                     "demo log plot's x ticks, one per decade")
LOG_Y_TICKS = _ticks("kit_demo.log_y_ticks", tick_values_log(1e-2, 1e2), power_of_ten_label,
                     "demo log plot's y ticks, one per decade")
RANGE_TICKS = _ticks("kit_demo.range_ticks", tick_values_log(1e-40, 1e40, every=20), power_of_ten_label,
                     "demo number axis' ticks, every twenty decades")
RANGE_LOW = chosen("kit_demo.range_low", 1e-30, unit="", measures="low end of the demo span",
                   reason=REASON, fmt=power_of_ten_label)
RANGE_HIGH = chosen("kit_demo.range_high", 1e30, unit="", measures="high end of the demo span",
                    reason=REASON, fmt=power_of_ten_label)

# One big segment (its label fits inside) and two thin ones (labels go beside the bar).
BAR_BIG = chosen("kit_demo.bar_big", 12, unit="B", measures="demo bar's big segment", reason=REASON,
                 fmt="{} B")
BAR_SMALL = chosen("kit_demo.bar_small", 2, unit="B", measures="demo bar's thin segments", reason=REASON,
                   fmt="{} B")
BAR_TOTAL = derived("kit_demo.bar_total", lambda big, small: big + 2 * small,
                    inputs={"big": BAR_BIG, "small": BAR_SMALL}, unit="B", fmt="{} B",
                    formula="big + 2 × small", measures="demo bar's whole length")

FORWARD = chosen("kit_demo.forward", 1, unit="", measures="demo tally's first term", reason=REASON)
BACKWARD = chosen("kit_demo.backward", 2, unit="", measures="demo tally's second term", reason=REASON)
TALLY_TOTAL = derived("kit_demo.tally_total", lambda forward, backward: forward + backward,
                      inputs={"forward": FORWARD, "backward": BACKWARD}, unit="",
                      formula="forward + backward", measures="demo tally's total")


def loss_run(steps: int = 40) -> tuple[np.ndarray, np.ndarray]:
    """A toy loss falling towards a floor with a slow wobble: steps and loss."""
    x = np.arange(steps + 1, dtype=float)
    return x, 0.4 + 2.2 * np.exp(-x / 9.0) + 0.08 * np.sin(x / 2.0)


def power_laws() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """x on a log grid and two power laws: one inside the log plot, one that leaves it."""
    x = np.logspace(-3, 3, 61)
    return x, 1.0 / np.sqrt(x), 0.05 / x
