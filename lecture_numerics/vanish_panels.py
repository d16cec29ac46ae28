"""fig-vanish's panels: the two chains on a linear axis, on a log number line, and the
activation slopes that set part of each layer's rate. The chains themselves are vanish.py's
reverse sweep (gradient_along_chain); this module adds what the panels draw around them.
"""

from __future__ import annotations

import math

import numpy as np

from lecture_numerics.provenance import chosen, derived
from lecture_numerics.vanish import (INPUT_HIGH, INPUT_LOW, LAYERS, RATE_HIGH, RATE_LOW, SEARCH_HALF_WIDTH,
                                     SIGMOID_MAX_SLOPE, gradient_along_chain, sigmoid_slope)
from lecture_numerics.zh import zh_count

_ORDERS_QUOTE = "中间隔着十个数量级。"

ORDERS_BETWEEN = derived(
    "vanish.orders_between", lambda high, low: math.log10(high / low),
    inputs={"high": INPUT_HIGH, "low": INPUT_LOW}, unit="orders of magnitude", fmt="{:.0f}",
    formula="log10(g_1(1.2) ÷ g_1(0.8)) = (layers − 1)·log10(1.2 ÷ 0.8), from the reverse sweeps",
    measures="orders of magnitude between the 1.2 and 0.8 chains at the input end",
    notes="10", notes_quote=_ORDERS_QUOTE)
ORDERS_BETWEEN_ZH = derived(
    "vanish.orders_between_zh", lambda orders: orders, inputs={"orders": ORDERS_BETWEEN},
    unit="orders of magnitude", fmt=lambda v: zh_count(round(v)), formula="vanish.orders_between, said in Chinese",
    measures="the same, as the speaker says it (十)", notes="十", notes_quote=_ORDERS_QUOTE)

OUTPUT_GRADIENT = derived(
    "vanish.output_gradient", lambda rate, layers: float(gradient_along_chain(rate, layers)[-1]),
    inputs={"rate": RATE_LOW, "layers": LAYERS}, unit="", fmt="{:g}",
    formula="g_60 = ∂L/∂L, the seed of the reverse sweep",
    measures="the gradient at the output end of both chains (where they start, and the rate that neither "
             "grows nor shrinks)")


def rate_offset(low: float, high: float) -> float:
    """How far each rate sits from 1 (the same for both, or the panel's claim fails)."""
    if not math.isclose(1 - low, high - 1):
        raise ValueError(f"{low} and {high} are not equally far from 1")
    return high - 1


RATE_OFFSET = derived(
    "vanish.rate_offset_zh", rate_offset, inputs={"low": RATE_LOW, "high": RATE_HIGH}, unit="fraction",
    fmt=lambda v: zh_count(round(v * 10)) + "成", formula="|rate − 1|, in tenths (成)",
    measures="how far each per-layer rate sits from 1",
    note="what the screen says (各离 1 两成) and what the L235 erratum has the speaker say (离一都只差两成); "
         "the notes' 「只差两成」 reads as the gap between the rates, vanish.rate_gap_zh")

# The notes say the two rates 「只差两成」: read as said, that is the gap between them, four tenths
# (each is two tenths from 1, as the screen says). The census reads the notes' 两成 as this key, so
# the ledger flags it once and the errata give the sentence to say (it is drawn nowhere).
RATE_GAP = derived(
    "vanish.rate_gap_zh", lambda low, high: high - low, inputs={"low": RATE_LOW, "high": RATE_HIGH},
    unit="fraction", fmt=lambda v: zh_count(round(v * 10)) + "成", formula="rate_high − rate_low, in tenths (成)",
    measures="how far apart the two per-layer rates are", notes="两成",   # read by census_rules at 「差两成」
    note="零点八和一点二之间差四成，各离一才是两成（图上写「各离 1 两成」）：说「离一都只差两成」。")

