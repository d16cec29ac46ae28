"""Numbers the speaker says that no figure shows (只在讲稿里), derived or sourced like any other.

The census of the notes (census.py) reads each of them as one of these keys; the ledger lists
them with the mark 只在讲稿里. A few are the speaker's own examples (示例取值); the rest are
computed from quantities the figures already use, or looked up.
"""

from __future__ import annotations

from lecture_numerics import bill, lora, lr_schedules, optim, optimizer_state, recompute, schedule
from lecture_numerics import slider, stability, threex
from lecture_numerics.models import GPT3_CONTEXT
from lecture_numerics.provenance import chosen, derived, sourced, speakers_example
from lecture_numerics.zh import zh_count

SECONDS_PER_YEAR = 365.25 * 24 * 3600

# ---- 第一节: the naive gradient, the chain, the trips ------------------------------------------

FORWARD_SECONDS = speakers_example(
    "spoken.forward_seconds", 1, unit="s", measures="how long the speaker lets one forward pass take",
    notes="一", notes_quote="一次前向按一秒算，跑完要将近一万年。")
FINITE_DIFFERENCE_YEARS = derived(
    "spoken.finite_difference_years", lambda faders, seconds: faders * seconds / SECONDS_PER_YEAR,
    inputs={"faders": slider.desk_faders, "seconds": FORWARD_SECONDS}, unit="years", fmt="{:,.0f}",
    formula="parameters × one forward each × seconds per forward ÷ (365.25 × 86400 s per year)",
    measures="wall time of one finite-difference gradient: one forward pass per parameter",
    notes="将近一万", notes_quote="一次前向按一秒算，跑完要将近一万年。")
HOLD_STILL = "按住不动"
HOLD_STILL_WORDS = speakers_example(
    "spoken.hold_still_words", HOLD_STILL, unit="", measures="the words the notes give for 偏 (partial)",
    notes_quote="就三个字：按住不动。")
HOLD_STILL_CHARS = derived(
    "spoken.hold_still_chars", lambda words: len(words), inputs={"words": HOLD_STILL_WORDS}, unit="characters",
    fmt=zh_count,
    formula=f"len(「{HOLD_STILL}」)", measures="characters in the words the notes give for 偏 (partial)",
    notes="三", notes_quote="那「偏导数」的「偏」是什么意思？就三个字：按住不动。",
    note=f"「{HOLD_STILL}」 has four characters, not three")
GPT3_CONTEXT_K = derived(
    "spoken.gpt3_context_k", lambda tokens: tokens / 1024, inputs={"tokens": GPT3_CONTEXT}, unit="Ki tokens",
    fmt=lambda v: f"{v:g}K", formula="context tokens ÷ 1024", measures="GPT-3's sequence length, named in K")
ALLREDUCE_EXAMPLE = speakers_example(
    "spoken.allreduce_example_sequences", 1000, unit="sequences",
    measures="the batch the speaker compares with one sequence: the all-reduce moves the same bytes",
    notes="一千", notes_quote="你喂一条序列和喂一千条，传的是同样多的字节。")

# ---- 第三节: the sixteen bytes, Adam, the lineage ----------------------------------------------

_RULER = optimizer_state.RULER
BILL_ITEMS = derived(
    "spoken.bill_items_per_param", lambda **parts: len(parts), inputs={name: q for name, q, _ in _RULER},
    unit="items", fmt=zh_count, formula="count of the ruler's segments: weights, gradients, master, m, v",
    measures="the items the 16 bytes per parameter are made of",
    notes="五", notes_quote="16 字节是哪五样")
FP32_COPIES = derived(
    "spoken.fp32_copies", lambda optimizer, fp32: optimizer // fp32,
    inputs={"optimizer": optimizer_state.OPTIMIZER_SUM, "fp32": optimizer_state.MASTER_BYTES}, unit="copies",
    fmt=zh_count, formula="optimizer bytes per parameter ÷ 4 bytes per fp32 copy",
    measures="fp32 copies the optimizer keeps per parameter (master, m, v)",
    notes="三", notes_quote="再加十二字节 fp32 的三份： 主权重、动量、二阶矩。")
