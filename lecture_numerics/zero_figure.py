"""fig-zero: ZeRO's three cuts drawn as one bar, and the communication column beside it.

The per-device totals are zero.py's (one call of ``per_device_gb`` per stage); this module
adds what the figure draws besides them: each stage's three segments, the price column
(communication volume in units of Ψ, ZeRO §7) and the stage names.
"""

from __future__ import annotations

import numpy as np

from lecture_numerics.provenance import chosen, derived, sourced
from lecture_numerics.zh import zh_count
from lecture_numerics.bytes_per_param import GRADIENT_BYTES, WEIGHT_BYTES
from lecture_numerics.zero import BASELINE, K, N_D, POS_G_P, PSI, ZERO_FIG1, per_device_segments_gb

# (optimizer, gradients, weights) split across the N_d devices, stage by stage.
STAGE_SPLITS = ((False, False, False), (True, False, False), (True, True, False), (True, True, True))


def stage_segments_gb(psi: float, n_d: int, k: int, weight_bytes: int, gradient_bytes: int) -> np.ndarray:
    """Rows: baseline, P_os, P_os+g, P_os+g+p. Columns: weights, gradients, optimizer (GB)."""
    return np.array([per_device_segments_gb(psi, n_d, k, weight_bytes, gradient_bytes, *splits)
                     for splits in STAGE_SPLITS])


def segments() -> np.ndarray:
    """The figure's segments for the paper's Figure 1 setting."""
    return stage_segments_gb(PSI.value, N_D.value, K.value, WEIGHT_BYTES.value, GRADIENT_BYTES.value)


_SECTION7 = "Rajbhandari et al. 2020, ZeRO, §7 (2Ψ for baseline, P_os and P_os+g; 3Ψ for P_os+g+p)"
COMM_PSI = sourced(
    "zero.comm_psi", (2, 2, 2, 3), unit="Ψ (parameter-sized messages)", item_fmt="{}Ψ",
    fmt=lambda v: " / ".join(f"{x}Ψ" for x in v), citation=_SECTION7,
    measures="communication volume per step: baseline, P_os, P_os+g, P_os+g+p",
    notes_quote="前三行都是 2Ψ，跟不切的时候一模一样 …… 只有最后一级涨到 3Ψ，也就是 1.5 倍。")
COMM_RATIO = derived(
    "zero.comm_stage3_over_baseline", lambda comm: comm[3] / comm[0], inputs={"comm": COMM_PSI},
    unit="×", fmt="{:.1f} ×", formula="3Ψ ÷ 2Ψ (ZeRO-3's communication ÷ the baseline's)",
    measures="ZeRO-3's communication volume relative to plain data parallelism",
    notes="1.5", notes_quote="只有最后一级涨到 3Ψ，也就是 1.5 倍。")
SHRINK = derived(
    "zero.baseline_over_stage3", lambda baseline, stage3: baseline / stage3,
    inputs={"baseline": BASELINE, "stage3": POS_G_P}, unit="×", fmt="{:.0f}",
    formula="zero.baseline_gb ÷ zero.pos_g_p_gb = N_d (every state split N_d ways)",
    measures="how many times smaller ZeRO-3's per-device model states are than the baseline's")
STAGES = sourced(
    "zero.stage_names", (1, 2, 3), unit="", item_fmt="ZeRO-{}", fmt=lambda v: " / ".join(f"ZeRO-{x}" for x in v),
    citation=f"{ZERO_FIG1} (the three stages of ZeRO-DP: P_os, P_os+g, P_os+g+p); DeepSpeed's "
             "zero_optimization.stage 1 / 2 / 3",
    measures="names of ZeRO's stages, in the order they split optimizer state, gradients, weights")
GB_BYTES = sourced(
    "zero.gb_bytes", 10**9, unit="B", fmt=lambda v: "10⁹",
    citation=f"{ZERO_FIG1} (120 GB = 16 × 7.5e9 B: decimal gigabytes)",
    measures="bytes in one GB as ZeRO's Figure 1 counts them (decimal, not GiB)")
CUTS = derived(
    "zero.cut_count", lambda stages: len(stages), inputs={"stages": STAGES}, unit="cuts", fmt=zh_count,
    formula="number of ZeRO stages (each splits one more model state)",
    measures="how many times fig-zero's bar is cut",
    notes="三", notes_quote="对一下答案。同一根条，被削掉三次。")
INSET_ZOOM = chosen(
    "zero.inset_zoom", 8, unit="×", fmt="{}",
    measures="magnification of fig-zero Ⓐ's inset that redraws the ÷ N_d shards of rows ② and ③",
    reason="a shard of Ψ × 2 B ÷ 64 is about 1.5 px at full scale, hidden by the segment separators; "
           "× 8 makes the smallest one about 12 px, and the largest inset (row ③, about 100 px) still fits "
           "between the track's end and the price column, outside the track")
