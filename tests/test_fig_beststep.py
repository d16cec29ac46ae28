"""fig-beststep Ⓑ's trick (issue 45): the question 「看起来陡谷离得更远？」 can only spring if the
room cannot see where the valleys bottom out before 「错了」. Checked on the built stills: no
visible stroke or fill comes near either bottom in the beats before the one quoting 「错了」,
and in that beat both bottoms are drawn."""

from __future__ import annotations

import numpy as np
import pytest

from studio.engine.stills import build_scene

NEAR = 0.3          # scene units (27 px at 720p): closer than this, the bottom can be read off the picture


@pytest.fixture(scope="module")
def beststep():
    scene = build_scene("fig-beststep", capture_stills=True)
    return scene, {s.name: s for s in scene.section_stills}


def _visible_points(still) -> np.ndarray:
    found = []
    for top in still.mobjects:
        for part in top.get_family():
            if not len(part.points):
                continue
            shown = max(part.get_stroke_opacity() * (part.get_stroke_width() > 0), part.get_fill_opacity())
            if shown > 0.05:
                found.append(part.points)
    return np.vstack(found) if found else np.zeros((0, 3))


def _bottoms():
    from scenes.fig_beststep import B_FLAT, B_STEEP

    return [B_STEEP.point(0, 0), B_FLAT.point(0, 0)]


def _near(points: np.ndarray, at: np.ndarray) -> bool:
    return bool(len(points)) and bool((np.linalg.norm(points[:, :2] - at[:2], axis=1) < NEAR).any())


def test_no_valley_bottom_is_seen_before_the_answer(beststep):
    scene, stills = beststep
    panel = [b for b in scene.beats if b.panel == "B"]
    answer = next(i for i, b in enumerate(panel) if b.says and "错了" in b.says)
    assert answer >= 2, "the question must have a beat of its own before 「错了」"
    for beat in panel[:answer]:
        points = _visible_points(stills[beat.name])
        for bottom in _bottoms():
            assert not _near(points, bottom), f"{beat.name}: a valley's bottom is drawn before 「错了」"


def test_both_bottoms_are_drawn_at_the_answer(beststep):
    scene, stills = beststep
    answer = next(b for b in scene.beats if b.panel == "B" and b.says and "错了" in b.says)
    points = _visible_points(stills[answer.name])
    assert all(_near(points, bottom) for bottom in _bottoms()), "the pull-back does not show both valleys"


def test_the_question_stands_alone_before_its_answer(beststep):
    """The beat that asks 「看起来陡谷离得更远」 ends with the question on screen and no answer."""
    from tests import legibility_checks as checks

    scene, stills = beststep
    ask = next(b for b in scene.beats if b.panel == "B" and b.says and b.says.startswith("看起来"))
    shown = [checks.drawn_string(t) for t in checks.texts_in(stills[ask.name].mobjects) if checks.visible(t)]
    assert any(s.startswith("看起来陡谷") for s in shown), shown
    assert not any("离底" in s or "错了" in s for s in shown), shown
