"""The memory timeline against hand-written references for DeepSeek-V3's layers and the closed
forms of _timeline_reference.py (peaks, their times, every top of the backward sawtooth)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from lecture_numerics import quantity
from lecture_numerics.layers import v3_layer_items
from lecture_numerics.models import v3_config
from lecture_numerics.timeline import (CATEGORIES, LayerMemory, Scenario, memory_timeline, model_memory,
                                       peak_moving_batch)

import _timeline_reference as ref
from _v3_reference import DENSE, DENSE_ACT, GIB, H, LAYERS, MOE_ACT, MOE_LAYER, S, TIB, V3_PARAMS

ROOT = Path(__file__).resolve().parents[2]


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
    assert lecture.t[end] == pytest.approx(ref.forward_end(), rel=1e-12)
    assert lecture.bytes["activations"][end] == LAYERS * S * H * 2 == ref.activations_end_of_forward()
    assert lecture.bytes["activations"][end] / GIB == 106.75


# One MoE layer's working set, tensor by tensor (B per token, bf16 = 2, fp32 = 4): what the first
# backward layer rebuilds. Its first entry is the layer input that full recompute kept.
MOE_WORKING_SET = {
    "layer input x": 2 * 7168, "attn_norm 1/rms": 4, "normed x": 2 * 7168,
    "q latent": 2 * 1536, "q_norm 1/rms": 4, "normed q latent": 2 * 1536,
    "kv latent": 2 * 512, "kv_norm 1/rms": 4, "normed kv latent": 2 * 512,
    "Q": 2 * 128 * 192, "K": 2 * 128 * 192, "V": 2 * 128 * 128, "O": 2 * 128 * 128, "log-sum-exp": 4 * 128,
    "ffn_norm input": 2 * 7168, "ffn_norm 1/rms": 4, "ffn normed x": 2 * 7168, "router scores": 4 * 256,
    "8 routed copies": 8 * 2 * 7168, "8 experts' w1, w3, SiLU·w3": 3 * 8 * 2 * 2048,
    "8 experts' outputs": 8 * 2 * 7168, "shared expert w1, w3, SiLU·w3": 3 * 2 * 2048,
}


def test_activation_peak_hand_count_counts_the_kept_input_once(lecture):
    # Full recompute, one 128K sequence: the peak is when layer 60 (MoE) has rebuilt its working
    # set. Below it, layers 0-59 still keep their inputs; layer 60's own kept input is the first
    # tensor of its working set, the same memory, so it is not added a second time.
    assert sum(MOE_WORKING_SET.values()) == MOE_ACT == 570_896
    kept_below = 60 * 2 * 7168                                  # 860,160 B per token
    per_token = kept_below + sum(MOE_WORKING_SET.values())      # 1,431,056 B per token
    assert per_token == 1_431_056
    expected = per_token * 131_072                              # 187,571,765,248 B
    t, peak = lecture.activation_peak
    assert peak == expected
    assert f"{expected / GIB:.2f}" == "174.69"                  # 176.44 if the input were counted twice
    assert quantity("timeline.v3.activation_peak_gib").display == "174.69"
    assert (t, peak) == (pytest.approx(ref.activation_peak()[0], rel=1e-12), ref.activation_peak()[1])


def test_the_kept_input_is_an_item_of_the_working_set():
    items = v3_layer_items(v3_config(), dense=False)
    assert items[0].tensor == "layer input x" and items[0].bytes_per_token == 2 * H
    with pytest.raises(ValueError):
        LayerMemory(params=1, kept_input_bytes_per_token=10, activation_bytes_per_token=5)


def test_activation_peak_is_at_the_turn_one_layer_into_backward(lecture):
    t, _ = lecture.activation_peak
    # forward 1 : recompute 1 : backward 2 of 99 % of the step; layer 60's recompute is 1/61 of
    # the recompute pass: t = 0.99 × (1 + 1/61) / 4.
    assert t == pytest.approx(0.99 * (1 + 1 / 61) / 4, rel=1e-12)
    first_done = lecture.t[lecture.event.index("backward")]
    assert lecture.forward_end < t < first_done


def test_time_split_is_forward_one_recompute_one_backward_two(lecture):
    f, r, b = ref.shares()
    assert (f, r, b) == pytest.approx((0.2475, 0.2475, 0.495))
    assert lecture.forward_end == pytest.approx(f) and lecture.backward_end == pytest.approx(0.99)
    forward = [t for t, e in zip(lecture.t, lecture.event) if e == "forward"]
    assert forward == pytest.approx(f * np.arange(1, LAYERS + 1) / LAYERS, rel=1e-12)
    done = [t for t, e in zip(lecture.t, lecture.event) if e == "backward"]
    assert done == pytest.approx(f + (r + b) * np.arange(1, LAYERS + 1) / LAYERS, rel=1e-12)
    # Without recompute: forward 1 : backward 2.
    plain = memory_timeline(Scenario(recompute="none"))
    assert plain.forward_end == pytest.approx(0.33) and plain.backward_end == pytest.approx(0.99)


@pytest.mark.parametrize("batch", [1, 2, 12, 13, 14, 94])
def test_every_sawtooth_top_matches_the_closed_form(batch):
    tl = memory_timeline(Scenario(batch=batch))
    at = [k for k, e in enumerate(tl.event) if e == "recompute"]
    assert [int(tl.layer[k]) for k in at] == list(range(LAYERS - 1, -1, -1))
    tops = ref.sawtooth_tops(batch=batch)
    order = tl.layer[at]
    assert np.allclose(tl.t[at], tops["t"][order], rtol=1e-12, atol=0)
    assert np.array_equal(tl.bytes["activations"][at], tops["activations"][order])
    assert np.array_equal(tl.bytes["gradients"][at], tops["gradients"][order])
    assert np.array_equal(tl.bytes["weights"][at] + tl.bytes["optimizer"][at], tops["resident"][order])


def test_without_recompute_activation_peak_is_exactly_end_of_forward():
    tl = memory_timeline(Scenario(recompute="none"))
    t, peak = ref.activation_peak(full=False)
    assert tl.activation_peak[0] == pytest.approx(t) == pytest.approx(0.33)
    per_token = DENSE * DENSE_ACT + (LAYERS - DENSE) * MOE_ACT
    assert tl.activation_peak[1] == S * per_token == peak
    assert tl.total_peak[0] == pytest.approx(t)


def test_gradient_peak_is_all_gradients_at_end_of_backward(lecture):
    t, peak = lecture.gradient_peak
    assert (t, peak) == (pytest.approx(ref.gradient_peak()[0], rel=1e-12), ref.gradient_peak()[1])
    assert t == pytest.approx(0.99) and peak == 2 * V3_PARAMS
    assert f"{peak / TIB:.2f}" == f"{671e9 * 2 / TIB:.2f}" == "1.22"


def test_total_peak_is_the_last_moe_layers_recompute(lecture):
    # Batch 1: through the MoE layers each backward adds 2 B × 11.5B params of gradients and
    # frees only 1.75 GiB of input, so the sawtooth climbs; the dense layers below add far
    # less. The top is layer 3 (the last MoE layer) once it has rebuilt its working set:
    #   resident 14 B/param, gradients of the head and the 57 MoE layers above it,
    #   activations: inputs of layers 0-2 plus layer 3's working set.
    expected = 14 * V3_PARAMS + 2 * (ref.HEAD + 57 * MOE_LAYER) + S * (3 * 2 * H + MOE_ACT)
    # 3 recompute slots + 57 layers of backward in, after the forward pass:
    expected_t = 0.99 / 4 * (1 + 57 * 3 / 61 + 1 / 61)
    t, peak = lecture.total_peak
    assert peak == expected and t == pytest.approx(expected_t, rel=1e-12)
    assert (t, peak, 3) == (pytest.approx(ref.total_peak()[0], rel=1e-12), *ref.total_peak()[1:])
    assert int(lecture.layer[list(lecture.t).index(t)]) == 3 and lecture.total_peak_phase == "backward"
    assert peak > 16 * V3_PARAMS and f"{16 * V3_PARAMS / TIB:.2f}" == "9.76"  # above the resident bill
    # What the screen shows.
    assert f"{expected / TIB:.2f}" == quantity("timeline.v3.total_peak_tib").display == "9.81"
    assert f"{expected_t:.2f}" == quantity("timeline.v3.total_peak_t").display == "0.95"
    assert quantity("timeline.v3.total_peak_layer").value == 3


def test_at_94_sequences_the_total_peaks_at_the_turn():
    # Past 13 sequences the stored inputs outweigh each layer's gradients; at 94 the top is the
    # first backward layer's recompute: resident + all activations at their peak, no gradients.
    tl = memory_timeline(Scenario(batch=94))
    expected = 14 * V3_PARAMS + 94 * S * (60 * 2 * H + MOE_ACT)
    assert tl.total_peak[1] == expected == ref.total_peak(batch=94)[1]
    assert tl.total_peak[0] == pytest.approx(0.99 * (1 + 1 / 61) / 4, rel=1e-12)


@pytest.mark.parametrize("seq_len, batch", [(S, 1), (S, 2), (S, 12), (S, 13), (S, 14), (S, 94),
                                            (2048, 1), (2048, 64)])
def test_total_peak_matches_the_closed_form_for_each_batch(seq_len, batch):
    tl = memory_timeline(Scenario(seq_len=seq_len, batch=batch))
    t, peak, layer = ref.total_peak(seq_len, batch)
    assert tl.total_peak[1] == peak and tl.total_peak[0] == pytest.approx(t, rel=1e-12)
    at = list(tl.t).index(tl.total_peak[0])
    assert int(tl.layer[at]) == layer or (layer == -1 and tl.event[at] == "backward" and tl.layer[at] == 0)
    if (seq_len, batch) == (2048, 1):   # short sequences: the gradients' end of backward wins
        assert layer == -1 and peak == 16 * V3_PARAMS


@pytest.mark.parametrize("seq_len, batch", [(S, 1), (2048, 1), (2048, 13), (2048, 94)])
def test_without_recompute_total_peak_matches_the_closed_form(seq_len, batch):
    tl = memory_timeline(Scenario(seq_len=seq_len, batch=batch, recompute="none"))
    t, peak, _ = ref.total_peak_without_recompute(seq_len, batch)
    assert tl.total_peak[1] == peak and tl.total_peak[0] == pytest.approx(t, rel=1e-12)


def test_peak_moving_batch_matches_the_layer_balance_closed_form():
    # Past the turn each MoE layer adds 2 B × its params of gradients and frees 2 B × s·b·h of
    # stored input: the sawtooth falls, and the peak moves to the turn, once b > params/(s·h).
    expected = math.ceil(MOE_LAYER / (S * H))
    assert peak_moving_batch(Scenario()) == expected == 13
    before = memory_timeline(Scenario(batch=expected - 1))
    after = memory_timeline(Scenario(batch=expected))
    assert before.total_peak[0] > (before.forward_end + before.backward_end) / 2
    assert after.total_peak[0] < (after.forward_end + after.backward_end) / 2


def test_scenarios_comment_names_both_batch_thresholds():
    # Two different batches, easy to mix up: where the step's peak moves to the turn (a MoE
    # layer's params against its stored input), and where the activations kept at the end of
    # forward reach the 16 B/param resident block (the notes' 94).
    moving = math.ceil(MOE_LAYER / (S * H))
    matching = math.ceil(16 * V3_PARAMS / (LAYERS * S * 2 * H))
    assert (moving, matching) == (13, 94)
    assert peak_moving_batch(Scenario()) == moving
    assert quantity("act.v3.seqs_to_match_resident").value == matching
    comment = (ROOT / "config" / "scenarios.yaml").read_text(encoding="utf-8").split("memtime:")[0]
    assert f"from {moving} sequences on" in comment and f"{matching} sequences" in comment


def test_gpt3_scenario_and_bad_input():
    tl = memory_timeline(Scenario(model="gpt3-175b", seq_len=2048))
    assert tl.gradient_peak[1] == pytest.approx(2 * 175e9)
    assert tl.bytes["activations"][96] == 96 * 2048 * 12288 * 2
    with pytest.raises(ValueError):
        memory_timeline(Scenario(recompute="selective"))
    with pytest.raises(ValueError):
        memory_timeline(Scenario(model="gpt-5"))


def test_stored_inputs_are_the_lectures_activations_and_peak_at_the_end_of_forward(lecture):
    # 激活 on screen is what forward leaves for backward: 61 × 131072 × 7168 × 2 B = 106.75 GiB,
    # at its largest when the forward pass ends (「激活的峰在前向末尾」); the peak while
    # recomputing (174.69 GiB) adds the working set of the layer being recomputed.
    t, stored = lecture.stored_peak
    assert stored == LAYERS * S * H * 2 == ref.activations_end_of_forward()
    assert f"{stored / GIB:.2f}" == "106.75" and t == pytest.approx(ref.forward_end(True), rel=1e-12)
    assert np.all(lecture.stored <= lecture.bytes["activations"]) and lecture.stored[-1] == 0
    during = lecture.event.index("recompute")                   # the top layer, recomputed
    assert lecture.bytes["activations"][during] - lecture.stored[during] == (MOE_ACT - 2 * H) * S
    assert lecture.activation_peak[1] > stored


def test_without_recompute_everything_is_stored():
    tl = memory_timeline(Scenario(recompute="none"))
    assert np.array_equal(tl.stored, tl.bytes["activations"]) and tl.stored_peak == tl.activation_peak
