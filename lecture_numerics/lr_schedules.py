"""fig-lr-curve: GPT-3's and DeepSeek-V3's learning-rate schedules, evaluated from their sourced
segments (schedule.py holds the looked-up numbers), and the ratios the notes say aloud.

Shape assumption (both papers say "cosine" and give no formula): between two quoted points
lr = floor + (peak − floor)·½(1 + cos πp), p the share of the decay segment done. GPT-3's
cosine runs from the end of warmup (375M tokens) to 260B (Appendix B: "down to 10 % … over
260 billion tokens", then held). V3 warms up over 2K steps, whose length in tokens the
report does not give in §4.2: on the progress axis its warmup is drawn as a jump at 0.
"""

from __future__ import annotations


import numpy as np

from lecture_numerics.axes import power_of_ten_label
from lecture_numerics.provenance import chosen, derived, sourced
from lecture_numerics.schedule import (GPT3_BATCH, GPT3_DECAY, GPT3_FINAL, GPT3_LR, GPT3_PARAMS, GPT3_TOKENS,
                                       GPT3_WARMUP, V3_DECAY_TOKENS, V3_DECAYED_LR, V3_FINAL_LR, V3_HOLD_TOKENS,
                                       V3_PEAK_LR)
from lecture_numerics.zh import zh_count

V3_REPORT = "DeepSeek-V3 technical report (arXiv 2412.19437), §4.2"
V3_DECAYED_HOLD = sourced("lr.v3.decayed_hold_tokens", 333e9, unit="tokens", fmt=lambda v: f"{v / 1e9:.0f}B",
                          citation=V3_REPORT, measures="tokens trained at 2.2e-5 after the cosine decay")
V3_FINAL_TOKENS = sourced("lr.v3.final_tokens", 167e9, unit="tokens", fmt=lambda v: f"{v / 1e9:.0f}B",
                          citation=V3_REPORT, measures="the last tokens, trained at 7.3e-6")
WARMUP_PAPER_YEAR = sourced(
    "lr.warmup_paper.year", 2024, unit="", citation='Kalra & Barkeshli, "Why Warmup the Learning Rate? Underlying '
    'Mechanisms and Improvements", arXiv 2406.09405 (June 2024; NeurIPS 2024), abstract (read): "the overwhelming '
    'benefit of warmup arises from allowing the network to tolerate larger η_trgt by forcing the network to more '
    'well-conditioned areas of the loss landscape". Not found in what was read (so spoken, not projected): that '
    '「开局二阶矩估不准」 is not the main reason, and that a longer warmup at a fixed peak brings little',
    measures="year of the systematic warmup study the notes cite")
# What the notes have the speaker say the study found, against its abstract (read, arXiv 2406.09405 v2,
# export.arxiv.org/abs/2406.09405): "the overwhelming benefit of warmup arises from allowing the network
# to tolerate larger η_trgt …"; "we show how η_init can be properly chosen … which saves on the number of
# warmup steps, in some cases completely eliminating the need for warmup"; "We also suggest an
# initialization for the variance in Adam which provides benefits similar to warmup". The abstract names
# the main benefit but dismisses nothing explicitly, and its Adam-variance result cuts against 「不是主因」;
# it says nothing of a longer warmup at a fixed peak. Both lines are errata with a sentence the abstract
# supports (drawn nowhere: the screen's ✓ line is the abstract's own claim).
WARMUP_STUDY_ON_ADAM = chosen(
    "lr.warmup_paper.on_adam_variance", "给了另一个解释", unit="",
    measures="what the 2024 warmup study says of the tutorials' explanation (Adam's second moment misjudged early)",
    reason="its abstract names the overwhelming benefit (a larger target learning rate tolerated) without "
           "dismissing the second-moment story, and suggests an Adam variance initialization with benefits "
           "similar to warmup",
    notes="明确说这不是主因", notes_quote="二〇二四年有一篇专门做系统实验的论文，明确说这不是主因。")
WARMUP_STUDY_ON_LENGTH = chosen(
    "lr.warmup_paper.on_warmup_length", "起始学习率选好，warmup 可以缩短，有时干脆不要", unit="",
    measures="what the 2024 warmup study says of warmup's length",
    reason="its abstract: a properly chosen η_init \"saves on the number of warmup steps, in some cases completely "
           "eliminating the need for warmup\"; that a longer warmup at a fixed peak brings little is not in what "
           "was read",
    notes="warmup 拉长基本没收益", notes_quote="目标学习率固定的话，warmup 拉长基本没收益。")


