"""Looked-up training recipes (GPT-3, DeepSeek-V3, PaLM) and the small numbers derived from
them that the notes quote (fig-lr-curve, fig-optimizers, fig-lineage)."""

from __future__ import annotations

from lecture_numerics.bill import OPTIMIZER_TIB, WEIGHTS_TIB
from lecture_numerics.optim import BETA1
from lecture_numerics.provenance import chosen, derived, sourced

GPT3_PAPER = 'Brown et al. 2020, "Language Models are Few-Shot Learners"'
GPT3_T21 = f"{GPT3_PAPER}, Table 2.1"
GPT3_APPENDIX_B = f"{GPT3_PAPER}, Appendix B"
V3_REPORT = "DeepSeek-V3 technical report (arXiv 2412.19437), §4.2"
PALM = "Chowdhery et al. 2022, PaLM, §5"

# --- GPT-3: Table 2.1 learning rates and batch sizes -----------------------------------------

_GPT3_ROWS = {  # key: (parameters, learning rate, batch in tokens)
    "small": (125e6, 6.0e-4, 0.5e6), "medium": (350e6, 3.0e-4, 0.5e6), "large": (760e6, 2.5e-4, 0.5e6),
    "xl": (1.3e9, 2.0e-4, 1e6), "2p7b": (2.7e9, 1.6e-4, 1e6), "6p7b": (6.7e9, 1.2e-4, 2e6),
    "13b": (13.0e9, 1.0e-4, 2e6), "175b": (175.0e9, 0.6e-4, 3.2e6),
}
GPT3_LR = {name: sourced(f"gpt3.{name}.lr", lr, unit="", fmt="{:.1e}", citation=f"{GPT3_T21}, learning rate",
                         measures=f"peak learning rate of GPT-3 {name}")
           for name, (_, lr, _) in _GPT3_ROWS.items()}
GPT3_PARAMS = {name: sourced(f"gpt3.{name}.params", n, unit="parameters", fmt=lambda v: f"{v / 1e9:g}B" if v >= 1e9 else f"{v / 1e6:g}M",
                             citation=f"{GPT3_T21}, n_params", measures=f"GPT-3 {name} parameters")
               for name, (n, _, _) in _GPT3_ROWS.items()}
GPT3_BATCH = {name: sourced(f"gpt3.{name}.batch_tokens", b, unit="tokens", fmt=lambda v: f"{v / 1e6:g}M",
                            citation=f"{GPT3_T21}, batch size", measures=f"GPT-3 {name} batch")
              for name, (_, _, b) in _GPT3_ROWS.items()}

# The size and learning-rate ratios between GPT-3 Medium and 175B are lr.gpt3.* in lr_schedules.py.

GPT3_WARMUP = sourced("gpt3.warmup_tokens", 375e6, unit="tokens", fmt=lambda v: f"{v / 1e6:.0f}M",
                      measures="GPT-3 linear warmup length", citation=GPT3_APPENDIX_B)
GPT3_TOKENS = sourced("gpt3.train_tokens", 300e9, unit="tokens", fmt=lambda v: f"{v / 1e9:.0f}B",
                      measures="tokens every GPT-3 model was trained on", citation=f"{GPT3_T21} caption")
GPT3_DECAY = sourced("gpt3.decay_tokens", 260e9, unit="tokens", fmt=lambda v: f"{v / 1e9:.0f}B",
                     measures="GPT-3 cosine decay length", citation=GPT3_APPENDIX_B)
GPT3_FINAL = sourced("gpt3.final_lr_fraction", 0.1, unit="fraction", fmt=lambda v: f"{100 * v:.0f}%",
                     measures="GPT-3 learning rate after the cosine decay, as a fraction of the peak",
                     citation=GPT3_APPENDIX_B)
GPT3_BETA2 = sourced("gpt3.adam_beta2", 0.95, unit="", measures="GPT-3 Adam β2", citation=GPT3_APPENDIX_B)
# GPT-3's warmup share is lr.gpt3.warmup_share in lr_schedules.py.

# --- DeepSeek-V3 schedule ------------------------------------------------------------------------

V3_PEAK_LR = sourced("v3.peak_lr", 2.2e-4, unit="", fmt="{:.1e}", citation=V3_REPORT,
                     measures="DeepSeek-V3 peak learning rate")
V3_WARMUP_STEPS = sourced("v3.warmup_steps", 2000, unit="steps", citation=V3_REPORT,
                          measures="DeepSeek-V3 linear warmup")
V3_HOLD_TOKENS = sourced("v3.hold_until_tokens", 10e12, unit="tokens", fmt=lambda v: f"{v / 1e12:.0f}T",
                         citation=V3_REPORT, measures="tokens trained at the constant peak before decay")
V3_DECAY_TOKENS = sourced("v3.decay_tokens", 4.3e12, unit="tokens", fmt=lambda v: f"{v / 1e12:.1f}T",
                          citation=V3_REPORT, measures="length of V3's cosine decay")
V3_DECAYED_LR = sourced("v3.decayed_lr", 2.2e-5, unit="", fmt="{:.1e}", citation=V3_REPORT,
                        measures="V3 learning rate at the end of the cosine decay (held for 333B tokens)")
