"""Memory within one training step, event by event: forward, backward (with recompute), update.

Categories (bytes after each event):
- weights: bf16, 2 B/param, resident all step;
- optimizer: fp32 master + m + v, (bytes_per_param - 4) B/param (12 at 16 B/param), resident;
- gradients: bf16, 2 B/param, each layer's appear when its backward finishes, all freed by
  the update (the output head's arrive with the first backward layer, the embedding's with
  the last one);
- activations: full recompute keeps each layer's bf16 input (s·b·h·2 B) from the forward
  pass; in the backward pass a layer first recomputes its per-operator activations (its
  working set, see ``layers.py``), then finishes its backward and frees the working set.
  The working set's first item is that very layer input, already stored: the recompute adds
  only the rest, so the input is counted once. Without recompute each layer keeps all its
  per-operator activations. Only the transformer layers' activations are counted (not the
  logits), as in the lecture.
- stored (not a category: part of activations): what the forward pass leaves for backward —
  under full recompute the layer inputs, without it every per-operator activation. This is
  what the lecture calls 激活 (106.75 GiB for one 128K sequence of V3); it peaks when the
  forward pass ends. The activations category adds, during backward, the working set of the
  layer being recomputed: its peak (``activation_peak``) is the peak while recomputing.

Time is the fraction of the step's compute: forward costs 1, recompute 1 (full recompute
only), backward 2 (the 1 : 2 of fig-3x); the update is a thin sliver (1 %) at the end.
Every layer costs the same time: for DeepSeek-V3 a dense layer and an MoE layer activate
the same number of parameters per token (583M), and attention is identical.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from lecture_numerics.layers import (items_bytes_per_token, v3_embedding_params, v3_head_params,
                                     v3_is_dense, v3_layer_items, v3_layer_params)
from lecture_numerics.models import GPT3Config, V3Config, gpt3_config, v3_config

CATEGORIES = ("weights", "gradients", "optimizer", "activations")
WEIGHT_BYTES = 2      # bf16 weights
GRADIENT_BYTES = 2    # bf16 gradients
UPDATE_SHARE = 0.01   # width of the update sliver on the time axis
KORTHIKANTI_BYTES_PER_H = 34  # s·b·h·34: Korthikanti et al. 2022 Eq. 1 without the a·s/h score term


@dataclass(frozen=True)
class Scenario:
    model: str = "deepseek-v3"   # "deepseek-v3" | "gpt3-175b"
    seq_len: int = 131072
    batch: int = 1
    recompute: str = "full"      # or "none"
    bytes_per_param: int = 16


@dataclass(frozen=True)
class LayerMemory:
    params: int
    kept_input_bytes_per_token: int   # what full recompute keeps (bf16 layer input)
    activation_bytes_per_token: int   # per-operator activations (recompute working set), input included

    def __post_init__(self) -> None:
        # The kept input is one item of the working set, so it can never be the larger.
        if not 0 < self.kept_input_bytes_per_token <= self.activation_bytes_per_token:
            raise ValueError(f"kept input must be part of the working set: {self}")


@dataclass(frozen=True)
class ModelMemory:
    name: str
    layers: tuple[LayerMemory, ...]
    head_params: int        # gradients arrive with the first backward layer
    embedding_params: int   # gradients arrive with the last backward layer

    @property
    def total_params(self) -> int:
        return sum(layer.params for layer in self.layers) + self.head_params + self.embedding_params


def v3_memory(c: V3Config) -> ModelMemory:
    """DeepSeek-V3 from its config: 3 dense layers, then MoE layers, untied embedding/head."""
    layers = tuple(
        LayerMemory(params=v3_layer_params(c, v3_is_dense(c, i)),
                    kept_input_bytes_per_token=2 * c.dim,
                    activation_bytes_per_token=items_bytes_per_token(v3_layer_items(c, v3_is_dense(c, i))))
        for i in range(c.n_layers))
    return ModelMemory("deepseek-v3", layers, v3_head_params(c), v3_embedding_params(c))


def gpt3_memory(c: GPT3Config) -> ModelMemory:
    """GPT-3 175B, simplified: 12h² + 13h parameters per layer, the rest of the sourced
    175B counted as embedding; activations per Korthikanti Eq. 1 with FlashAttention (34·h B
    per token per layer, no score matrix; the 34 includes the first layernorm's input, i.e.
    the 2·h B layer input that full recompute keeps)."""
    h = c.d_model
    per_layer = 12 * h * h + 13 * h
    layers = tuple(LayerMemory(per_layer, 2 * h, KORTHIKANTI_BYTES_PER_H * h) for _ in range(c.n_layers))
    return ModelMemory("gpt3-175b", layers, 0, int(c.n_params) - per_layer * c.n_layers)


def model_memory(name: str) -> ModelMemory:
    if name == "deepseek-v3":
        return v3_memory(v3_config())
    if name == "gpt3-175b":
        return gpt3_memory(gpt3_config())
    raise ValueError(f"unknown model {name!r}: use 'deepseek-v3' or 'gpt3-175b'")


@dataclass(frozen=True)
class Timeline:
    t: np.ndarray
    phase: tuple[str, ...]          # "forward" | "backward" | "update"
    layer: np.ndarray               # -1 for the step's start and the update
    bytes: dict[str, np.ndarray]
    activation_peak: tuple[float, float]   # stored inputs + the working set being recomputed
    gradient_peak: tuple[float, float]
    total_peak: tuple[float, float]
    event: tuple[str, ...] = ()     # "start" | "forward" | "recompute" | "backward" | "update"
    forward_end: float = 0.0        # time the forward pass ends
    backward_end: float = 0.0       # time the backward pass ends
    total_peak_phase: str = ""      # phase of the event at the total's peak
    scenario: Scenario = field(default_factory=Scenario)
    stored: np.ndarray = field(default_factory=lambda: np.zeros(0))   # what forward leaves for backward
    stored_peak: tuple[float, float] = (0.0, 0.0)                     # its peak: the end of forward

    def total(self) -> np.ndarray:
        return sum(self.bytes[name] for name in CATEGORIES)


class _Recorder:
    """Collects events; each records the bytes of every category after it."""

    def __init__(self, resident: dict[str, int]):
        self.now = {"weights": resident["weights"], "gradients": 0,
                    "optimizer": resident["optimizer"], "activations": 0, "stored": 0}
        self.rows: list[tuple[float, str, int, str, dict[str, int]]] = []

    def record(self, t: float, phase: str, layer: int, event: str, **changes: int) -> None:
        for name, delta in changes.items():
            self.now[name] += delta
        self.rows.append((t, phase, layer, event, dict(self.now)))


def _phase_times(recompute: bool) -> tuple[float, float, float]:
    """(forward share, recompute share, backward share) of the compute part of the step."""
    forward, recomp, backward = 1.0, (1.0 if recompute else 0.0), 2.0
    compute = (1.0 - UPDATE_SHARE) / (forward + recomp + backward)
    return forward * compute, recomp * compute, backward * compute


def _check(scenario: Scenario) -> None:
    if scenario.recompute not in ("full", "none"):
        raise ValueError(f"recompute must be 'full' or 'none', not {scenario.recompute!r}")
    if scenario.batch < 1 or scenario.seq_len < 1 or scenario.bytes_per_param < WEIGHT_BYTES + GRADIENT_BYTES:
        raise ValueError(f"scenario out of range: {scenario}")


def _events(m: ModelMemory, s: Scenario) -> _Recorder:
    full = s.recompute == "full"
    tokens = s.seq_len * s.batch
    n = len(m.layers)
    P = m.total_params
    rec = _Recorder({"weights": WEIGHT_BYTES * P,
                     "optimizer": (s.bytes_per_param - WEIGHT_BYTES - GRADIENT_BYTES) * P})
    fwd, rcp, bwd = _phase_times(full)
    rec.record(0.0, "forward", -1, "start")
    for i, layer in enumerate(m.layers):
        kept = layer.kept_input_bytes_per_token if full else layer.activation_bytes_per_token
        rec.record(fwd * (i + 1) / n, "forward", i, "forward", activations=kept * tokens, stored=kept * tokens)
    per_layer = (rcp + bwd) / n
    for k, i in enumerate(reversed(range(n))):
        layer, start = m.layers[i], fwd + k * per_layer
        working = layer.activation_bytes_per_token * tokens
        if full:
            # The stored input is already there and is part of the working set: add the rest.
            rec.record(start + rcp / n, "backward", i, "recompute",
                       activations=working - layer.kept_input_bytes_per_token * tokens)
        grads = layer.params + (m.head_params if k == 0 else 0) + (m.embedding_params if i == 0 else 0)
        # Either way the layer now holds exactly its working set, and frees all of it.
        kept = layer.kept_input_bytes_per_token if full else layer.activation_bytes_per_token
        rec.record(start + per_layer, "backward", i, "backward",
                   gradients=GRADIENT_BYTES * grads, activations=-working, stored=-kept * tokens)
    rec.record(1.0, "update", -1, "update", gradients=-rec.now["gradients"])
    return rec


def _peak(t: np.ndarray, values: np.ndarray) -> tuple[float, float]:
    i = int(np.argmax(values))  # first occurrence of the maximum
    return float(t[i]), float(values[i])


def memory_timeline(scenario: Scenario = Scenario(), model: ModelMemory | None = None) -> Timeline:
    """Simulate one training step of ``scenario`` (see the module docstring for the model).
    ``model`` overrides the per-layer description named by ``scenario.model``."""
    _check(scenario)
    rec = _events(model or model_memory(scenario.model), scenario)
    t = np.array([row[0] for row in rec.rows])
    data = {name: np.array([row[4][name] for row in rec.rows], dtype=np.float64) for name in CATEGORIES}
    total = sum(data[name] for name in CATEGORIES)
    stored = np.array([row[4]["stored"] for row in rec.rows], dtype=np.float64)
    peak_index = int(np.argmax(total))
    phases = tuple(row[1] for row in rec.rows)
    fwd, rcp, bwd = _phase_times(scenario.recompute == "full")
    return Timeline(
        t=t, phase=phases, layer=np.array([row[2] for row in rec.rows]), bytes=data,
        activation_peak=_peak(t, data["activations"]), gradient_peak=_peak(t, data["gradients"]),
        total_peak=_peak(t, total), event=tuple(row[3] for row in rec.rows),
        forward_end=fwd, backward_end=fwd + rcp + bwd, total_peak_phase=phases[peak_index],
        scenario=scenario, stored=stored, stored_peak=_peak(t, stored))


def peak_at_turn(timeline: Timeline) -> bool:
    """Whether the total's peak sits nearer the end of forward than the end of backward.

    During backward the total is a sawtooth: each layer adds its gradients and frees its
    stored input. While a layer's gradients outweigh its stored input the sawtooth climbs and
    the peak is at the end of backward; once the batch makes the stored input heavier it
    falls, and the peak jumps to the forward/backward turn (the first backward layers, whose
    recompute working set sits on top of everything the forward pass left)."""
    return timeline.total_peak[0] < (timeline.forward_end + timeline.backward_end) / 2


def peak_moving_batch(scenario: Scenario = Scenario(), model: ModelMemory | None = None) -> int:
    """Smallest batch at which the total's peak moves to the end of forward.

    The condition is monotonic in the batch (activations at the turn grow faster with the
    batch than at any later event), so doubling then bisection finds the threshold."""
    def at_turn(batch: int) -> bool:
        return peak_at_turn(memory_timeline(_with_batch(scenario, batch), model))

    if at_turn(1):
        return 1
    low, high = 1, 2
    while not at_turn(high):
        low, high = high, high * 2
        if high > 1 << 20:
            raise ValueError("the peak never moves to the end of forward")
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if at_turn(mid) else (mid, high)
    return high


# The phases as the slides name them.
PHASE_ZH = {"forward": "前向", "backward": "反向", "update": "更新"}


def activations_at_forward_end(timeline: Timeline) -> float:
    """Bytes of activations after the last forward event (the stored inputs, at their peak)."""
    last_forward = max(i for i, e in enumerate(timeline.event) if e == "forward")
    return float(timeline.bytes["activations"][last_forward])


def with_batch(scenario: Scenario, batch: int) -> Scenario:
    """The same scenario with another batch."""
    return _with_batch(scenario, batch)


def _with_batch(scenario: Scenario, batch: int) -> Scenario:
    return Scenario(scenario.model, scenario.seq_len, batch, scenario.recompute, scenario.bytes_per_param)
