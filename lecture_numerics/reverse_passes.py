"""fig-reverse Ⓒ: start from the narrow end. Passes each mode needs for a chain's full
Jacobian (trips.trips_for_full_jacobian: forward n, reverse m), for the lecture's own chain
(三千亿 parameters in, one loss out) and for the counterexample (10 in, a million out).
"""

from __future__ import annotations

from lecture_numerics.provenance import chosen, derived
from lecture_numerics.slider import desk_faders
from lecture_numerics.trips import OUTPUTS, trips_for_full_jacobian
from lecture_numerics.zh import zh_round

_COUNTER_QUOTE = "右边那个反例：十个参数、一百万维输出 ——  这时候你该从前往后，反向传播反而亏。"

COUNTER_INPUTS = chosen(
    "reverse.counterexample.inputs", 10, unit="inputs", fmt="{}", measures="inputs of the counterexample chain",
    reason="the notes' counterexample: few inputs, so forward mode is the narrow end", notes="10",
    notes_quote=_COUNTER_QUOTE)
COUNTER_OUTPUTS = chosen(
    "reverse.counterexample.outputs", 1_000_000, unit="outputs", fmt=zh_round,
    measures="outputs of the counterexample chain", reason="the notes' counterexample: a million-wide output",
    notes="一百万", notes_quote=_COUNTER_QUOTE)


def passes(n_inputs: int, n_outputs: int, mode: str) -> int:
    return trips_for_full_jacobian(int(n_inputs), int(n_outputs), mode)


_PASSES = "passes(n_inputs, n_outputs): forward needs n (one JVP per input), reverse m (one VJP per output)"

COUNTER_FORWARD = derived(
    "reverse.counterexample.forward_passes", lambda n, m: passes(n, m, "forward"),
    inputs={"n": COUNTER_INPUTS, "m": COUNTER_OUTPUTS}, unit="passes", fmt="{}", formula=_PASSES,
    measures="passes in forward mode for the 10-in, 1,000,000-out counterexample", notes="10",
    notes_quote=_COUNTER_QUOTE)
COUNTER_REVERSE = derived(
    "reverse.counterexample.reverse_passes", lambda n, m: passes(n, m, "reverse"),
    inputs={"n": COUNTER_INPUTS, "m": COUNTER_OUTPUTS}, unit="passes", fmt=zh_round, formula=_PASSES,
    measures="passes in reverse mode for the same counterexample", notes="一百万", notes_quote=_COUNTER_QUOTE)

_OURS_QUOTE = "我们之所以用反向，只是因为我们这一边正好是三千亿进、一个出。"
OURS_FORWARD = derived(
    "reverse.ours.forward_passes", lambda n, m: passes(n, m, "forward"),
    inputs={"n": desk_faders, "m": OUTPUTS}, unit="passes", fmt=zh_round, formula=_PASSES,
    measures="passes in forward mode for the lecture's chain (三千亿 parameters in, one loss out)",
    notes="三千亿", notes_quote="三千亿个参数，就是三千亿遍。")
OURS_REVERSE = derived(
    "reverse.ours.reverse_passes", lambda n, m: passes(n, m, "reverse"),
    inputs={"n": desk_faders, "m": OUTPUTS}, unit="passes", fmt="{}", formula=_PASSES,
    measures="passes in reverse mode for the lecture's chain", notes="1", notes_quote=_OURS_QUOTE)
