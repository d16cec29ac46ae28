"""fig-3x's counts against numpy's own FLOP count and a finite-difference check of the two
backward products."""

from __future__ import annotations

import numpy as np
import pytest
from _s1s2_reference import linear_layer_flops

from lecture_numerics import quantity

# Small widths: numpy prints its count with four significant digits, exact only for small shapes.
SHAPES = [(4, 3, 5), (7, 2, 9), (16, 12, 8)]


@pytest.mark.parametrize("S, D_IN, D_OUT", SHAPES)
def test_numpy_counts_three_equal_products(S, D_IN, D_OUT):
    forward, grad_w, grad_x = linear_layer_flops(S, D_IN, D_OUT)
    assert forward == grad_w == grad_x == 2 * S * D_IN * D_OUT
    assert quantity("threex.forward_matmuls").value == forward / forward == 1
    assert quantity("threex.backward_matmuls").value == (grad_w + grad_x) / forward == 2
    assert quantity("threex.train_over_inference").value == (forward + grad_w + grad_x) / forward == 3
    assert [quantity(f"threex.{k}").display for k in ("forward_matmuls", "backward_matmuls",
                                                       "train_over_inference")] == ["1", "2", "3"]


def test_finite_differences_confirm_the_two_backward_products():
    rng = np.random.default_rng(0)
    x, w = rng.normal(size=(4, 3)), rng.normal(size=(3, 5))
    upstream = rng.normal(size=(4, 5))          # ∂L/∂Y for L = Σ upstream ⊙ (X·W)

    def loss(x_, w_):
        return float(np.sum(upstream * (x_ @ w_)))

    eps = 1e-6
    grad_w = np.zeros_like(w)
    for idx in np.ndindex(w.shape):
        bump = np.zeros_like(w)
        bump[idx] = eps
        grad_w[idx] = (loss(x, w + bump) - loss(x, w - bump)) / (2 * eps)
    grad_x = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        bump = np.zeros_like(x)
        bump[idx] = eps
        grad_x[idx] = (loss(x + bump, w) - loss(x - bump, w)) / (2 * eps)
    np.testing.assert_allclose(grad_w, x.T @ upstream, atol=1e-6)
    np.testing.assert_allclose(grad_x, upstream @ w.T, atol=1e-6)


def test_the_kept_input_is_the_largest_text_of_panel_a():
    """fig-3x Ⓐ (storyboard): 「用前向存下来的输入」 is the largest text in the panel, header included."""
    from manim import Text

    from studio.engine.stills import section_stills

    still = next(s for s in section_stills("fig-3x") if s.name == "A.1")
    texts = [m for top in still.mobjects for m in top.get_family() if isinstance(m, Text)]
    largest = max(t.font_size for t in texts)
    # manim reads a Text's size back from its drawn height, so equal sizes differ by a hair.
    key = "".join(t.text for t in texts if t.font_size > 0.95 * largest)
    assert key == "用前向存下来的输入"


def test_panel_a_reads_the_three_cells_one_beat_each():
    """fig-3x Ⓐ (「一格一格念那三次矩阵乘」): one beat per cell, each beat lighting the next cell
    while the cells not yet read stay dimmed, then the ⛔ hold on ②."""
    from manim import ManimColor, Text

    from scenes.kit import theme

    from studio.engine.stills import section_stills

    titles = ("① 前向", "② 权重梯度", "③ 输入梯度")   # ② and ③ in red: backward
    stills = [s for s in section_stills("fig-3x") if s.panel == "A"]

    waiting = ManimColor(theme.text_color("muted"))

    def lit(still) -> list[bool]:
        # A cell not yet read shows its title in gray (or dimmed); a lit title is opaque and coloured.
        texts = {m.text.replace(" ", ""): m for top in still.mobjects for m in top.get_family() if isinstance(m, Text)}
        return [texts[t.replace(" ", "")].get_fill_opacity() > 0.99 and texts[t.replace(" ", "")].get_color() != waiting
                for t in titles]

    # Then the ⛔ hold (「第②格那句 … 多停三秒」): ② is the one lit cell.
    assert [s.name for s in stills] == ["A.1", "A.2", "A.3", "A.4"]
    readings = [lit(s) for s in stills]
    for n, reading in enumerate(readings[:3]):
        assert reading[n] and not any(reading[n + 1:]), (stills[n].name, reading)
    assert readings[3][1], ("A.4", readings[3])
