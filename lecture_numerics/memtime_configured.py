"""The memory timeline of the scenario configured for anim-memtime (config/scenarios.yaml).

The lecture's own numbers for its case (V3, one 128K sequence, 16 B/param, full recompute)
are declared in memtime.py. The speaker may change the scenario (raise the batch to show
the peak moving); then anim-memtime draws these ``timeline.configured.*`` quantities instead,
computed from the same simulator for whatever the config says. Byte quantities carry their
unit in the display string (GiB below 1 TiB, else TiB), since the scale follows the scenario.
"""

from __future__ import annotations

from typing import Any, Callable

from lecture_numerics.bill import SEQ_LEN
from lecture_numerics.bytes_per_param import PER_PARAM_TOTAL
from lecture_numerics.models import GIB, TIB
from lecture_numerics.provenance import derived, sourced
from lecture_numerics.timeline import PHASE_ZH, Scenario, Timeline, activations_at_forward_end, memory_timeline

CONFIG_CITATION = "config/scenarios.yaml, block memtime (the speaker's setting for anim-memtime)"


def configured_scenario() -> Scenario:
    from lecture_numerics.config_files import scenario   # YAML only, from the bottom layer

    return Scenario(**scenario("memtime"))


def lecture_scenario() -> Scenario:
    """The lecture's case, from the quantities memtime.py's numbers are computed from."""
    return Scenario("deepseek-v3", SEQ_LEN.value, 1, "full", PER_PARAM_TOTAL.value)


def is_lecture_case(scenario: Scenario) -> bool:
    return scenario == lecture_scenario()


def format_bytes(value: float) -> str:
    return f"{value / GIB:.2f} GiB" if value < TIB else f"{value / TIB:.2f} TiB"


_CONFIGURED = configured_scenario()
_FIELDS = {
    "model": ("model whose per-layer memory the simulator uses", ""),
    "seq_len": ("tokens per sequence", "tokens"),
    "batch": ("sequences per step", "sequences"),
    "recompute": ("activation recompute: full (keep each layer's bf16 input) or none", ""),
    "bytes_per_param": ("bytes of model state per parameter", "B/param"),
}
SETTINGS = {name: sourced(f"config.memtime.{name}", getattr(_CONFIGURED, name), unit=unit,
                          measures=f"anim-memtime scenario: {measures}", citation=f"{CONFIG_CITATION}, {name}")
            for name, (measures, unit) in _FIELDS.items()}
_SIM = "timeline.memory_timeline(Scenario(config.memtime.*))"


def _declare(key: str, read: Callable[[Timeline], Any], *, unit: str, formula: str, measures: str,
             fmt: Any = format_bytes):
    return derived(f"timeline.configured.{key}", lambda **s: read(memory_timeline(Scenario(**s))),
                   inputs=SETTINGS, unit=unit, fmt=fmt, formula=f"{formula}, from {_SIM}", measures=measures)


# Byte quantities: the value is in bytes; the display string carries GiB or TiB itself.
IN_DISPLAY = ""


def _at_start(category: str) -> Callable[[Timeline], float]:
    return lambda tl: float(tl.bytes[category][0])



WEIGHTS = _declare("weights", _at_start("weights"), unit=IN_DISPLAY, formula="weights bytes (resident all step)",
                   measures="resident weights of the configured scenario")
OPTIMIZER = _declare("optimizer", _at_start("optimizer"), unit=IN_DISPLAY, formula="optimizer bytes (resident all step)",
                     measures="resident optimizer state of the configured scenario")
ACTIVATIONS_END_OF_FORWARD = _declare(
    "activations_end_of_forward", activations_at_forward_end, unit=IN_DISPLAY,
    formula="activations after the last forward event",
    measures="激活: what the forward pass leaves for backward, at its peak (the end of forward)")
ACTIVATION_PEAK = _declare("activation_peak", lambda tl: tl.activation_peak[1], unit=IN_DISPLAY,
                           formula="max over events of activations",
                           measures="重算时的峰: stored activations plus the working set being recomputed")
GRADIENT_PEAK = _declare("gradient_peak", lambda tl: tl.gradient_peak[1], unit=IN_DISPLAY,
                         formula="max over events of gradients", measures="gradient peak")
TOTAL_PEAK = _declare("total_peak", lambda tl: tl.total_peak[1], unit=IN_DISPLAY,
                      formula="max over events of the four categories' sum", measures="the step's memory peak")
TOTAL_PEAK_T = _declare("total_peak_t", lambda tl: tl.total_peak[0], unit="step fraction", fmt="{:.2f}",
                        formula="time of the total's peak", measures="when the total peaks")
TOTAL_PEAK_PHASE = _declare("total_peak_phase", lambda tl: tl.total_peak_phase, unit="", fmt=PHASE_ZH.get,
                            formula="phase of the event at the total's peak", measures="phase of the total's peak")
