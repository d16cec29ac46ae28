"""Full fine-tuning vs LoRA on LLaMA-7B: resident model states (第三节, LoRA aside).

Trainable parameters carry the full 16 B (bf16 weight and gradient, fp32 master, m, v);
frozen ones keep only their 2 B bf16 weight. The LoRA configuration is PEFT's default for
LLaMA: rank r = 8 on q_proj and v_proj (4096 → 4096) of every layer, adding r·(d_in + d_out)
parameters per adapted matrix. Activations are left out, as in the notes.
"""

from __future__ import annotations

from lecture_numerics.bytes_per_param import PER_PARAM_TOTAL, WEIGHT_BYTES
from lecture_numerics.models import GIB, LLAMA7B_HIDDEN, LLAMA7B_LAYERS, LLAMA7B_PARAMS
from lecture_numerics.provenance import derived, sourced

PEFT = ("huggingface/peft, src/peft/tuners/lora/config.py (LoraConfig r = 8) and "
        "src/peft/utils/constants.py (TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING['llama'] "
        "= ['q_proj', 'v_proj'])")

RANK = sourced("lora.rank", 8, unit="", measures="LoRA rank r (PEFT default)", citation=PEFT)
TARGETS = sourced("lora.targets_per_layer", 2, unit="matrices", citation=PEFT,
                  measures="adapted d_model × d_model matrices per layer (q_proj, v_proj)")

_QUOTE = "七十亿参数的模型：全量微调要一百 G，LoRA 只要十二点七 G —— 差了将近八倍。"


def lora_params(rank: int, targets: int, hidden: int, layers: int) -> int:
    return layers * targets * rank * (hidden + hidden)


FULL = derived(
    "lora.7b.full_gib",
    lambda params, bytes_per_param: params * bytes_per_param / GIB,
    inputs={"params": LLAMA7B_PARAMS, "bytes_per_param": PER_PARAM_TOTAL},
    unit="GiB", fmt="{:.0f}", formula="params × 16 B ÷ 2^30",
    measures="LLaMA-7B full fine-tune: model states (no activations)", notes="100", notes_quote=_QUOTE)
ADAPTER_PARAMS = derived(
    "lora.7b.adapter_params", lora_params,
    inputs={"rank": RANK, "targets": TARGETS, "hidden": LLAMA7B_HIDDEN, "layers": LLAMA7B_LAYERS},
    unit="parameters", fmt=lambda v: f"{v / 1e6:.1f}M", formula="layers × targets × r × (d_in + d_out)",
    measures="trainable LoRA parameters")
LORA = derived(
    "lora.7b.lora_gib",
    lambda params, adapter, weight_bytes, bytes_per_param: (params * weight_bytes + adapter * bytes_per_param) / GIB,
    inputs={"params": LLAMA7B_PARAMS, "adapter": ADAPTER_PARAMS, "weight_bytes": WEIGHT_BYTES,
            "bytes_per_param": PER_PARAM_TOTAL},
    unit="GiB", fmt="{:.1f}", formula="(params × 2 B + adapter × 16 B) ÷ 2^30",
    measures="LLaMA-7B LoRA (r = 8 on q, v): frozen bf16 base + fully trained adapters",
    note="12.7 needs twice PEFT's default adapter size (8.4M parameters: r = 16 on q, v, or r = 8 on "
         "q, k, v, o); with the default r = 8 on q, v (4.2M) it is 12.6 GiB. Nearly all of it is the "
         "frozen 2 B/param base (12.55 GiB), so the ratio stays ≈ 8×.",
    notes="12.7", notes_quote=_QUOTE)
