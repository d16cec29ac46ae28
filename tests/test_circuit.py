"""The scalar autodiff behind fig-circuit, against references it does not share code with:
closed-form partial derivatives, central finite differences, and the gates' textbook rules.
"""

from __future__ import annotations

import numpy as np
import pytest

from lecture_numerics import quantity
from lecture_numerics.autodiff import Value
from lecture_numerics.circuit import MINUS, run_circuit, run_gate, signed

STEP = 1e-6


def f_plain(a: float, b: float, c: float) -> float:
    """f = (a + b) · c in plain floats: the reference the finite differences probe."""
    return (a + b) * c


def closed_form_gradient(a: float, b: float, c: float) -> dict[str, float]:
    """∂f/∂a = ∂f/∂b = c, ∂f/∂c = a + b, ∂f/∂q = c for f = (a + b) · c."""
    return {"a": c, "b": c, "c": a + b, "q": c}


def central_difference(fn, point: list[float], index: int) -> float:
    up, down = list(point), list(point)
    up[index] += STEP
    down[index] -= STEP
    return (fn(*up) - fn(*down)) / (2 * STEP)


RANDOM_POINTS = [tuple(p) for p in np.random.default_rng(7).uniform(-5, 5, size=(20, 3))]


@pytest.mark.parametrize("point", [(2.0, -3.0, 4.0), *RANDOM_POINTS])
def test_circuit_gradients_match_closed_form(point):
    nodes = run_circuit(*point)
    expected = closed_form_gradient(*point)
    for name, value in expected.items():
        assert nodes[name].grad == pytest.approx(value, abs=1e-12), name
    assert nodes["f"].grad == 1.0


@pytest.mark.parametrize("point", [(2.0, -3.0, 4.0), *RANDOM_POINTS])
def test_circuit_gradients_match_finite_differences(point):
    nodes = run_circuit(*point)
    assert nodes["f"].data == pytest.approx(f_plain(*point), abs=1e-12)
    for index, name in enumerate("abc"):
        assert nodes[name].grad == pytest.approx(central_difference(f_plain, list(point), index), abs=1e-6), name


def test_panel_a_numbers_are_the_lectures():
    """The notes read them out: q = −1, f = −4; red 1, then −1 and 4 swapped, then 4 and 4."""
    shown = {key: quantity(f"circuit.{key}").display for key in
             ("q", "f", "grad_f", "grad_c", "grad_q", "grad_a", "grad_b")}
    assert shown == {"q": "−1", "f": "−4", "grad_f": "1", "grad_c": "−1", "grad_q": "4",
                     "grad_a": "4", "grad_b": "4"}


def test_multiply_gate_swaps_forward_values():
    nodes = run_circuit(2.0, -3.0, 4.0)
    assert nodes["c"].grad == nodes["q"].data and nodes["q"].grad == nodes["c"].data


@pytest.mark.parametrize("x, y", [(3.0, -1.0), (-1.0, 3.0), (0.5, 0.25), (-2.0, -7.0)])
@pytest.mark.parametrize("upstream", [1.0, 5.0, -2.0])
def test_max_gate_routes_everything_to_the_winner(x, y, upstream):
    nodes = run_gate("max", x, y, upstream)
    winner, loser = ("x", "y") if x > y else ("y", "x")
    assert nodes["out"].data == max(x, y)
    assert nodes[winner].grad == upstream and nodes[loser].grad == 0.0
    # Away from a tie max is differentiable; the routed gradients are its slopes.
    for index, name in enumerate("xy"):
        slope = central_difference(max, [x, y], index)
        assert nodes[name].grad == pytest.approx(upstream * slope, abs=1e-6), name


@pytest.mark.parametrize("x, y", [(3.0, -1.0), (-2.5, 4.0)])
@pytest.mark.parametrize("upstream", [1.0, 5.0])
def test_add_and_multiply_gates_against_finite_differences(x, y, upstream):
    references = {"add": lambda x, y: x + y, "mul": lambda x, y: x * y}
    for gate, fn in references.items():
        nodes = run_gate(gate, x, y, upstream)
        for index, name in enumerate("xy"):
            slope = central_difference(fn, [x, y], index)
            assert nodes[name].grad == pytest.approx(upstream * slope, abs=1e-6), (gate, name)


