"""The safe area: no text within the theme's ``safe`` margin (30 px at 1280×720) of the frame's
edge. Scenes place edge-hugging things with these instead of their own buffs."""

from __future__ import annotations

import numpy as np
from manim import DOWN, Mobject, config

from scenes.kit import theme


def safe_bounds() -> tuple[float, float, float, float]:
    """(left, bottom, right, top) of the safe area in scene units."""
    margin = theme.space("safe")
    half_w, half_h = config.frame_width / 2, config.frame_height / 2
    return -half_w + margin, -half_h + margin, half_w - margin, half_h - margin


def keep_inside(mob: Mobject) -> Mobject:
    """Shift ``mob`` the least distance that puts it inside the safe area (it must fit)."""
    left, bottom, right, top = safe_bounds()
    x0, y0 = mob.get_left()[0], mob.get_bottom()[1]
    x1, y1 = mob.get_right()[0], mob.get_top()[1]
    if x1 - x0 > right - left or y1 - y0 > top - bottom:
        raise ValueError(f"keep_inside: {type(mob).__name__} is larger than the safe area")
    dx = max(left - x0, 0.0) + min(right - x1, 0.0)
    dy = max(bottom - y0, 0.0) + min(top - y1, 0.0)
    return mob.shift(np.array([dx, dy, 0.0]))


def at_bottom(mob: Mobject) -> Mobject:
    """``mob`` along the bottom edge of the safe area."""
    return mob.to_edge(DOWN, buff=theme.space("safe"))