def cosine(p, peak: float, floor: float):
    """floor + (peak − floor)·½(1 + cos πp), p in [0, 1] (the shape assumption)."""
    return floor + (peak - floor) * 0.5 * (1 + np.cos(np.pi * np.clip(p, 0.0, 1.0)))


def gpt3_lr(tokens, peak: float, warmup: float, decay_end: float, floor_fraction: float):
    """GPT-3: linear warmup, cosine from the end of warmup to decay_end, then held at the floor."""
    t = np.asarray(tokens, dtype=float)
    floor = floor_fraction * peak
    return np.where(t < warmup, peak * t / warmup,
                    np.where(t < decay_end, cosine((t - warmup) / (decay_end - warmup), peak, floor), floor))


def v3_lr(tokens, peak: float, hold_end: float, decay: float, decayed: float, decayed_hold: float, final: float):
    """V3 after its 2K-step warmup: peak until hold_end, cosine to decayed over decay tokens,
    decayed for decayed_hold tokens, then final."""
    t = np.asarray(tokens, dtype=float)
    decay_end = hold_end + decay
    return np.where(t < hold_end, peak,
                    np.where(t < decay_end, cosine((t - hold_end) / decay, peak, decayed),
                             np.where(t < decay_end + decayed_hold, decayed, final)))


# --- GPT-3 ---------------------------------------------------------------------------------------------
_GPT3_SEG = {"peak": GPT3_LR["175b"], "warmup": GPT3_WARMUP, "decay_end": GPT3_DECAY, "floor_fraction": GPT3_FINAL}
WARMUP_SHARE = derived(
    "lr.gpt3.warmup_share", lambda warmup, total: warmup / total, inputs={"warmup": GPT3_WARMUP, "total": GPT3_TOKENS},
    unit="fraction", fmt=lambda v: f"{1000 * v:.2f}‰", formula="warmup tokens ÷ training tokens",
    measures="GPT-3's warmup tokens ÷ total training tokens",
    notes="0.00125", notes_quote="GPT-3 是头三亿七千五百万个 token，占总量的千分之一点二五。")
# fig-lr-curve Ⓐ magnifies the run's head under its whole-run strip: what that inset spans.
INSET_SHARE = chosen("lr.gpt3.inset_share", 0.01, unit="fraction", fmt=lambda v: f"{100 * v:.0f}%",
                     measures="the share of GPT-3's run that fig-lr-curve's inset magnifies",
                     reason="short enough that the warmup (1.25 ‰) fills an eighth of the inset, long enough "
                            "that the inset still reads as the run's head")
INSET_TOKENS = derived(
    "lr.gpt3.inset_tokens", lambda share, total: share * total, inputs={"share": INSET_SHARE, "total": GPT3_TOKENS},
    unit="tokens", fmt=lambda v: f"{v / 1e9:.0f}B", formula="inset share × training tokens",
    measures="the tokens fig-lr-curve's inset spans (the head of GPT-3's run)")
_LR_QUOTE = "规律肉眼可见：模型越大，学习率越小、batch 越大。 而且幅度很温和 —— 五百倍的规模差，学习率只差五倍。"
SIZE_RATIO = derived(
    "lr.gpt3.size_ratio_medium_175b", lambda big, small: big / small,
    inputs={"big": GPT3_PARAMS["175b"], "small": GPT3_PARAMS["medium"]}, unit="×", fmt="{:.0f}",
    formula="params(175B) ÷ params(Medium)", measures="size ratio between GPT-3 Medium and 175B",
    notes="500", notes_quote=_LR_QUOTE)
LR_RATIO = derived(
    "lr.gpt3.lr_ratio_medium_175b", lambda small, big: small / big,
    inputs={"small": GPT3_LR["medium"], "big": GPT3_LR["175b"]}, unit="×", fmt="{:.0f}",
    formula="lr(Medium) ÷ lr(175B)", measures="peak-lr ratio between GPT-3 Medium and 175B",
    notes="5", notes_quote=_LR_QUOTE)
