"""fig-updratio, checked on the built scene (no rendering) against the review of issue 44: the
cliff is drawn, and what the screen says of it is what the drawn runs do — the multiplier on
太大's learning rate at which a run first ends in NaN is the one written, to its printed
precision; the wall stands at that learning rate, 刚好 far from it and 太大 close; and the
jitter beat states no multiple (the ratio moves with how the trend is taken out)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from lecture_numerics import quantity, updratio
from scenes.kit.plots import Plot
from studio.engine.stills import build_scene
from tests.legibility_checks import drawn_string, texts_in

SEARCH_LIMIT = 4.0        # the cliff search's own limit (updratio.cliff)


@pytest.fixture(scope="module")
def stills():
    scene = build_scene("fig-updratio", capture_stills=True)
    return {s.name: s.mobjects for s in scene.section_stills}


def _visible_texts(mobjects) -> list[str]:
    return [drawn_string(t) for t in texts_in(mobjects) if t.get_fill_opacity() > 0.05]


def first_nan_multiplier(eta_big: float, grid: float) -> float:
    """A plain scan of the drawn runs (updratio.train, the arithmetic the curve is drawn with),
    one grid step at a time from 1: the first multiplier whose 400-step run ends non-finite."""
    for m in np.round(np.arange(1.0, SEARCH_LIMIT, grid), 6):
        if not np.isfinite(updratio.train([eta_big * m]).losses[0, -1]):
            return float(m)
    raise AssertionError("no NaN run below the search limit")


def test_the_nan_multiplier_on_screen_is_where_the_drawn_runs_first_turn_nan(stills):
    said = [t for t in _visible_texts(stills["B.4"]) if "NaN" in t and "再乘" in t]
    assert len(said) == 1, f"one 「再乘 … → NaN」 expected, found {said}"
    shown = re.search(r"\d+(?:\.\d+)?", said[0]).group()
    decimals = len(shown.split(".")[1]) if "." in shown else 0
    first = first_nan_multiplier(float(updratio.LR_BIG.value), float(updratio.CLIFF_GRID.value))
    assert round(first, decimals) == float(shown), f"the runs first turn NaN at ×{first}, the screen says ×{shown}"
    assert quantity("updratio.nan_multiplier").value == pytest.approx(first)


def test_every_run_drawn_on_the_curve_ends_finite_and_the_wall_is_the_first_nan():
    etas, losses = updratio.loss_by_learning_rate(updratio.LR_OK.value, updratio.SPREAD.value, updratio.CLIFF.value)
    wall = float(updratio.LR_BIG.value) * float(updratio.CLIFF.value)
    assert np.isfinite(losses).all() and etas.max() < wall
    assert not np.isfinite(updratio.train([wall]).losses[0, -1])


def test_ok_sits_far_from_the_wall_and_big_close(stills):
    """On the drawn log axis: 刚好's distance to the wall is many times 太大's."""
    plot = next(p for m in stills["B.5"] for p in m.get_family() if isinstance(p, Plot) and p.x_scale.log)
    wall = float(updratio.LR_BIG.value) * float(updratio.CLIFF.value)
    x = lambda eta: plot.point(eta, 0.5)[0]
    ok, big = x(wall) - x(float(updratio.LR_OK.value)), x(wall) - x(float(updratio.LR_BIG.value))
    assert ok > 5 * big > 0


def test_the_jitter_beat_says_no_multiple(stills):
    """「近十倍」 is an erratum that changes the claim: the screen shows the shaking, not a ratio."""
    assert not [t for t in _visible_texts(stills["B.3"]) if "倍" in t]
    assert any("几乎不抖" in t for t in _visible_texts(stills["B.3"]))


def test_the_cost_is_elsewhere_stays_until_the_closing_line(stills):
    """The ⭐ 「代价在别处」 is a takeaway of B.2 and stays while its costs are drawn (B.2–B.4);
    the closing line replaces it, alone at the bottom, as the panel ends."""
    def shown(name):
        return {p.takeaway_of for m in stills[name] for p in m.get_family() if getattr(p, "takeaway_of", None)}

    for name in ("B.2", "B.3", "B.4"):
        assert "B.2" in shown(name)
    last = max((n for n in stills if n.startswith("B.")), key=lambda n: int(n.split(".")[1]))
    assert shown(last) == {last}


def test_the_drawn_shaking_is_what_the_label_measures():
    """B.3 draws each run's last steps minus its own trend: 太大's RMS is the ±value written over
    it, and 刚好's strip is a flat line next to it (its swing hundreds of times smaller)."""
    from scenes.fig_updratio import BIG, OK, FigUpdratio

    runs = updratio.three_runs(updratio.LR_OK.value, updratio.SPREAD.value)
    big, ok = FigUpdratio.shaking(runs.losses[BIG]), FigUpdratio.shaking(runs.losses[OK])
    assert len(big) == updratio.TAIL.value + 1
    assert np.sqrt(np.mean(big ** 2)) == pytest.approx(quantity("updratio.loss_jitter_big").value, rel=1e-9)
    assert np.abs(big).max() > 100 * np.abs(ok).max()
