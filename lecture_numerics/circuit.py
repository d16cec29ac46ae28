"""fig-circuit: every black (forward) and red (backward) number, from running the autodiff.

Ⓐ is f = (a + b) × c with the example's inputs a = 2, b = −3, c = 4. Ⓑ shows the three
gate temperaments (add, multiply, max) on one shared pair of inputs x, y, each gate
receiving an upstream gradient from further right. Inputs are the example's chosen
values; everything else is computed by :mod:`lecture_numerics.autodiff`.
"""

from __future__ import annotations

from typing import Callable

from lecture_numerics.autodiff import Value
from lecture_numerics.bill import NO_RECOMPUTE_TIB
from lecture_numerics.provenance import Chosen, Derived, Sourced, chosen, derived, speakers_example
from lecture_numerics.zh import zh_count, zh_several

MINUS = "\u2212"   # a real minus sign on screen, not a hyphen


def signed(x: float) -> str:
    """On-screen form: whole numbers without a decimal point, minus as U+2212."""
    if x == 0:
        x = 0.0        # never show "−0"
    text = f"{x:g}"
    return text.replace("-", MINUS)




def example_input(key: str, value: float, measures: str, notes_quote: str = "") -> Sourced | Chosen:
    """An input of a worked example. Ⓐ's are the speaker's own example (with the notes'
    words); Ⓑ's are not in the notes: picked for the figure, and labelled so. Both are 示例取值."""
    if notes_quote:
        return speakers_example(key, value, unit="", fmt=signed, measures=measures,
                                notes=signed(value), notes_quote=notes_quote)
    return chosen(key, value, unit="", fmt=signed, measures=measures,
                  reason="fig-circuit Ⓑ's notes give the gates' rules but no numbers; small integers whose "
                         "results stay distinct on screen (the swap and the winner can be read off)")


# ---- Ⓐ the circuit f = (a + b) × c ----

def run_circuit(a: float, b: float, c: float) -> dict[str, Value]:
    """Forward then backward through f = (a + b) × c; returns every named node."""
    a_, b_, c_ = Value(a), Value(b), Value(c)
    q = a_ + b_
    f = q * c_
    f.backward()
    return {"a": a_, "b": b_, "c": c_, "q": q, "f": f}


a = example_input("circuit.a", 2, "input a of f = (a + b) × c", "a 是 2，b 是负 3，加起来 q 等于负 1。")
b = example_input("circuit.b", -3, "input b of f = (a + b) × c", "a 是 2，b 是负 3，加起来 q 等于负 1。")
c = example_input("circuit.c", 4, "input c of f = (a + b) × c", "q 再乘 c 等于 4 —— f 等于负 4。")
CIRCUIT_INPUTS = {"a": a, "b": b, "c": c}


def _circuit(key: str, node: str, part: str, uses: str, formula: str, measures: str,
             notes: str | None = None, notes_quote: str = "") -> Derived:
    """A circuit number read off one run of the autodiff (``part``: data or grad).

    ``uses`` names the inputs the number depends on (q = a + b never sees c); the run
    still needs all three, so the others are held at the example's values.
    """
    def compute(**given: float) -> float:
        held = {name: q.value for name, q in CIRCUIT_INPUTS.items()}
        return getattr(run_circuit(**{**held, **given})[node], part)

    return derived(key, compute, inputs={name: CIRCUIT_INPUTS[name] for name in uses}, unit="",
                   fmt=signed, formula=formula, measures=measures,
                   note="computed by lecture_numerics.autodiff (forward, then backward from f)",
                   notes=notes, notes_quote=notes_quote)


q = _circuit("circuit.q", "q", "data", "ab", "q = a + b", "forward value after the add gate",
             "−1", "a 是 2，b 是负 3，加起来 q 等于负 1。")
f = _circuit("circuit.f", "f", "data", "abc", "f = q × c", "forward value of the circuit's output",
             "−4", "q 再乘 c 等于 4 —— f 等于负 4。")
grad_f = _circuit("circuit.grad_f", "f", "grad", "abc", "∂f/∂f = 1 (backward's starting point)",
                  "gradient of f with respect to itself", "1", "反向从最右边起步，f 对自己的梯度是 1。")
grad_c = _circuit("circuit.grad_c", "c", "grad", "ab", "∂f/∂c = q × ∂f/∂f (multiply gate)",
                  "gradient of f with respect to c", "−1", "c 的梯度是多少？……是 q，也就是负 1。")
grad_q = _circuit("circuit.grad_q", "q", "grad", "c", "∂f/∂q = c × ∂f/∂f (multiply gate)",
                  "gradient of f with respect to q", "4", "q 的梯度是多少？……是 c，也就是 4。")
grad_a = _circuit("circuit.grad_a", "a", "grad", "c", "∂f/∂a = ∂f/∂q (add gate)",
                  "gradient of f with respect to a", "4", "上游给了 4，a 和 b 各拿走 4，原样分。")
grad_b = _circuit("circuit.grad_b", "b", "grad", "c", "∂f/∂b = ∂f/∂q (add gate)",
                  "gradient of f with respect to b", "4", "上游给了 4，a 和 b 各拿走 4，原样分。")


# ---- Ⓑ three gate temperaments on the same inputs x, y ----

