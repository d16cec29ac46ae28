"""Type aliases the kit shares (one place, as manim/typing.py is for manim)."""

from __future__ import annotations

from typing import Sequence, Union

import numpy as np

# A place on screen: (x, y) or (x, y, z), as a sequence or a numpy array.
Point = Union[Sequence[float], np.ndarray]
