"""Data to screen, once for the whole kit: a :class:`Scale` maps values to a fraction of an
axis (linear or log10), and a :class:`ScreenAxis` turns that fraction into a scene
coordinate. Plots, data windows, time axes and broken scales all map through these."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence, Union

import numpy as np

Values = Union[float, Sequence[float], np.ndarray]
# Data within this share of the range past an end still counts as inside (float round-off).
EDGE_TOLERANCE = 1e-9


@dataclass(frozen=True)
class Scale:
    """One axis' data range: maps values to a fraction 0 (low end) … 1 (high end),
    linearly or by log10. Pure arithmetic, vectorised."""

    low: float
    high: float
    log: bool = False
    name: str = "axis"

    def __post_init__(self) -> None:
        if not self.high > self.low:
            raise ValueError(f"{self.name}: range needs low < high (got {self.low!r}, {self.high!r})")
        if self.log and not self.low > 0:
            raise ValueError(f"{self.name} is a log axis: its range must start above 0 (got low={self.low!r})")

    def fraction(self, values: Values) -> np.ndarray:
        """Where ``values`` sit along the axis, 0 … 1 (outside that when out of range)."""
        v = np.asarray(values, dtype=float)
        if not self.log:
            return (v - self.low) / (self.high - self.low)
        bad = ~(v > 0)  # also catches NaN
        if bad.any():
            raise ValueError(f"{self.name} is a log axis: every value must be > 0, got {float(v[bad].ravel()[0])!r}")
        return (np.log10(v) - np.log10(self.low)) / (np.log10(self.high) - np.log10(self.low))

    def contains(self, values: Values) -> np.ndarray:
        f = self.fraction(values)
        return (f >= -EDGE_TOLERANCE) & (f <= 1 + EDGE_TOLERANCE)


class ScreenAxis:
    """Data values → one scene coordinate (x or y) between ``start`` and ``end`` through a
    :class:`Scale` (linear, or log10 with ``log=True``): the one mapping behind plots, data
    windows, time axes and broken scales, for marks on a bare line as well."""

    def __init__(self, low: float, high: float, start: float, end: float, *, log: bool = False, name: str = "axis"):
        self.scale = Scale(low, high, log=log, name=name)
        self.start, self.end = start, end

    def __call__(self, value):
        at = self.start + self.scale.fraction(value) * (self.end - self.start)
        return float(at) if np.ndim(at) == 0 else at