CHECKPOINT_MODEL_SHARE = derived(
    "spoken.checkpoint_model_share", lambda master, optimizer: master / optimizer,
    inputs={"master": optimizer_state.MASTER_BYTES, "optimizer": optimizer_state.OPTIMIZER_SUM}, unit="fraction",
    fmt=lambda v: f"{v:.2f}", formula="fp32 master bytes ÷ the 12 bytes a checkpoint stores per parameter",
    measures="the model's own share of a training checkpoint",
    notes="三分之一", notes_quote="它存的不是模型，是优化器。模型本身只占三分之一。")
FROZEN_SAVED = derived(
    "spoken.frozen_bytes_saved", lambda total, weights: total - weights,
    inputs={"total": optimizer_state.PER_PARAM_TOTAL, "weights": bill.WEIGHT_BYTES}, unit="B/param", fmt="{}",
    formula="16 bytes per parameter − the 2 bytes of bf16 weights a frozen parameter keeps",
    measures="bytes per parameter only a trained parameter needs",
    notes="十四", notes_quote="因为那十六字节里，有十四字节是「只有要被更新的参数才需要」的。")
LORA_SAVING = derived(
    "spoken.lora_saving_ratio", lambda full, adapted: full / adapted,
    inputs={"full": lora.FULL, "adapted": lora.LORA}, unit="×", fmt="{:.1f}×",
    formula="full fine-tuning GiB ÷ LoRA GiB (7B)", measures="how many times less LoRA keeps than full fine-tuning",
    notes="将近八", notes_quote="全量微调要一百 G，LoRA 只要十二点七 G —— 差了将近八倍。")
LORA_BACKWARD = derived(
    "spoken.lora_backward_matmuls", lambda backward: backward - 1,
    inputs={"backward": threex.BACKWARD_MATMULS}, unit="multiplies", fmt="{}",
    formula="backward multiplies − the weight-gradient one a frozen weight skips",
    measures="backward multiplies per frozen layer (only the input gradient)",
    notes="一", notes_quote="所以前向一，反向只剩一 —— 三倍变两倍。")
LORA_TRAIN_OVER_INFERENCE = derived(
    "spoken.lora_train_over_inference", lambda forward, backward: (forward + backward) / forward,
    inputs={"forward": threex.FORWARD_MATMULS, "backward": LORA_BACKWARD}, unit="×", fmt="{:g}",
    formula="(forward + frozen backward) ÷ forward", measures="training cost over inference with frozen weights",
    notes="两", notes_quote="所以前向一，反向只剩一 —— 三倍变两倍。")
_YEARS = optimizer_state.YEARS
STATE_GROWTH_YEARS = derived(
    "spoken.optimizer_state_growth_years", lambda momentum, adamw: adamw - momentum,
    inputs={"momentum": _YEARS["momentum"], "adamw": _YEARS["adamw"]}, unit="years", fmt="{}",
    formula="AdamW's year − momentum's year (fig-optimizers Ⓐ's first and last addition)",
    measures="years over which the lineage kept adding state copies",
    notes="三十", notes_quote="三十年一路往上加 —— 直到 2024 年，有人往回走了一步。",
    note="the lineage on screen adds state from momentum (1964) to AdamW (2017): 53 years, not thirty")
POLYAK_TO_2024 = derived(
    "spoken.polyak_to_2024_years", lambda polyak, latest: latest - polyak,
    inputs={"polyak": schedule.POLYAK_YEAR, "latest": lr_schedules.WARMUP_PAPER_YEAR}, unit="years", fmt="{}",
    formula="2024 (the latest study the lecture cites) − 1964 (Polyak)",
    measures="years from Polyak's heavy ball to the lecture's most recent source",
    notes="六十", notes_quote="六十年过去了，我们还在他给的那个区间里。")
