"""fig-lineage, checked on the built scene (no rendering) against the review of issue 26, the
kit rules of issue 24 and the beat reviews (issue 44): Ⓐ's RMSProp thumbnail is drawn from its
first step to its last (off the top, then back on the flat line) and the flat boxes are marked
flat; Ⓑ's bar is the kit's stacked bar of the square root it is labelled with, on a base of its
first-step height, grown with the curve, and the constant g is drawn under the axis when the
speaker says so; Ⓒ names the slide its 0.9 comes from, tells Adam-without-correction apart by
shape under RMSProp, marks its peak where an independent run peaks, and starts the 32× at step
1; Ⓓ draws the three formats side by side and writes no ⭐ line as grey secondary text."""

from __future__ import annotations

import numpy as np
import pytest
from manim import Arrow, DashedVMobject, Dot, Text, VMobject
from manim.utils.family import extract_mobject_family_members

from lecture_numerics import lineage, quantity
from scenes import fig_lineage
from scenes.kit import theme
from scenes.kit.bars import StackedBar
from studio.engine.stills import build_scene
from tests.legibility_checks import drawn_string, texts_in


@pytest.fixture(scope="module")
def scene():
    return build_scene("fig-lineage", capture_stills=True)


@pytest.fixture(scope="module")
def stills(scene):
    return {s.name: s.mobjects for s in scene.section_stills}


def _beat(scene, fragment: str) -> str:
    """The name of the beat whose quote contains ``fragment``."""
    names = [b.name for b in scene.beats if b.says and fragment in b.says]
    assert len(names) == 1, f"no single beat says {fragment!r}"
    return names[0]


def _paint(mob) -> str:
    """A swatch's colour: its fill if it is filled (a square), else its stroke (a line)."""
    colour = mob.get_fill_color() if mob.get_fill_opacity() > 0 else mob.get_stroke_color()
    return colour.to_hex().lower()


def _drawn_count(mobjects) -> int:
    """How many pieces with points are on screen (the kit's bare per-beat markers left out)."""
    return sum(p.has_points() for p in _family(mobjects))


def _hex(role: str) -> str:
    return theme.color(role).to_hex().lower()


def _strokes(mobjects) -> list:
    """Drawn line pieces (not text, not legend swatches), in the order they are painted."""
    swatches = {id(p) for m in mobjects for q in m.get_family() if getattr(q, "kit_legend", False)
                for p in q.get_family()}
    return [p for p in extract_mobject_family_members(mobjects, use_z_index=True)
            if isinstance(p, VMobject) and not isinstance(p, Text) and id(p) not in swatches and p.has_points()
            and p.get_stroke_width() > 0 and p.get_stroke_opacity() > 0]


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


def test_flat_boxes_are_marked_flat(stills):
    """Ⓐ.4 says only the first and the last are flat: each of those two boxes says so under it."""
    flat = [t for t in texts_in(_last(stills, "A")) if "平✓" in drawn_string(t)]
    xs = sorted(t.get_x() for t in flat)
    assert len(xs) == 2, f"{len(xs)} 「平 ✓」 marks, want one under SGD and one under Adam"
    assert np.allclose(xs, [fig_lineage.COLUMN_XS[0], fig_lineage.COLUMN_XS[3]], atol=0.3)


def test_the_first_takeaways_stay(scene, stills):
    """Ⓐ.3 adds its sentence to Ⓐ.2's, it does not swap it out."""
    said = _said(_last(stills, "A"))
    for name in ("A.2", "A.3"):
        takeaway = next(b.takeaway for b in scene.beats if b.name == name).replace(" ", "")
        assert takeaway in said, f"{name}'s takeaway {takeaway!r} is gone by the panel's end"


def _bar(mobjects) -> StackedBar:
    return next(p for p in _family(mobjects) if isinstance(p, StackedBar))


