"""fig-stability: ST-MoE's stability table (both columns), and the numbers derived from it.

The table (Zoph et al. 2022, ST-MoE, the router z-loss table of §3) could not be read in the
paper itself: the values below are as a transcription of that table gives them, so they are
declared unconfirmed (待核) and are drawn with the mark (once per panel). A later search of
the stored pages and code for the table's own text (its rows and values) again found only that
transcription and summaries of the paper, so the mark stays. Quality is the negative log
perplexity (higher is better); the baseline ran 6 seeds, each variant 3.
"""

from __future__ import annotations


from lecture_numerics.provenance import chosen, derived, sourced
from lecture_numerics.zh import zh_count

STMOE = ("Zoph et al. 2022, ST-MoE (arXiv 2202.08906), §3, the router z-loss table (Baseline / Update "
         "clipping (clip = 0.1) / Router Z-Loss); read only in a transcription "
         "(MaoSong2022.github.io, content/post/ST-MoE/index.md), not in the paper: a search of the stored "
         "pages found the paper's overview (alphaxiv.org/overview/2202.08906: the router z-loss and its bfloat16 "
         "motivation) but not the table; a third search (stored pages: the paper's opening at "
         "hf.justhomemaker.com/papers/2202.08906.md, its abstract and contents; code: the strings of the table's "
         "rows and values) again reached only that transcription, whose baseline row 4/6, −1.755 ± 0.02 also "
         "heads its noise table")
ROWS = ("baseline", "update clipping", "router z-loss")


def _minus(v: float) -> str:
    return f"{v:.3f}".replace("-", "−")


SOURCE = sourced(
    "stability.table_source", "ST-MoE", unit="", fmt="{}", citation=STMOE, confirmed=False,
    measures="the paper whose stability table fig-stability Ⓒ draws, named over the table; unconfirmed like every "
             "cell of it, so the table's header carries the 待核 mark for all of them")
RUNS = sourced(
    "stability.runs", (6, 3, 3), unit="runs", fmt=lambda v: " / ".join(map(str, v)), item_fmt="{}", citation=STMOE,
    confirmed=False, measures="seeds run per row: baseline, update clipping, router z-loss",
    notes="三", notes_quote="ST-MoE 那篇论文把这件事量出来了。同一个配置跑三次：",
    note="the table's rows ran 6 seeds (baseline) and 3 each (update clipping, router z-loss), not three each; "
         "the baseline's 4/6 is the stable count the screen shows (待核: read from a transcription of the table)")
STABLE = sourced(
    "stability.stable_runs", (4, 3, 3), unit="runs", fmt=lambda v: " / ".join(map(str, v)), item_fmt="{}",
    citation=STMOE,
    confirmed=False, measures="runs that trained stably, per row")
QUALITY = sourced(
    "stability.quality", (-1.755, -4.206, -1.741), unit="neg. log perplexity", item_fmt=_minus,
    fmt=lambda v: " / ".join(map(_minus, v)), citation=STMOE, confirmed=False,
    measures="quality per row (negative log perplexity, higher is better)")
QUALITY_ERR = sourced(
    "stability.quality_err", (0.02, 0.17, 0.02), unit="neg. log perplexity", item_fmt="± {:.2f}",
    fmt=lambda v: " / ".join(f"± {x:.2f}" for x in v), citation=STMOE, confirmed=False,
    measures="± on each row's quality")
CLIP = sourced("stability.update_clip", 0.1, unit="", fmt="{:.1f}", citation=STMOE, confirmed=False,
               measures="update clipping threshold of the middle row")

BASELINE_CRASHES = derived(
    "stability.baseline_crashes", lambda runs, stable: runs[0] - stable[0], inputs={"runs": RUNS, "stable": STABLE},
    unit="runs", fmt=zh_count, formula="runs − stable runs, baseline row (6 − 4)",
    measures="crashed runs in ST-MoE's baseline row",
    note="The notes say 同一个配置跑三次 for the whole table; the baseline ran 6 seeds, the variants 3.",
    notes="两", notes_quote="基线，六次里崩两次，质量负一点七五五。")
ZLOSS_GAIN = derived(
    "stability.zloss_gain", lambda q: q[2] - q[0], inputs={"q": QUALITY}, unit="neg. log perplexity",
    fmt=lambda v: f"{v:+.3f}", formula="quality(router z-loss) − quality(baseline)",
    measures="how much better the z-loss row's quality is than the baseline's",
    note="+0.014, inside the ± 0.02 of both rows: 不比基线差 rather than 还略好一点.",
    notes_quote="router z-loss —— 也是三次全稳，质量负一点七四一，还略好一点。")
CLIP_LOSS = derived(
    "stability.clipping_quality_change", lambda q: q[1] - q[0], inputs={"q": QUALITY}, unit="neg. log perplexity",
    fmt=lambda v: f"{v:+.3f}".replace("-", "−"), formula="quality(update clipping) − quality(baseline)",
    measures="quality given up by the tighter update clipping")
ZLOSS_WITHIN_ERROR = derived(
    "stability.zloss_within_error", lambda q, err: bool(abs(q[2] - q[0]) < min(err[0], err[2])),
    inputs={"q": QUALITY, "err": QUALITY_ERR}, unit="", fmt=lambda v: "不比基线差" if v else "还略好",
    formula="|quality(z-loss) − quality(baseline)| < ± of both rows",
    measures="whether the z-loss row's gain over the baseline lies inside the error bars",
    note="z-loss 那行比基线只高 +0.014，在两行各自的 ± 0.02 之内：说「不比基线差」，别说「还略好一点」。",
    notes="还略好", notes_quote="router z-loss —— 也是三次全稳，质量负一点七四一，还略好一点。")
GHOST_LR = chosen(
    "stability.ghost_lr", 0.0, unit="", fmt=lambda v: "零" if v == 0 else f"{v:g}",
    measures="learning rate of the ghost row (a run that never moves)",
    reason="the notes' reductio: judged on 稳没稳 alone, a zero learning rate is the best method",
    notes="零", notes_quote="让它稳太容易了 —— 学习率设成零，保证不飞。")
CURE_COLUMNS = chosen("stability.cure_columns", ("治结构", "治数值", "治现场"), unit="", fmt=" / ".join,
                      measures="the columns fig-stability Ⓐ sorts the methods into",
                      reason="the three places a spike can be cured at, as the notes name them")
CURE_KINDS = derived(
    "stability.cure_kinds", lambda columns: len(columns), inputs={"columns": CURE_COLUMNS}, unit="kinds",
    fmt=zh_count, formula="治结构, 治数值, 治现场 (a hand count of the columns)",
    measures="kinds of cure fig-stability Ⓐ sorts the methods into",
    notes="三", notes_quote="知道了这一点，再看治法就有框架了。三类，治的是三个不同的位置。")
