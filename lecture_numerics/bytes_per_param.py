"""Bytes per parameter in mixed-precision Adam training: each fact declared once.

bf16 weights and gradients, 2 B each, and the optimizer's fp32 master weights, m and v,
4 B each (ZeRO §3.1: 2Ψ + 2Ψ + KΨ, K = 12). The optimizer's 12 bytes are the sum of its
three copies and the 16 bytes the sum of all five; every bill (bill.py, memtime, onestep,
ZeRO's K) reads them from here, so no 2 + 2 + 12 is typed anywhere else.
"""

from __future__ import annotations

from lecture_numerics.provenance import derived, sourced

ZERO = "Rajbhandari et al. 2020, ZeRO, §3.1 (mixed-precision Adam: 2Ψ + 2Ψ + KΨ, K = 12)"
_K_SPLIT = f"{ZERO}; K = 12 is the fp32 master weights, momentum and variance, one fp32 value each"

WEIGHT_BYTES = sourced("bytes.weights_bf16", 2, unit="B/param", citation=ZERO,
                       measures="bytes per parameter for the 16-bit weights used in forward/backward")
GRADIENT_BYTES = sourced("bytes.gradients_bf16", 2, unit="B/param", citation=ZERO,
                         measures="bytes per parameter for the 16-bit gradients")
MASTER_BYTES = sourced("bytes.master_fp32", 4, unit="B/param", citation=_K_SPLIT,
                       measures="bytes per parameter of the fp32 master weights")
MOMENTUM_BYTES = sourced("bytes.momentum_fp32", 4, unit="B/param", citation=_K_SPLIT,
                         measures="bytes per parameter of Adam's fp32 first moment m")
VARIANCE_BYTES = sourced("bytes.variance_fp32", 4, unit="B/param", citation=_K_SPLIT,
                         measures="bytes per parameter of Adam's fp32 second moment v")

# The ruler's segments in the order the speaker names them: (name, key's quantity, group).
RULER = (("weights", WEIGHT_BYTES, "model"), ("gradients", GRADIENT_BYTES, "model"),
         ("master", MASTER_BYTES, "optimizer"), ("momentum", MOMENTUM_BYTES, "optimizer"),
         ("variance", VARIANCE_BYTES, "optimizer"))

_SIXTEEN = "每一个参数，训练时身上挂着十六个字节。"
_SIX = "权重只占 2，优化器那边占 12 —— 六倍。"

PER_PARAM_TOTAL = derived(
    "bytes.per_param_total", lambda **b: sum(b.values()),
    inputs={name: q for name, q, _ in RULER}, unit="B/param", fmt="{}",
    formula="weights + gradients + master + momentum + variance (bytes per parameter)",
    measures="bytes each parameter carries in mixed-precision Adam training",
    notes="16", notes_quote=_SIXTEEN)
OPTIMIZER_SUM = derived(
    "bytes.optimizer_sum", lambda master, momentum, variance: master + momentum + variance,
    inputs={"master": MASTER_BYTES, "momentum": MOMENTUM_BYTES, "variance": VARIANCE_BYTES},
    unit="B/param", fmt="{}", formula="master + momentum + variance (fp32, bytes per parameter)",
    measures="the optimizer's bytes per parameter, summed from the three fp32 copies (ZeRO's K)",
    notes="12", notes_quote=_SIX)
__all__ = ["GRADIENT_BYTES", "MASTER_BYTES", "MOMENTUM_BYTES", "OPTIMIZER_SUM", "PER_PARAM_TOTAL", "RULER",
           "VARIANCE_BYTES", "WEIGHT_BYTES", "ZERO"]
