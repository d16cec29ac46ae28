"""讲稿勘误: every place the speaker's notes say a number that the numerics contradict.

Built from the census of the notes (census.py): each numeral read as a ledger key it
disagrees with is an erratum, at its notes line (1-based), with what the notes say, what is
right, why in one sentence, and the key that holds the right value. A quantity whose own
notes value disagrees but whose numeral the census reads elsewhere is listed at its quote.

Two kinds of erratum, decided for every entry by :func:`kind_of`:

- **改口** (say it differently): the sentence is false as said — a wrong word (优化器状态 where
  the screen compares with the whole 常驻块; 「还略好」 for a gain inside the error bars) — or its
  number, read at the precision it is said with, is not the right value (4.15 TiB for 4.07;
  2.1 for 1.52), and no ground below makes the difference immaterial. A 改口 entry is a live
  instruction: it goes to the presenter's red box, the deck's notes and ``render.py --errata``,
  and carries ``say``, a sentence the speaker can say instead, and ``right``, that sentence's
  number or wording (its headline), true of what the screen shows.
- **细节** (detail): true, but not the numerics to the last digit, on one of the :data:`GROUNDS`:
  备课提示 — the line is the speaker's preparation before the talk (the notes' preamble, before
      the first quoted line), not said to the room;
  称呼 — the numeral is the field's name for the value (128K read as 十二万八千);
  别处成立 — the sentence is true of what the notes tie it to (六十一 = V3's 61 layers), and the
      screen never shows the other count;
  末位 — the number is off by at most one unit of the last place it is said with, and nothing
      the speaker derives from it changes (零点三七 for 0.365, 二十六次 for 26.04 → 27).
  A 末位 ground on a number further off does not hold, and a false claim is 改口 on every ground
  but 备课提示. 细节 entries go to the appendix only (the page's appendix, ``ledger.md``;
  ``render.py --errata --details`` lists them).

The grounds and the sentences are rulings (:data:`RULINGS`, by key), each with its reason;
the kind follows from them by the rule, never from a per-entry verdict. :func:`errata` lists
every entry with its ``kind``; :func:`corrections` only the 改口, which the presenter window and
the deck's notes read (studio/track/cues.py); ``render.py --errata`` prints :func:`errata_text`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from lecture_numerics import load_all
from lecture_numerics.approx import approximate_span
from lecture_numerics.census import Reading, census
from lecture_numerics.notes import agrees
from lecture_numerics.notes_file import notes_lines, quote_line
from lecture_numerics.provenance import Quantity
from lecture_numerics.zh import as_written_digits

# Why, in one sentence the speaker can read before going on stage (key → sentence). A key
# without one here says the first sentence of its ledger note. The sentence to say instead is
# the ruling's (RULINGS), never here: one place says what to say.
WHY: dict[str, str] = {
    "act.v3.no_recompute_tib": "4.15 TiB 是把 61 层都当 MoE 层算的；V3 前 3 层是稠密层，按配置是 4.07 TiB"
                               " —— fig-act-bill「不开重算」那条标注和 fig-recompute 的「4.07 TiB → 106.75 GiB」写的都是它。",
    "flops.v3.real_over_6nd_128k": "128K 上真实算力是 6ND 的 5.4 倍（整个模型逐层算）；拿 fig-step 上的 82% 直接反推是 "
                                   "1 ÷ (1 − 82.1%) = 5.6 倍（只算一层 MoE，偏高）—— 都在第五节自己说的「五到六倍」里，不是六倍。",
    "spoken.hold_still_chars": "「按住不动」是四个字。",
    "scenario.seq_len_128k": "128K 是 2¹⁷ = 131,072 个 token，比十二万八千多 2.4%；29 PFLOP 和九十四条都按 2¹⁷ 算。",
    "per_byte.gpt3_with_v3_slope_error_tokens": "把 V3 的斜率套到 GPT-3 上，交点从 12.3K 挪到 9.8K：差 2.5K，不是四千。",
    "spoken.optimizer_state_growth_years": "图上状态从动量（1964）一路加到 AdamW（2017），是五十多年，不是三十年。",
    "updratio.loss_jitter_trend_ratio": "「近十倍」是每步 loss 变化之比（8.5×），那大半是下降本身，不是抖动；扣掉趋势，"
                                        "刚好那条几乎不抖，两者之比随去趋势的阶数（1 到 4）从 651× 变到 748,283×，没有一个站得住的倍数；屏幕上只标太大那条自己的抖动幅度，不给倍数。",
    "updratio.nan_multiplier": "图上那次 400 步的试跑，学习率再乘 1.52 就开始出 NaN（1.52–1.55，看求和顺序）；"
                               "2.1 是另一次 200 步二分的落点，1.5 到 2.4 之间有限和 NaN 交错，1.6 上反而跑得完。",
    "step.halfway_coefficient": "ln 2 ÷ 1.9 = 0.3648，两位是 0.36（屏幕写 0.36）；0.37 是把 ln 2 取成 0.7 算的。",
    "lr.v3.final_over_peak": "落在峰值 10% 的是两派余弦段的终点；V3 余弦段之后还有两截，最后 167B token 跑在峰值的 3.3%，"
                             "所以「两派的终点」对 V3 不成立。",
    "optim.adam.beta2": "Adam 默认的 β₂ 是 0.999（GPT-3 用 0.95），不是 0.99。",
    "spoken.adam_beta2_window": "默认 β₂ = 0.999 的窗口约一千步；一百步是 β₂ = 0.99 的窗口。",
    "lora.7b.lora_gib": "按 PEFT 默认（r = 8，挂在 q、v 上）是 12.6 GiB；12.7 要两倍的适配器参数。",
    "precision.bf16.spacing_at_1": "bf16 在 1 附近一格是 1/128（0.0078，第三节自己说的）；1/256 是半格，也就是舍入的门槛。",
    "spike.skipped_batches": "PaLM §5.1 写的是约 200–500 批，「两三百」只是下半段；图上写的是 ~200–500。",
    "precision.adds_to_one_spacing": "2⁻⁷ ÷ 0.0003 = 26.04：加 26 次差一点够不到 0.0078125 那一格，要 27 次（屏幕写「约 26」：台下的粗算，26 块示意条差一点够到那一格）。",
    "lr.warmup_paper.on_adam_variance": "那篇论文（Kalra & Barkeshli 2024）的摘要说 warmup 压倒性的好处是让网络扛得住更大的目标"
                                        "学习率，但没有明说二阶矩那个解释「不是主因」；它还提出用梯度初始化 Adam 的二阶矩，"
                                        "效果和 warmup 相近。",
    "lr.warmup_paper.on_warmup_length": "摘要里没有「拉长没收益」这一条；它说的是：起始学习率选得好，能省下 warmup 步数，"
                                        "有时完全不用 warmup。",
    "circuit.gate_repeats": "那张账单（一条 128K 序列、不开重算，4.07 TiB）存着约 2.2×10¹² 个 bf16 数，每个都是一个门留下的输入："
                            "是几万亿次；几百亿只是一层的份（÷ 61 层 ≈ 3.7×10¹⁰），屏幕写「× 几万亿次」。",
    "lr.gpt3.table_rows": "GPT-3 的表 2.1 列了八个模型（Small 125M 到 175B）；七个是从 Medium（350M）数起，"
                          "屏幕写「七个规模：350M → 175B（灰点不算）」。",
    "stability.zloss_within_error": "z-loss 那行比基线只高 +0.014，在两行各自的 ± 0.02 之内：看不出更好，也不更差。",
    "stability.runs": "ST-MoE 那张表基线跑了 6 次，另两行各 3 次，不是都跑三次；屏幕写 4/6、3/3、3/3。",
    "onestep.sweep.crossing_against": "Ⓑ 那条平线是整个常驻块（权重 + 梯度 + 优化器状态，9.76 TiB），九十四条追平的是它；"
                                      "只和优化器状态（7.32 TiB）比，约七十一条就追平了 —— 比九十四条早。",
    "vanish.rate_gap_zh": "零点八和一点二之间差四成；各离一才是两成（图上写「各离 1 两成」）。",
    "vanish.numbers_multiplied": "图上那条链是起点的 1 乘上 59 个兑换率，共六十个数（输入端的 1.9×10⁻⁶ 正是 0.8⁵⁹）。",
    "gradlife.stops_worked_on": "五道里四道各有省法（省显存 / 省通信 / 省时间）；④ 裁剪管的是稳定，图上写「不省：保稳定」。",
    "vote.request_is_minus_seed": "种子是「预测 − 真值」，要求是「真值 − 预测」：方向正好相反（图上写「要求 = −种子」，"
                                  "红箭头都和种子的正负反着指）。",
    "vote.mean_request_is_gradient": "图上投的是「要求」（答案 − 预测），平均起来是梯度的相反数；梯度 = 预测 − 答案（Ⓐ 的种子），"
                                     "Ⓒ 的「梯度」一列就是把平均的箭头翻过来（= −平均）。",
    "spoken.onelr_bounce_axis": "图上蓝色的锯齿是竖着弹（陡的那个参数，fig-onelr 开头的坐标约定「竖着弹的是陡的那个参数」）；"
                                "横着的那一小段才是前进（下一句的「横向的位移」）。「左右横跳」把方向说反了。",
}

KINDS = ("改口", "细节")
SAY_INSTEAD, DETAIL = KINDS

# When a difference is immaterial (细节): each ground, in one sentence (see the module docstring).
GROUNDS: dict[str, str] = {
    "备课提示": "开讲前的备课提示，不对台下说",
    "称呼": "这个念法是这个量在行内的叫法",
    "别处成立": "这句话对讲稿所指的东西成立，屏幕也没画另一个值",
    "末位": "只差所说最后一位的一个单位，后面推出的结论不变",
    "屏幕精度": "屏幕把同一个数多写了一位或换了个写法；按念出来的精度，它是对的",
}

# Said right, drawn at another precision in the beat that says it (the screen/speech check,
# tests/beat_checks.py, finds these beat by beat and fails on one not listed here): the key the
# notes' numeral is read as → (the key the frame draws, why). Each is a 细节 at its line.
SHOWN_OTHERWISE: dict[str, tuple[str, str]] = {
    "act.v3.recompute_saving_ratio": (
        "recompute.activation_shrink",
        "fig-recompute 写「÷39」：4.07 TiB ÷ 106.75 GiB = 39.0；「四十倍」是它的整十说法（改说 4.07 后也一样）。"),
    "recompute.gpt3.crossover_tokens": (
        "recompute.gpt3.crossover_tokens",
        "fig-per-byte 写「交点 12.3K」（12,287）；「一万二」是它的千位说法。同一句的「五千七」和 5.7K 一位不差，"
        "想对齐就念「一万二千三」。"),
    "momentum.crossing.gradient_term": (
        "momentum.crossing.gradient_term", "fig-momentum 写 0.0915，念「零点零九二」是它的三位小数。"),
    "momentum.crossing.momentum_term": (
        "momentum.crossing.momentum_term", "fig-momentum 写 1.3042，念「一点三零四」是它的三位小数。"),
    "momentum.crossing.net": (
        "momentum.crossing.net", "fig-momentum 写 1.2127，念「一点二一三」是它的三位小数；"
                                 "念两位（一点三零 − 零点零九 = 一点二一）屏幕上的减法也对得上。"),
}


@dataclass(frozen=True)
class Ruling:
    """How the errata of one key are judged.

    ``claim``: the sentence is false as said, whatever its digits (a wrong word, a wrong way).
    ``ground`` (one of GROUNDS) and ``because``: why the difference is immaterial (细节).
    ``right``: the headline of a 改口, the number or wording the speaker says instead (default:
    the quantity's display). ``say``: the whole sentence to say instead (default: the notes'
    sentence with what they say replaced by ``right``)."""

    claim: bool = False
    ground: str = ""
    because: str = ""
    right: str = ""
    say: str = ""


RULINGS: dict[str, Ruling] = {
    "vanish.rate_gap_zh": Ruling(
        claim=True, right="离一都只差两成", say="而这两个兑换率 —— 零点八和一点二，离一都只差两成。"),
    "vanish.numbers_multiplied": Ruling(
        ground="别处成立", because="六十一是 V3 的层数（上一句刚说过「穿过六十一层」），对 V3 成立；下一句才换到图上"
                                   "「同一个六十层的网络」，屏幕上没有 61"),
    "scenario.seq_len_128k": Ruling(
        ground="称呼", because="128K 的上下文通常就念「十二万八千」，屏幕写 128K；台上说出口的 29 和九十四都按 2¹⁷ 算过，仍然对"),
    "per_byte.gpt3_with_v3_slope_error_tokens": Ruling(right="两千五"),
    "spoken.optimizer_state_growth_years": Ruling(right="五十多年"),
    "precision.adds_to_one_spacing": Ruling(
        ground="末位", because="这是台下假想的算术：按讲稿自己的一格 0.0078 算正好 26 次，紧接着就被推翻"),
    "updratio.loss_jitter_trend_ratio": Ruling(
        claim=True, right="loss 一直在抖，刚好那条几乎不抖",
        say="⭐ 代价在别处 —— 权重被撑到四倍多，loss 一直在抖，刚好那条几乎不抖；"),
    "updratio.nan_multiplier": Ruling(right="一点五左右"),
    "lr.warmup_paper.on_adam_variance": Ruling(
        claim=True, right="给了另一个解释", say="二〇二四年有一篇专门做系统实验的论文，给了另一个解释。"),
    "lr.warmup_paper.on_warmup_length": Ruling(
        claim=True, right="起始学习率选好，warmup 可以缩短，有时干脆不要",
        say="而且还有一条反直觉的：起始学习率选好，warmup 可以缩短，有时干脆不要。"),
    "lr.gpt3.table_rows": Ruling(
        right="八个规模", say="GPT-3 论文表 2.1 把八个规模一起列了，除去最小的那个是七个：三亿五千万用三乘十的负四次方，"
                             "一路到一百七十五 B 的零点六。"),
    "step.halfway_coefficient": Ruling(
        ground="末位", because="0.3648 几乎落在 0.36 和 0.37 的分界上，两者乘二十五都是九步；364 步是同一条公式的精确值，不靠这个系数"),
    "lr.v3.final_over_peak": Ruling(
        claim=True, right="两派余弦段的终点", say="两派余弦段的终点，都落在峰值的十分之一附近。"),
    "optim.adam.beta2": Ruling(right="0.999", say="β₂ 等于 0.999，窗口约一千步。"),
    "spoken.adam_beta2_window": Ruling(right="一千步", say="β₂ 等于 0.999，窗口约一千步。"),
    "lora.7b.lora_gib": Ruling(
        ground="末位", because="12.7 和 12.6 只差最后一位；一百 G 对十二点几 G，「差了将近八倍」不变"),
    "onestep.sweep.crossing_against": Ruling(claim=True, right="常驻块"),
    "gradlife.stops_worked_on": Ruling(
        claim=True, right="几乎每一道都有人在上面做文章", say="几乎每一道都有人在上面做文章 —— 要么省显存，要么省通信，要么省时间。"),
    "vote.request_is_minus_seed": Ruling(
        claim=True, right="种子反过来", say="⭐ 这就是刚才那颗种子反过来 ——「真值减预测」，换成人话就是这一句。"),
    "vote.mean_request_is_gradient": Ruling(claim=True, right="反过来就是梯度", say="那个平均，反过来就是梯度。"),
    "spoken.onelr_bounce_axis": Ruling(
        claim=True, right="上下来回弹", say="每一步大半的力气，都花在上下来回弹上了。"),
    "precision.bf16.spacing_at_1": Ruling(
        right="一百二十八分之一", say="bf16 那一格大约是一百二十八分之一，挪不到半格（二百五十六分之一）就被舍掉。"),
    "spike.skipped_batches": Ruling(right="两百到五百批"),
    "stability.runs": Ruling(claim=True, right="基线跑了六次，另两种各跑三次",
                             say="同一个配置，基线跑了六次，另两种各跑三次："),
    "stability.zloss_within_error": Ruling(
        claim=True, right="不比基线差", say="router z-loss —— 也是三次全稳，质量负一点七四一，不比基线差。"),
}

# Words after a numeral that belong to what it says (4.15 TiB, 六倍, 三个字, 十二字节).
_SUFFIX = re.compile(r"\s?(?:TiB|GiB|GB|G\b|K|%|倍|年|步|个字|个规模|字节|批|次|位|层|条|成)")
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


# Words before a numeral that belong to what it says (近十倍, 约 1.9), longest first.
_HEDGES = ("将近", "大约", "近", "约")

# ---- the rule ------------------------------------------------------------------------------

_DIGIT_NUMERAL = re.compile(r"^\d+(?:\.\d+)?$")


def last_place(said: str) -> tuple[float, float] | None:
    """The number a numeral says and one unit of its last place: "4.15" → (4.15, 0.01),
    零点三七 → (0.37, 0.01), 二十六 → (26, 1), 十二万八千 → (128000, 1000); None for words that
    are not a plain numeral (两三百, 近十, 几千)."""
    text = said.replace(",", "").strip()
    if approximate_span(text) is not None:
        return None
    if not _DIGIT_NUMERAL.match(text):
        try:
            text = as_written_digits(text)
        except (ValueError, KeyError, IndexError):
            return None
        if not _DIGIT_NUMERAL.match(text):
            return None
    value = float(text)
    if "." in text:
        return value, 10.0 ** -len(text.split(".")[1])
    trailing = len(text) - len(text.rstrip("0")) if text.strip("0") else 0
    return value, 10.0 ** trailing


def within_last_place(said: str, right: Any) -> bool:
    """Whether ``right`` lies within one unit of the last place ``said`` is said with."""
    place = last_place(said)
    try:
        value = float(right)
    except (TypeError, ValueError):
        return False
    return place is not None and abs(place[0] - value) <= place[1] * (1 + 1e-9)


def kind_of(said: str, right: Any, *, claim: bool = False, ground: str = "", preamble: bool = False) -> str:
    """改口 or 细节 for one erratum (the rule of the module docstring).

    ``said``: the numeral as the notes say it (零点三七, 4.15); ``right``: the right value;
    ``claim``: the sentence is false as said; ``ground``: a ruling's ground (GROUNDS);
    ``preamble``: the line is the notes' preparation before the talk."""
    if ground and ground not in GROUNDS:
        raise ValueError(f"unknown ground {ground!r}: one of {', '.join(GROUNDS)}")
    if preamble:
        return DETAIL
    if claim or not ground:
        return SAY_INSTEAD
    if ground in ("末位", "屏幕精度") and not within_last_place(said, right):
        return SAY_INSTEAD
    return DETAIL


