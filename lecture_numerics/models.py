"""Looked-up model configurations: DeepSeek-V3, GPT-3 175B, LLaMA-7B, and number formats.

Every field is declared as a sourced quantity, so derived numbers can name exactly the
config entries they use. ``v3_config()`` / ``gpt3_config()`` bundle the values for code.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from lecture_numerics.provenance import Sourced, sourced

V3_CONFIG = "deepseek-ai/DeepSeek-V3, inference/configs/config_671B.json"
V3_README = "deepseek-ai/DeepSeek-V3, README.md"
GPT3_TABLE = 'Brown et al. 2020, "Language Models are Few-Shot Learners", Table 2.1 (GPT-3 175B row)'
# The lecture's "7B" is LLaMA 2 7B: keras-hub's preset llama2_7b_en holds its parameter count
# and layer count, but no widths; those are read from a config of the same model.
LLAMA_PRESETS = ("keras-team/keras-hub, keras_hub/src/models/llama/llama_presets.py, preset llama2_7b_en "
                 "(「7 billion parameter, 32-layer, base LLaMA 2 model」)")
LLAMA_WIDTHS = ("microsoft/Olive, examples/llm/config.py (model_id meta-llama/Llama-2-7b-chat-hf: "
                "hidden_size 4096, intermediate_size 11008, num_layers 32)")


@dataclass(frozen=True)
class V3Config:
    """The fields of config_671B.json that the memory and FLOPs accounting reads."""

    dim: int
    n_layers: int
    n_dense_layers: int
    inter_dim: int
    moe_inter_dim: int
    n_routed_experts: int
    n_activated_experts: int
    n_shared_experts: int
    n_heads: int
    q_lora_rank: int
    kv_lora_rank: int
    qk_nope_head_dim: int
    qk_rope_head_dim: int
    v_head_dim: int
    vocab_size: int


_V3_MEASURES = {
    "dim": "hidden size d_model (hidden_size)",
    "n_layers": "number of transformer layers (num_hidden_layers)",
    "n_dense_layers": "first layers with a dense FFN instead of MoE (first_k_dense_replace)",
    "inter_dim": "dense FFN inner width (intermediate_size)",
    "moe_inter_dim": "inner width of each expert (moe_intermediate_size)",
    "n_routed_experts": "routed experts per MoE layer",
    "n_activated_experts": "routed experts each token is sent to (num_experts_per_tok)",
    "n_shared_experts": "always-on shared experts per MoE layer",
    "n_heads": "attention heads",
    "q_lora_rank": "rank of MLA's low-rank query projection",
    "kv_lora_rank": "rank of MLA's compressed key/value latent",
    "qk_nope_head_dim": "per-head query/key width without rotary embedding",
    "qk_rope_head_dim": "per-head query/key width with rotary embedding",
    "v_head_dim": "per-head value width",
    "vocab_size": "vocabulary size",
}
_V3_VALUES = dict(dim=7168, n_layers=61, n_dense_layers=3, inter_dim=18432, moe_inter_dim=2048,
                  n_routed_experts=256, n_activated_experts=8, n_shared_experts=1, n_heads=128,
                  q_lora_rank=1536, kv_lora_rank=512, qk_nope_head_dim=128,
                  qk_rope_head_dim=64, v_head_dim=128, vocab_size=129280)

V3_FIELDS: dict[str, Sourced] = {
    name: sourced(f"model.v3.{name}", value, unit="", measures=f"DeepSeek-V3: {_V3_MEASURES[name]}",
                  citation=f"{V3_CONFIG} ({name})")
    for name, value in _V3_VALUES.items()
}

V3_TOTAL_PARAMS = sourced(
    "model.v3.total_params", 671e9, unit="parameters",
    measures="DeepSeek-V3 total parameters (main model, without the MTP module)",
    citation=f"{V3_README} (671B total, 37B activated per token); README_WEIGHTS.md for the MTP module",
    fmt=lambda v: f"{v / 1e9:.0f}B")
V3_ACTIVE_PARAMS = sourced(
    "model.v3.active_params", 37e9, unit="parameters",
    measures="DeepSeek-V3 parameters activated per token",
    citation=f"{V3_README} (37B activated per token)", fmt=lambda v: f"{v / 1e9:.0f}B")


def v3_config() -> V3Config:
    """The V3 fields as one object (values from the sourced quantities)."""
    return V3Config(**{f.name: V3_FIELDS[f.name].value for f in fields(V3Config)})


# --- GPT-3 175B ---------------------------------------------------------------------------

@dataclass(frozen=True)
class GPT3Config:
    n_params: float
    n_layers: int
    d_model: int
    n_heads: int
    d_head: int


_GPT3_ROW = {
    "n_params": (175.0e9, "parameters", "GPT-3 175B total parameters (n_params)"),
    "n_layers": (96, "", "GPT-3 175B layers (n_layers)"),
    "d_model": (12288, "", "GPT-3 175B hidden size (d_model)"),
    "n_heads": (96, "", "GPT-3 175B attention heads (n_heads)"),
    "d_head": (128, "", "GPT-3 175B per-head width (d_head)"),
}
GPT3_FIELDS: dict[str, Sourced] = {
    name: sourced(f"model.gpt3.{name}", value, unit=unit, measures=measures,
                  citation=f"{GPT3_TABLE}, column {name}")
    for name, (value, unit, measures) in _GPT3_ROW.items()
}
GPT3_CONTEXT = sourced("model.gpt3.context_tokens", 2048, unit="tokens",
                       measures="GPT-3 context window n_ctx (all sizes)",
                       citation='Brown et al. 2020, §2.1 ("context window of n_ctx = 2048 tokens")')


def gpt3_config() -> GPT3Config:
    return GPT3Config(**{f.name: GPT3_FIELDS[f.name].value for f in fields(GPT3Config)})


# --- LLaMA-7B -----------------------------------------------------------------------------

LLAMA7B_PARAMS = sourced("model.llama7b.params", 6_738_415_616, unit="parameters",
                         measures="LLaMA 2 7B parameter count (preset metadata)", citation=LLAMA_PRESETS,
                         fmt="{:,}")
LLAMA7B_HIDDEN = sourced("model.llama7b.hidden", 4096, unit="", measures="LLaMA 2 7B hidden size h",
                         citation=LLAMA_WIDTHS)
LLAMA7B_LAYERS = sourced("model.llama7b.layers", 32, unit="", measures="LLaMA 2 7B layers",
                         citation=LLAMA_PRESETS)
LLAMA7B_FFN = sourced("model.llama7b.ffn", 11008, unit="", measures="LLaMA 2 7B FFN inner width",
                      citation=LLAMA_WIDTHS)

# --- Number formats -----------------------------------------------------------------------

_FORMATS = "IEEE 754-2008 binary16/binary32; bfloat16 definition (Google Brain / TPU docs)"
BF16_BYTES = sourced("format.bf16.bytes", 2, unit="B", measures="bytes per bfloat16 value (16 bits)",
                     citation=_FORMATS)
FP32_BYTES = sourced("format.fp32.bytes", 4, unit="B", measures="bytes per float32 value (32 bits)",
                     citation=_FORMATS)
BF16_MANTISSA_BITS = sourced("format.bf16.mantissa_bits", 7, unit="bits",
                             measures="bfloat16 stored mantissa bits", citation=_FORMATS)
BF16_EXPONENT_BITS = sourced("format.bf16.exponent_bits", 8, unit="bits",
                             measures="bfloat16 exponent bits", citation=_FORMATS)
FP16_MANTISSA_BITS = sourced("format.fp16.mantissa_bits", 10, unit="bits",
                             measures="float16 stored mantissa bits", citation=_FORMATS)
FP16_EXPONENT_BITS = sourced("format.fp16.exponent_bits", 5, unit="bits",
                             measures="float16 exponent bits", citation=_FORMATS)
FP32_MANTISSA_BITS = sourced("format.fp32.mantissa_bits", 23, unit="bits",
                             measures="float32 stored mantissa bits", citation=_FORMATS)

# Byte units: the lecture uses binary units throughout.
GIB = 2**30
TIB = 2**40
