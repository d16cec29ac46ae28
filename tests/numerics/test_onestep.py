"""fig-step's numbers against references written out here: integer byte and FLOP totals from
DeepSeek-V3's raw config shapes, and a short numpy event simulation of one step."""

from __future__ import annotations

import math

import numpy as np
import pytest

from lecture_numerics import quantity
from lecture_numerics.onestep import batch_sweep, crossing_batch, step_timeline

from _v3_reference import DENSE, DENSE_ACT, DENSE_LAYER, H, LAYERS, MOE_ACT, MOE_LAYER, S, TIB, V3_PARAMS

VOCAB = 129280
KEPT = 2 * H   # full recompute keeps each layer's bf16 input per token


def reference_step(batch: int = 1):
    """One step, event by event: forward stores each layer's input; backward recomputes a layer's
    working set, then adds its bf16 gradients and frees the working set and the stored input."""
    params = [DENSE_LAYER if i < DENSE else MOE_LAYER for i in range(LAYERS)]
    act = [DENSE_ACT if i < DENSE else MOE_ACT for i in range(LAYERS)]
    tokens = S * batch
    fwd = 0.99 / 4                      # forward 1 : recompute 1 : backward 2, update 1 %
    per_layer = 3 * fwd / LAYERS
    t, acts, grads = [0.0], [0], [0]
    for i in range(LAYERS):
        t.append(fwd * (i + 1) / LAYERS); acts.append(acts[-1] + KEPT * tokens); grads.append(0)
    for k, i in enumerate(reversed(range(LAYERS))):
        start = fwd + k * per_layer
        t.append(start + fwd / LAYERS); acts.append(acts[-1] + act[i] * tokens); grads.append(grads[-1])
        extra = (VOCAB * H + H if k == 0 else 0) + (VOCAB * H if i == 0 else 0)
        t.append(start + per_layer); acts.append(acts[-1] - (act[i] + KEPT) * tokens)
        grads.append(grads[-1] + 2 * (params[i] + extra))
    t.append(1.0); acts.append(acts[-1]); grads.append(0)
    return np.array(t), np.array(acts, dtype=float), np.array(grads, dtype=float)


def test_peak_times_agree_with_an_independent_event_simulation():
    t, acts, grads = reference_step()
    tl = step_timeline()
    total = acts + grads
    assert tl.activation_peak[0] == pytest.approx(t[np.argmax(acts)])
    assert tl.gradient_peak[0] == pytest.approx(t[np.argmax(grads)])
    assert tl.total_peak[0] == pytest.approx(t[np.argmax(total)])
    assert tl.activation_peak[0] < tl.total_peak[0] < tl.gradient_peak[0]   # 合计峰 on neither single peak
    assert grads.max() == 2 * V3_PARAMS


def test_crossing_batch_is_the_exact_integer_ceiling():
    resident = V3_PARAMS * 16                   # weights 2 + gradients 2 + optimizer 12
    per_sequence = LAYERS * S * H * 2
    assert crossing_batch() == -(-resident // per_sequence) == 94
    assert quantity("onestep.sweep.crossing_batch").display == quantity("act.v3.seqs_to_match_resident").display


def test_sweep_activations_are_linear_in_the_batch():
    sweep = batch_sweep(np.array([1, 7, 120]))
    assert list(sweep["activations"]) == [b * LAYERS * S * H * 2 for b in (1, 7, 120)]
    assert np.ptp(sweep["resident"]) == 0 and sweep["resident"][0] == V3_PARAMS * 16


def test_axis_ticks_cover_the_drawn_range():
    assert quantity("onestep.sweep.batch_ticks").item_displays == ("0", "50", "100")
    top_tib = 120 * LAYERS * S * H * 2 / TIB
    assert top_tib == pytest.approx(12.51, abs=0.01)
    assert quantity("onestep.sweep.tib_ticks").item_displays == ("0", "5", "10")


def test_matmul_share_from_the_raw_config_shapes():
    # One MoE layer's weights a token meets: MLA projections, 8 routed + 1 shared expert, router.
    mla = 7168 * 1536 + 1536 * 128 * 192 + 7168 * 576 + 512 * 128 * 256 + 128 * 128 * 7168
    matmul = 2 * (mla + 9 * 3 * 7168 * 2048 + 7168 * 256)
    core = 2 * 128 * (192 + 128) * (S + 1) / 2
    share = matmul / (matmul + core)
    assert f"{100 * share:.0f}%" == quantity("onestep.v3.matmul_share_128k").display == "18%"
    assert f"{100 * (1 - share):.0f}%" == quantity("onestep.v3.attention_share_round").display == "82%"


def test_small_counts_and_names():
    assert quantity("onestep.item_count").display == "四"            # weights, gradients, optimizer, activations
    assert quantity("bytes.per_param_total").value == 2 + 2 + 4 + 4 + 4
    assert quantity("onestep.seq_len_k").display == f"{S // 1024}K" == "128K"
    assert math.ceil(671e9 * 16 / (80 * 2**30)) == int(quantity("bill.v3.gpus_80gib").display)


def test_the_bills_divisor_is_one_tib_written_as_a_power_of_1024():
    # The bill on screen reads 671B × 16 字节 ÷ 1024⁴ = 9.76 TiB: the divisor is 2^40 bytes, and
    # dividing the bytes by it gives the drawn total.
    divisor = quantity("onestep.bytes_per_tib")
    assert divisor.value == 2 ** 40
    assert divisor.display == "1024⁴"
    total = quantity("model.v3.total_params").value * quantity("bytes.per_param_total").value / divisor.value
    assert f"{total:.2f}" == quantity("bill.v3.total_tib").display