@lru_cache(maxsize=2)
def first_spoken_line(lines: tuple[str, ...] | None = None) -> int:
    """The first line said to the room (the first that opens a quote, 「); the lines above it
    are the speaker's preparation (备课提示)."""
    lines = lines if lines is not None else notes_lines()
    return next((n for n, line in enumerate(lines, start=1) if line.lstrip().startswith("「")), 1)


def _sentence(line: str, at: int) -> str:
    """The sentence of ``line`` around column ``at``: from the previous 。？！ to the next one."""
    ends = "。？！"
    start = max((line.rfind(ch, 0, at) for ch in ends), default=-1) + 1
    stops = [i for i in (line.find(ch, at) for ch in ends) if i >= 0]
    stop = min(stops) + 1 if stops else len(line)
    return line[start:stop].strip().lstrip("「").strip()


def _say(line: str, at: int, said_words: str, right: str) -> str:
    """The notes' sentence with what they say replaced by ``right``."""
    sentence = _sentence(line, at)
    spoken = right if right[:1].isascii() else right.strip()
    replaced = re.sub(r"\s*" + re.escape(said_words) + r"\s*",
                      lambda m: (" " if m.group().startswith(" ") and spoken[:1].isascii() else "") + spoken
                      + (" " if m.group().endswith(" ") and spoken[-1:].isascii() else ""), sentence, count=1)
    return replaced