GPT3_FINAL_OVER_PEAK = derived(
    "lr.gpt3.final_over_peak", lambda peak, warmup, decay_end, floor_fraction, total:
    float(gpt3_lr(total - 1, peak, warmup, decay_end, floor_fraction) / peak),
    inputs={**_GPT3_SEG, "total": GPT3_TOKENS}, unit="fraction", fmt=lambda v: f"{100 * v:.0f}%",
    formula="lr at the last token ÷ peak (the schedule evaluated)", measures="GPT-3's final learning rate ÷ its peak",
    notes="10 %", notes_quote="老派是余弦：GPT-3 在两千六百亿 token 内降到峰值的百分之十，之后一直保持。")
GPT3_DECAY_END = derived("lr.gpt3.decay_end_progress", lambda decay_end, total: decay_end / total,
                         inputs={"decay_end": GPT3_DECAY, "total": GPT3_TOKENS}, unit="fraction",
                         fmt=lambda v: f"{100 * v:.1f}%", formula="260B ÷ 300B",
                         measures="where GPT-3's cosine ends on the progress axis")
GPT3_ROWS = derived("lr.gpt3.table_rows", lambda lrs: len(lrs), inputs={"lrs": sourced(
    "lr.gpt3.table_lrs", tuple(q.value for q in GPT3_LR.values()), unit="", citation=GPT3_LR["small"].citation,
    fmt=lambda v: f"{len(v)} rows", item_fmt="{:.1e}", measures="Table 2.1's learning rates, Small … 175B")},
    unit="rows", fmt=zh_count, formula="rows of Table 2.1", measures="models in GPT-3's Table 2.1",
    notes="7", notes_quote="GPT-3 论文表 2.1 把七个规模一起列了",
    note="Table 2.1 lists eight models (Small 125M … 175B); the notes' seven are the rows from Medium, "
         "as the screen counts them (lr.gpt3.rows_medium_to_175b, 「灰点不算」)")
GPT3_ROWS_QUOTED = derived("lr.gpt3.rows_medium_to_175b", lambda lrs: len(lrs) - 1,
                           inputs={"lrs": GPT3_ROWS.inputs["lrs"]}, unit="rows", fmt=zh_count,
                           formula="rows from Medium to 175B (all but Small)",
                           measures="the sizes the screen counts (七个规模：350M → 175B, the gray Small left out)")

# --- DeepSeek-V3 ----------------------------------------------------------------------------------------
_V3_SEG = {"peak": V3_PEAK_LR, "hold_end": V3_HOLD_TOKENS, "decay": V3_DECAY_TOKENS, "decayed": V3_DECAYED_LR,
           "decayed_hold": V3_DECAYED_HOLD, "final": V3_FINAL_LR}
V3_TOTAL = derived("lr.v3.total_tokens", lambda hold_end, decay, decayed_hold, final_tokens:
                   hold_end + decay + decayed_hold + final_tokens,
                   inputs={"hold_end": V3_HOLD_TOKENS, "decay": V3_DECAY_TOKENS, "decayed_hold": V3_DECAYED_HOLD,
                           "final_tokens": V3_FINAL_TOKENS}, unit="tokens", fmt=lambda v: f"{v / 1e12:.1f}T",
                   formula="10T + 4.3T + 333B + 167B", measures="V3's pre-training tokens, from its schedule's segments")
V3_FINAL_OVER_PEAK = derived(
    "lr.v3.final_over_peak", lambda peak, hold_end, decay, decayed, decayed_hold, final, total:
    float(v3_lr(total - 1, peak, hold_end, decay, decayed, decayed_hold, final) / peak),
    inputs={**_V3_SEG, "total": V3_TOTAL}, unit="fraction", fmt=lambda v: f"{100 * v:.1f}%",
    formula="lr at the last token ÷ peak (7.3e-6 ÷ 2.2e-4)", measures="DeepSeek-V3's final learning rate ÷ its peak",
    note="only the end of V3's cosine is at 10 % of the peak; its last 167B tokens run at 3.3 %",
    notes="0.1", notes_quote="两派的终点，都落在峰值的十分之一附近。")
V3_COSINE_END = derived("lr.v3.cosine_end_over_peak", lambda decayed, peak: decayed / peak,
                        inputs={"decayed": V3_DECAYED_LR, "peak": V3_PEAK_LR}, unit="fraction",
                        fmt=lambda v: f"{100 * v:.0f}%", formula="2.2e-5 ÷ 2.2e-4",
                        measures="where V3's cosine ends, relative to the peak",
                        notes="0.1", notes_quote="两派的终点，都落在峰值的十分之一附近。")
