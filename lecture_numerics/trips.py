"""Why backprop runs backwards: how many trips through the chain each mode needs.

A chain maps n inputs (the parameters) to m outputs (the loss). One trip through it
propagates one direction: a forward-mode trip carries one input's seed to every output
(a Jacobian-vector product, one column of the Jacobian); a reverse-mode trip carries one
output's seed back to every input (a vector-Jacobian product, one row). The full Jacobian
therefore costs n trips forward and m trips backward: start from the narrow end.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from lecture_numerics.provenance import derived, sourced, speakers_example

Mode = Literal["forward", "reverse"]

NOTES_FILE = "lecture-notes.txt, 第一节 (fig-reverse / anim-reverse)"


def trips_for_full_jacobian(n_inputs: int, n_outputs: int, mode: Mode) -> int:
    """Passes through the chain needed for every d(output)/d(input)."""
    if n_inputs < 1 or n_outputs < 1:
        raise ValueError("a chain has at least one input and one output")
    if mode == "forward":
        return n_inputs      # one seed per input: each trip yields one Jacobian column
    if mode == "reverse":
        return n_outputs     # one seed per output: each trip yields one Jacobian row
    raise ValueError(f"mode must be 'forward' or 'reverse', not {mode!r}")


@dataclass(frozen=True)
class Trip:
    """One pass of the ball: where the seed goes in, which parameters' gradients it hands
    over (in the order it passes them, 0 = leftmost), and whether each is in hand as the
    ball passes (reverse) or only once it reaches the loss (forward)."""

    seed: int | Literal["loss"]
    gradients_in_order: tuple[int, ...]
    along_the_way: bool


def trip_schedule(n_params: int, mode: Mode) -> list[Trip]:
    """The trips of a chain of ``n_params`` parameter blocks feeding one loss."""
    count = trips_for_full_jacobian(n_params, 1, mode)
    if mode == "forward":
        # Trip i perturbs parameter i only, so it delivers that one gradient, at the loss.
        return [Trip(seed=i, gradients_in_order=(i,), along_the_way=False) for i in range(count)]
    # The single backward trip starts at the loss and passes every block right to left.
    return [Trip(seed="loss", gradients_in_order=tuple(reversed(range(n_params))), along_the_way=True)]


PARAMETERS = speakers_example(
    "trips.parameters", 8, unit="个参数",
    measures="parameter blocks in each chain of anim-reverse (inputs n; storyboards.md anim-reverse: a row of 8)",
    fmt="{}", notes="8", notes_quote="下面那条早就停了，只有一块；上面那条还在吭哧，一直堆到八块。",
)

OUTPUTS = sourced(
    "trips.outputs", 1, unit="个输出",
    measures="outputs of the chain (m): the single loss value",
    citation=f"{NOTES_FILE}: 「种子插在右边 —— 而右边只有一个数，就是 loss」",
    fmt="{}", notes="1", notes_quote="种子插在右边 —— 而右边只有一个数，就是 loss。所以只插一次。",
)

FORWARD_TRIPS = derived(
    "trips.forward", lambda n, m: trips_for_full_jacobian(n, m, "forward"),
    inputs={"n": PARAMETERS, "m": OUTPUTS}, unit="趟",
    formula="正向模式趟数 = n（每个输入一趟）",
    measures="trips forward mode needs for every parameter's gradient",
    fmt="{}", notes="8", notes_quote="上面那条还在吭哧，一直堆到八块。",
)

REVERSE_TRIPS = derived(
    "trips.reverse", lambda n, m: trips_for_full_jacobian(n, m, "reverse"),
    inputs={"n": PARAMETERS, "m": OUTPUTS}, unit="趟",
    formula="反向模式趟数 = m（每个输出一趟）",
    measures="trips reverse mode needs for every parameter's gradient",
    fmt="{}", notes="1", notes_quote="下面那条早就停了，只有一块；",
)
