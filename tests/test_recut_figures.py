"""The review's findings on fig-step, fig-lr-curve and fig-stability, checked on the built
scenes (no rendering): each test names the fault it guards against and fails on the picture
the review graded."""

from __future__ import annotations

import numpy as np
import pytest
from manim import Text, VMobject

from scenes.kit import theme
from studio.engine.stills import build_scene

BACKGROUND = np.array([1.0, 1.0, 1.0])


def _texts(still) -> list[Text]:
    return [p for m in still.mobjects for p in m.get_family() if isinstance(p, Text)]


def _text(still, content: str) -> Text:
    found = [t for t in _texts(still) if t.text == content.replace(" ", "")]
    assert found, f"{still.name}: no text 「{content}」"
    return found[0]


def _luminance(rgb) -> float:
    rgb = np.asarray(rgb, dtype=float)
    linear = np.where(rgb <= 0.03928, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    return float(linear @ [0.2126, 0.7152, 0.0722])


def _contrast(rgb, opacity: float) -> float:
    """WCAG contrast of a colour drawn at ``opacity`` over the white background."""
    seen = opacity * np.asarray(rgb, dtype=float) + (1 - opacity) * BACKGROUND
    return (_luminance(BACKGROUND) + 0.05) / (_luminance(seen) + 0.05)


@pytest.fixture(scope="module")
def step():
    scene = build_scene("fig-step", capture_stills=True)
    return scene, {s.name: s for s in scene.section_stills}


@pytest.fixture(scope="module")
def lr_curve():
    scene = build_scene("fig-lr-curve", capture_stills=True)
    return scene, {s.name: s for s in scene.section_stills}


def test_fig_step_strips_are_opaque(step):
    """Ⓐ: a translucent optimizer strip let the grey 前向 band show through, so it looked used
    during forward. Every strip's fill is drawn opaque."""
    scene, _ = step
    for strip in scene.a_strips:
        for part in strip[:-1]:
            assert part.get_fill_opacity() == pytest.approx(1.0), "a strip is drawn translucent"


def test_fig_step_apart_label_is_centred_between_the_peaks(step):
    scene, stills = step
    final = stills[[b.name for b in scene.beats if b.panel == "A"][-1]]
    from scenes.fig_step import A_TIME

    apart = _text(final, "不同时")
    x_act, x_grad = (float(A_TIME.x(t)) for t in (scene.tl.stored_peak[0], scene.tl.gradient_peak[0]))
    assert apart.get_center()[0] == pytest.approx((x_act + x_grad) / 2, abs=0.05)


def test_fig_step_cross_is_red(step):
    """The ✗ on 6ND (「错得很多」) is in the bad colour as its beat ends (the compute row leaves
    for the two peaks, so the panel's last frame no longer shows it)."""
    scene, stills = step
    said = next(b.name for b in scene.beats if b.says and b.says.startswith("……但这个数在这儿是错的"))
    cross = _text(stills[said], "✗")
    assert cross.get_fill_color().to_hex().lower() == theme.text_color("bad").to_hex().lower()


def test_fig_step_zooms_into_a_without_clearing():
    """「再放大 Ⓐ」: Ⓐ opens on the whole view, its strips moving into Ⓐ's layout, not on a
    stage cleared to white and rebuilt."""
    from scenes.fig_step import FigStep
    from studio.engine.stills import build_scene_class

    class Watched(FigStep):
        def clear(self):
            self.cleared_in = [*getattr(self, "cleared_in", []), self.beats[-1].panel if self.beats else None]
            return super().clear()

    scene = build_scene_class(Watched)
    assert "A" not in scene.cleared_in, f"the stage is cleared as Ⓐ opens (cleared in panels {scene.cleared_in})"
    assert "whole" in scene.cleared_in and "B" in scene.cleared_in, "the check did not see the panels open"


def _curve_points(still) -> np.ndarray:
    paths = [p for m in still.mobjects for p in m.get_family()
             if isinstance(p, VMobject) and not isinstance(p, Text) and p.get_stroke_width() >= 3
             and len(p.points) and p.get_fill_opacity() == 0]
    return np.vstack([p.points for p in paths])


def test_fig_lr_curve_warmup_label_is_not_crossed(lr_curve):
    """Ⓑ: 「warmup … 步：看不见」 was crossed by GPT-3's curve and the dashed branch."""
    scene, stills = lr_curve
    # The label leaves when the floor line comes (B's notes shrink to names): check every B beat it is in.
    seen = 0
    for name in (b.name for b in scene.beats if b.panel == "B"):
        labels = [t for t in _texts(stills[name]) if "warmup" in t.text and "步" in t.text]
        if not labels:
            continue
        seen += 1
        points = _curve_points(stills[name])
        (x0, y0, _), (x1, y1, _) = labels[0].get_corner([-1, -1, 0]), labels[0].get_corner([1, 1, 0])
        inside = (points[:, 0] > x0) & (points[:, 0] < x1) & (points[:, 1] > y0) & (points[:, 1] < y1)
        assert not inside.any(), f"{name}: a curve runs through the warmup label"
    assert seen, "the warmup label is on no beat of Ⓑ"


def test_fig_lr_curve_ratio_bracket_is_inside_the_plot(lr_curve):
    """Ⓐ: 「规模 … 倍 → 学习率只差 … 倍」 stood under the plot; it belongs inside it."""
    from scenes.fig_lr_curve import TABLE_CORNER, TABLE_SIZE

    scene, stills = lr_curve
    final = stills[[b.name for b in scene.beats if b.panel == "A"][-1]]
    ratio = [t for t in _texts(final) if t.text.startswith(("规模", "→学习率"))]
    assert ratio, "no ratio label"
    left, bottom = TABLE_CORNER
    right, top = left + TABLE_SIZE[0], bottom + TABLE_SIZE[1]
    for text in ratio:
        assert left < text.get_left()[0] and text.get_right()[0] < right, text.text
        assert bottom < text.get_bottom()[1] and text.get_top()[1] < top, text.text


def test_fig_stability_ghost_row_is_legible():
    """Ⓒ: the punchline row 「学习率 = 零 · 永远稳 · 什么也没学」 was drawn at ~1.9:1; it must
    hold body-text contrast (4.5:1) like any other text."""
    scene = build_scene("fig-stability", capture_stills=True)
    final = [s for s in scene.section_stills if s.panel == "C"][-1]
    ghost = [t for t in _texts(final) if t.text in ("永远稳", "什么也没学") or t.text.startswith("学习率=")]
    assert len(ghost) == 3
    for text in ghost:
        colour = np.asarray(text.get_fill_color().to_rgb())
        assert _contrast(colour, text.get_fill_opacity()) >= 4.5, (text.text, text.get_fill_opacity())