GATES: dict[str, Callable[[Value, Value], Value]] = {
    "add": lambda x, y: x + y,
    "mul": lambda x, y: x * y,
    "max": lambda x, y: x.maximum(y),
}


def run_gate(gate: str, x: float, y: float, upstream: float) -> dict[str, Value]:
    """One gate on its own, with ``upstream`` arriving at its output."""
    x_, y_ = Value(x), Value(y)
    out = GATES[gate](x_, y_)
    out.backward(upstream)
    return {"x": x_, "y": y_, "out": out}


gate_x = example_input("circuit.gates.x", 3, "first input of each example gate in panel B")
gate_y = example_input("circuit.gates.y", -1, "second input of each example gate in panel B")

# The multiply gate gets upstream 1 so that its swap reads directly off the screen.
UPSTREAM = {"add": 5, "mul": 1, "max": 5}

# Per gate: the forward formula, each input's backward rule, and the inputs each rule reads.
GATE_RULES = {
    "add": ("out = x + y", {"x": ("∂L/∂x = upstream (copied)", ("upstream",)),
                            "y": ("∂L/∂y = upstream (copied)", ("upstream",))}),
    "mul": ("out = x × y", {"x": ("∂L/∂x = y × upstream (swapped)", ("y", "upstream")),
                            "y": ("∂L/∂y = x × upstream (swapped)", ("x", "upstream"))}),
    "max": ("out = max(x, y)", {"x": ("∂L/∂x = upstream if x wins, else 0", ("x", "y", "upstream")),
                                "y": ("∂L/∂y = upstream if y wins, else 0", ("x", "y", "upstream"))}),
}


def _declare_gate(gate: str) -> dict[str, Derived]:
    upstream = example_input(f"circuit.{gate}.upstream", UPSTREAM[gate],
                      f"gradient arriving at the {gate} gate's output from further right")
    available = {"x": gate_x, "y": gate_y, "upstream": upstream}
    forward_formula, backward_rules = GATE_RULES[gate]

    def declare(name: str, node: str, part: str, uses: tuple[str, ...], formula: str,
                measures: str) -> Derived:
        def compute(**given: float) -> float:
            # Inputs a number does not depend on are held at the example's values.
            held = {n: q.value for n, q in available.items()}
            return getattr(run_gate(gate, **{**held, **given})[node], part)

        return derived(f"circuit.{gate}.{name}", compute, inputs={n: available[n] for n in uses},
                       unit="", fmt=signed, formula=formula, measures=measures,
                       note="computed by lecture_numerics.autodiff")

    declared = {"upstream": upstream,
                "out": declare("out", "out", "data", ("x", "y"), forward_formula,
                               f"forward value of the {gate} gate")}
    for node, (formula, uses) in backward_rules.items():
        declared[f"grad_{node}"] = declare(f"grad_{node}", node, "grad", uses, formula,
                                           f"gradient the {gate} gate sends back to {node}")
    return declared


add_gate = _declare_gate("add")
mul_gate = _declare_gate("mul")
max_gate = _declare_gate("max")


# ---- Ⓒ the bill: one gate's kept input, times every gate of a real model ----

# The screen says 「× N 次 = 「激活」账单」, so N is counted from that bill: every value the bill keeps
# is one kept gate input. (The notes' 几百亿 is one layer's share, 2.2 × 10¹² ÷ 61 ≈ 3.7 × 10¹⁰.)
VALUE_BYTES = chosen(
    "act.bytes_per_kept_value", 2, unit="B", fmt="{}",
    measures="bytes one kept activation value takes in the bill (bf16)",
    reason="the bill's tensors are 16-bit; its few fp32 entries change no digit of the order it is said in")
gate_repeats = derived(
    "circuit.gate_repeats", lambda bill_tib, value_bytes: bill_tib * 2 ** 40 / value_bytes,
    inputs={"bill_tib": NO_RECOMPUTE_TIB, "value_bytes": VALUE_BYTES},
    unit="kept gate inputs (order of magnitude)", fmt=zh_several,
    formula="act.v3.no_recompute_tib × 2^40 B ÷ 2 B per kept value",
    measures="how many times the activation bill repeats the one gate whose forward input is kept: the values "
             "it keeps (one 128K sequence of V3, no recompute); drawn as its order, 几万亿",
    note="the notes' 几百亿 is one layer's share (÷ 61 layers ≈ 3.7 × 10¹⁰); the whole bill is 2.2 × 10¹²",
    notes="几百亿", notes_quote="把这一个门乘以几百亿次，就是我们后面要算的那张「激活」账单。",
)


GATE_KINDS = chosen(
    "circuit.gate_kinds", tuple(GATES), unit="", fmt=" / ".join,
    measures="the gate kinds panel B shows, one per temperament",
    reason="the three gates the lecture builds every circuit from: add (distribute), multiply (swap), max (route)")
temperaments = derived(
    "circuit.temperaments", lambda gates: len(gates), inputs={"gates": GATE_KINDS}, unit="gate kinds", fmt=zh_count,
    formula="number of gate kinds in GATES (add, multiply, max)",
    measures="the common gates' temperaments panel B shows (distribute, swap, route)",
    notes="三", notes_quote="所以常见的门就三种脾气，记脾气比记公式管用：",
)