V3_HOLD_END = derived("lr.v3.hold_end_progress", lambda hold_end, total: hold_end / total,
                      inputs={"hold_end": V3_HOLD_TOKENS, "total": V3_TOTAL}, unit="fraction",
                      fmt=lambda v: f"{100 * v:.1f}%", formula="10T ÷ 14.8T",
                      measures="where V3 starts to decay on the progress axis")

V3_COSINE_END_PROGRESS = derived("lr.v3.cosine_end_progress", lambda hold_end, decay, total: (hold_end + decay) / total,
                                 inputs={"hold_end": V3_HOLD_TOKENS, "decay": V3_DECAY_TOKENS, "total": V3_TOTAL},
                                 unit="fraction", fmt=lambda v: f"{100 * v:.1f}%", formula="(10T + 4.3T) ÷ 14.8T",
                                 measures="where V3's cosine ends (at 10 % of its peak) on the progress axis")

# --- the plotted curves (progress 0 … 1, lr ÷ peak) -------------------------------------------------------
SAMPLES = chosen("lr.curve_samples", 1201, unit="points", measures="samples per plotted schedule",
                 reason="fine enough that GPT-3's 0.125 % warmup is one sample wide at the plot's scale")


def _gpt3_curve(peak, warmup, decay_end, floor_fraction, total, samples):
    p = np.linspace(0.0, 1.0, samples)
    return np.column_stack([p, gpt3_lr(p * total, peak, warmup, decay_end, floor_fraction) / peak])


def _v3_curve(peak, hold_end, decay, decayed, decayed_hold, final, total, samples):
    p = np.linspace(0.0, 1.0, samples)
    return np.column_stack([p, v3_lr(p * total, peak, hold_end, decay, decayed, decayed_hold, final) / peak])


GPT3_CURVE = derived("lr.gpt3.curve", _gpt3_curve, inputs={**_GPT3_SEG, "total": GPT3_TOKENS, "samples": SAMPLES},
                     unit="(progress, lr ÷ peak)", fmt=lambda v: f"{len(v)} points",
                     formula="gpt3_lr(p · 300B) ÷ peak", measures="GPT-3 175B's schedule on the progress axis")
V3_CURVE = derived("lr.v3.curve", _v3_curve, inputs={**_V3_SEG, "total": V3_TOTAL, "samples": SAMPLES},
                   unit="(progress, lr ÷ peak)", fmt=lambda v: f"{len(v)} points",
                   formula="v3_lr(p · 14.8T) ÷ peak", measures="DeepSeek-V3's schedule on the progress axis")

# What neither school does: decay all the way (「降到零」), in the speaker's word for it.
DECAY_TO_ZERO = chosen("lr.decay_to_zero_over_peak", 0.0, unit="fraction", fmt=lambda v: "零" if v == 0 else f"{v}",
                       measures="final learning rate ÷ peak of a schedule decayed all the way, the one neither sample uses",
                       reason="the notes' own contrast: both samples stop well above it",
                       notes="零", notes_quote="但足以说明「降到零」不是默认做法")

# The inferred "truncate any time" branch: V3's flat segment cut early, then a short decay.
CUT_AT = chosen("lr.v3.ghost_cut_progress", 0.45, unit="fraction", measures="where the ghost branch leaves V3's flat segment",
                reason="any point of the flat segment: the build shows that one can stop there")
CUT_DECAY = chosen("lr.v3.ghost_decay_share", 0.3, unit="fraction", measures="the ghost decay's length ÷ V3's own decay",
                   reason="a short decay, shorter than the real one (illustration)")

# 「余弦：形状依赖终点」: the same cosine planned for a shorter run, drawn as a ghost (no number printed).
GHOST_RUN_SHARE = chosen("lr.gpt3.ghost_run_share", 0.6, unit="fraction",
                         measures="length of the ghost run whose cosine fig-lr-curve Ⓑ draws, as a share of GPT-3's",
                         reason="any clearly shorter run: the whole decay moves with its end (illustration)")

# --- axis ticks ---------------------------------------------------------------------------------------
PROGRESS_TICKS = chosen("lr.axis.progress_ticks", (0.0, 0.25, 0.5, 0.75, 1.0), unit="fraction",
                        item_fmt=lambda v: f"{100 * v:.0f}%", fmt=lambda v: f"{len(v)} ticks",
                        measures="ticks of the training-progress axis", reason="quarters of the run")