def _entry(q: Quantity, line: int, col: int, said: str, numeral: str, fallback_why: str) -> dict[str, Any]:
    ruling = RULINGS.get(q.key, Ruling())
    suffix = said[len(numeral):].strip()
    preamble = line < first_spoken_line()
    kind = kind_of(numeral, q.value, claim=ruling.claim, ground=ruling.ground, preamble=preamble)
    right = ruling.right or _right(q, suffix)
    text = notes_lines()[line - 1]
    say = ""
    if kind == SAY_INSTEAD:
        say = ruling.say or _say(text, col if col >= 0 else max(text.find(numeral), 0), said.replace(" ", "")
                                 if said.replace(" ", "") in text.replace(" ", "") and said not in text else said, right)
    ground = "备课提示" if preamble else ruling.ground if kind == DETAIL else ""
    why = _why(q, fallback_why)
    if kind == DETAIL:
        why = f"{why}（{ground}：{ruling.because or GROUNDS[ground]}）"
    return {"line": line, "said": said, "right": right, "say": say, "why": why, "key": q.key, "kind": kind,
            "ground": ground}


def _from_reading(r: Reading, registry: dict[str, Quantity]) -> dict[str, Any]:
    q = registry[r.key]
    suffix = _suffix(r)
    words = r.numeral.text                   # as the speaker says it: 十分之一, 零点三七
    said = words if not suffix else f"{words} {suffix}" if suffix.isascii() else words + suffix
    before = notes_lines()[r.numeral.line - 1][:r.numeral.col]
    hedge = next((w for w in _HEDGES if before.endswith(w)), "")   # 近十倍 is said, not 十倍
    return _entry(q, r.numeral.line, r.numeral.col - len(hedge), hedge + said, words, r.why)