POLYAK_BETA_LOW = sourced(
    "history.polyak.beta_low", 0.8, unit="", fmt="{:g}", confirmed=False,
    citation="Polyak 1964, \"Some methods of speeding up the convergence of iteration methods\" (USSR Comput. "
             "Math. Math. Phys. 4(5) 1–17, doi 10.1016/0041-5553(64)90137-5); the range the notes attribute to it "
             "was not read there (待核): a search of the stored pages and code found the paper only as references "
             "and summaries (the heavy-ball method and its (√κ − 1)/(√κ + 1) rate), none quoting a range of β",
    measures="bottom of the momentum range the notes attribute to Polyak",
    notes="零点八", notes_quote="Polyak 在一九六四年给的经验取值是零点八到零点九九。")
POLYAK_BETA_HIGH = sourced(
    "history.polyak.beta_high", 0.99, unit="", fmt="{:g}", confirmed=False, citation=POLYAK_BETA_LOW.citation,
    measures="top of the momentum range the notes attribute to Polyak",
    notes="零点九九", notes_quote="Polyak 在一九六四年给的经验取值是零点八到零点九九。")
ADAM_BETA2_WINDOW = derived(
    "spoken.adam_beta2_window", lambda beta2: 1 / (1 - beta2), inputs={"beta2": optim.BETA2}, unit="steps",
    fmt="{:,.0f}", formula="1 ÷ (1 − β₂)", measures="steps Adam's default second moment remembers",
    notes="一百", notes_quote="β₂ 等于 0.99，窗口约一百步。",
    note="Adam's default β₂ is 0.999, a window of about 1,000 steps (GPT-3 used 0.95, about 20)")
PALM_BETA2_100K = derived(
    "spoken.palm_beta2_100k", lambda step, exponent: 1 - step ** -exponent,
    inputs={"step": schedule.PALM_PROBE, "exponent": schedule.PALM_EXPONENT}, unit="", fmt="{:.4f}",
    formula="β₂ = 1 − k^(−0.8) at k = 100,000", measures="PaLM's β₂ at step 100,000",
    notes="0.9999", notes_quote="可 β₂ 一路涨到 0.9999，那个遗忘就慢得快要不遗忘了")

# ---- 历史: the vanishing gradient --------------------------------------------------------------

HOCHREITER_YEAR = sourced(
    "history.hochreiter_thesis.year", 1991, unit="year", fmt="{}",
    citation="Hochreiter 1991, \"Untersuchungen zu dynamischen neuronalen Netzen\", Diplomarbeit, TU München",
    measures="year of the diploma thesis that first analysed vanishing gradients")
BENGIO_YEAR = sourced(
    "history.bengio_1994.year", 1994, unit="year", fmt="{}",
    citation="Bengio, Simard & Frasconi 1994, \"Learning long-term dependencies with gradient descent is "
             "difficult\", IEEE Trans. Neural Networks 5(2)",
    measures="year of the IEEE paper on long-term dependencies")
GRADIENT_FLOW_YEAR = sourced(
    "history.gradient_flow.year", 2001, unit="year", fmt="{}",
    citation="Hochreiter, Bengio, Frasconi & Schmidhuber 2001, \"Gradient flow in recurrent nets: the difficulty "
             "of learning long-term dependencies\", in A Field Guide to Dynamical Recurrent Networks",
    measures="year of the joint chapter")
GRADIENT_FLOW_AUTHORS = sourced(
    "history.gradient_flow.authors", 4, unit="authors", fmt=zh_count, citation=GRADIENT_FLOW_YEAR.citation,
    measures="authors of the joint chapter")