def test_denominator_bar_grows_with_the_curve(scene, stills):
    """While the speaker names the denominator only its first-step base is up; it reaches its
    step-600 height, and its label, on the beat where the curve runs to step 600."""
    named = stills[_beat(scene, "只增不减。")]
    base, growth = (block.height for block in _bar(named).blocks)
    assert growth < 0.01 * base, f"the bar already stands {1 + growth / base:.1f}× its base before the run"
    probe = f"第{quantity('optim.adagrad_probe_step').display}步"
    assert not any(probe in s for s in _said(named)), "the bar's step-600 label is up before the run"
    ran = stills[_beat(scene, "一路往下掉")]
    base, growth = (block.height for block in _bar(ran).blocks)
    expected = quantity("lineage.adagrad_denominator_growth").value
    assert abs((base + growth) / base - expected) < 0.01 * expected, "the bar has not grown with the run"
    assert sum(probe in s for s in _said(ran)) >= 2, "the curve's and the bar's step-600 labels are not both up"


def test_uncorrected_adam_is_told_apart_by_shape_under_rmsprop(stills):
    """Two runs of the optimizers under study share ink: the uncorrected one is dashed (shape, not
    a borrowed status colour), and RMSProp's tail is painted over it where they meet."""
    mobjects = _last(stills, "C")
    top = fig_lineage.LOG_CORNER[1] + fig_lineage.LOG_H
    in_plot = lambda p: p.get_center()[0] < fig_lineage.SIDE_X and p.get_center()[1] < top
    dashed = [p for p in _family(mobjects) if isinstance(p, DashedVMobject) and in_plot(p)
              and p.get_stroke_color().to_hex().lower() == _hex(fig_lineage.ADAM_RAW) and p.width > 1]
    assert dashed, "the uncorrected run is not drawn dashed"
    solid = [p for p in _family(mobjects) if isinstance(p, VMobject) and not isinstance(p, (Text, DashedVMobject))
             and in_plot(p) and p.has_points() and p.z_index > 0
             and p.get_stroke_color().to_hex().lower() == _hex(fig_lineage.RMSPROP)]
    assert solid and max(d.z_index for d in dashed) < min(p.z_index for p in solid), \
        "RMSProp's tail is painted under the uncorrected curve"


def _gap(a, b) -> float:
    """Distance between two mobjects' bounding boxes (0 where they touch or overlap)."""
    apart = np.maximum(0, np.maximum(a.get_corner([-1, -1, 0]) - b.get_corner([1, 1, 0]),
                                     b.get_corner([-1, -1, 0]) - a.get_corner([1, 1, 0])))
    return float(np.linalg.norm(apart[:2]))


def _log_plot_data(point: np.ndarray) -> tuple[float, float]:
    """Scene point → (step, gain) on Ⓒ's plot, from its corner, size and ledger ranges."""
    x0, y0 = fig_lineage.LOG_CORNER[:2]
    decades = np.log10(lineage.LOG_STEPS.value)
    step = 10 ** ((point[0] - x0) / fig_lineage.LOG_W * decades)
    return step, (point[1] - y0) / fig_lineage.LOG_H * lineage.CLIP_GAIN.value


def test_uncorrected_peak_is_marked_where_it_peaks(scene, stills):
    """Reference: with a constant g, m_t = (1 − β₁ᵗ)g and v_t = (1 − β₂ᵗ)g², so the uncorrected
    step is (1 − β₁ᵗ) ÷ √(1 − β₂ᵗ) learning rates (ε left out)."""
    b1, b2 = quantity("optim.adam.beta1").value, quantity("optim.adam.beta2").value
    t = np.arange(1, lineage.LOG_STEPS.value + 1)
    gain = (1 - b1 ** t) / np.sqrt(1 - b2 ** t)
    peak_step, peak = int(t[np.argmax(gain)]), float(gain.max())
    mobjects = stills[_beat(scene, "峰值只有六点六倍")]
    dots = [p for p in _family(mobjects) if isinstance(p, Dot)
            and p.get_fill_color().to_hex().lower() == _hex(fig_lineage.ADAM_RAW)]
    assert len(dots) == 1, "the uncorrected curve's peak has no dot"
    step, value = _log_plot_data(dots[0].get_center())
    assert abs(np.log(step / peak_step)) < np.log(1.05), f"peak dot at step {step:.1f}, the run peaks at {peak_step}"
    assert abs(value - peak) < 0.02 * peak, f"peak dot at {value:.2f}×, the run peaks at {peak:.2f}×"
    display = quantity("optim.adam_no_bias_correction_peak").display
    # The label stands inside the hump, just under its peak.
    near = [t for t in texts_in(mobjects) if display in drawn_string(t) and _gap(t, dots[0]) < 1.0
            and t.get_y() < dots[0].get_y()]
    assert near, f"no 「{display}」 label under the peak dot"