V3_FINAL_LR = sourced("v3.final_lr", 7.3e-6, unit="", fmt="{:.1e}", citation=V3_REPORT,
                      measures="V3 learning rate for the last 167B tokens")
V3_DECAY_FRACTION = derived(
    "v3.decayed_lr_fraction", lambda decayed, peak: decayed / peak,
    inputs={"decayed": V3_DECAYED_LR, "peak": V3_PEAK_LR}, unit="fraction", fmt=lambda v: f"{100 * v:.0f}%",
    formula="lr after cosine decay ÷ peak lr", measures="where V3's decay lands relative to its peak",
    notes_quote="两派的终点，都落在峰值的十分之一附近。")

# --- moving-average windows ------------------------------------------------------------------------

BETA1_WINDOW = derived(
    "optim.beta1_window", lambda beta1: 1 / (1 - beta1), inputs={"beta1": BETA1}, unit="steps",
    fmt="{:.0f}", formula="1 ÷ (1 − β1)", measures="effective window of Adam's first moment",
    notes="10", notes_quote="β₁ 等于 0.9，窗口约十步 —— 它只负责把方向的抖动抹平。")
PALM_PROBE = chosen("palm.probe_step", 100_000, unit="steps", measures="step at which PaLM's β2 window is read",
                    reason="the step the notes read PaLM's window at", notes="十万",
                    notes_quote="到十万步的时候窗口能到一万步。")
PALM_EXPONENT = sourced("palm.beta2_exponent", 0.8, unit="", measures="exponent in PaLM's β2 = 1 − k^(−0.8)",
                        citation=PALM)
PALM_WINDOW = derived(
    "palm.beta2_window_100k", lambda step, exponent: 1 / (step ** -exponent), inputs={"step": PALM_PROBE,
                                                                                       "exponent": PALM_EXPONENT},
    unit="steps", fmt="{:,.0f}", formula="1 ÷ (1 − β2) with β2 = 1 − k^(−0.8), at k = 100,000",
    measures="window of PaLM's second moment at step 100K", notes="10000",
    notes_quote="PaLM 让 β₂ 随步数变，越往后窗口越长 —— 到十万步的时候窗口能到一万步。")

# --- bill ratios the notes say aloud -----------------------------------------------------------------

OPTIMIZER_OVER_WEIGHTS = derived(
    "bill.v3.optimizer_over_weights", lambda optimizer, weights: optimizer / weights,
    inputs={"optimizer": OPTIMIZER_TIB, "weights": WEIGHTS_TIB}, unit="×", fmt="{:.0f}×",
    formula="optimizer state ÷ weights (12 B ÷ 2 B per parameter)", measures="how much bigger the optimizer is",
    notes="6", notes_quote="权重占 1.22 TiB，优化器状态占 7.32 TiB —— 六倍。")
CHECKPOINT_TIB = derived(
    "bill.v3.checkpoint_tib", lambda optimizer: optimizer, inputs={"optimizer": OPTIMIZER_TIB}, unit="TiB",
    fmt="{:.1f}", formula="fp32 master + m + v = bill.v3.optimizer_tib (bf16 weights and gradients are rebuilt)",
    measures="size of one V3 checkpoint's model states", notes="7.3",
    notes_quote="所以 checkpoint 的大小，正好就是那十二字节。 671B 的模型，一份七点三个 TiB。")

# --- history ------------------------------------------------------------------------------------

ADAGRAD_CITE = ('Duchi, Hazan & Singer, "Adaptive Subgradient Methods for Online Learning and Stochastic '
                'Optimization", JMLR 12 (2011) 2121–2159')
ADAGRAD_FIRST = sourced("history.adagrad.first_page", 2121, unit="", citation=ADAGRAD_CITE,
                        measures="first page of the AdaGrad paper")
ADAGRAD_LAST = sourced("history.adagrad.last_page", 2159, unit="", citation=ADAGRAD_CITE,
                       measures="last page of the AdaGrad paper")
ADAGRAD_PAGES = derived(
    "history.adagrad.pages", lambda first, last: last - first + 1,
    inputs={"first": ADAGRAD_FIRST, "last": ADAGRAD_LAST}, unit="pages", fmt="{}",
    formula="last page − first page + 1", measures="length of the AdaGrad paper",
    notes="39", notes_quote="AdaGrad：正经的 JMLR 长文，整整三十九页。")
POLYAK_YEAR = sourced("history.polyak.year", 1964, unit="", measures="year of Polyak's heavy-ball paper",
                      citation="Polyak 1964, USSR Comput. Math. Math. Phys. 4(5) 1–17")
BACKPROP_YEAR = sourced("history.backprop_nature.year", 1986, unit="",
                        measures="year of the backpropagation paper in Nature",
                        citation="Rumelhart, Hinton & Williams 1986, Nature 323, 533–536")
POLYAK_LEAD = derived(
    "history.polyak_lead_years", lambda backprop, polyak: backprop - polyak,
    inputs={"backprop": BACKPROP_YEAR, "polyak": POLYAK_YEAR}, unit="years", fmt="{}",
    formula="1986 − 1964", measures="how much older momentum is than the backprop Nature paper",
    notes="22", notes_quote="一九六四年。 …… 比反向传播那篇 Nature 论文还早二十二年。")
