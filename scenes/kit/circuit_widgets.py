"""Circuit pieces for the gate walkthroughs: gate nodes, labelled wires, a one-gate diagram.

Convention (the notes' 黑字/红字): a wire's forward value sits above its straight run in
ink, its gradient below in the backward colour. Widgets only place what they are handed;
the numbers come from the ledger through scenes.kit.text.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Circle, Line, Mobject, Text, VGroup

from scenes.kit import theme
from scenes.kit.text import formula, ledger_text, number

WIRE_WIDTH = 4
LABEL_BUFF = 0.16


def gate_node(symbol: str, radius: float = 0.45, *, size: str = "heading") -> VGroup:
    """A round gate with its operation written inside (+, ×, max)."""
    ring = Circle(radius=radius, color=theme.color("ink"), stroke_width=WIRE_WIDTH)
    ring.set_fill(theme.color("panel"), opacity=1)
    mark = formula(symbol, size=size)
    if len(symbol) == 1:
        mark.scale_to_fit_width(0.8 * radius)   # + and × otherwise draw at different sizes
    elif mark.width > 1.5 * radius:
        mark.scale_to_fit_width(1.5 * radius)
    return VGroup(ring, mark.move_to(ring))


def toward(node: Mobject, point) -> np.ndarray:
    """The point on a round node's rim facing ``point``."""
    center = node.get_center()
    direction = np.asarray(point, dtype=float) - center
    return center + direction / np.linalg.norm(direction) * (node.width / 2)


class Wire(VGroup):
    """A straight labelled run plus optional leads into/out of gates."""

    def __init__(self, run_start, run_end, *, lead_to=None, lead_from=None) -> None:
        self.run = Line(run_start, run_end, color=theme.color("ink"), stroke_width=WIRE_WIDTH)
        parts = [self.run]
        if lead_from is not None:
            parts.insert(0, Line(lead_from, run_start, color=theme.color("ink"), stroke_width=WIRE_WIDTH))
        if lead_to is not None:
            parts.append(Line(run_end, lead_to, color=theme.color("ink"), stroke_width=WIRE_WIDTH))
        super().__init__(*parts)

    def above(self, label: Mobject) -> Mobject:
        """Put ``label`` (a forward value) above the run."""
        return label.next_to(self.run, UP, buff=LABEL_BUFF)

    def below(self, label: Mobject) -> Mobject:
        """Put ``label`` (a gradient) below the run."""
        return label.next_to(self.run, DOWN, buff=LABEL_BUFF)


def forward_label(name: str, key: str, *, size: str = "body") -> Text:
    """``name = value`` in ink, e.g. ``q = −1``."""
    return ledger_text(f"{name} = {{{key}}}", size=size, color="ink")


def forward_value(key: str, *, size: str = "body") -> Text:
    """A forward value without a name (a gate's output), in ink."""
    return number(key, size=size, color="ink")


def gradient_label(key: str, *, size: str = "body") -> Text:
    """A gradient: the bare number in the backward colour."""
    return number(key, size=size, color="backward")


def value_glyphs(label: Text) -> VGroup:
    """The glyphs of the number at the end of a ``name = value`` label (to fly them)."""
    shown = label.text.split("=")[-1]
    count = len([ch for ch in shown if not ch.isspace()])
    return VGroup(*label.submobjects[-count:])


class GateDiagram(VGroup):
    """One gate: inputs ``x`` (upper) and ``y`` (lower) from the left, output to the right.

    ``wires["x" | "y" | "out"]`` are :class:`Wire` objects, ``node`` the gate.
    """

    def __init__(self, symbol: str, *, gap: float = 1.7, in_run: float = 1.5, bend: float = 0.5,
                 out_run: float = 1.5, radius: float = 0.42, symbol_size: str = "heading") -> None:
        self.node = gate_node(symbol, radius, size=symbol_size)
        run_end_x = -(radius + bend)
        self.wires: dict[str, Wire] = {}
        for name, sign in (("x", 1), ("y", -1)):
            end = np.array([run_end_x, sign * gap / 2, 0.0])
            start = end + LEFT * in_run
            self.wires[name] = Wire(start, end, lead_to=toward(self.node, end))
        out_start = self.node.get_right()
        self.wires["out"] = Wire(out_start, out_start + RIGHT * out_run)
        super().__init__(*self.wires.values(), self.node)
