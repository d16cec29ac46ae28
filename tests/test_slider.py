"""fig-slider numerics against independent references: a second implementation of the
loss with numpy, finite differences, numpy.gradient on the composed function, and the
speaker's notes for the numbers he says aloud."""

from __future__ import annotations

import numpy as np
import pytest

from lecture_numerics import quantity
from lecture_numerics import slider

X0 = slider.FADER_AT


def reference_loss(x):
    """The same loss written again, vectorised: 2 + 3·√(2x)."""
    return 2.0 + 3.0 * np.sqrt(2.0 * np.asarray(x, dtype=float))


def central_difference(f, x, h=1e-6):
    return (f(x + h) - f(x - h)) / (2 * h)


def test_loss_matches_a_second_implementation():
    xs = np.linspace(0.05, 1.0, 40)
    assert np.allclose([slider.loss_of_fader(x) for x in xs], reference_loss(xs), rtol=0, atol=1e-12)


def test_readout_ticks_come_from_the_loss():
    push = quantity("slider.push").value
    keys = ("slider.readout_before", "slider.readout_tick_1", "slider.readout_tick_2", "slider.readout_after")
    positions = X0 + push * np.arange(len(keys)) / (len(keys) - 1)
    for key, exact in zip(keys, reference_loss(positions)):
        assert quantity(key).display == f"{exact:.2f}"
    # The ticks step one hundredth at a time: the readout never jumps or stalls.
    shown = [round(float(quantity(k).value) * 100) for k in keys]
    assert np.all(np.diff(shown) == 1)


def test_readout_and_derivative_agree_with_the_notes():
    for key in ("slider.readout_before", "slider.readout_after", "slider.readout_change", "slider.push",
                "slider.derivative", "slider.rate_fader_to_jia", "slider.rate_jia_to_yi",
                "slider.rate_yi_to_loss", "slider.chain_rate"):
        q = quantity(key)
        assert q.notes is not None and q.display == q.notes, f"{key}: screen {q.display!r}, notes {q.notes!r}"


def test_finite_difference_is_honest_about_rounding():
    """The exact change is not 0.03 (√ curves), but the two-decimal readout shows 0.03."""
    push = quantity("slider.push").value
    exact_change = reference_loss(X0 + push) - reference_loss(X0)
    assert exact_change != pytest.approx(0.03, abs=1e-6)
    assert abs(exact_change / push - quantity("slider.derivative").value) < 0.02
    assert f"{exact_change:.2f}" == quantity("slider.readout_change").display
    displayed_ratio = float(quantity("slider.readout_change").display) / float(quantity("slider.push").display)
    assert displayed_ratio == pytest.approx(quantity("slider.derivative").value)


def test_derivative_matches_finite_differences():
    assert central_difference(reference_loss, X0) == pytest.approx(quantity("slider.derivative").value, rel=1e-8)


@pytest.mark.parametrize("key, stage, at", [
    ("slider.rate_fader_to_jia", slider.stage_jia, lambda: X0),
    ("slider.rate_jia_to_yi", slider.stage_yi, lambda: slider.stage_jia(X0)),
    ("slider.rate_yi_to_loss", slider.stage_loss, lambda: slider.stage_yi(slider.stage_jia(X0))),
])
def test_each_stage_rate_is_its_local_slope(key, stage, at):
    assert central_difference(stage, at()) == pytest.approx(quantity(key).value, rel=1e-8)


