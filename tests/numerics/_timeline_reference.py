"""The memory timeline of one DeepSeek-V3 training step in closed form: a second implementation
of what lecture_numerics/timeline.py simulates event by event, written per layer from the
hand counts in _v3_reference.py, with no event loop.

The step (the lecture's model of it):
- time: forward : recompute : backward = 1 : 1 : 2 of the compute share (the 1 : 2 of fig-3x,
  plus one more forward for full recompute), the update a 1 % sliver at the end;
- weights 2 B and optimizer (bytes_per_param − 4) B per parameter, resident all step;
- bf16 gradients, 2 B per parameter, of a layer when its backward finishes; the output head's
  with the first backward layer, the embedding's with the last;
- full recompute: forward keeps each layer's bf16 input (2·h B per token); a layer's backward
  first rebuilds its working set (all its per-operator activations, that input among them),
  then frees it. Without recompute forward keeps every layer's whole working set.

Layer i's backward, full recompute, just after its recompute (``layer i`` counts from 0):
    activations = tokens × (2h × i + act_i)                (inputs below it + its working set)
    gradients   = 2 × (head + Σ_{j > i} params_j)          (head only once backward has begun)
Those are the sawtooth's tops. Every other moment lies below the next top: the end of
forward and the end of each layer's backward are each followed by a recompute that only adds
(a working set minus its already stored input). So the peak is a top or the end of backward.
"""

from __future__ import annotations

import numpy as np

from _v3_reference import DENSE, DENSE_ACT, DENSE_LAYER, H, LAYERS, MOE_ACT, MOE_LAYER, S, V3_PARAMS

VOCAB = 129280
EMBEDDING = VOCAB * H          # token embedding
HEAD = VOCAB * H + H           # output head (untied) + final RMSNorm
assert EMBEDDING + HEAD + DENSE * DENSE_LAYER + (LAYERS - DENSE) * MOE_LAYER == V3_PARAMS

KEPT = 2 * H                                                  # bf16 layer input, B per token
PARAMS = np.array([DENSE_LAYER] * DENSE + [MOE_LAYER] * (LAYERS - DENSE), dtype=np.int64)
ACT = np.array([DENSE_ACT] * DENSE + [MOE_ACT] * (LAYERS - DENSE), dtype=np.int64)

UPDATE = 0.01
FORWARD, RECOMPUTE, BACKWARD = 1, 1, 2        # time weights of the three passes


def shares(full: bool = True) -> tuple[float, float, float]:
    """(forward, recompute, backward) as fractions of the step."""
    weights = (FORWARD, RECOMPUTE if full else 0, BACKWARD)
    return tuple((1 - UPDATE) * w / sum(weights) for w in weights)


def resident(bytes_per_param: int = 16) -> int:
    """Weights (2 B) + optimizer (bytes − 4) per parameter: bytes − 2 per parameter."""
    return (bytes_per_param - 2) * V3_PARAMS


def forward_end(full: bool = True) -> float:
    return shares(full)[0]


def backward_end(full: bool = True) -> float:
    return sum(shares(full))


def recompute_time(i: np.ndarray | int) -> np.ndarray | float:
    """When layer i's recompute ends: backward meets layers 60, 59, … 0 in turn."""
    f, r, b = shares(True)
    done_before = LAYERS - 1 - np.asarray(i)
    return f + done_before * (r + b) / LAYERS + r / LAYERS


def activations_end_of_forward(seq_len: int = S, batch: int = 1, full: bool = True) -> int:
    per_token = LAYERS * KEPT if full else int(ACT.sum())
    return seq_len * batch * per_token


def sawtooth_tops(seq_len: int = S, batch: int = 1, bytes_per_param: int = 16) -> dict[str, np.ndarray]:
    """Full recompute: each category just after layer i's recompute, i = 0 … 60."""
    i = np.arange(LAYERS)
    later = PARAMS[::-1].cumsum()[::-1] - PARAMS          # Σ_{j > i} params_j
    head = np.where(i == LAYERS - 1, 0, HEAD)             # the head's arrive with layer 60's backward
    tokens = seq_len * batch
    return {"t": recompute_time(i), "activations": tokens * (KEPT * i + ACT),
            "gradients": 2 * (later + head), "resident": np.full(LAYERS, resident(bytes_per_param))}


def activation_peak(seq_len: int = S, batch: int = 1, full: bool = True) -> tuple[float, int]:
    """(time, bytes). Full recompute: the top layer's recompute, right at the turn (every
    MoE layer has the same working set, and the one with most inputs below it is the top);
    without recompute: the end of forward."""
    if not full:
        return forward_end(False), activations_end_of_forward(seq_len, batch, False)
    return recompute_time(LAYERS - 1), seq_len * batch * ((LAYERS - 1) * KEPT + MOE_ACT)


def gradient_peak(full: bool = True) -> tuple[float, int]:
    """All gradients, present from the end of backward until the update."""
    return backward_end(full), 2 * V3_PARAMS


def total_peak(seq_len: int = S, batch: int = 1, bytes_per_param: int = 16) -> tuple[float, int, int]:
    """Full recompute: (time, bytes, layer) of the step's peak, −1 for the end of backward."""
    tops = sawtooth_tops(seq_len, batch, bytes_per_param)
    totals = tops["activations"] + tops["gradients"] + tops["resident"]
    # In time order: layer 60 first, then the end of backward (all gradients, no activations).
    in_time = np.append(totals[::-1], bytes_per_param * V3_PARAMS)
    k = int(np.argmax(in_time))                   # the first of equal tops, as a step meets them
    if k == LAYERS:
        return backward_end(True), int(in_time[k]), -1
    layer = LAYERS - 1 - k
    return float(tops["t"][layer]), int(in_time[k]), layer


def total_peak_without_recompute(seq_len: int = S, batch: int = 1,
                                 bytes_per_param: int = 16) -> tuple[float, int, int]:
    """No recompute: (time, bytes, layer) of the peak, −1 for the end of forward. Candidates:
    the end of forward (every working set kept), and the end of each layer's backward
    (its gradients in, its working set out); nothing else rises."""
    f, _, b = shares(False)
    tokens = seq_len * batch
    i = np.arange(LAYERS)
    from_i = PARAMS[::-1].cumsum()[::-1]                            # Σ_{j ≥ i} params_j
    below = ACT.cumsum() - ACT                                      # Σ_{j < i} act_j
    grads = 2 * (from_i + HEAD + np.where(i == 0, EMBEDDING, 0))
    after = resident(bytes_per_param) + grads + tokens * below      # after layer i's backward
    times = f + (LAYERS - i) * b / LAYERS
    # In time order: end of forward, then layers 60, 59, … 0.
    in_time = np.concatenate([[resident(bytes_per_param) + tokens * int(ACT.sum())], after[::-1]])
    k = int(np.argmax(in_time))
    if k == 0:
        return f, int(in_time[0]), -1
    return float(times[::-1][k - 1]), int(in_time[k]), LAYERS - k