FRACTION_TICKS = chosen("lr.axis.fraction_ticks", (0.1, 0.5, 1.0), unit="fraction",
                        item_fmt=lambda v: f"{100 * v:.0f}%", fmt=lambda v: f"{len(v)} ticks",
                        measures="ticks of the lr ÷ peak axis",
                        reason="the 10 % floor, half and the peak; a 0 % label would sit on the 10 % one, and the "
                               "progress axis's 0 % already marks the corner")
PARAM_TICKS = chosen("lr.axis.param_ticks", (1e8, 1e9, 1e10, 1e11), unit="parameters",
                     item_fmt=lambda v: f"{v / 1e9:g}B" if v >= 1e9 else f"{v / 1e6:g}M", fmt=lambda v: f"{len(v)} ticks",
                     measures="ticks of Table 2.1's size axis", reason="decades spanning 125M … 175B")
LR_TICKS = chosen("lr.axis.lr_ticks", (5e-5, 1e-4, 2e-4, 5e-4), unit="", item_fmt="{:.0e}",
                  fmt=lambda v: f"{len(v)} ticks", measures="ticks of Table 2.1's learning-rate axis",
                  reason="round values spanning 0.6e-4 … 6e-4")
# The speaker reads Table 2.1 in units of 10⁻⁴ (「三乘十的负四次方」, 「零点六」): the axis and the two
# ringed rows are drawn in that unit.
LR_UNIT = chosen("lr.axis.lr_unit", 1e-4, unit="", fmt=lambda v: "×" + power_of_ten_label(v),
                 measures="unit of Table 2.1's learning-rate axis and of its ringed rows",
                 reason="the notes read the table in 10⁻⁴: 「三乘十的负四次方」, 「零点六」")
LR_TICKS_IN_UNIT = derived("lr.axis.lr_ticks_e4", lambda ticks, unit: tuple(t / unit for t in ticks),
                           inputs={"ticks": LR_TICKS, "unit": LR_UNIT}, unit="×10⁻⁴", item_fmt="{:g}",
                           fmt=lambda v: f"{len(v)} ticks", formula="lr.axis.lr_ticks ÷ lr.axis.lr_unit",
                           measures="Table 2.1's learning-rate ticks in units of 10⁻⁴")
# name: (what the notes say, the notes' words)
_SAID_IN_UNIT = {"medium": ("3", "三乘十的负四次方"), "175b": ("0.6", "的零点六")}
GPT3_LR_IN_UNIT = {name: derived(f"lr.gpt3.{name}_lr_e4", lambda lr, unit: lr / unit,
                                 inputs={"lr": GPT3_LR[name], "unit": LR_UNIT}, unit="×10⁻⁴", fmt="{:.1f}",
                                 formula=f"gpt3.{name}.lr ÷ lr.axis.lr_unit",
                                 measures=f"peak learning rate of GPT-3 {name} in units of 10⁻⁴",
                                 notes=said, notes_quote=quote)
                   for name, (said, quote) in _SAID_IN_UNIT.items()}

# --- counts the headings say ----------------------------------------------------------------------------
SEGMENT_NAMES = chosen("lr.segment_names", ("升上去", "稳住", "降下来"), unit="", fmt=lambda v: "、".join(v),
                       measures="the schedule's segments as the speaker names them",
                       reason="the notes' 「整条曲线只有三段：升上去、稳住、降下来」", notes_quote="整条曲线只有三段：升上去、稳住、降下来。")
SEGMENT_COUNT = derived("lr.segment_count", lambda names: len(names), inputs={"names": SEGMENT_NAMES}, unit="segments",
                        fmt=zh_count, formula="segments named", measures="segments of the schedule", notes="3",
                        notes_quote="整条曲线只有三段：升上去、稳住、降下来。")
SCHOOL_COUNT = derived("lr.school_count", lambda gpt3, v3: len([gpt3, v3]), inputs={"gpt3": GPT3_CURVE, "v3": V3_CURVE},
                       unit="schedules", fmt=zh_count, formula="schedules drawn (GPT-3, V3)",
                       measures="ways to decay shown", notes="2", notes_quote="怎么降？两个流派。")

