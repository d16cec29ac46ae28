"""fig-precision Ⓑ as drawn: the magnified +0.0003 step must be visible when projected.

The review measured the old step at 10 px; the rework magnifies one bf16 gap, [1.0, next bf16],
over the safe width. These tests read the beat stills the scene really builds (no render)
and measure at 1280×720, where one scene unit is 1280 / frame width pixels.
"""

from __future__ import annotations

import pytest
from manim import VMobject
from manim import config

from lecture_numerics import quantity

SCREEN_WIDTH_PX = 1280
MIN_STEP_PX = 40


@pytest.fixture(scope="module")
def stills():
    from studio.engine.stills import section_stills

    return {section.name: section.mobjects for section in section_stills("fig-precision")}


def _family(mobjects):
    for mob in mobjects:
        yield from mob.get_family()


def _sliver(mobjects):
    found = [m for m in _family(mobjects) if getattr(m, "figure_part", None) == "zoom.sliver"]
    assert len(found) == 1, f"expected one zoom.sliver, found {len(found)}"
    return found[0]


def _texts_with_key(mobjects, key):
    return [m for m in _family(mobjects) if key in getattr(m, "ledger_keys", ())]


def test_the_magnified_step_is_at_least_forty_pixels(stills):
    px_per_unit = SCREEN_WIDTH_PX / config.frame_width
    width_px = _sliver(stills["B.4"]).width * px_per_unit
    assert width_px >= MIN_STEP_PX, f"the +increment sliver is {width_px:.1f} px wide at 1280×720"


def test_the_sliver_is_the_increment_to_the_scale_of_the_gap(stills):
    """The sliver's share of the magnified gap is the increment's share of the bf16 spacing."""
    mobs = stills["B.4"]
    sliver = _sliver(mobs)
    ends = [m for m in _texts_with_key(mobs, "precision.bf16.ticks_near_1") if m.get_y() < sliver.get_bottom()[1]]
    assert len(ends) == 2, "the magnified view labels its two ends"
    left, right = sorted(ends, key=lambda m: m.get_x())
    span = right.get_right()[0] - left.get_left()[0]         # end labels are aligned to their ticks' outer sides
    share = quantity("precision.increment").value / quantity("precision.bf16.spacing_at_1").value
    assert sliver.width / span == pytest.approx(share, rel=0.02)


def test_the_rounding_midpoint_comes_with_the_rounding(stills):
    """The midpoint is what 「四舍五入」 (B.5) needs: not up with the sliver before it (B.4)."""
    assert not _texts_with_key(stills["B.4"], "precision.bf16.rounding_midpoint")
    mobs = stills["B.5"]
    labels = _texts_with_key(mobs, "precision.bf16.rounding_midpoint")
    assert labels, "the rounding midpoint is labelled in the beat that rounds"
    sliver = _sliver(mobs)
    ends = sorted((m for m in _texts_with_key(mobs, "precision.bf16.ticks_near_1")
                   if m.get_y() < sliver.get_bottom()[1]), key=lambda m: m.get_x())
    middle = (ends[0].get_left()[0] + ends[1].get_right()[0]) / 2
    assert labels[0].get_left()[0] == pytest.approx(middle, abs=0.3)   # the label starts at the midline


def test_the_question_stands_before_the_run(stills):
    """The naive count is its own beat, the panel's key line: no counter yet, and the count is the
    one the speaker says (二十六: one gap over one increment, 26.04), not the 27 a sum needs."""
    question = stills["B.6"]
    asked = _texts_with_key(question, "precision.spacing_over_increment")
    assert asked and any(getattr(m, "takeaway_of", None) == "B.6" for m in asked)
    assert not _texts_with_key(question, "precision.counter_stops")
    assert _texts_with_key(stills["B.7"], "precision.counter_stops")
    assert quantity("precision.spacing_over_increment").display == "26"


def test_the_fp32_control_sits_to_the_right_of_the_bf16_run(stills):
    final = stills["B.10"]
    bf16 = _texts_with_key(final, "precision.bf16.after_1000_adds")
    fp32 = _texts_with_key(final, "precision.fp32.after_1000_adds")
    assert bf16 and fp32
    assert fp32[0].get_left()[0] > bf16[0].get_right()[0]


def _said(mobjects) -> list[str]:
    from tests.legibility_checks import drawn_string, texts_in

    return [drawn_string(t) for t in texts_in(mobjects)]


def test_bf16_is_the_middle_row_when_the_notes_say_so(stills):
    """「中间这行 bf16」: nothing stands in the bottom row before the speaker names fp16 (「再看最下面
    fp16」, Ⓐ.5): no name and no empty placeholder frame (the review read one as noise)."""
    rows = [s for s in _said(stills["A.3"]) if s in ("fp32", "bf16", "fp16")]
    assert sorted(rows) == ["bf16", "fp32"]
    for name in ("A.3", "A.4"):
        frames = [m for m in _family(stills[name])
                  if isinstance(m, VMobject) and m.get_bottom()[1] < -0.45 < m.get_top()[1] and m.get_width() > 3]
        assert not frames, f"something already stands in the fp16 row at Ⓐ.{name[-1]}"
    assert "fp16" in _said(stills["A.5"])


def test_the_moved_bits_stay_marked(stills):
    """The ⭐⭐ point 「三位从指数挪给了尾数」 is drawn in the final frame, not only animated."""
    for name in ("A.5", "A.7"):
        assert any(s.startswith("挪来的") for s in _said(stills[name])), f"the moved bits are not marked at Ⓐ.{name[-1]}"


def test_only_these_ticks_waits_for_its_own_line(stills):
    """「只有这些刻度」 is Ⓑ.3's ⭐ point: not up while the line is first shown (Ⓑ.2)."""
    assert not any("只有这些刻度" in s for s in _said(stills["B.2"]))
    assert any("只有这些刻度" in s for s in _said(stills["B.3"]))


def test_the_gradient_contradiction_is_closed_on_screen(stills):
    """Ⓒ says gradients → bf16, then V3 keeps gradients in fp32: the card cites its section and
    says why (they sum micro-batches inside one update). No curve claims a gradient outlives an
    update on the 更新次数 axis (the third review read a plateau to ~16 updates as false)."""
    said = _said(stills["C.4"])
    section = quantity("precision.v3.low_precision_section").display
    assert any(section in s for s in said), "the V3 card does not cite its section"
    assert any("一步之内" in s and "累加" in s for s in said)
    assert not any("累加时都在" in s for s in said)
    assert not any("m、v" in s for s in said), "m and v are named before Ⓒ.5 defines them"
