"""fig-optimizers: the 16 bytes per parameter, and the optimizer lineage counted in state copies.

Ⓑ the ruler is the generic mixed-precision Adam recipe (ZeRO §3.1: 2Ψ + 2Ψ + KΨ, K = 12,
the K split into fp32 master weights, momentum and variance, 4 B each). It is not
DeepSeek-V3's own layout (V3 §3.3.3 keeps m and v in BF16 and the gradients in FP32).

Ⓐ the lineage: each optimizer is written as its state initialiser, and the number of
parameter-sized state tensors it allocates for one parameter tensor is its "state copies".
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from lecture_numerics.bytes_per_param import (GRADIENT_BYTES, MASTER_BYTES, MOMENTUM_BYTES, OPTIMIZER_SUM,
                                              PER_PARAM_TOTAL, RULER, VARIANCE_BYTES, WEIGHT_BYTES)
from lecture_numerics.lineage import YEAR_RMSPROP
from lecture_numerics.models import BF16_BYTES, FP32_BYTES
from lecture_numerics.provenance import chosen, derived, sourced
from lecture_numerics.zh import zh_count, zh_round

NOTES = "lecture-notes.txt, 第三节 fig-optimizers"
_SIX = "权重只占 2，优化器那边占 12 —— 六倍。"

# ---- Ⓑ the 16-byte ruler: its segments and sums are declared once, in bytes_per_param.py ----

OPTIMIZER_OVER_WEIGHTS = derived(
    "bill.optimizer_over_weights", lambda optimizer, weights: optimizer / weights,
    inputs={"optimizer": OPTIMIZER_SUM, "weights": WEIGHT_BYTES}, unit="×", fmt=zh_count,
    formula="optimizer bytes per parameter ÷ weight bytes per parameter",
    measures="how many times the weights' bytes the optimizer keeps (the 「六倍」)",
    notes="六", notes_quote=_SIX)

# ---- Ⓐ the lineage, counted in state copies ---------------------------------------------

StateInit = Callable[[np.ndarray], dict[str, np.ndarray]]


def _zeros(param: np.ndarray, *names: str) -> dict[str, np.ndarray]:
    return {name: np.zeros_like(param) for name in names}


# Each optimizer's state as its update rule needs it (per parameter tensor).
STATE_INITS: dict[str, StateInit] = {
    "sgd": lambda p: {},                                   # θ ← θ − α g
    "momentum": lambda p: _zeros(p, "velocity"),           # u ← μu + g; θ ← θ − α u
    "adagrad": lambda p: _zeros(p, "sum_sq"),              # G ← G + g²; θ ← θ − α g/√G
    "rmsprop": lambda p: _zeros(p, "mean_sq"),             # v ← ρv + (1−ρ)g²; θ ← θ − α g/√v
    "adam": lambda p: {**_zeros(p, "m", "v"), "step": np.zeros(())},   # the step count is a scalar
    "adamw": lambda p: {**_zeros(p, "m", "v"), "step": np.zeros(())},
    "muon": lambda p: _zeros(p, "momentum"),               # B ← μB + G; θ ← θ − α NS5(B) (2-D only)
}
LINEAGE = ("sgd", "momentum", "adagrad", "rmsprop", "adam", "adamw", "muon")


def state_copies(name: str, shape: tuple[int, ...] = (4, 3)) -> int:
    """Parameter-sized state tensors the optimizer allocates for one 2-D parameter."""
    param = np.zeros(shape)
    return sum(1 for t in STATE_INITS[name](param).values() if t.shape == param.shape)


_LINEAGE_QUOTE = "SGD 零份 → 加动量一份 → AdaGrad、RMSProp 各一份 →  Adam 和 AdamW 两份都要。"
_LINEAGE_NOTES = {"sgd": "0", "momentum": "1", "adagrad": "1", "rmsprop": "1", "adam": "2", "adamw": "2"}
# The probe every optimizer's state is allocated for: any 2-D parameter gives the same counts.
PROBE_SHAPE = chosen("optimizers.probe_shape", (4, 3), unit="", fmt=str,
                     measures="shape of the 2-D parameter each optimizer's state is allocated for, to count it",
                     reason="a small matrix that is not square, so a state of another shape could not pass for one")
OPTIMIZER_NAMES = {name: chosen(f"optimizers.name.{name}", name, unit="", fmt="{}",
                                measures=f"the optimizer whose state is counted: {name}",
                                reason="one of the lineage fig-optimizers walks (SGD → … → Muon)")
                   for name in LINEAGE}
STATE_COPIES = {
    name: derived(
        f"optimizers.state_copies.{name}", lambda optimizer, shape: state_copies(optimizer, tuple(shape)),
        inputs={"optimizer": OPTIMIZER_NAMES[name], "shape": PROBE_SHAPE},
        unit="state tensors", fmt="{}",
        formula=f"count of parameter-shaped tensors in STATE_INITS[{name!r}](θ)",
        measures=f"parameter-sized state tensors {name} keeps",
        notes=_LINEAGE_NOTES.get(name, "1" if name == "muon" else None),
        notes_quote=(_LINEAGE_QUOTE if name in _LINEAGE_NOTES else "Muon 把二阶矩那一整份拿掉了，十六字节变十二。"))
    for name in LINEAGE
}
STATE_LEVELS = derived(
    "optimizers.state_levels", lambda **c: tuple(sorted(set(c.values()))),
    inputs={name: STATE_COPIES[name] for name in LINEAGE}, unit="state tensors", fmt=str, item_fmt="{}",
    formula="the distinct state-copy counts of the lineage, sorted (the y-axis levels)",
    measures="levels of the lineage's y-axis 「每个参数挂几份状态」")
MUON_BYTES = derived(
    "bytes.muon_per_param", lambda total, variance: total - variance,
    inputs={"total": PER_PARAM_TOTAL, "variance": VARIANCE_BYTES}, unit="B/param", fmt="{}",
    formula="16-byte ruler − the fp32 v segment",
    measures="bytes per parameter when the optimizer keeps no second moment (Muon, on the matrices it handles)",
    note="Muon handles only 2-D hidden matrices; embeddings and the output head stay on AdamW, "
         "so a whole model saves less than 4 B per parameter.",
    notes="12", notes_quote="Muon 把二阶矩那一整份拿掉了，十六字节变十二。")

# Years whose citation could be read; Muon (a writeup, date not read) stays off screen. RMSProp's
# year is fig-lineage's declaration (the Adam paper's reference to the 2012 lecture), not a copy.
YEARS = {
    "rmsprop": YEAR_RMSPROP,
    "momentum": sourced("optimizers.year.momentum", 1964, unit="year", citation=(
        "Polyak 1964, USSR Comput. Math. Math. Phys. 4(5) 1–17 (sources.md)"),
        measures="publication year of heavy-ball momentum"),
    "adagrad": sourced("optimizers.year.adagrad", 2011, unit="year", citation=(
        "Duchi, Hazan, Singer, JMLR 12 (2011) 2121–2159 (sources.md)"), measures="publication year of AdaGrad"),
    "adam": sourced("optimizers.year.adam", 2014, unit="year", citation=(
        "Kingma & Ba, arXiv 1412.6980 (December 2014; sources.md)"), measures="first arXiv version of Adam"),
    "adamw": sourced("optimizers.year.adamw", 2017, unit="year", citation=(
        "Loshchilov & Hutter, Decoupled Weight Decay Regularization, arXiv 1711.05101 (identifier: "
        "November 2017)"), measures="first arXiv version of AdamW"),
    "muon": sourced("optimizers.year.muon", 2024, unit="year", citation=(
        "K. Jordan et al., Muon: an optimizer for hidden layers in neural networks, "
        "kellerjordan.github.io/posts/muon; year read in KellerJordan/Muon, README.md, § Citation: "
        "\"@misc{jordan2024muon, … title = {Muon: An optimizer for hidden layers in neural networks}, "
        "year = {2024}, url = {https://kellerjordan.github.io/posts/muon/}}\""), measures="year Muon was published",
        notes="2024", notes_quote="直到 2024 年，有人往回走了一步。"),
}

# ---- words the ruler says: how many segments of each format, and the moments' orders ------

def _segments_of(width: int, **segment_bytes: int) -> int:
    return sum(1 for b in segment_bytes.values() if b == width)


_SEGMENTS = {name: q for name, q, _ in RULER}
_WHY = "有人会问：为什么有三格是 fp32、两格是 bf16？"
FP32_SEGMENTS = derived(
    "optimizers.ruler.fp32_segments", lambda width, **b: _segments_of(width, **b),
    inputs={"width": FP32_BYTES, **_SEGMENTS}, unit="segments", fmt=zh_count,
    formula="ruler segments whose bytes per parameter = 4 (one fp32 value)",
    measures="fp32 segments of the 16-byte ruler", notes="三", notes_quote=_WHY)
BF16_SEGMENTS = derived(
    "optimizers.ruler.bf16_segments", lambda width, **b: _segments_of(width, **b),
    inputs={"width": BF16_BYTES, **_SEGMENTS}, unit="segments", fmt=zh_count,
    formula="ruler segments whose bytes per parameter = 2 (one bf16 value)",
    measures="bf16 segments of the 16-byte ruler", notes="两", notes_quote=_WHY)

_ADAM_ALG1 = "Kingma & Ba, arXiv 1412.6980, Algorithm 1 (m: first moment estimate, v: second raw moment)"
M_ORDER = sourced("optim.m.moment_order", 1, unit="", citation=_ADAM_ALG1, fmt=zh_round,
                  measures="order of the moment m estimates (E[g])")
V_ORDER = sourced("optim.v.moment_order", 2, unit="", citation=_ADAM_ALG1, fmt=zh_round,
                  measures="order of the moment v estimates (E[g²]): the 二 of 二阶矩")
