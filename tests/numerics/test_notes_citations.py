"""A number tagged 查来的 that cites the speaker's notes must be in the notes.

Sourced entries whose citation names the notes quote them as 「…」; every quote (and every
``notes_quote``) must stand verbatim in assets/lecture-notes.txt (white space normalised),
and the value must be stated in one of them, in digits or in Chinese numerals, to the
precision the notes state it. A value the notes do not state is not looked up there: it is
chosen for a figure (示例取值) or derived.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lecture_numerics import Sourced, load_all
from lecture_numerics.notes import agrees
from lecture_numerics.zh import NUMERAL_CHARS, as_written_digits, parse_zh

ROOT = Path(__file__).resolve().parents[2]
NOTES_TEXT = (ROOT / "assets" / "lecture-notes.txt").read_text(encoding="utf-8")
REGISTRY = load_all()


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


FLAT_NOTES = _flat(NOTES_TEXT)
CITES_NOTES = sorted(k for k, q in REGISTRY.items() if isinstance(q, Sourced) and "notes" in q.citation)
QUOTED = sorted(k for k, q in REGISTRY.items() if q.notes_quote)


def pieces(quote: str) -> list[str]:
    """A quote may skip words of the notes: "A …… B" stands for two verbatim pieces."""
    return [p for p in re.split(r"\s*…+\s*", quote) if p.strip()]


def quotes(q) -> list[str]:
    found = re.findall(r"「((?:[^「」]|「[^「」]*」)+)」", getattr(q, "citation", ""))
    return [t for t in found + [q.notes_quote] if t]


def stated_numbers(text: str) -> list[str]:
    """Every number written in ``text``: digit runs and Chinese numeral runs."""
    digits = re.findall(r"(?:负\s*|[-−])?\d+(?:[.,]\d+)*", text)
    numerals = re.findall(f"(?:[{NUMERAL_CHARS}]*分之)?(?:[{NUMERAL_CHARS}]+点几|[{NUMERAL_CHARS}]+)", text)
    return [re.sub(r"^负\s*", "-", d) for d in digits] + [n for n in numerals if n.strip("点")]


def transcribed(notes: str) -> list[tuple[object, str]]:
    """The numbers a notes value stands for, with their unit: "−3" → -3, "4 %" → 0.04 as a
    fraction, "5–6 ×" → 5 and 6, "三千亿" → 3e11; "1.x %" → 1 % (only its head is stated);
    words ("几百亿", "反向") stand for themselves."""
    text = notes.replace("−", "-").replace("×", "").replace("≈", "").replace(",", "").strip()
    unit = ""
    if text.endswith("%"):
        text, unit = text[:-1].strip(), "fraction"
    scale = 0.01 if unit else 1.0
    if re.fullmatch(r"\d+\.x", text):
        return [(notes, "")]                    # only the head is stated: compared as written
    if re.fullmatch(r"\d+\s*/\s*\d+", text):
        top, bottom = (float(t) for t in text.split("/"))
        return [(top / bottom, unit)]
    if text[-1:] in "Kk":
        text, scale = text[:-1], scale * 1000
    ends = re.split(r"\s*[–~到]\s*", text)
    try:
        return [(float(end) * scale, unit) for end in ends]
    except ValueError:
        pass
    try:
        return [(parse_zh(text), unit)]
    except ValueError:
        return [(notes, "")]


def _written(token: str) -> str:
    try:
        return as_written_digits(token)
    except ValueError:
        return token


def is_stated(value, unit: str, display: str, said: list[str]) -> bool:
    candidates = [token for quote in said for token in stated_numbers(quote)]
    if isinstance(value, str):               # "1.x %": the notes state only the head
        return any(_written(token) == value for token in candidates) or \
            any(re.sub(r"\s+", "", display) in _flat(quote) for quote in said)
    return any(agrees(value, token, unit, display) for token in candidates) or \
        any(re.sub(r"\s+", "", display) in _flat(quote) for quote in said)


def test_the_notes_are_in_the_project():
    shared = ROOT.parent / "shared" / "lecture-notes.txt"
    if shared.is_file():   # the team's copy, where it is beside the checkout
        assert shared.read_text(encoding="utf-8") == NOTES_TEXT, "assets/lecture-notes.txt is out of date"
    assert NOTES_TEXT.count("🖥") > 60


@pytest.mark.parametrize("key", QUOTED)
def test_notes_quotes_are_verbatim(key):
    q = REGISTRY[key]
    for piece in pieces(q.notes_quote):
        assert _flat(piece) in FLAT_NOTES, f"{key}: notes_quote not in the notes: {piece!r}"
    if q.notes is not None:    # the notes' value, as we transcribed it, is what the quote says
        for number, unit in transcribed(q.notes):
            assert is_stated(number, unit, q.notes, [q.notes_quote]), \
                f"{key}: notes value {q.notes!r} is not what its quote says: {q.notes_quote!r}"


@pytest.mark.parametrize("key", CITES_NOTES)
def test_sourced_values_citing_the_notes_are_stated_there(key):
    q = REGISTRY[key]
    said = quotes(q)
    assert said, f"{key}: cites the notes without quoting them (「…」 or notes_quote)"
    for quote in said:
        for piece in pieces(quote):
            assert _flat(piece) in FLAT_NOTES, f"{key}: quote not in the notes: {piece!r}"
    assert is_stated(q.value, q.unit, q.display, said), f"{key} = {q.display!r} is not stated in its quotes {said}"


# ---- every number said on stage that a scene draws carries the notes' value ----------------

def _each(reason: str, *keys: str) -> dict[str, str]:
    return dict.fromkeys(keys, reason)


# Derived numbers a scene draws whose value the notes never say: listed here with the reason.
# A new drawn derived key without a notes value fails until it is given one or added here.
NOT_IN_THE_NOTES: dict[str, str] = {
    **_each("fig-circuit Ⓑ: the notes give each gate's rule in words, no numbers",
            "circuit.add.out", "circuit.add.grad_x", "circuit.add.grad_y", "circuit.mul.out", "circuit.mul.grad_x",
            "circuit.mul.grad_y", "circuit.max.out", "circuit.max.grad_x", "circuit.max.grad_y"),
    **_each("fig-descent Ⓑ/Ⓒ: the notes say what the gradient's length and signs mean (「这个坡有多陡」, "
            "「正负 …… 相对大小」), not their values; fig-circuit's 4 and −1 are said there, their negatives "
            "and ratio are not",
            "descent.a_over_c", "descent.bowl_grad_norms", "descent.neg_grad_a", "descent.neg_grad_b",
            "descent.neg_grad_c"),
    **_each("fig-precision Ⓐ/fig-optimizers: the notes name fp32 but never say its width",
            "format.fp32.total_bits"),
    **_each("axis ticks: scale, not something the speaker says",
            "memtime.axis.activation_ticks", "memtime.axis.memory_ticks_tib", "precision.criterion_ticks"),
    **_each("fig-precision Ⓒ: the notes measure an average's memory as the window 1/(1 − β) (「十步左右」), "
            "not as a half-life",
            "optim.adam.half_life_m", "optim.adam.half_life_v"),
    **_each("fig-optimizers Ⓐ: the notes say each count (「零份 …… 一份 …… 两份」), carried one by one by "
            "optimizers.state_copies.*; the set of levels is the axis",
            "optimizers.state_levels"),
    **_each("fig-precision Ⓑ: the notes give the start (1.0), the increment and the gap (零点零零七八), not the "
            "unrounded sum or the neighbours marked on the line",
            "precision.bf16.first_sum", "precision.bf16.ticks_near_1"),
    **_each("fig-precision Ⓑ magnified: the notes say 「四舍五入 —— 直接舍回原地」 and 「跨不过去」, not where the "
            "rounding midpoint lies; the counter's stops and the value at each are the run read out, the notes "
            "say only the end (「跑了一千次 …… 结果是 1.0」)",
            "precision.bf16.rounding_midpoint", "precision.counter_stops", "precision.bf16.stored_at_stops"),
    **_each("fig-precision Ⓐ: the notes say bf16 keeps fp32's range (「范围跟 fp32 一模一样」), not what the "
            "tiny gradient becomes in it",
            "precision.tiny_gradient_bf16"),
    **_each("fig-slider Ⓑ/Ⓒ: the notes read only the middle fader and the chain's product",
            "slider.partial_1", "slider.partial_2", "slider.partial_3", "slider.partial_4", "slider.partial_5",
            "slider.readout_tick_1", "slider.readout_tick_2"),
    **_each("anim-memtime for another configured scenario: the notes speak of the lecture's case only",
            "timeline.configured.activation_peak", "timeline.configured.activations_end_of_forward",
            "timeline.configured.gradient_peak", "timeline.configured.optimizer", "timeline.configured.total_peak",
            "timeline.configured.total_peak_phase", "timeline.configured.total_peak_t", "timeline.configured.weights"),
    **_each("anim-memtime: the notes say where the peaks are (「梯度的峰在反向末尾」), not their size or time; "
            "the peak while recomputing (重算时峰) is not the notes' 激活 (the stored inputs, 106.75 GiB)",
            "timeline.v3.activation_peak_gib", "timeline.v3.gradient_peak_tib", "timeline.v3.total_peak_phase", "timeline.v3.total_peak_t",
            "timeline.v3.total_peak_tib"),
    **_each("fig-vote: the notes state the 的/了 probabilities and the rule; the other numbers are the example's",
            "vote.bright_payoff_ratio", "vote.mean_seed.de", "vote.mean_seed.le", "vote.mean_seed.shi",
            "vote.mean_seed.zai", "vote.onehot.de", "vote.onehot.le", "vote.onehot.shi", "vote.onehot.zai",
            "vote.only_first.p_de", "vote.p.shi", "vote.p.zai", "vote.seed.de", "vote.seed.le", "vote.seed.shi",
            "vote.seed.zai", "vote.wire_grad.bright", "vote.wire_grad.dim"),
    **_each("fig-step Ⓑ axis ticks: scale, not something the speaker says",
            "onestep.sweep.batch_ticks", "onestep.sweep.tib_ticks"),
    **_each("fig-step: the notes say 十二万八千 (128,000) for the 2^17-token sequence; 128K is its name",
            "onestep.seq_len_k"),
    **_each("fig-step Ⓐ: the notes read the divisor aloud as 「1024 的四次方」, a unit's definition (2^40 B), "
            "drawn as 1024⁴", "onestep.bytes_per_tib"),
    **_each("fig-zero Ⓐ: the notes say 从 120 到 1.9, not the ratio (÷ N_d)", "zero.baseline_over_stage3"),
    **_each("fig-zero: K is bytes.optimizer_sum (master + m + v) read again; the notes' "
            "十二字节 is carried by that sum", "zero.k"),
    **_each("fig-underflow: the notes point at the lines (「fp16 的归零线在这儿」) without their values; "
            "the ticks are scale; 0 / 零 is what the cast stores",
            "underflow.fp16_min_subnormal", "underflow.bf16_min_subnormal", "underflow.axis_ticks",
            "underflow.fp16_below_stored_as", "underflow.fp16_below_stored_as_zh"),
    **_each("fig-prepost axis ticks: scale, not something the speaker says", "prepost.x_ticks", "prepost.y_ticks"),
    **_each("fig-beststep: the notes give the rules in words (「梯度除以二阶导，一步到底」, 「等于二除以陡峭程度」, "
            "「几千亿参数根本存不下」) and the two gradients (chosen inputs); what follows from them is not said",
            "beststep.a.best_step", "beststep.a.gradient", "beststep.b.flat_best_lr", "beststep.b.flat_curvature",
            "beststep.b.flat_distance", "beststep.b.steep_best_lr", "beststep.b.steep_distance",
            "beststep.c.diagonal_tib", "beststep.c.hessian_entries", "beststep.step_share_of_threshold",
            "beststep.threshold"),
    **_each("fig-momentum: the notes say the gray run 「真停」 and name Polyak's 0.8–0.99 (off screen, 待核) without "
            "windows; the two runs are named (灰的 / 绿的), not counted",
            "momentum.gray_final_slope", "momentum.run_count", "momentum.window_beta_high", "momentum.window_beta_low"),
    **_each("fig-momentum Ⓒ: the notes say where the runs end (「一样出不来」, 「从哪儿出发决定一切」), not the "
            "iterates; the second start's run on the deeper pit is drawn as dots, no number",
            "momentum.deeper.green_path_left"),
    **_each("fig-muon Ⓒ: the notes describe the circle and the square (「一把尺…另一把尺」) without lengths",
            "muon.ruler_count"),
    **_each("fig-lineage: readings of the runs the notes describe in words (「分母只增不减」, 「从零起步」, "
            "「课件里的 0.9」 is the storyboard's caveat), not values the speaker says",
            "lineage.adagrad_denominator_growth", "lineage.adam_no_bc_peak_step",
            "lineage.rmsprop_first_step_gain_slides"),
    **_each("fig-updratio: the notes name the runs (太小 / 刚好 / 太大, 「loss 反而更低」) without their learning "
            "rates or losses", "updratio.lr_small", "updratio.lr_ok", "updratio.lr_big", "updratio.final_loss_big",
            "updratio.final_loss_ok"),
    **_each("fig-updratio: the notes give the jitter only as a ratio (「抖动大了近十倍」, carried by "
            "updratio.loss_jitter_ratio); the drawn jitters are each run's own RMS about its trend, and 刚好's is "
            "so near zero that no ratio of the two is steady (drawn as a lower bound)", "updratio.loss_jitter_big"),
    **_each("fig-step Ⓐ: the notes say attention is 「八成多」 of a layer (onestep.v3.attention_share_round) and "
            "that 6ND leaves it out; the matrix-multiply remainder, the factor it implies and the four items at "
            "the total peak are the bar's own readings",
            "onestep.v3.matmul_share_128k", "flops.v3.real_over_6nd_from_share", "onestep.v3.items_at_total_peak_tib"),
    **_each("fig-updratio Ⓒ: the notes say only that the run 「炸成 NaN」 past the cliff, not how many times "
            "刚好's learning rate that is", "updratio.cliff_over_ok"),
    **_each("fig-slider Ⓐ: the notes read the push (0.01) and the readout, not where the fader ends", "slider.fader_after"),
    **_each("fig-vote Ⓒ: the notes say 「所有人的要求加起来」 without counting the example's samples", "vote.batch_size"),
    **_each("fig-saddle: the notes say the ball 「磨很久很久」 in words; the count is the run's", "saddle.crawl.steps_near_top"),
    **_each("fig-saddle: the flat point's slope and the axis ticks (the three kinds' share of up-directions); the "
            "notes say 「脚下确实是平的」 in words",
            "flat.slopes_at_centre", "flat.up_fraction_ticks"),
    **_each("fig-lr-curve Table 2.1's learning-rate ticks in 10⁻⁴: scale, not something the speaker says",
            "lr.axis.lr_ticks_e4"),
    **_each("fig-act-bill and fig-per-byte axis ticks: scale, not something the speaker says",
            "act_bill.axis.inset_ticks_gib", "act_bill.axis.ticks_tib", "per_byte.axis.x_ticks",
            "per_byte.axis.y_ticks"),
    **_each("fig-vanish axis ticks: scale; the numbers the notes say that stand on them (六十 layers, σ′'s "
            "零点二五, ReLU′'s 一) are carried by vanish.layers, vanish.sigmoid_max_slope and "
            "vanish.relu_slope_positive",
            "vanish.axis.layer_ticks", "vanish.axis.linear_ticks", "vanish.axis.log_ticks",
            "vanish.axis.slope_ticks", "vanish.axis.x_ticks", "vanish.axis.log_step"),
    **_each("fig-per-byte: the notes give the rule in words (「它正好等于这个矩阵乘的输入宽度」, 「那条斜线的"
            "斜率，是模型自己的头维度定的」), never the widths or the slopes; the crossings they do say are "
            "recompute.*.crossover_tokens",
            "per_byte.v3.attention_slope", "per_byte.gpt3.attention_slope", "per_byte.v3.linear_flops_per_byte",
            "per_byte.gpt3.linear_flops_per_byte"),
    **_each("fig-batch is 示意: the notes say which way each factor goes (「batch 大了步数少、每步没变贵」, "
            "「每步变贵的倍数，正好抵掉步数少的倍数」), never a number",
            "batch.steps_ratio", "batch.step_cost_ratio_above", "batch.total_ratio_above", "batch.total_ratio_below"),
    **_each("fig-vanish: the reverse sweep's seed at the output end (∂L/∂L = 1), where both chains start; "
            "the notes never say it", "vanish.output_gradient"),
    **_each("fig-vanish Ⓑ: 各离 1 两成 is each rate's distance from 1; the notes' 「只差两成」 reads as the gap "
            "between the rates (vanish.rate_gap_zh, which carries the notes value and the L235 erratum)",
            "vanish.rate_offset_zh"),
    **_each("fig-lr-curve Ⓐ: the screen counts the rows from Medium (七个规模 … 灰点不算); the notes' 「表 2.1 把七个"
            "规模一起列了」 is about the whole table, lr.gpt3.table_rows (eight), which carries the erratum",
            "lr.gpt3.rows_medium_to_175b"),
    **_each("fig-lr-curve Ⓐ: the inset's span labels the picture (which head of the run is magnified); the notes "
            "speak of the warmup's share, not of the inset",
            "lr.gpt3.inset_tokens"),
    **_each("fig-step A.11: the notes say the two peaks are not at one moment (「两个峰根本不在同一时刻」); how many "
            "layers apart the simulator puts them labels the picture",
            "timeline.v3.total_peak_layers_before_gradient_peak"),
    **_each("fig-recompute: the notes say the lecture's length as 十二万八千 (128,000) and write 128K only as a "
            "name (「序列长度从 2K 到 128K」); the label is 2^17 = 131,072 written as 128K, whose disagreement with "
            "十二万八千 scenario.seq_len_128k records",
            "recompute.seq_len_label"),
}


def _drawn_derived() -> list[str]:
    from lecture_numerics import Derived
    from studio.engine import registry

    drawn = {k for entry in registry.discover().values() for k in entry.ledger_keys}
    return sorted(k for k in drawn if isinstance(REGISTRY.get(k), Derived))


def test_drawn_derived_numbers_carry_the_notes_value_or_say_why_not():
    silent = [k for k in _drawn_derived() if REGISTRY[k].notes is None and k not in NOT_IN_THE_NOTES]
    assert not silent, f"drawn derived keys with no notes value and no reason in NOT_IN_THE_NOTES: {silent}"


def test_the_exceptions_are_current():
    drawn = set(_drawn_derived())
    stale = sorted(k for k in NOT_IN_THE_NOTES if k not in drawn or REGISTRY[k].notes is not None)
    assert not stale, f"NOT_IN_THE_NOTES lists keys that are no longer drawn, or now have a notes value: {stale}"


# ---- the speaker's own examples are 示例取值, not 查来的 -------------------------------------

# Entries that cite the notes and stay 查来的, each with why its value is a fact the notes
# report rather than an example the speaker picked.
REVIEWED_SOURCED_FROM_THE_NOTES: dict[str, str] = {
    "trips.outputs": "a language model's loss is one number: the chain has one output whatever example "
                     "the speaker picks (the notes report it: 「右边只有一个数，就是 loss」)",
}


def test_every_entry_citing_the_notes_is_an_example_or_a_reviewed_fact():
    citing = {k for k, q in REGISTRY.items() if isinstance(q, Sourced) and "lecture-notes" in q.citation}
    assert citing == set(REVIEWED_SOURCED_FROM_THE_NOTES), \
        f"sourced from the notes but not reviewed: {sorted(citing - set(REVIEWED_SOURCED_FROM_THE_NOTES))}"


@pytest.mark.parametrize("key", ["slider.desk_faders", "circuit.a", "circuit.b", "circuit.c",
                                 "slider.push", "trips.parameters", "vote.answer", "optim.adagrad_probe_step"])
def test_the_speakers_examples_are_chosen_with_their_quote(key):
    from lecture_numerics.provenance import SPEAKERS_EXAMPLE, Chosen

    q = REGISTRY[key]
    assert isinstance(q, Chosen) and q.reason == SPEAKERS_EXAMPLE, f"{key} is {q.kind}, reason {getattr(q, 'reason', '')!r}"
    assert q.notes_quote and all(_flat(p) in FLAT_NOTES for p in pieces(q.notes_quote))