def test_rates_multiply_to_the_slope_of_the_composed_function():
    xs = np.linspace(X0 - 0.01, X0 + 0.01, 2001)
    slope = np.gradient(reference_loss(xs), xs)[len(xs) // 2]
    product = np.prod([quantity(k).value for k in
                       ("slider.rate_fader_to_jia", "slider.rate_jia_to_yi", "slider.rate_yi_to_loss")])
    assert slope == pytest.approx(product, rel=1e-6)
    assert quantity("slider.chain_rate").value == pytest.approx(product)


def test_a_rate_is_local_the_compressor_changes_with_its_input():
    """乙 = √甲 halves its input only near 甲 = 1: rates belong to an operating point."""
    assert central_difference(slider.stage_yi, 4.0) == pytest.approx(0.25, rel=1e-6)
    assert slider.stage_rates(2.0)[1] == pytest.approx(0.25)


def reference_desk_loss(x):
    """The desk loss written again from its formula, with masked numpy arrays."""
    x = np.asarray(x, dtype=float)
    others = np.arange(len(x)) != slider.MIDDLE
    t = np.array([v if v is not None else np.nan for v in slider.DESK_TARGETS])
    w = np.array([v if v is not None else np.nan for v in slider.DESK_WEIGHTS])
    offsets = x - t
    return (reference_loss(x[slider.MIDDLE]) + np.sum(w[others] * offsets[others] ** 2)
            + slider.DESK_COUPLING * offsets[0] * offsets[1])


def test_desk_loss_matches_its_formula():
    rng = np.random.default_rng(7)
    for x in rng.uniform(0.05, 1.0, size=(20, len(slider.DESK_POSITIONS))):
        assert slider.desk_loss(x) == pytest.approx(reference_desk_loss(x), abs=1e-12)


def test_partials_match_finite_differences_of_the_desk():
    p = np.array(slider.DESK_POSITIONS)
    for i in range(len(p)):
        step = np.zeros_like(p)
        step[i] = 1e-6
        numeric = (reference_desk_loss(p + step) - reference_desk_loss(p - step)) / 2e-6
        assert numeric == pytest.approx(quantity(f"slider.partial_{i + 1}").value, abs=1e-7)


def test_middle_partial_is_panel_a_derivative():
    assert quantity("slider.partial_3").value == pytest.approx(quantity("slider.derivative").value)


def test_where_the_others_are_held_matters():
    """With the coupling term, holding fader 2 elsewhere changes fader 1's partial."""
    moved = list(slider.DESK_POSITIONS)
    moved[1] += 0.1
    assert slider.desk_partials(moved)[0] != pytest.approx(slider.desk_partials(slider.DESK_POSITIONS)[0])


def test_rate_display_uses_a_real_minus_and_no_trailing_zeros():
    assert slider.show_rate(-0.8) == "−0.8"
    assert slider.show_rate(3.0) == "3"
    assert slider.show_rate(0.5) == "0.5"
    assert slider.show_rate(-0.001) == "0"


# ---- the figure: what the review asked of Ⓑ and Ⓒ ------------------------------------------

@pytest.fixture(scope="module")
def slider_stills():
    from studio.engine.stills import section_stills
    return {s.name: s.mobjects for s in section_stills("fig-slider")}


def _texts(mobjects) -> list[str]:
    from manim import Text
    return [m.text for top in mobjects for m in top.get_family() if isinstance(m, Text)]


def _last_beat(stills, panel: str) -> str:
    return max((n for n in stills if n.startswith(panel + ".")), key=lambda n: int(n.split(".")[1]))


def test_held_clamps_weigh_no_more_than_the_moving_knob():
    """Ⓑ: the clamps say "not this one"; they must not be the heaviest strokes on screen."""
    from scenes.kit.slider_widgets import Fader, held_mark
    fader = Fader(X0)
    clamp, pin = held_mark(fader)[:2]
    assert max(clamp.get_stroke_width(), pin.get_stroke_width()) <= fader.knob.get_stroke_width()


def test_the_rates_under_the_desk_are_titled_as_rates(slider_stills):
    """Ⓑ: the red row is each fader's rate, not its height, and says so."""
    assert "各自的兑换率" in _texts(slider_stills[_last_beat(slider_stills, "B")])


def test_each_chain_arrow_carries_its_own_stage_rate_not_a_running_total(slider_stills):
    """Ⓒ: the speaker reads each stage by itself (「乙只动半格」): per-stage rates on the
    arrows, each counted on its own pair of tick rulers (进 one 格, 出 rate 格, drawn, not
    captioned), and no cumulative 「动 N 格」 under the nodes."""
    final = slider_stills[_last_beat(slider_stills, "C")]
    shown = [t.replace(" ", "") for t in _texts(final)]
    moves = {m.stage_move: m for top in final for m in top.get_family() if getattr(m, "stage_move", None)}
    for key in ("slider.rate_fader_to_jia", "slider.rate_jia_to_yi", "slider.rate_yi_to_loss"):
        rate = quantity(key).display
        assert f"×{rate}" in shown, key
        into, out = moves[(key, "进")], moves[(key, "出")]
        assert out.get_length() / into.get_length() == pytest.approx(quantity(key).value, rel=1e-6), key
    assert not [t for t in shown if t.startswith("动") and t.endswith("格")], "a running total is drawn"
    assert not [t for t in shown if t.startswith("出") and t.endswith("格")], "the 格 are captioned, not drawn"


# ---- the figure: what the review asked of Ⓐ and Ⓑ's beats ------------------------------------

def test_the_readout_shows_the_pushed_value_only_when_it_is_named(slider_stills):
    """Ⓐ: 「推了零点零一」 (A.3) moves the fader; the readout reads 5.03 on the next sentence,
    「读数从 5.00 变成了 5.03」 (A.4), not a beat early."""
    after = quantity("slider.readout_after").display
    assert after not in _texts(slider_stills["A.3"]) and after in _texts(slider_stills["A.4"])


def test_the_desks_size_is_the_largest_text_when_it_is_said(slider_stills):
    """Ⓑ: 「⭐⭐⭐ 而这台调音台有三千亿个推子」 (B.4) is the panel's largest text, as a takeaway."""
    from manim import Text
    texts = [m for top in slider_stills["B.4"] for m in top.get_family() if isinstance(m, Text)]
    largest = max(t.font_size for t in texts)
    big = "".join(t.text for t in texts if t.font_size > 0.95 * largest)
    # larger than the panel's heading (偏导数：其余全按住), not level with it
    assert quantity("slider.desk_faders").display in big and "偏导数" not in big, big


def test_each_rate_under_the_desk_is_measured_by_moving_that_fader_alone(slider_stills):
    """Ⓑ (B.5): every rate drawn under a fader is what the desk's loss does when that fader
    alone is moved (the others held where they stand), measured by central differences on the
    numerics' desk loss, as the readout would: the screen shows the measurement, not an assertion."""
    from manim import Text

    shown = {}
    for top in slider_stills["B.5"]:
        for m in top.get_family():
            for key in getattr(m, "ledger_keys", ()):
                if isinstance(m, Text) and key.startswith("slider.partial_"):
                    shown.setdefault(key, []).append(m.text)
    p = np.array(slider.DESK_POSITIONS)
    for i in range(len(p)):
        alone = np.zeros_like(p)
        alone[i] = 1e-6
        measured = (slider.desk_loss(p + alone) - slider.desk_loss(p - alone)) / 2e-6
        key = f"slider.partial_{i + 1}"
        assert shown.get(key), f"{key} is not drawn at B.5"
        assert set(shown[key]) == {slider.show_rate(measured)}, (key, shown[key], measured)
