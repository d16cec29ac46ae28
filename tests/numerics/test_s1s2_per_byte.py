"""fig-per-byte against a root finder, a pair count of a small causal attention, and hand values."""

from __future__ import annotations

import numpy as np
from _s1s2_reference import attention_slope, causal_flops_per_byte
from scipy.optimize import brentq

from lecture_numerics import per_byte, quantity


def test_slopes_from_counting_pairs():
    for s in (8, 64, 300):
        v3, gpt3 = attention_slope(192, 128, s), attention_slope(128, 128, s)
        assert np.isclose(quantity("per_byte.v3.attention_slope").value, v3)
        assert np.isclose(quantity("per_byte.gpt3.attention_slope").value, gpt3)
    assert quantity("per_byte.v3.attention_slope").display == "1.25"
    assert quantity("per_byte.gpt3.attention_slope").display == "1"


def test_flat_lines_are_the_input_widths():
    assert quantity("per_byte.v3.linear_flops_per_byte").value == 7168
    assert quantity("per_byte.gpt3.linear_flops_per_byte").value == 12288


def test_crossovers_where_the_drawn_lines_meet():
    for model, width_key, cross_key in (("deepseek-v3", "per_byte.v3.linear_flops_per_byte",
                                         "recompute.v3.crossover_tokens"),
                                        ("gpt3-175b", "per_byte.gpt3.linear_flops_per_byte",
                                         "recompute.gpt3.crossover_tokens")):
        s, price = per_byte.attention_line(model, seq_max=20000, points=2)
        slope = (price[1] - price[0]) / (s[1] - s[0])
        width = quantity(width_key).value
        root = brentq(lambda x: price[0] + slope * x - width, 0, 20000)
        assert np.isclose(root, quantity(cross_key).value, atol=1e-6)
    assert quantity("recompute.v3.crossover_tokens").display == "5.7K"


def test_v3_slope_on_gpt3_misplaces_the_crossover_by_a_quarter_of_it():
    misplaced = brentq(lambda x: 1.25 * (x + 1) - 12288, 0, 20000)
    right = brentq(lambda x: 1.0 * (x + 1) - 12288, 0, 20000)
    q = quantity("per_byte.gpt3_with_v3_slope_error_tokens")
    assert np.isclose(q.value, right - misplaced)
    assert q.display == "2.5K" and q.notes == "4000"


def test_axis_ticks():
    assert quantity("per_byte.axis.x_ticks").item_displays == ("0", "5K", "10K", "15K")
    assert quantity("per_byte.axis.y_ticks").item_displays == ("0", "5K", "10K", "15K", "20K")


def test_at_the_papers_context_attention_is_cheaper_than_every_drawn_linear_layer():
    # 「它落在交点左边。在那儿，attention 比图上每一条线性层都便宜」 — GPT-3's attention price
    # from the reference pair count (not the module's formula) at its 2048-token context.
    context = quantity("model.gpt3.context_tokens").value
    assert context == 2048 and context < quantity("recompute.gpt3.crossover_tokens").value
    attention_there = causal_flops_per_byte(context, 128, 128)
    drawn_linear = [quantity(k).value for k in ("per_byte.v3.linear_flops_per_byte",
                                                "per_byte.gpt3.linear_flops_per_byte")]
    assert attention_there < min(drawn_linear)
    s, price = per_byte.attention_line("gpt3-175b", seq_max=context)
    assert np.isclose(price[-1], attention_there, rtol=1e-9)