def _from_quantity(q: Quantity) -> dict[str, Any] | None:
    """A disagreeing quantity the census does not read: at its quote's line."""
    line = quote_line(q.notes_quote, prefer=str(q.notes))
    if line is None:
        return None
    return _entry(q, line, notes_lines()[line - 1].find(str(q.notes)), str(q.notes), str(q.notes), q.note)


def errata() -> list[dict[str, Any]]:
    """Every erratum, 改口 and 细节, in the order of the notes."""
    registry = load_all()
    readings, _ = census()
    found = [_from_reading(r, registry) for r in readings if r.verdict == "disagrees"]
    read_keys = {e["key"] for e in found}
    found += _shown_otherwise(readings, registry)
    for q in registry.values():
        if q.key not in read_keys and q.notes is not None and agrees(q.value, q.notes, q.unit, q.display) is False:
            erratum = _from_quantity(q)
            if erratum is not None:
                found.append(erratum)
    return sorted(found, key=lambda e: (e["line"], e["key"]))


def _shown_otherwise(readings, registry: dict[str, Quantity]) -> list[dict[str, Any]]:
    """A 细节 for each agreeing reading whose key the screen draws at another precision."""
    found = []
    for r in readings:
        if r.verdict != "agrees" or r.key not in SHOWN_OTHERWISE:
            continue
        drawn_key, why = SHOWN_OTHERWISE[r.key]
        drawn = registry.get(drawn_key)
        if drawn is None:        # the screen no longer draws that key: the screen/speech check says what is
            continue
        kind = kind_of(r.numeral.text, drawn.value, ground="屏幕精度")
        suffix = _suffix(r)
        said = r.numeral.text + (f" {suffix}" if suffix.isascii() and suffix else suffix)
        found.append({"line": r.numeral.line, "said": said, "right": drawn.display, "say": "", "key": drawn_key,
                      "why": f"{why}（屏幕精度：{GROUNDS['屏幕精度']}）", "kind": kind, "ground": "屏幕精度"})
    return found