def test_shared_input_accumulates_both_paths():
    """x used twice (x · x + x): gradients add up, 2x + 1, as they must in a real graph."""
    x = Value(3.0)
    y = x * x + x
    y.backward()
    assert x.grad == 7.0


def test_backward_twice_does_not_double_count():
    nodes = run_circuit(2.0, -3.0, 4.0)
    nodes["f"].backward()
    assert nodes["a"].grad == 4.0


def test_panel_b_numbers_follow_the_temperaments():
    value = lambda key: quantity(key).value
    x, y = value("circuit.gates.x"), value("circuit.gates.y")
    add_up, mul_up, max_up = (value(f"circuit.{g}.upstream") for g in ("add", "mul", "max"))
    assert value("circuit.add.grad_x") == value("circuit.add.grad_y") == add_up
    assert value("circuit.mul.grad_x") == y * mul_up and value("circuit.mul.grad_y") == x * mul_up
    assert value("circuit.max.out") == max(x, y)
    assert {value("circuit.max.grad_x"), value("circuit.max.grad_y")} == {max_up, 0.0}


def test_display_uses_a_real_minus_sign_and_no_negative_zero():
    assert signed(-1.0) == MINUS + "1" and "-" not in signed(-4.0)
    assert signed(-0.0) == "0" and signed(4.0) == "4"
    assert quantity("circuit.b").display == "\u22123"


def test_each_activation_bill_tile_is_the_gate_it_repeats():
    """fig-circuit Ⓒ: 「把这一个门乘以几百亿次」: every tile of the bill is the × gate from the
    left, small (a ring, its cross, two inputs and an output) with the value it keeps."""
    from manim import Circle, Line

    from scenes.kit import theme
    from scenes.kit.circuit_widgets import gate_field

    field = gate_field(rows=2, cols=3)
    assert len(field) == 6
    kept_colour = theme.color("activations").to_hex().lower()
    for tile in field:
        family = tile.get_family()
        assert sum(isinstance(m, Circle) for m in family) == 1
        lines = [m for m in family if isinstance(m, Line)]
        assert len(lines) >= 2 + 4 + 1, "two crossing strokes, two bent inputs, one output"
        assert any(m.get_fill_opacity() > 0.5 and m.get_fill_color().to_hex().lower() == kept_colour
                   for m in family if not isinstance(m, (Circle, Line)))


# ---- the figure: the swap drawn, q's colour on time -------------------------------------------

@pytest.fixture(scope="module")
def circuit_stills():
    from studio.engine.stills import section_stills
    return {s.name: s.mobjects for s in section_stills("fig-circuit")}


def _parts(mobjects) -> list:
    return [p for top in mobjects for p in top.get_family() if p.has_points()]


def test_the_swap_is_drawn_when_it_is_named(circuit_stills):
    """Ⓐ 「看出来了吗 —— 它俩换过来了」 (A.10): two arrows cross from each input's forward
    value to the other's gradient, in ink (they carry forward values), and stay; A.9 has none."""
    from manim import CurvedArrow

    from scenes.kit import theme

    def swap_arrows(name: str) -> int:
        return sum(1 for top in circuit_stills[name] for m in top.get_family()
                   if isinstance(m, CurvedArrow) and m.get_stroke_color() == theme.color("ink"))

    assert (swap_arrows("A.9"), swap_arrows("A.10")) == (0, 2)


def test_q_turns_the_activations_colour_only_once_it_is_called_forward(circuit_stills):
    """Ⓒ: at 「算 c 的梯度，我用到了 q」 (C.1) q is used, not yet kept: nothing on screen wears the
    activations' colour until 「而 q 是前向算出来的」 (C.2)."""
    from scenes.kit import theme

    def teal(name: str) -> int:
        colours = {theme.color("activations"), theme.text_color("activations")}
        return sum(1 for p in _parts(circuit_stills[name]) if p.get_stroke_opacity() > 0
                   and (p.get_stroke_color() in colours or (p.get_fill_opacity() > 0 and p.get_fill_color() in colours)))

    assert teal("C.1") == 0 and teal("C.2") > 0
