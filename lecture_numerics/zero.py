"""ZeRO's three stages on the paper's Figure 1 setting (fig-zero).

Per-device model states with mixed-precision Adam: 2Ψ fp16 weights, 2Ψ fp16 gradients and
KΨ optimizer state; each stage splits one more of them across the N_d data-parallel devices.
"""

from __future__ import annotations

from lecture_numerics.provenance import derived, sourced

ZERO_FIG1 = "Rajbhandari et al. 2020, ZeRO, Figure 1"

PSI = sourced("zero.psi", 7.5e9, unit="parameters", measures="model size Ψ in ZeRO's Figure 1 example",
              citation=ZERO_FIG1, fmt=lambda v: f"{v / 1e9:.1f}B")
N_D = sourced("zero.n_d", 64, unit="devices", measures="data-parallel degree N_d in Figure 1", citation=ZERO_FIG1)
K = sourced("zero.k", 12, unit="B/param", measures="optimizer-state bytes per parameter K (mixed-precision Adam)",
            citation=f"{ZERO_FIG1}; §3.1")
COMM_STAGE3 = sourced("zero.comm_pos_g_p_ratio", 1.5, unit="×", fmt="{:.1f}×",
                      measures="communication of P_os+g+p relative to data parallelism (3Ψ vs 2Ψ)",
                      citation="Rajbhandari et al. 2020, ZeRO, §7 (2Ψ for baseline, P_os, P_os+g; 3Ψ for P_os+g+p)")

_INPUTS = {"psi": PSI, "n_d": N_D, "k": K}
_QUOTE = "基线每张卡要装 120 GB …… 切完优化器状态：31.4。再切梯度：16.6。最后连权重也切：1.9。"


def per_device_gb(psi: float, n_d: int, k: int, split_optimizer: bool, split_gradients: bool,
                  split_weights: bool) -> float:
    """Model-state bytes on one device, in decimal GB as the paper prints them."""
    weights = 2 * psi / (n_d if split_weights else 1)
    gradients = 2 * psi / (n_d if split_gradients else 1)
    optimizer = k * psi / (n_d if split_optimizer else 1)
    return (weights + gradients + optimizer) / 1e9


def _stage(key: str, splits: tuple[bool, bool, bool], formula: str, measures: str, notes: str, fmt: str):
    return derived(key, lambda psi, n_d, k: per_device_gb(psi, n_d, k, *splits), inputs=_INPUTS,
                   unit="GB", fmt=fmt, formula=formula, measures=measures, notes=notes, notes_quote=_QUOTE)


BASELINE = _stage("zero.baseline_gb", (False, False, False), "(2 + 2 + K)·Ψ ÷ 10^9",
                  "per-device model states with plain data parallelism", "120", "{:.0f}")
POS = _stage("zero.pos_gb", (True, False, False), "(2Ψ + 2Ψ + K·Ψ/N_d) ÷ 10^9",
             "per-device model states with optimizer states split (ZeRO-1, P_os)", "31.4", "{:.1f}")
POS_G = _stage("zero.pos_g_gb", (True, True, False), "(2Ψ + (2 + K)·Ψ/N_d) ÷ 10^9",
               "… and gradients split (ZeRO-2, P_os+g)", "16.6", "{:.1f}")
POS_G_P = _stage("zero.pos_g_p_gb", (True, True, True), "(2 + 2 + K)·Ψ/N_d ÷ 10^9",
                 "… and weights split (ZeRO-3, P_os+g+p)", "1.9", "{:.1f}")
