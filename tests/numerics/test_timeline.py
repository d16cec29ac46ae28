"""The memory timeline against hand-written references for DeepSeek-V3's layers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from lecture_numerics.timeline import (CATEGORIES, Scenario, memory_timeline, model_memory,
                                       peak_moving_batch)

from _v3_reference import DENSE, DENSE_ACT, GIB, H, LAYERS, MOE_ACT, MOE_LAYER, S, TIB, V3_PARAMS


@pytest.fixture(scope="module")
def lecture():
    return memory_timeline(Scenario())


def test_config_parameter_count_matches_the_published_671b():
    assert model_memory("deepseek-v3").total_params == V3_PARAMS
    assert abs(V3_PARAMS - 671e9) / 671e9 < 1e-4


def test_time_is_monotonic_and_phases_in_order(lecture):
    assert np.all(np.diff(lecture.t) >= 0) and lecture.t[0] == 0 and lecture.t[-1] == 1
    order = {"forward": 0, "backward": 1, "update": 2}
    assert [order[p] for p in lecture.phase] == sorted(order[p] for p in lecture.phase)
    assert lecture.phase[-1] == "update" and lecture.layer[-1] == -1
    assert set(lecture.bytes) == set(CATEGORIES)


def test_bytes_never_negative_and_resident_blocks_constant(lecture):
    for name in CATEGORIES:
        assert np.all(lecture.bytes[name] >= 0), name
    assert np.all(lecture.bytes["weights"] == 2 * V3_PARAMS)
    assert np.all(lecture.bytes["optimizer"] == 12 * V3_PARAMS)
    assert lecture.bytes["activations"][-1] == 0 and lecture.bytes["gradients"][-1] == 0
    assert np.allclose(lecture.total(), sum(lecture.bytes[n] for n in CATEGORIES))


def test_activations_at_end_of_forward_are_the_stored_inputs(lecture):
    end = lecture.event.index("recompute") - 1
    assert math.isclose(lecture.t[end], lecture.forward_end)
    assert lecture.bytes["activations"][end] == LAYERS * S * H * 2
    assert lecture.bytes["activations"][end] / GIB == 106.75


def test_activation_peak_is_at_the_turn_with_one_layer_recomputed(lecture):
    t, peak = lecture.activation_peak
    first_done = lecture.t[lecture.event.index("backward")]
    assert lecture.forward_end <= t < first_done
    assert peak == LAYERS * S * H * 2 + S * MOE_ACT


def test_without_recompute_activation_peak_is_exactly_end_of_forward():
    tl = memory_timeline(Scenario(recompute="none"))
    assert tl.activation_peak[0] == pytest.approx(tl.forward_end)
    per_token = DENSE * DENSE_ACT + (LAYERS - DENSE) * MOE_ACT
    assert tl.activation_peak[1] == S * per_token
    assert tl.total_peak[0] == pytest.approx(tl.forward_end)


def test_gradient_peak_is_all_gradients_at_end_of_backward(lecture):
    t, peak = lecture.gradient_peak
    assert t == pytest.approx(lecture.backward_end) and t < 1
    assert peak == 2 * V3_PARAMS
    assert f"{peak / TIB:.2f}" == f"{671e9 * 2 / TIB:.2f}" == "1.22"


def test_total_peak_near_end_of_backward_above_the_resident_bill(lecture):
    t, peak = lecture.total_peak
    assert lecture.total_peak_phase == "backward" and t > (lecture.forward_end + lecture.backward_end) / 2
    assert peak >= 16 * V3_PARAMS                    # at least the 9.76 TiB bill
    assert f"{16 * V3_PARAMS / TIB:.2f}" == "9.76"
    assert np.max(lecture.total()) == peak


def test_peak_moving_batch_matches_the_layer_balance_closed_form():
    # Past the turn each MoE layer adds 2 B × its params of gradients and frees 2 B × s·b·h of
    # stored input: the sawtooth falls, and the peak moves to the turn, once b > params/(s·h).
    expected = math.ceil(MOE_LAYER / (S * H))
    assert peak_moving_batch(Scenario()) == expected == 13
    before = memory_timeline(Scenario(batch=expected - 1))
    after = memory_timeline(Scenario(batch=expected))
    assert before.total_peak[0] > (before.forward_end + before.backward_end) / 2
    assert after.total_peak[0] < (after.forward_end + after.backward_end) / 2


def test_gpt3_scenario_and_bad_input():
    tl = memory_timeline(Scenario(model="gpt3-175b", seq_len=2048))
    assert tl.gradient_peak[1] == pytest.approx(2 * 175e9)
    assert tl.bytes["activations"][96] == 96 * 2048 * 12288 * 2
    with pytest.raises(ValueError):
        memory_timeline(Scenario(recompute="selective"))
    with pytest.raises(ValueError):
        memory_timeline(Scenario(model="gpt-5"))