# The notes open Ⓐ with 「把六十一个数乘起来」; the chain on screen multiplies the seed at the output
# end by one rate per hop back to the input-most layer: 1 + 59 = 60 numbers (0.8⁵⁹ = 1.9×10⁻⁶, as
# drawn and as the notes themselves say on Ⓑ). Declared so the errata tell the speaker (drawn nowhere).
NUMBERS_MULTIPLIED = derived(
    "vanish.numbers_multiplied", lambda layers: 1 + (layers - 1), inputs={"layers": LAYERS}, unit="numbers",
    fmt="{}", formula="the seed g_60 = 1, times one rate per hop: 1 + (layers − 1)",
    measures="how many numbers are multiplied to reach the input-most layer of the drawn chain",
    notes="六十一", notes_quote="把六十一个数乘起来 —— 那乘起来会怎样？",
    note="图上的链是起点的 1 乘上 59 个兑换率，输入端的 1.9×10⁻⁶ 正是 0.8⁵⁹（六十一个数会是 0.8⁶⁰）；"
         "讲稿的「六十一」说的是 V3 的 61 层，对 V3 成立，所以只是附录里的细节，不用改口。")

# --- Ⓐ the linear axis ------------------------------------------------------------------------

LINEAR_TOP = chosen("vanish.axis.linear_top", 10.0, unit="", fmt="{:g}",
                    measures="top of Ⓐ's linear gradient axis",
                    reason="tall enough that the 1.2 chain visibly climbs for a dozen layers before it leaves "
                           "the frame, short enough that 0.8 lies on the axis")


def exit_layers(rate: float, layers: int, top: float) -> int:
    """Layers in from the output end before the 1.2 chain passes the frame's top."""
    grads = gradient_along_chain(rate, layers)[::-1]
    return int(np.argmax(grads > top))


def landed_layers(rate: float, layers: int, top: float, share: float = 0.01) -> int:
    """Layers in from the output end before the 0.8 chain drops below 1 % of the frame."""
    grads = gradient_along_chain(rate, layers)[::-1]
    return int(np.argmax(grads < share * top))


EXIT_LAYERS = derived(
    "vanish.exit_layers_from_output", exit_layers, inputs={"rate": RATE_HIGH, "layers": LAYERS, "top": LINEAR_TOP},
    unit="layers", fmt="{}", formula="first hop k from the output with rate^k > axis top",
    measures="when the 1.2 chain leaves Ⓐ's frame (times the exit arrow)")
LANDED_LAYERS = derived(
    "vanish.landed_layers_from_output", landed_layers, inputs={"rate": RATE_LOW, "layers": LAYERS, "top": LINEAR_TOP},
    unit="layers", fmt="{}", formula="first hop k from the output with rate^k < 1 % of the axis top",
    measures="when the 0.8 chain lies on the axis (times the 不是画漏了 caption)")

LINEAR_TICKS = derived(
    "vanish.axis.linear_ticks", lambda top: [0.0, top / 2, top], inputs={"top": LINEAR_TOP}, unit="",
    fmt=lambda v: " / ".join(f"{x:g}" for x in v), item_fmt="{:g}", formula="0, half the top, the top",
    measures="tick labels of Ⓐ's gradient axis")
LAYER_TICKS = derived(
    "vanish.axis.layer_ticks", lambda layers: [1, layers], inputs={"layers": LAYERS}, unit="layer",
    fmt=lambda v: " / ".join(map(str, v)), item_fmt="{}", formula="first and last layer",
    measures="tick labels of Ⓐ's layer axis (input end, output end)")

# --- Ⓑ the log number line ---------------------------------------------------------------------

def power_label(value: float) -> str:
    """10⁻⁶, 10⁰, 10⁵ …: a power of ten as the axis writes it."""
    exponent = round(math.log10(value))
    return "10" + str(exponent).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))


LOG_TICKS = derived(
    "vanish.axis.log_ticks",
    lambda low, high: [10.0 ** e for e in range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1)],
    inputs={"low": INPUT_LOW, "high": INPUT_HIGH}, unit="",
    fmt=lambda v: " / ".join(map(power_label, v)), item_fmt=power_label,
    formula="every power of ten from ⌊log10 g_1(0.8)⌋ to ⌈log10 g_1(1.2)⌉",
    measures="tick labels of Ⓑ's log number line (×10 per tick)")
