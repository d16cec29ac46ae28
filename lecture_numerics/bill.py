"""The memory bill of DeepSeek-V3: resident model states and one 128K sequence's activations."""

from __future__ import annotations

import math

from lecture_numerics.layers import items_bytes_per_token, v3_is_dense, v3_layer_items
from lecture_numerics.models import GIB, TIB, V3_FIELDS, V3_TOTAL_PARAMS, V3Config
from lecture_numerics.bytes_per_param import GRADIENT_BYTES, OPTIMIZER_SUM, WEIGHT_BYTES, ZERO
from lecture_numerics.provenance import breakdown, derived, sourced

# The optimizer's bytes per parameter are master + m + v, summed once (bytes_per_param.py).
OPTIMIZER_BYTES = OPTIMIZER_SUM
SEQ_LEN = sourced("scenario.seq_len_128k", 131072, unit="tokens",
                  measures="the lecture's case: one sequence of 128K = 2^17 tokens",
                  citation="deepseek-ai/DeepSeek-V3 README.md, Model Downloads: Context Length 128K "
                           "(128 × 1024 = 2^17 tokens); config/scenarios.yaml memtime.seq_len", fmt="{:,}",
                  notes="十二万八千", notes_quote="一条十二万八千长度的序列，不开重算，激活要 4.15 TiB；",
                  note="the notes read 128K as 十二万八千 (128,000); the bills use 128K = 131,072 tokens, "
                       "2.4 % more")
GPU_GIB = sourced("hardware.gpu_memory_gib", 80, unit="GiB",
                  measures="memory of one 80 GB-class accelerator, counted as 80 GiB as in the notes",
                  citation="NVIDIA A100 80GB / H100 SXM5 datasheets (80 GB HBM)")

_V3 = {"total_params": V3_TOTAL_PARAMS}
_BOTH = "一个 671B 的模型，权重占 1.22 TiB，优化器状态占 7.32 TiB —— 六倍。"

WEIGHTS_TIB = derived(
    "bill.v3.weights_tib", lambda total_params, weight_bytes: total_params * weight_bytes / TIB,
    inputs={**_V3, "weight_bytes": WEIGHT_BYTES}, unit="TiB", fmt="{:.2f}",
    formula="total_params × weight_bytes ÷ 2^40", measures="V3 bf16 weights",
    notes="1.22", notes_quote=_BOTH)
OPTIMIZER_TIB = derived(
    "bill.v3.optimizer_tib", lambda total_params, optimizer_bytes: total_params * optimizer_bytes / TIB,
    inputs={**_V3, "optimizer_bytes": OPTIMIZER_BYTES}, unit="TiB", fmt="{:.2f}",
    formula="total_params × optimizer_bytes ÷ 2^40",
    measures="the generic mixed-precision Adam recipe (fp32 master weights + fp32 m, v: 12 B/param) applied "
             "to V3's 671B parameters",
    note="not DeepSeek-V3's own layout: its report (§3.3.3) keeps m and v in BF16 (8 B/param of optimizer "
         "state, 4.88 TiB); the lecture's 16-byte bill is the generic recipe",
    notes="7.32", notes_quote=_BOTH)


def _resident_bytes(total_params: float, weight_bytes: int, gradient_bytes: int, optimizer_bytes: int) -> float:
    return total_params * (weight_bytes + gradient_bytes + optimizer_bytes)


_RESIDENT_INPUTS = {**_V3, "weight_bytes": WEIGHT_BYTES, "gradient_bytes": GRADIENT_BYTES,
                    "optimizer_bytes": OPTIMIZER_BYTES}
TOTAL_TIB = derived(
    "bill.v3.total_tib", lambda **k: _resident_bytes(**k) / TIB, inputs=_RESIDENT_INPUTS,
    unit="TiB", fmt="{:.2f}", measures="V3 model states at 16 B/param",
    formula="total_params × (weight_bytes + gradient_bytes + optimizer_bytes) ÷ 2^40",
    notes="9.76", notes_quote="六千七百一十亿参数 × 十六字节 ÷ 1024 的四次方 ＝ 9.76 TiB。")
GPUS_80GIB = derived(
    "bill.v3.gpus_80gib", lambda gpu_gib, **k: math.ceil(_resident_bytes(**k) / (gpu_gib * GIB)),
    inputs={**_RESIDENT_INPUTS, "gpu_gib": GPU_GIB}, unit="GPUs", fmt="{}",
    formula="⌈total_params × 16 B ÷ (gpu_gib × 2^30)⌉", measures="80 GiB cards the model states alone fill",
    notes="125", notes_quote="按每张卡 80 GiB 算，光这一块就要 125 张， 还没算激活、没算任何冗余。")

# --- activations of one sequence ------------------------------------------------------------

_ACT_QUOTE = "一条十二万八千长度的序列，不开重算，激活要 4.15 TiB； 开了重算还要 106.75 GiB。"
_CONFIG = {name: V3_FIELDS[name] for name in V3Config.__dataclass_fields__}


def full_recompute_bytes(dim: int, n_layers: int, seq_len: int, bf16: int = 2) -> int:
    """Each layer keeps only its bf16 input: s × h × 2 B per layer."""
    return n_layers * seq_len * dim * bf16


FULL_RECOMPUTE_GIB = derived(
    "act.v3.full_recompute_gib",
    lambda dim, n_layers, seq_len, weight_bytes: full_recompute_bytes(dim, n_layers, seq_len, weight_bytes) / GIB,
    inputs={"dim": V3_FIELDS["dim"], "n_layers": V3_FIELDS["n_layers"], "seq_len": SEQ_LEN,
            "weight_bytes": WEIGHT_BYTES},
    unit="GiB", fmt="{:.2f}", formula="n_layers × seq_len × dim × 2 B ÷ 2^30",
    measures="activations kept with full recompute (each layer's bf16 input), one 128K sequence",
    notes="106.75", notes_quote=_ACT_QUOTE)


