"""Why training costs three inferences: the three matrix multiplies of one linear layer (fig-3x).

Forward Y = X·W; backward dW = Xᵀ·dY (uses the input X kept from forward) and dX = dY·Wᵀ
(handed to the layer before). A FLOP counter runs over the three shapes; each product of an
(m × k) by a (k × n) matrix costs 2·m·k·n FLOPs (one multiply-add = 2 FLOPs). The counts
below are in units of the forward multiply, so they hold for any widths; the counter runs
on a real V3 projection (wq_a: dim → q_lora_rank) over one 128K sequence.
"""

from __future__ import annotations

from dataclasses import dataclass

from lecture_numerics.bill import SEQ_LEN
from lecture_numerics.models import V3_FIELDS
from lecture_numerics.provenance import derived
from lecture_numerics.zh import zh_count


@dataclass(frozen=True)
class Matmul:
    """One matrix product of the layer: which pass, what it answers, its two operand shapes."""

    name: str                     # "Y = X·W", …
    passes: str                   # "forward" | "backward"
    left: tuple[int, int]
    right: tuple[int, int]

    @property
    def flops(self) -> int:
        (m, k), (k2, n) = self.left, self.right
        if k != k2:
            raise ValueError(f"{self.name}: inner widths differ ({self.left} · {self.right})")
        return 2 * m * k * n


def linear_layer_matmuls(s: int, d_in: int, d_out: int) -> list[Matmul]:
    """The three products of a linear layer X (s × d_in) · W (d_in × d_out) in training."""
    return [
        Matmul("Y = X·W", "forward", (s, d_in), (d_in, d_out)),
        Matmul("∂L/∂W = Xᵀ·∂L/∂Y", "backward", (d_in, s), (s, d_out)),
        Matmul("∂L/∂X = ∂L/∂Y·Wᵀ", "backward", (s, d_out), (d_out, d_in)),
    ]


def matmul_units(s: int, d_in: int, d_out: int, passes: str | None = None) -> float:
    """FLOPs of the layer's products in ``passes`` (all if None) ÷ the forward product's FLOPs."""
    products = linear_layer_matmuls(s, d_in, d_out)
    forward = sum(p.flops for p in products if p.passes == "forward")
    return sum(p.flops for p in products if passes is None or p.passes == passes) / forward


def counted(v: float) -> str:
    """A count that must come out whole: written as an integer, refused otherwise."""
    if abs(v - round(v)) > 1e-12:
        raise ValueError(f"{v!r} is not a whole count of forward multiplies")
    return str(round(v))


_INPUTS = {"s": SEQ_LEN, "d_in": V3_FIELDS["dim"], "d_out": V3_FIELDS["q_lora_rank"]}
_RUN = "FLOP counter over linear_layer_matmuls(s, d_in, d_out), 2·m·k·n per product"
_QUOTE = "两个问题，两次乘法。所以一加二等于三 ——  训练比推理贵三倍，就是这么数出来的，不是估的。"

FORWARD_MATMULS = derived(
    "threex.forward_matmuls", lambda s, d_in, d_out: matmul_units(s, d_in, d_out, "forward"),
    inputs=_INPUTS, unit="forward multiplies", fmt=counted,
    formula=f"forward FLOPs ÷ forward FLOPs ({_RUN})",
    measures="matrix multiplies in the forward pass of one linear layer (what inference does)",
    notes="1", notes_quote=_QUOTE)
BACKWARD_MATMULS = derived(
    "threex.backward_matmuls", lambda s, d_in, d_out: matmul_units(s, d_in, d_out, "backward"),
    inputs=_INPUTS, unit="forward multiplies", fmt=counted,
    formula=f"(FLOPs of dW = Xᵀ·dY + dX = dY·Wᵀ) ÷ forward FLOPs ({_RUN})",
    measures="matrix multiplies in the backward pass of one linear layer, each as costly as the forward one",
    notes="2", notes_quote=_QUOTE)
TRAIN_OVER_INFERENCE = derived(
    "threex.train_over_inference", lambda s, d_in, d_out: matmul_units(s, d_in, d_out),
    inputs=_INPUTS, unit="×", fmt=counted,
    formula=f"(forward + backward FLOPs) ÷ forward FLOPs ({_RUN})",
    measures="training cost over inference cost, counted from the matmul FLOPs",
    notes="3", notes_quote=_QUOTE)

# The same counts as the speaker says them before a measure word (两次, 三倍).
BACKWARD_MATMULS_ZH = derived(
    "threex.backward_matmuls_zh", lambda n: n, inputs={"n": BACKWARD_MATMULS}, unit="forward multiplies",
    fmt=lambda v: zh_count(round(v)), formula="threex.backward_matmuls, said in Chinese (两)",
    measures="the backward count as a Chinese numeral", notes="两", notes_quote=_QUOTE)
TRAIN_OVER_INFERENCE_ZH = derived(
    "threex.train_over_inference_zh", lambda n: n, inputs={"n": TRAIN_OVER_INFERENCE}, unit="×",
    fmt=lambda v: zh_count(round(v)), formula="threex.train_over_inference, said in Chinese (三)",
    measures="training over inference as a Chinese numeral", notes="三", notes_quote=_QUOTE)
FORWARD_MATMULS_ZH = derived(
    "threex.forward_matmuls_zh", lambda n: n, inputs={"n": FORWARD_MATMULS}, unit="forward multiplies",
    fmt=lambda v: zh_count(round(v)), formula="threex.forward_matmuls, said in Chinese (一)",
    measures="the forward count as a Chinese numeral (推理也只做这一次)", notes="一", notes_quote=_QUOTE)
