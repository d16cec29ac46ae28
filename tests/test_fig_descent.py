"""fig-descent Ⓐ, checked on the built scene (no rendering): the ⭐⭐⭐ beat 「差别只有一个：它们
从哪儿出发」 must change the picture to show that one difference, and Ⓐ's labels stay off the curve."""

from __future__ import annotations

import numpy as np
import pytest
from manim import Text, VMobject

from studio.engine.stills import build_scene

ONE_DIFFERENCE = "差别只有一个：它们从哪儿出发。"


@pytest.fixture(scope="module")
def descent():
    scene = build_scene("fig-descent", capture_stills=True)
    stills = {s.name: s for s in scene.section_stills}
    beat = next(b for b in scene.beats if b.says == ONE_DIFFERENCE)
    return scene, stills, beat


def _family(still):
    return [p for m in still.mobjects for p in m.get_family()]


def _rings_around(still, centre) -> list[VMobject]:
    """Closed, unfilled outlines centred on ``centre`` and wider than a ball."""
    return [p for p in _family(still)
            if isinstance(p, VMobject) and not isinstance(p, Text) and len(p.points)
            and p.get_fill_opacity() == 0 and p.get_stroke_opacity() > 0.9
            and np.linalg.norm(p.get_center()[:2] - centre[:2]) < 0.02 and p.width > 0.3]


def test_the_one_difference_is_ringed_at_its_beat(descent):
    """At 「差别只有一个」 the two first balls get rings (absent one beat earlier) and the rest steps back."""
    scene, stills, beat = descent
    now, before = stills[beat.name], stills[f"{beat.panel}.{beat.n - 1}"]
    for colour in ("red", "green"):
        start = scene.balls[colour][0].get_center()
        assert _rings_around(now, start), f"{colour}: no ring around the start at {beat.name}"
        assert not _rings_around(before, start), f"{colour}: the start was already ringed before {beat.name}"
    now_hops = [p for p in _family(now) if any(p is h or p.points.shape == h.points.shape and np.allclose(p.points, h.points)
                                                for h in scene.hops["red"])]
    assert now_hops and all(h.get_stroke_opacity() < 0.5 for h in now_hops), "the hops do not step back"


def test_panel_a_labels_stay_off_the_curve(descent):
    scene, stills, beat = descent
    points = scene.loss_curve.points
    for text in (t for t in _family(stills[beat.name]) if isinstance(t, Text)):
        if text.text not in ("第一步最大", "一步比一步小", "起点"):
            continue
        (x0, y0, _), (x1, y1, _) = text.get_corner([-1, -1, 0]), text.get_corner([1, 1, 0])
        inside = (points[:, 0] > x0) & (points[:, 0] < x1) & (points[:, 1] > y0) & (points[:, 1] < y1)
        assert not inside.any(), f"the curve runs through 「{text.text}」"


def test_the_step_is_drawn_in_the_gradients_colour():
    """−∇L is a gradient: one meaning per colour puts it in the gradient's role (it was the
    status green, which now means only 'fine'). It is told from ∇L by weight and by name."""
    from scenes import fig_descent
    from scenes.kit import theme

    assert theme.color(fig_descent.GRADIENT) == theme.color("gradients")
    assert not any(paint == fig_descent.GRADIENT for _, paint in fig_descent.STRINGS)


def test_deepseek_v3_is_the_same_colour_as_in_fig_per_byte():
    from scenes import fig_lr_curve, fig_per_byte
    from scenes.kit import theme

    assert theme.color(fig_lr_curve.NEW) == theme.color(fig_per_byte.V3)