BENGIO_LAG = derived(
    "history.bengio_after_hochreiter_years", lambda thesis, ieee: ieee - thesis,
    inputs={"thesis": HOCHREITER_YEAR, "ieee": BENGIO_YEAR}, unit="years", fmt="{}", formula="1994 − 1991",
    measures="years from the thesis to the IEEE paper")
REUNION_YEARS = derived(
    "history.gradient_flow_after_thesis_years", lambda thesis, chapter: chapter - thesis,
    inputs={"thesis": HOCHREITER_YEAR, "chapter": GRADIENT_FLOW_YEAR}, unit="years", fmt="{}",
    formula="2001 − 1991", measures="years from the first finding to the joint chapter")
TIME_LAG_STEPS = sourced(
    "history.rnn_time_lag_steps", 1000, unit="steps", fmt="{}",
    citation="Hochreiter & Schmidhuber 1997, \"Long Short-Term Memory\", Neural Computation 9(8) 1735–1780, "
             "abstract (read, in the scilit.net record of doi 10.1162/neco.1997.9.8.1735): \"LSTM can learn to "
             "bridge minimal time lags in excess of 1000 discrete-time steps\"",
    measures="time span of the era's long-dependency experiments, in steps (= layers unrolled)",
    notes="一千", notes_quote="当年那批实验的时间跨度是一千步，换算过来就是一千层。")

# ---- 第二节, 第五节: papers, sequences, runs -------------------------------------------------

KORTHIKANTI_YEAR = sourced(
    "recompute.korthikanti.year", 2022, unit="year", fmt="{}",
    citation=f"{recompute.KORTHIKANTI}, arXiv 2205.05198 (May 2022)",
    measures="year of the selective-recompute paper")


def _row(key: str, tuple_quantity, index: int, measures: str, unit: str, fmt):
    return derived(key, lambda rows: rows[index], inputs={"rows": tuple_quantity}, unit=unit, fmt=fmt,
                   formula=f"{tuple_quantity.key}[{index}] (row {stability.ROWS[index]})", measures=measures)


def _signed(v: float) -> str:
    return f"{v:.3f}".replace("-", "−")


ST_MOE_ROWS = {
    **{f"stability.{name}.runs": _row(f"stability.{name}.runs", stability.RUNS, i, f"seeds run, {label}", "runs",
                                      "{}")
       for i, (name, label) in enumerate((("baseline", "baseline"), ("clipping", "update clipping"),
                                          ("zloss", "router z-loss")))},
    **{f"stability.{name}.stable_runs": _row(f"stability.{name}.stable_runs", stability.STABLE, i,
                                             f"stable runs, {label}", "runs", "{}")
       for i, (name, label) in enumerate((("baseline", "baseline"), ("clipping", "update clipping"),
                                          ("zloss", "router z-loss")))},
    **{f"stability.{name}.quality": _row(f"stability.{name}.quality", stability.QUALITY, i,
                                         f"quality (neg. log perplexity), {label}", "neg. log perplexity", _signed)
       for i, (name, label) in enumerate((("baseline", "baseline"), ("clipping", "update clipping"),
                                          ("zloss", "router z-loss")))},
}


# --- fig-onelr Ⓐ's wording (a notes-only key, no figure draws it) ---------------------------------------
ONELR_BOUNCE_AXIS = chosen(
    "spoken.onelr_bounce_axis", "上下来回弹", unit="", fmt="{}",
    measures="which way blue's zigzag bounces in fig-onelr Ⓐ, as the speaker should name it",
    reason="fig-onelr draws the steep parameter vertical, as the notes' own cue fixes it (「竖着弹的是陡的那个参数，"
           "横着爬的是平的那个」): blue's wasted motion is up and down (its bar's part is labelled 竖着弹), and the "
           "next line's 「横向的位移」 is the progress",
    notes="左右横跳", notes_quote="每一步大半的力气，都花在左右横跳上了。",
    note="图上蓝色的锯齿是竖着弹（陡的那个参数）；横着的那一小段才是前进。「左右横跳」把方向说反了。")