def test_rmsprop_leaves_the_plot_at_step_one(scene, stills):
    """The 32× is step 1's: its arrow rises from the plot's top edge at step 1, not mid-air."""
    arrows = [p for p in _family(stills[_beat(scene, "直接冲出画面")]) if isinstance(p, Arrow)
              and p.get_stroke_color().to_hex().lower() == _hex(fig_lineage.SPIKE)]
    assert len(arrows) == 1, "no RMSProp arrow out of the plot"
    step, value = _log_plot_data(arrows[0].get_start())
    assert abs(step - 1) < 0.02, f"the arrow starts at step {step:.2f}, not at step 1"
    assert abs(value - lineage.CLIP_GAIN.value) < 0.02 * lineage.CLIP_GAIN.value, \
        f"the arrow starts at {value:.1f}×, not at the plot's top edge"
    assert arrows[0].get_end()[1] > arrows[0].get_start()[1], "the arrow does not rise out of the plot"


def test_zero_start_beat_shows_the_zero_start(scene, stills):
    """「滑动平均是从零起步的」 has its own picture: something is added, and it is named."""
    before, now = stills[_beat(scene, "后期的病治好了")], stills[_beat(scene, "从零起步的")]
    assert _drawn_count(now) > _drawn_count(before), "the zero-start beat adds nothing to the picture"
    new = set(_said(now)) - set(_said(before))
    assert any("起步" in s for s in new), "the warm-up steps are not named"


def test_the_constant_gradient_is_drawn_when_it_is_said(scene, stills):
    """⛔ 「喂进去的梯度自始至终是同一个数」: the strip of identical g tiles is under Ⓑ's axis."""
    before, now = stills[_beat(scene, "第六百步")], stills[_beat(scene, "自始至终是同一个数")]
    count = lambda m: sum(s == "g" for s in _said(m))
    assert count(before) == 0 and count(now) >= 8, "no strip of g tiles when the constant gradient is named"


def test_the_three_formats_stand_side_by_side(stills):
    """「三个并排着讲」: at the panel's end the paper stack, the slide and the arXiv page are all up,
    each under its own name, left to right."""
    mobjects = _last(stills, "D")
    said = {drawn_string(t): t for t in texts_in(mobjects)}
    columns = [said[quantity(k).display + "页"].get_x() if k else said[name].get_x()
               for k, name in (("lineage.adagrad_pages", None), (None, "Hinton·Coursera网课"), (None, "arXiv"))]
    assert columns == sorted(columns) and np.allclose(columns, fig_lineage.STORY_XS, atol=0.5)


def test_no_starred_line_is_grey_secondary_text(scene, stills):
    """Ⓓ's ⭐ lines are takeaways (their recap is the kit's) or ink in the picture, never a muted caption."""
    muted = theme.text_color("muted").to_hex().lower()
    for beat in (b for b in scene.beats if b.panel == "D" and b.emphasis.stars):
        grey = [drawn_string(t) for t in texts_in(stills[beat.name]) if t.get_fill_color().to_hex().lower() == muted
                and not getattr(t, "takeaway_of", None) and not getattr(t, "recap_of", None)
                and t.get_fill_opacity() > 0.05 and "出处" not in drawn_string(t)]
        said = beat.says.replace(" ", "")
        # A grey word in the picture (the struck-out 「论文」: absent, so muted) is not a line.
        lines = [g for g in grey if sum("\u4e00" <= ch <= "\u9fff" for ch in g) >= 6]
        assert not lines, f"{beat.name}: ⭐ sentence in grey secondary text: {lines}"
