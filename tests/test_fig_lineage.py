"""fig-lineage, checked on the built scene (no rendering) against the review of issue 26 and
the kit rules of issue 24: Ⓐ's RMSProp thumbnail is drawn from its first step to its last
(off the top, then back on the flat line), Ⓑ's bar is the kit's stacked bar of the square
root it is labelled with, on a base of its first-step height, and Ⓒ names the slide its
0.9 comes from."""

from __future__ import annotations

import numpy as np
import pytest
from manim import Text, VMobject

from lecture_numerics import lineage, quantity
from scenes import fig_lineage
from scenes.kit import theme
from scenes.kit.bars import StackedBar
from studio.stills import build_scene
from tests.legibility_checks import drawn_string, texts_in


@pytest.fixture(scope="module")
def stills():
    return {s.name: s.mobjects for s in build_scene("fig-lineage", capture_stills=True).section_stills}


def _family(mobjects) -> list:
    return list({id(p): p for m in mobjects for p in m.get_family()}.values())


def _last(stills, panel: str):
    return stills[max((n for n in stills if n.startswith(panel + ".")), key=lambda n: int(n.split(".")[1]))]


def _said(mobjects) -> list[str]:
    return [drawn_string(t) for t in texts_in(mobjects)]


def test_rmsprop_thumbnail_runs_from_its_first_step_to_its_last(stills):
    """The curve alone starts where it comes back under the box's top (step ~288 of 600 in
    the old cut, a segment floating mid-box): what is drawn in RMSProp's line colour must
    span the thumbnail from its left edge to its right."""
    centre = fig_lineage.COLUMN_XS[2]
    left, right = centre - fig_lineage.THUMB_W / 2, centre + fig_lineage.THUMB_W / 2
    warm = theme.color(fig_lineage.RMSPROP).to_hex().lower()
    marks = [p for p in _family(_last(stills, "A")) if isinstance(p, VMobject) and not isinstance(p, Text)
             and p.has_points() and p.get_stroke_width() > 0 and p.get_stroke_color().to_hex().lower() == warm
             and left - 0.1 <= p.get_center()[0] <= right + 0.1]
    assert marks, "no RMSProp line in its thumbnail"
    xs = np.concatenate([p.points[:, 0] for p in marks])
    ys = np.concatenate([p.points[:, 1] for p in marks])
    span = (xs.max() - xs.min()) / fig_lineage.THUMB_W
    assert xs.min() <= left + 0.05 and span >= 0.95, f"RMSProp drawn over {span:.0%} of its thumbnail only"
    top = fig_lineage.THUMB_BOTTOM + fig_lineage.THUMB_H
    assert ys.max() > top, "RMSProp's first step does not leave the box"
    # ... and it ends back on the flat line (1 of the thumbnail's 2×), not "always too high".
    flat = fig_lineage.THUMB_BOTTOM + fig_lineage.THUMB_H / lineage.THUMB_TOP.value
    end_y = ys[np.argmax(xs)]
    assert abs(end_y - flat) < 0.05 * fig_lineage.THUMB_H, "RMSProp does not land on the flat line"


def test_denominator_bar_is_the_kits_with_a_first_step_base(stills):
    bars = [p for p in _family(_last(stills, "B")) if isinstance(p, StackedBar)]
    assert len(bars) == 1, "Ⓑ's denominator is not drawn with scenes.kit.bars"
    base, growth = (block.height for block in bars[0].blocks)
    total = (base + growth) / base
    expected = quantity("lineage.adagrad_denominator_growth").value
    assert abs(total - expected) < 0.01 * expected, f"bar is {total:.2f}× its base, ledger says {expected:.2f}×"


def test_denominator_bar_says_it_is_a_square_root(stills):
    said = "".join(_said(_last(stills, "B")))
    assert "平方根" in said or "√" in said, "the bar is √(Σg²) but its label does not say so"
    assert "起点" in said, "the bar's first-step base (1×) is not labelled"


def test_the_slides_value_names_its_slide(stills):
    said = _said(_last(stills, "C"))
    assert not any("课件" in s for s in said), "「课件」 reads as the lecture's own slides"
    rho = quantity("lineage.rmsprop_rho_slides").display
    assert any("Hinton" in s and "slide" in s and rho in s for s in said), "the 0.9 is not tied to Hinton's slide"