def no_recompute_bytes(seq_len: int, **config: int) -> int:
    """Per-operator accounting of every layer (layers.py), first n_dense_layers dense."""
    c = V3Config(**config)
    return seq_len * sum(items_bytes_per_token(v3_layer_items(c, v3_is_dense(c, i)))
                         for i in range(c.n_layers))


def no_recompute_all_moe_bytes(seq_len: int, **config: int) -> int:
    c = V3Config(**config)
    return seq_len * c.n_layers * items_bytes_per_token(v3_layer_items(c, dense=False))


NO_RECOMPUTE_TIB = derived(
    "act.v3.no_recompute_tib", lambda **k: no_recompute_bytes(**k) / TIB,
    inputs={**_CONFIG, "seq_len": SEQ_LEN}, unit="TiB", fmt="{:.2f}",
    formula="seq_len × Σ_layers Σ_items bytes_per_token ÷ 2^40 (items: layers.v3_layer_items)",
    measures="activations kept with no recompute, one 128K sequence, FlashAttention (no s² scores)",
    note="4.15 TiB comes out only if all 61 layers are counted as MoE layers "
         "(act.v3.no_recompute_all_moe_tib); config_671B.json makes the first 3 dense "
         "(n_dense_layers = 3), whose FFN keeps 139,268 B/token instead of 369,668, giving 4.07 TiB.",
    notes="4.15", notes_quote=_ACT_QUOTE)
NO_RECOMPUTE_ALL_MOE_TIB = derived(
    "act.v3.no_recompute_all_moe_tib", lambda **k: no_recompute_all_moe_bytes(**k) / TIB,
    inputs={**_CONFIG, "seq_len": SEQ_LEN}, unit="TiB", fmt="{:.2f}",
    formula="seq_len × n_layers × Σ_items(MoE layer) bytes_per_token ÷ 2^40",
    measures="the same accounting if every layer were an MoE layer (how the notes' 4.15 arises)",
    notes="4.15", notes_quote=_ACT_QUOTE)


def no_recompute_breakdown(seq_len: int | None = None, config: V3Config | None = None) -> list[dict]:
    """The items behind act.v3.no_recompute_tib: per tensor, summed over the layers that keep it."""
    s = seq_len or SEQ_LEN.value
    c = config or V3Config(**{name: q.value for name, q in _CONFIG.items()})
    rows: dict[tuple[str, str], dict] = {}
    for i in range(c.n_layers):
        for item in v3_layer_items(c, v3_is_dense(c, i)):
            row = rows.setdefault((item.block, item.tensor), {
                "block": item.block, "tensor": item.tensor, "kept_for": item.kept_for,
                "bytes_per_token": item.bytes_per_token, "layers": 0, "bytes": 0})
            row["layers"] += 1
            row["bytes"] += item.bytes_per_token * s
    return [{**row, "tib": row["bytes"] / TIB} for row in rows.values()]


breakdown("act.v3.no_recompute_tib", no_recompute_breakdown)

SEQS_TO_MATCH_RESIDENT = derived(
    "act.v3.seqs_to_match_resident",
    lambda dim, n_layers, seq_len, **k: math.ceil(_resident_bytes(**k) / full_recompute_bytes(dim, n_layers, seq_len)),
    inputs={**_RESIDENT_INPUTS, "dim": V3_FIELDS["dim"], "n_layers": V3_FIELDS["n_layers"], "seq_len": SEQ_LEN},
    unit="sequences", fmt="{}", formula="⌈bill.v3.total bytes ÷ act.v3.full_recompute bytes⌉",
    measures="128K sequences whose full-recompute activations reach the 16 B/param resident block",
    notes="94", notes_quote="对这个模型，要约九十四条十二万八千的序列，激活才追平常驻块。")
# The notes' question (「激活大，还是优化器状态大？」) asked literally: against the optimizer state
# alone the activations catch up sooner. Declared so the L981 erratum says which way (drawn nowhere).
SEQS_TO_MATCH_OPTIMIZER = derived(
    "act.v3.seqs_to_match_optimizer",
    lambda total_params, optimizer_bytes, dim, n_layers, seq_len:
    math.ceil(total_params * optimizer_bytes / full_recompute_bytes(dim, n_layers, seq_len)),
    inputs={**_V3, "optimizer_bytes": OPTIMIZER_BYTES, "dim": V3_FIELDS["dim"], "n_layers": V3_FIELDS["n_layers"],
            "seq_len": SEQ_LEN},
    unit="sequences", fmt="{}", formula="⌈bill.v3.optimizer bytes ÷ act.v3.full_recompute bytes⌉",
    measures="128K sequences whose full-recompute activations reach the optimizer state alone (12 B/param)")

RECOMPUTE_SAVING = derived(
    "act.v3.recompute_saving_ratio", lambda without, full: without * TIB / (full * GIB),
    inputs={"without": NO_RECOMPUTE_TIB, "full": FULL_RECOMPUTE_GIB}, unit="×", fmt="{:.0f}×",
    formula="act.v3.no_recompute ÷ act.v3.full_recompute (same bytes unit)",
    measures="how many times less activation memory full recompute keeps",
    notes="40", notes_quote="换回来的是：4.15 TiB 变成 106.75 GiB，四十倍。")
