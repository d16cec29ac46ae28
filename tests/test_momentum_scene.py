"""fig-momentum Ⓑ: the three terms of the crossing step are drawn at one true scale, tip to tail,
and the smallest of them, the gradient term, is still an arrow one can see at 1280×720."""

from __future__ import annotations

import numpy as np
import pytest
from manim import config

from lecture_numerics import quantity
from studio.engine.stills import build_scene

PX_PER_UNIT = 1280 / config.frame_width          # 1280×720: 90 px per scene unit
MIN_ARROW_PX = 30
TERMS = ("momentum.crossing.gradient_term", "momentum.crossing.momentum_term", "momentum.crossing.net")
# The beat that lands the mechanics; after it the history takes the stage and the arrows leave.
MECHANICS = "梯度是反对它继续走的。 是惯性把它带出去的"
BRAKE = "图上那条能出来，是因为那个坑够浅；换个更深的坑，它一样出不来"


def _still_of(scene, says: str):
    beat = next(b for b in scene.beats if b.says == says)
    return next(s for s in scene.section_stills if s.name == beat.name)


@pytest.fixture(scope="module")
def crossing_arrows():
    scene = build_scene("fig-momentum", capture_stills=True)
    still = _still_of(scene, MECHANICS)
    found = {m.term_of: m for top in still.mobjects for m in top.get_family() if getattr(m, "term_of", None)}
    return found


def _length(arrow) -> float:
    return float(np.linalg.norm(arrow.get_end() - arrow.get_start()))


def test_all_three_terms_are_on_screen_when_the_mechanics_land(crossing_arrows):
    assert set(crossing_arrows) == set(TERMS)


def test_the_gradient_arrow_is_at_least_30_px_long(crossing_arrows):
    px = _length(crossing_arrows["momentum.crossing.gradient_term"]) * PX_PER_UNIT
    assert px >= MIN_ARROW_PX, f"gradient-term arrow is {px:.1f} px"


def test_the_three_arrows_share_one_true_scale(crossing_arrows):
    scales = [_length(crossing_arrows[k]) / abs(quantity(k).value) for k in TERMS]
    np.testing.assert_allclose(scales, scales[0], rtol=1e-3)


def test_the_arrows_are_at_the_curves_scale(crossing_arrows):
    """The net arrow's tip stands above where the ball lands: arrows and curve share one x-scale."""
    from scenes.fig_momentum import PIT, on_curve
    from lecture_numerics import momentum as run

    k = run.CROSSING.value
    here, after = on_curve(PIT, run.GREEN.value[k:k + 2])
    net = crossing_arrows["momentum.crossing.net"]
    assert abs(net.get_start()[0] - here[0]) < 1e-6
    assert abs(net.get_end()[0] - after[0]) * PX_PER_UNIT < 1.0


def test_the_momentum_term_starts_at_the_gradients_tip(crossing_arrows):
    """Tip to tail: the momentum arrow leaves from where the gradient arrow ends, so the net
    arrow (from the ball) ends where the momentum arrow ends."""
    g, m = crossing_arrows["momentum.crossing.gradient_term"], crossing_arrows["momentum.crossing.momentum_term"]
    net = crossing_arrows["momentum.crossing.net"]
    assert abs(m.get_start()[0] - g.get_end()[0]) * PX_PER_UNIT < 1.0
    assert abs(net.get_end()[0] - m.get_end()[0]) * PX_PER_UNIT < 1.5


def test_the_gradient_points_back_and_the_others_onward(crossing_arrows):
    direction = {k: np.sign(a.get_end()[0] - a.get_start()[0]) for k, a in crossing_arrows.items()}
    assert direction["momentum.crossing.gradient_term"] == 1                 # right: back toward the pit
    assert direction["momentum.crossing.momentum_term"] == direction["momentum.crossing.net"] == -1


def test_the_deeper_pit_inset_reads_at_1280x720():
    """Ⓒ: 「换个更深的坑，它一样出不来」 was a 95×95 px thumbnail with 7 px iterates. Its curve must
    stand at least 120 px tall and each iterate be at least 10 px across."""
    from manim import Dot, Text, VMobject

    from scenes.fig_momentum import DEEPER

    scene = build_scene("fig-momentum", capture_stills=True)
    still = _still_of(scene, BRAKE)
    (cx, cy), (w, h) = DEEPER.screen_center, DEEPER.screen_size
    parts = [p for top in still.mobjects for p in top.get_family()
             if isinstance(p, VMobject) and not isinstance(p, Text) and len(p.points)
             and abs(p.get_center()[0] - cx) < w / 2 and abs(p.get_center()[1] - cy) < h / 2]
    dots = [p for p in parts if isinstance(p, Dot)]
    curves = [p for p in parts if not isinstance(p, Dot) and p.get_stroke_width() > 0]
    assert dots and curves, "no deeper-pit inset in Ⓒ's last beat"
    assert max(c.height for c in curves) * PX_PER_UNIT >= 120
    assert min(d.width for d in dots) * PX_PER_UNIT >= 10
