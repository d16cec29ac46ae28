"""A scalar reverse-mode autodiff, small enough to check by eye (after micrograd's engine).

Each ``Value`` remembers the values it was made from and a local backward rule: the
gate's own temperament. ``backward()`` walks the graph once in reverse topological
order, so every gate only needs to know how *it* turned inputs into its output.
The forward values a rule reads (the multiply gate reads the other input) are kept
alive by the graph itself: that is the activation the lecture goes on to count.
"""

from __future__ import annotations

from typing import Callable, Iterable


class Value:
    """One scalar in a computation graph: its forward value and its gradient."""

    def __init__(self, data: float, parents: Iterable["Value"] = (), op: str = "") -> None:
        self.data = float(data)
        self.grad = 0.0
        self.parents: tuple[Value, ...] = tuple(parents)
        self.op = op
        self._backward: Callable[[], None] = lambda: None

    def __add__(self, other: "Value | float") -> "Value":
        other = _as_value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def distribute() -> None:
            # Add gate: each input gets the upstream gradient unchanged.
            self.grad += out.grad
            other.grad += out.grad

        out._backward = distribute
        return out

    def __mul__(self, other: "Value | float") -> "Value":
        other = _as_value(other)
        out = Value(self.data * other.data, (self, other), "×")

        def swap() -> None:
            # Multiply gate: each input gets the *other* input's forward value
            # times the upstream gradient, which is why both must still be around.
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = swap
        return out

    def maximum(self, other: "Value | float") -> "Value":
        other = _as_value(other)
        self_wins = self.data >= other.data   # a tie routes to the first input
        out = Value(self.data if self_wins else other.data, (self, other), "max")

        def route() -> None:
            # Max gate: the winner gets all of the upstream gradient, the loser none.
            winner = self if self_wins else other
            winner.grad += out.grad

        out._backward = route
        return out

    __radd__ = __add__
    __rmul__ = __mul__

    def backward(self, upstream: float = 1.0) -> None:
        """Fill ``grad`` of every value this one depends on.

        ``upstream`` is the gradient arriving at this value from further right;
        for the circuit's own output it is ∂f/∂f = 1.
        """
        order = _topological_order(self)
        for node in order:
            node.grad = 0.0
        self.grad = float(upstream)
        for node in reversed(order):
            node._backward()

    def __repr__(self) -> str:
        return f"Value(data={self.data}, grad={self.grad})"


def _as_value(x: "Value | float") -> Value:
    return x if isinstance(x, Value) else Value(x)


def _topological_order(root: Value) -> list[Value]:
    """Every value reachable from ``root``, each after all the values it was made from."""
    order: list[Value] = []
    seen: set[int] = set()

    def visit(node: Value) -> None:
        if id(node) in seen:
            return
        seen.add(id(node))
        for parent in node.parents:
            visit(parent)
        order.append(node)

    visit(root)
    return order
