"""Round axis ticks: which values an axis marks and how each is written.

Tick labels are numbers on screen like any other, so they are computed here (below the
drawing code) and declared as quantities by the modules whose figures use them; the kit's
axes only place what they are handed.
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

import numpy as np


def nice_ticks(low: float, high: float, count: int = 3) -> tuple[np.ndarray, float]:
    """Round tick values covering [low, high] (about ``count`` steps) and the step."""
    raw = (high - low) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.ceil(low / step - 1e-9) * step
    return np.arange(first, high + step * 1e-6, step), step


def nice_ceiling(value: float, floor: float = 0.0) -> float:
    """The next round value above ``value`` for an axis starting at ``floor``."""
    _, step = nice_ticks(floor, value)
    return math.ceil(value / step + 1e-9) * step


def decimals_for(step: float) -> int:
    """Decimals that write every multiple of ``step`` exactly (2.5 → 1, 0.25 → 2, 100 → 0)."""
    return next(d for d in range(6) if abs(round(step, d) - step) < 1e-9 * max(step, 1))


def tick_label(value: float, step: float) -> str:
    if value == 0:
        return "0"
    return f"{value:.{decimals_for(step)}f}"


def tick_formatter(ticks: Sequence[float]) -> Callable[[float], str]:
    """One label style for a whole axis: the decimals its step needs (0 is written "0")."""
    steps = np.diff(np.asarray(ticks, dtype=float))
    step = float(steps[steps > 0].min()) if len(steps) and (steps > 0).any() else 1.0
    return lambda value: tick_label(float(value), step)


SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def power_of_ten_label(value: float) -> str:
    """A power of ten written with a superscript exponent: 1e-3 → "10⁻³", 1 → "10⁰".

    For log-axis ticks (use as a quantity's ``item_fmt``); anything else is refused, since a
    label like "10⁻³" must say exactly the value it marks."""
    value = float(value)
    if not value > 0:
        raise ValueError(f"power_of_ten_label({value!r}): a power of ten is positive")
    exponent = round(math.log10(value))
    if not math.isclose(value, 10.0 ** exponent, rel_tol=1e-9):
        raise ValueError(f"power_of_ten_label({value!r}): not a power of ten")
    return "10" + str(exponent).translate(SUPERSCRIPT)


def tick_values_log(low: float, high: float, every: int = 1) -> list[float]:
    """The powers of ten from ``low`` to ``high`` (both included when they are powers),
    one every ``every`` decades: tick values for a log axis."""
    if not (low > 0 and high > low):
        raise ValueError(f"tick_values_log({low!r}, {high!r}): needs 0 < low < high")
    if every < 1:
        raise ValueError(f"tick_values_log: every must be at least 1 decade (got {every})")
    first = math.ceil(math.log10(low) - 1e-9)
    last = math.floor(math.log10(high) + 1e-9)
    return [10.0 ** k for k in range(first, last + 1, every)]
