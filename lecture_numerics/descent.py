"""fig-descent: gradient descent run for real on a 1-D landscape, a 2-D bowl's gradients,
and fig-circuit's gradient read as "which parameter to move first".

Ⓐ L(t) = A·sin(4πt) + B·sin(πt) + C on t ∈ [0, 1] (two valleys, a shallow and a deep one);
   t ← t − η·L′(t) with the analytic slope, from two starts at the same height.
Ⓑ L(x, y) = (x² + 4y²)/2, ∇L = (x, 4y): the gradient at two points, its length = steepness.
Ⓒ −∇ of fig-circuit's f = (a + b) × c, from the autodiff run (circuit.grad_*).
"""

from __future__ import annotations


import numpy as np

from lecture_numerics.circuit import grad_a, grad_b, grad_c, signed
from lecture_numerics.provenance import chosen, derived
from lecture_numerics.runcache import disk_cached
from lecture_numerics.zh import zh_count

_REASON_1D = ("a landscape shaped like the notes' picture: exactly two valleys, a shallow one on the left "
              "and a deeper one on the right, with a smooth analytic slope")
COEFFS = chosen("descent.landscape_coeffs", (0.34, 0.26, 0.5), unit="loss", fmt=str,
                measures="A, B, C of L(t) = A·sin(4πt) + B·sin(πt) + C", reason=_REASON_1D)
ETA = chosen("descent.eta", 0.014, unit="", fmt="{:g}", measures="learning rate of the 1-D descent",
             reason="η·L″ ≈ 0.72 at both valleys: steps shrink every time and never cross the bottom")
STARTS = chosen("descent.starts", (0.25, 0.75), unit="t", fmt=str, item_fmt="{:g}",
                measures="start of the red and the green string",
                reason="both at the same height L = 0.684, so only the starting place differs")
STEPS = chosen("descent.steps", 4, unit="steps", fmt="{}", measures="descent steps per string (5 balls)",
               reason="few enough to see each hop; the strings have settled near their valleys")


def loss(t, coeffs=COEFFS.value):
    a, b, c = coeffs
    return a * np.sin(4 * np.pi * t) + b * np.sin(np.pi * t) + c


def slope(t, coeffs=COEFFS.value):
    a, b, _ = coeffs
    return 4 * np.pi * a * np.cos(4 * np.pi * t) + np.pi * b * np.cos(np.pi * t)


def curvature(t, coeffs=COEFFS.value):
    a, b, _ = coeffs
    return -16 * np.pi ** 2 * a * np.sin(4 * np.pi * t) - np.pi ** 2 * b * np.sin(np.pi * t)


def descend(start: float, eta: float, steps: int, coeffs=COEFFS.value) -> np.ndarray:
    """The iterates t₀ … t_steps of t ← t − η·L′(t)."""
    path = [start]
    for _ in range(steps):
        path.append(path[-1] - eta * float(slope(path[-1], coeffs)))
    return np.array(path)


@disk_cached
def valleys(coeffs=COEFFS.value, grid: int = 400) -> tuple[float, ...]:
    """Interior minima of L on (0, 1): sign changes of L′ from − to +, refined by brentq
    (scipy imported here: loading scipy.optimize costs 0.4 s in every worker)."""
    from scipy.optimize import brentq

    t = np.linspace(0, 1, grid + 1)
    s = slope(t, coeffs)
    return tuple(brentq(slope, t[i], t[i + 1], args=(coeffs,)) for i in range(grid) if s[i] < 0 <= s[i + 1])


PATHS = {
    colour: derived(f"descent.path_{colour}", lambda starts, eta, steps, i=i: tuple(map(float, descend(starts[i], eta, steps))),
                    inputs={"starts": STARTS, "eta": ETA, "steps": STEPS}, unit="t", fmt=str, item_fmt="{:.4f}",
                    formula="t ← t − η·L′(t), L′ analytic", measures=f"the {colour} string's ball positions")
    for i, colour in enumerate(("red", "green"))
}
VALLEYS = derived("descent.valleys", lambda coeffs: valleys(coeffs), inputs={"coeffs": COEFFS}, unit="t",
                  fmt=str, item_fmt="{:.4f}", formula="roots of L′ where it turns from − to + (brentq)",
                  measures="bottoms of the shallow and the deep valley")

# ---- Ⓑ two parameters: the gradient is a vector -------------------------------------------

POINTS_2D = chosen("descent.bowl_points", ((-1.6, 0.8), (1.2, -0.2)), unit="(x, y)", fmt=str,
                   measures="points A (steep) and B (gentle) on the bowl L = (x² + 4y²)/2",
                   reason="one point on steep ground, one on gentle ground, both inside the drawn contours")


BOWL_PARAMETERS = chosen("descent.bowl_parameter_count", 2, unit="parameters", fmt=zh_count,
                         measures="parameters of Ⓑ's bowl L(x, y) (Ⓒ's 「两个参数」 sketch)",
                         reason="the fewest parameters for which a slope needs a direction (L590: 加到两个参数)")


def bowl(x, y):
    return (x ** 2 + 4 * y ** 2) / 2


def bowl_gradient(x: float, y: float) -> np.ndarray:
    return np.array([x, 4 * y])


GRAD_NORMS = derived("descent.bowl_grad_norms", lambda points: tuple(float(np.linalg.norm(bowl_gradient(*p)))
                                                                     for p in points),
                     inputs={"points": POINTS_2D}, unit="", fmt=str, item_fmt="{:.2f}",
                     formula="|∇L| = √(x² + (4y)²)", measures="steepness at A and at B")

# ---- Ⓒ fig-circuit's gradient as a column to act on ----------------------------------------

def with_sign(x: float) -> str:
    """A signed entry as the column shows it: +1 and −4, so the one positive sign is seen."""
    return ("+" if x > 0 else "") + signed(x)


NEG_GRAD = {name: derived(f"descent.neg_grad_{name}", lambda g: -g, inputs={"g": q}, unit="", fmt=with_sign,
                          formula=f"−∂f/∂{name} (circuit.grad_{name}, from the autodiff run)",
                          measures=f"the downhill direction's entry for {name}")
            for name, q in (("a", grad_a), ("b", grad_b), ("c", grad_c))}
RELATIVE = derived("descent.a_over_c", lambda a, c: abs(a) / abs(c), inputs={"a": grad_a, "c": grad_c},
                   unit="×", fmt=lambda v: f"{v:g}", formula="|∂f/∂a| ÷ |∂f/∂c|",
                   measures="how much more moving a matters than moving c")