LOG_STEP = derived(
    "vanish.axis.log_step", lambda ticks: ticks[1] / ticks[0], inputs={"ticks": LOG_TICKS}, unit="×", fmt="{:g}",
    formula="ratio of neighbouring ticks of vanish.axis.log_ticks",
    measures="what one step between neighbouring ticks of Ⓑ's log number line multiplies by (每格 ×10): the "
             "rule for reading the new ruler")

# --- Ⓒ the activation slopes ---------------------------------------------------------------------

X_HALF = chosen("vanish.axis.x_half", 6.0, unit="", fmt="{:g}", measures="Ⓒ's x axis runs from −6 to 6",
                reason="wide enough that σ′ has fallen to under 1 % of its peak at both ends")


def sigmoid_at_max_slope(half_width: float = 10.0) -> float:
    """σ where σ′ peaks: the peak's x on a grid symmetric about 0 (step 0.001), then σ there."""
    x = np.linspace(-half_width, half_width, int(round(2000 * half_width)) + 1)
    peak_x = x[int(np.argmax([sigmoid_slope(v) for v in x]))]
    return 1 / (1 + math.exp(-peak_x))


SIGMOID_AT_MAX = derived(
    "vanish.sigmoid_at_max_slope", sigmoid_at_max_slope, inputs={"half_width": SEARCH_HALF_WIDTH}, unit="",
    fmt="{:g}",
    formula="σ(x*) where x* maximises σ′ on a grid over [−10, 10] (step 0.001)",
    measures="the sigmoid's value where its slope is largest", notes="二分之一",
    notes_quote="sigmoid 的导数等于 σ 乘以一减 σ， 在 σ 等于二分之一的时候最大，恰好是零点二五。")


def relu_slope(x: float) -> float:
    return 1.0 if x > 0 else 0.0


RELU_POSITIVE = derived(
    "vanish.relu_slope_positive", lambda half: float(np.unique([relu_slope(x) for x in np.linspace(1e-3, half, 101)])[0]),
    inputs={"half": X_HALF}, unit="", fmt="{:g}", formula="ReLU′(x) on a grid over (0, 6]: one value",
    measures="ReLU's slope on the positive half-axis", notes="1",
    notes_quote="再看绿的，ReLU 的导数：正半轴恒等于一。")
SIGMOID_SHRINK_ZH = derived(
    "vanish.sigmoid_shrink_zh", lambda peak: 1 / peak, inputs={"peak": SIGMOID_MAX_SLOPE}, unit="×",
    fmt=lambda v: zh_count(round(v)), formula="1 ÷ max σ′", measures="how many times σ′'s peak shrinks a gradient",
    notes="四", notes_quote="所以不能说「一定衰减四倍」，只能说它先天就往下压。")

SLOPE_TICKS = derived(
    "vanish.axis.slope_ticks", lambda peak, relu: [0.0, peak, relu], inputs={"peak": SIGMOID_MAX_SLOPE, "relu": RELU_POSITIVE},
    unit="", fmt=lambda v: " / ".join(f"{x:g}" for x in v), item_fmt="{:g}", formula="0, σ′'s peak, ReLU′ on the positive side",
    measures="tick labels of Ⓒ's slope axis")
X_TICKS = derived(
    "vanish.axis.x_ticks", lambda half: [-half, 0.0, half], inputs={"half": X_HALF}, unit="",
    fmt=lambda v: " / ".join(f"{x:g}" for x in v), item_fmt=lambda x: f"{x:g}".replace("-", "−"),
    formula="−half, 0, half", measures="tick labels of Ⓒ's x axis")


def slope_curves(half: float | None = None, points: int = 241) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """σ′ and ReLU′ evaluated on a grid (ReLU′ drawn as its two flat pieces)."""
    h = half or X_HALF.value
    x = np.linspace(-h, h, points)
    return {"sigmoid": (x, np.array([sigmoid_slope(v) for v in x])),
            "relu_left": (np.array([-h, 0.0]), np.array([relu_slope(-h), relu_slope(-1e-9)])),
            "relu_right": (np.array([0.0, h]), np.array([relu_slope(1e-9), relu_slope(h)]))}
