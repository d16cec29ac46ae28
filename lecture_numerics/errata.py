"""讲稿勘误: every place the speaker's notes say a number that the numerics contradict.

Built from the census of the notes (census.py): each numeral read as a ledger key it
disagrees with is an erratum, at its notes line (1-based), with what the notes say, what is
right, why in one sentence, and the key that holds the right value. A quantity whose own
notes value disagrees but whose numeral the census reads elsewhere is listed at its quote.
The presenter window, the deck's notes, the cue sheet, the page and ``ledger.md`` read
:func:`errata`; ``render.py --errata`` prints :func:`errata_text`.
"""

from __future__ import annotations

import re
from typing import Any

from lecture_numerics import load_all
from lecture_numerics.census import Reading, census
from lecture_numerics.notes import agrees
from lecture_numerics.notes_file import notes_lines, quote_line
from lecture_numerics.provenance import Quantity

# Why, in one sentence the speaker can read before going on stage (key → sentence). A key
# without one here says the first sentence of its ledger note.
WHY: dict[str, str] = {
    "act.v3.no_recompute_tib": "4.15 TiB 是把 61 层都当 MoE 层算的；V3 前 3 层是稠密层，按配置是 4.07 TiB（fig-act-bill 的标题）。",
    "flops.v3.real_over_6nd_128k": "128K 上真实算力是 6ND 的 5.4 倍 —— 第五节自己说的是「五到六倍」，不是六倍。",
    "spoken.hold_still_chars": "「按住不动」是四个字。",
    "scenario.seq_len_128k": "128K 是 2¹⁷ = 131,072 个 token，念「十二万八千」少了 2.4%；直接说「128K」。",
    "per_byte.gpt3_with_v3_slope_error_tokens": "把 V3 的斜率套到 GPT-3 上，交点从 12.3K 挪到 9.8K：差 2.5K，不是四千。",
    "spoken.optimizer_state_growth_years": "图上状态从动量（1964）一路加到 AdamW（2017），是五十多年，不是三十年。",
    "updratio.loss_jitter_trend_ratio": "「近十倍」是每步 loss 变化之比（8.5×），那大半是下降本身；扣掉趋势，刚好那条几乎不抖，"
                                        "太大那条的抖动至少是它的几千倍 —— 说「抖动大了几千倍」。",
    "updratio.nan_multiplier": "图上那次 400 步的试跑，学习率再乘约 1.5（1.52–1.55，看求和顺序）就开始出 NaN；"
                              "2.1 是另一次 200 步二分的落点，1.5 到 2.4 之间有限和 NaN 交错 —— 说「再乘一点五左右就 NaN」。",
    "step.halfway_coefficient": "ln 2 ÷ 1.9 = 0.365，两位是 0.36；0.37 是把 ln 2 取成 0.7 算的。"
                                "0.36 × 1000 = 360 只是近似，第三行的 364 是同一条公式的精确值。",
    "lr.v3.final_over_peak": "落在峰值 10% 的是两派余弦段的终点；V3 之后最后 167B token 跑在 3.3%"
                             " —— 说「两派余弦段的终点」。",
    "optim.adam.beta2": "Adam 默认的 β₂ 是 0.999（GPT-3 用 0.95），不是 0.99。",
    "spoken.adam_beta2_window": "默认 β₂ = 0.999 的窗口约一千步；一百步是 β₂ = 0.99 的窗口。",
    "lora.7b.lora_gib": "按 PEFT 默认（r = 8，挂在 q、v 上）是 12.6 GiB；12.7 要两倍的适配器参数。",
    "precision.bf16.spacing_at_1": "bf16 在 1 附近一格是 1/128（0.0078，第三节自己说的）；1/256 是半格，也就是舍入的门槛。",
    "spike.skipped_batches": "PaLM §5.1 写的是约 200–500 批，「两三百」只是下半段。",
    "precision.adds_to_one_spacing": "2⁻⁷ ÷ 0.0003 = 26.04：加 26 次是 0.0078，差一点够不到 0.0078125 那一格，要 27 次。",
    "stability.runs": "ST-MoE 那张表基线跑了 6 次，另两行各 3 次，不是都跑三次。",
}

# Words after a numeral that belong to what it says (4.15 TiB, 六倍, 三个字, 十二字节).
_SUFFIX = re.compile(r"\s?(?:TiB|GiB|GB|G\b|K|%|倍|年|步|个字|字节|批|次|位|层|条)")
_UNITS_SHOWN = {"TiB": " TiB", "GiB": " GiB", "GB": " GB", "tokens": " tokens"}


def _suffix(reading: Reading) -> str:
    line = notes_lines()[reading.numeral.line - 1]
    m = _SUFFIX.match(line, reading.numeral.end)
    return m.group().strip() if m else ""


def _right(q: Quantity, suffix: str) -> str:
    display = q.display
    if q.unit in _UNITS_SHOWN:
        return display + _UNITS_SHOWN[q.unit]
    if suffix and not display.endswith(("×", "%")):
        return f"{display} {suffix}" if display[-1:].isdigit() and not suffix[0].isascii() else display + suffix
    return display


def _why(q: Quantity, fallback: str) -> str:
    if q.key in WHY:
        return WHY[q.key]
    head = re.split(r"(?<=[.;。；])\s|(?<=[。；])", (fallback or q.note).strip(), maxsplit=1)[0]
    return head.rstrip(" ;；")


def _from_reading(r: Reading, registry: dict[str, Quantity]) -> dict[str, Any]:
    q = registry[r.key]
    suffix = _suffix(r)
    words = r.numeral.text                   # as the speaker says it: 十分之一, 零点三七
    said = words if not suffix else f"{words} {suffix}" if suffix.isascii() else words + suffix
    return {"line": r.numeral.line, "said": said, "right": _right(q, suffix), "why": _why(q, r.why), "key": q.key}


def _from_quantity(q: Quantity) -> dict[str, Any] | None:
    """A disagreeing quantity the census does not read: at its quote's line."""
    line = quote_line(q.notes_quote, prefer=str(q.notes))
    if line is None:
        return None
    return {"line": line, "said": str(q.notes), "right": _right(q, ""), "why": _why(q, q.note), "key": q.key}


def errata() -> list[dict[str, Any]]:
    """Every erratum, in the order of the notes."""
    registry = load_all()
    readings, _ = census()
    found = [_from_reading(r, registry) for r in readings if r.verdict == "disagrees"]
    read_keys = {e["key"] for e in found}
    for q in registry.values():
        if q.key not in read_keys and q.notes is not None and agrees(q.value, q.notes, q.unit, q.display) is False:
            erratum = _from_quantity(q)
            if erratum is not None:
                found.append(erratum)
    return sorted(found, key=lambda e: (e["line"], e["key"]))


def errata_text() -> str:
    """A plain listing, one erratum a line: "L123  讲稿：4.15 TiB  →  应为 4.07 TiB  （why）"."""
    rows = [f"L{e['line']}  讲稿：{e['said']}  →  应为 {e['right']}  （{e['why']}）  [{e['key']}]" for e in errata()]
    return "\n".join(rows) if rows else "讲稿勘误：无"


__all__ = ["WHY", "errata", "errata_text"]
