"""DeepSeek-V3 written out by hand from config_671B.json: a second implementation of the
parameter and activation accounting that the numerics package computes."""

from __future__ import annotations

import math

H, S, LAYERS, DENSE = 7168, 131072, 61, 3
GIB, TIB = 2**30, 2**40

# Second implementation of the V3 parameter count: every weight matrix's shape, written out.
V3_ATTENTION_SHAPES = [(7168, 1536), (1536,), (1536, 128 * 192), (7168, 576), (512,),
                       (512, 128 * 256), (128 * 128, 7168), (7168,), (7168,)]  # + the two layer norms
V3_EXPERT_PARAMS = 3 * 7168 * 2048


def _count(shapes):
    return sum(math.prod(shape) for shape in shapes)


ATTN = _count(V3_ATTENTION_SHAPES)
DENSE_LAYER = ATTN + 3 * 7168 * 18432
MOE_LAYER = ATTN + 257 * V3_EXPERT_PARAMS + 256 * 7168 + 256
EMBED_AND_HEAD = 2 * 129280 * 7168 + 7168
V3_PARAMS = DENSE * DENSE_LAYER + (LAYERS - DENSE) * MOE_LAYER + EMBED_AND_HEAD

# Per-token bytes one MoE layer keeps (bf16 tensors ×2 B, fp32 ×4 B), grouped differently from
# layers.py: attention = x, normed x, 2 q latents, 2 kv latents, Q, K, V, O; fp32 = 3 rms + 128 lse.
MOE_ACT = 2 * (2 * H + 2 * 1536 + 2 * 512 + 2 * 128 * 192 + 2 * 128 * 128) + 4 * (3 + 128) \
    + 2 * (2 * H) + 4 + 4 * 256 + 8 * 2 * (2 * H + 3 * 2048) + 2 * 3 * 2048

# Per-token bytes one dense layer keeps: same attention, dense SwiGLU FFN (18432 wide).
DENSE_ACT = MOE_ACT - (8 * 2 * (2 * H + 3 * 2048) + 4 * 256) - 2 * 3 * 2048 + 2 * 3 * 18432
