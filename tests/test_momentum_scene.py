"""fig-momentum Ⓑ: the three terms of the crossing step are drawn at one true scale, and the
smallest of them, the gradient term, is still an arrow one can see at 1280×720."""

from __future__ import annotations

import numpy as np
import pytest
from manim import config

from lecture_numerics import quantity
from studio.stills import build_scene

PX_PER_UNIT = 1280 / config.frame_width          # 1280×720: 90 px per scene unit
MIN_ARROW_PX = 30
TERMS = ("momentum.crossing.gradient_term", "momentum.crossing.momentum_term", "momentum.crossing.net")


@pytest.fixture(scope="module")
def crossing_arrows():
    scene = build_scene("fig-momentum", capture_stills=True)
    last_b = [s for s in scene.section_stills if s.panel == "B"][-1]
    found = {m.term_of: m for top in last_b.mobjects for m in top.get_family() if getattr(m, "term_of", None)}
    return found


def _length(arrow) -> float:
    return float(np.linalg.norm(arrow.get_end() - arrow.get_start()))


def test_all_three_terms_are_on_screen_at_the_end_of_b(crossing_arrows):
    assert set(crossing_arrows) == set(TERMS)


def test_the_gradient_arrow_is_at_least_30_px_long(crossing_arrows):
    px = _length(crossing_arrows["momentum.crossing.gradient_term"]) * PX_PER_UNIT
    assert px >= MIN_ARROW_PX, f"gradient-term arrow is {px:.1f} px"


def test_the_three_arrows_share_one_true_scale(crossing_arrows):
    scales = [_length(crossing_arrows[k]) / abs(quantity(k).value) for k in TERMS]
    np.testing.assert_allclose(scales, scales[0], rtol=1e-3)


def test_the_gradient_points_back_and_the_others_onward(crossing_arrows):
    direction = {k: np.sign(a.get_end()[0] - a.get_start()[0]) for k, a in crossing_arrows.items()}
    assert direction["momentum.crossing.gradient_term"] == 1                 # right: back toward the pit
    assert direction["momentum.crossing.momentum_term"] == direction["momentum.crossing.net"] == -1