def is_correction(erratum: dict[str, Any]) -> bool:
    """A 改口 (an entry without a kind, as older cue sheets carry them, counts as one)."""
    return erratum.get("kind", SAY_INSTEAD) == SAY_INSTEAD


def corrections(found: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The 改口 entries: what the presenter's red box and the deck's notes show."""
    return [e for e in (errata() if found is None else found) if is_correction(e)]


def details(found: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The 细节 entries: the appendix only."""
    return [e for e in (errata() if found is None else found) if not is_correction(e)]


def erratum_row(e: dict[str, Any]) -> str:
    """One erratum on one line: "L327  讲稿：4.15 TiB  →  改说 4.07 TiB：「…」  （why）  [key]"."""
    if is_correction(e):
        return f"L{e['line']}  讲稿：{e['said']}  →  改说 {e['right']}：「{e['say']}」  （{e['why']}）  [{e['key']}]"
    return f"L{e['line']}  讲稿：{e['said']}  ·  细节，应为 {e['right']}  （{e['why']}）  [{e['key']}]"


def errata_text(with_details: bool = False) -> str:
    """The speaker's listing, one 改口 a line (``with_details``: then the 细节 under their own heading)."""
    found = errata()
    rows = [erratum_row(e) for e in corrections(found)] or ["讲稿勘误：无"]
    if with_details:
        rows += ["", f"细节（{len(details(found))} 条，只进附录，不用改口）："] + [erratum_row(e) for e in details(found)]
    return "\n".join(rows)


__all__ = ["DETAIL", "GROUNDS", "KINDS", "RULINGS", "Ruling", "SAY_INSTEAD", "SHOWN_OTHERWISE", "WHY", "corrections", "details",
           "errata", "errata_text", "first_spoken_line", "is_correction", "kind_of", "last_place",
           "within_last_place"]
