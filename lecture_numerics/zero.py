"""ZeRO's three stages on the paper's Figure 1 setting (fig-zero).

Per-device model states with mixed-precision Adam: 2Ψ fp16 weights, 2Ψ fp16 gradients and
KΨ optimizer state; each stage splits one more of them across the N_d data-parallel devices.
"""

from __future__ import annotations

from lecture_numerics.bytes_per_param import GRADIENT_BYTES, OPTIMIZER_SUM, WEIGHT_BYTES
from lecture_numerics.provenance import derived, sourced

ZERO_FIG1 = "Rajbhandari et al. 2020, ZeRO, Figure 1"

PSI = sourced("zero.psi", 7.5e9, unit="parameters", measures="model size Ψ in ZeRO's Figure 1 example",
              citation=ZERO_FIG1, fmt=lambda v: f"{v / 1e9:.1f}B")
N_D = sourced("zero.n_d", 64, unit="devices", measures="data-parallel degree N_d in Figure 1", citation=ZERO_FIG1)
# ZeRO's K is the optimizer's bytes per parameter: read from their sum (master + m + v), not typed.
K = derived("zero.k", lambda optimizer: optimizer, inputs={"optimizer": OPTIMIZER_SUM}, unit="B/param", fmt="{}",
            formula="K = master + m + v (bytes.optimizer_sum; ZeRO §3.1, K = 12)",
            measures="optimizer-state bytes per parameter K (mixed-precision Adam)")

_INPUTS = {"psi": PSI, "n_d": N_D, "k": K, "weight_bytes": WEIGHT_BYTES, "gradient_bytes": GRADIENT_BYTES}
_QUOTE = "基线每张卡要装 120 GB …… 切完优化器状态：31.4。再切梯度：16.6。最后连权重也切：1.9。"


GB = 1e9    # decimal gigabytes, as the paper prints them


def per_device_segments_gb(psi: float, n_d: int, k: int, weight_bytes: int, gradient_bytes: int,
                           split_optimizer: bool, split_gradients: bool, split_weights: bool) -> tuple[float, ...]:
    """One device's (weights, gradients, optimizer state) in GB: ZeRO's split, written once.
    Each state a stage splits is divided across the N_d devices."""
    return (weight_bytes * psi / (n_d if split_weights else 1) / GB,
            gradient_bytes * psi / (n_d if split_gradients else 1) / GB,
            k * psi / (n_d if split_optimizer else 1) / GB)


def per_device_gb(psi: float, n_d: int, k: int, weight_bytes: int, gradient_bytes: int, split_optimizer: bool,
                  split_gradients: bool, split_weights: bool) -> float:
    """Model-state bytes on one device, in decimal GB as the paper prints them."""
    return sum(per_device_segments_gb(psi, n_d, k, weight_bytes, gradient_bytes, split_optimizer, split_gradients,
                                      split_weights))


def _stage(key: str, splits: tuple[bool, bool, bool], formula: str, measures: str, notes: str, fmt: str):
    return derived(key, lambda **inputs: per_device_gb(**inputs, split_optimizer=splits[0],
                                                       split_gradients=splits[1], split_weights=splits[2]),
                   inputs=_INPUTS,
                   unit="GB", fmt=fmt, formula=formula, measures=measures, notes=notes, notes_quote=_QUOTE)


BASELINE = _stage("zero.baseline_gb", (False, False, False), "(2 + 2 + K)·Ψ ÷ 10^9",
                  "per-device model states with plain data parallelism", "120", "{:.0f}")
POS = _stage("zero.pos_gb", (True, False, False), "(2Ψ + 2Ψ + K·Ψ/N_d) ÷ 10^9",
             "per-device model states with optimizer states split (ZeRO-1, P_os)", "31.4", "{:.1f}")
POS_G = _stage("zero.pos_g_gb", (True, True, False), "(2Ψ + (2 + K)·Ψ/N_d) ÷ 10^9",
               "… and gradients split (ZeRO-2, P_os+g)", "16.6", "{:.1f}")
POS_G_P = _stage("zero.pos_g_p_gb", (True, True, True), "(2 + 2 + K)·Ψ/N_d ÷ 10^9",
                 "… and weights split (ZeRO-3, P_os+g+p)", "1.9", "{:.1f}")
