"""fig-slider: derivative, partial derivative and chain rule as 兑换率 (exchange rates).

One fader drives a loss through three stages (the notes' 推子 → 甲 → 乙 → 难听程度):

    甲 = 2·x          (a gain stage: rate 2 everywhere)
    乙 = √甲          (a compressor: rate 1 / (2√甲), which is 0.5 where 甲 = 1)
    难听程度 = 2 + 3·乙 (rate 3 everywhere)

so the loss of the fader is L(x) = 2 + 3·√(2x). At mid-travel x₀ = 0.5 it reads 5.00 and
its derivative is 2 × 0.5 × 3 = 3. The readout shows two decimals: a push of 0.01 moves
the exact loss by 0.02985 (the finite difference 2.985 differs from the derivative 3 by
the curvature of √), which the readout shows as 5.00 → 5.03, so on screen
0.03 ÷ 0.01 = 3 holds digit for digit.

Panel B puts that fader in the middle of a desk of five; the other four add quadratic
terms (each has a target level it sounds best at) and one coupling between faders 1 and 2.
Every partial derivative is computed from those terms; the middle one is panel A's 3.
"""

from __future__ import annotations

import math

import numpy as np

from lecture_numerics.provenance import chosen, derived, speakers_example
from lecture_numerics.zh import zh_round


# Figure design: the fader sits at mid-travel; the readout shows two decimals.
FADER_AT = 0.5
READOUT_DECIMALS = 2
# The readout ticks this many times while the push happens (5.00, 5.01, 5.02, 5.03).
READOUT_STEPS = 3

# Panel B's desk: five faders, the middle one (index 2) is panel A's fader.
DESK_POSITIONS = (0.30, 0.80, FADER_AT, 0.40, 0.65)
DESK_TARGETS = (0.55, 0.60, None, 0.70, 0.45)
DESK_WEIGHTS = (2.0, 1.5, None, 1.0, 2.0)
DESK_COUPLING = 1.0           # strength of the (x₁ − t₁)(x₂ − t₂) term
MIDDLE = 2
DESK_FORMULA = ("L = 2 + 3·√(2x₃) + Σᵢ≠₃ wᵢ(xᵢ − tᵢ)² + c·(x₁ − t₁)(x₂ − t₂), "
                f"w = {DESK_WEIGHTS}, t = {DESK_TARGETS}, c = {DESK_COUPLING}, faders at x = {DESK_POSITIONS}")


# ---- panel A and C: one fader through three stages -------------------------------------

def stage_jia(x: float) -> float:
    """甲 = 2x: the fader through a gain stage."""
    return 2.0 * x


def stage_yi(jia: float) -> float:
    """乙 = √甲: a compressor, it moves less than its input where 甲 > ¼."""
    return math.sqrt(jia)


def stage_loss(yi: float) -> float:
    """难听程度 = 2 + 3·乙."""
    return 2.0 + 3.0 * yi


def loss_of_fader(x: float) -> float:
    """The readout: 难听程度 as a function of the fader position."""
    return stage_loss(stage_yi(stage_jia(x)))


def stage_rates(x: float) -> tuple[float, float, float]:
    """Local rates of the three stages at fader position x (analytic derivatives)."""
    jia = stage_jia(x)
    return 2.0, 1.0 / (2.0 * math.sqrt(jia)), 3.0


def readout(loss: float) -> float:
    """What the two-decimal readout shows for an exact loss."""
    return round(loss, READOUT_DECIMALS)


def readout_ticks(x: float, push: float, steps: int = READOUT_STEPS) -> tuple[float, ...]:
    """Readout values while the fader travels from x to x + push in equal steps."""
    return tuple(readout(loss_of_fader(x + push * i / steps)) for i in range(steps + 1))


# ---- panel B: a desk of five faders --------------------------------------------------------

def desk_loss(positions) -> float:
    """Loss of the whole desk: panel A's fader plus one quadratic term per other fader."""
    p = np.asarray(positions, dtype=float)
    total = loss_of_fader(p[MIDDLE])
    offsets = [p[i] - DESK_TARGETS[i] if i != MIDDLE else 0.0 for i in range(len(p))]
    for i, offset in enumerate(offsets):
        if i != MIDDLE:
            total += DESK_WEIGHTS[i] * offset ** 2
    return float(total + DESK_COUPLING * offsets[0] * offsets[1])


def desk_partials(positions, targets=DESK_TARGETS, weights=DESK_WEIGHTS,
                  coupling: float = DESK_COUPLING) -> tuple[float, ...]:
    """∂L/∂xᵢ for every fader, each with the others held where they are (analytic)."""
    p = [float(v) for v in positions]
    offsets = [p[i] - targets[i] if i != MIDDLE else 0.0 for i in range(len(p))]
    partials = []
    for i in range(len(p)):
        if i == MIDDLE:
            partials.append(math.prod(stage_rates(p[i])))
            continue
        own = 2.0 * weights[i] * offsets[i]
        coupled = coupling * offsets[1 - i] if i in (0, 1) else 0.0
        partials.append(own + coupled)
    return tuple(partials)


# ---- display --------------------------------------------------------------------------------

def show_readout(value: float) -> str:
    return f"{value:.{READOUT_DECIMALS}f}"


def show_rate(value: float) -> str:
    """A rate as the speaker says it: 3, 0.5, −1.2 (no trailing zeros, a real minus sign)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text.replace("-", "−") if text not in ("-0", "0") else "0"


# ---- ledger ---------------------------------------------------------------------------------

fader_at = chosen(
    "slider.fader_at", FADER_AT, unit="fader travel", fmt="{:g}",
    measures="where panel A's fader sits before the push (x₀)",
    reason="mid-travel: the readout there is a round 5.00 and the fader's rate a round 3")
desk_positions = chosen(
    "slider.desk_positions", DESK_POSITIONS, unit="fader travel", fmt=str,
    measures="where panel B's five faders sit (the middle one is panel A's)",
    reason="spread over the travel so the knobs read apart; each off its target, so every partial is non-zero")
desk_targets = chosen(
    "slider.desk_targets", DESK_TARGETS, unit="fader travel", fmt=str,
    measures="the level each other fader sounds best at (None: the middle fader follows panel A's law)",
    reason="some above, some below the faders' positions, so the partials have both signs")
desk_weights = chosen(
    "slider.desk_weights", DESK_WEIGHTS, unit="loss per travel²", fmt=str,
    measures="how strongly each other fader's distance from its target counts",
    reason="unequal, so the partials differ in size as well as sign")
desk_coupling = chosen(
    "slider.desk_coupling", DESK_COUPLING, unit="loss per travel²", fmt="{:g}",
    measures="strength of the (x₁ − t₁)(x₂ − t₂) term coupling faders 1 and 2",
    reason="one coupling, so 「按住别的不动」 visibly matters: fader 1's partial depends on where fader 2 is")

push = speakers_example(
    "slider.push", 0.01, unit="fader travel",
    measures="how far the speaker pushes the fader in panel A",
    fmt="{:.2f}", notes="0.01", notes_quote="现在我把这个推子往上推一点点，推了零点零一。",
)

_ticks = {
    "readout_before": 0, "readout_tick_1": 1, "readout_tick_2": 2, "readout_after": READOUT_STEPS,
}
_tick_notes = {"readout_before": "5.00", "readout_after": "5.03"}
for _name, _i in _ticks.items():
    derived(
        f"slider.{_name}",
        lambda push, x0, i=_i: readout_ticks(x0, push)[i],
        inputs={"push": push, "x0": fader_at}, unit="loss (readout, two decimals)",
        formula=f"round(2 + 3·√(2·(x₀ + push·{_i}/{READOUT_STEPS})), 2), x₀ = {FADER_AT}",
        fmt=show_readout,
        measures=f"the readout at tick {_i} of {READOUT_STEPS} while the fader is pushed",
        notes=_tick_notes.get(_name),
        notes_quote="读数从 5.00 变成了 5.03" if _name in _tick_notes else "",
    )

readout_change = derived(
    "slider.readout_change",
    lambda push, x0: readout_ticks(x0, push)[-1] - readout_ticks(x0, push)[0],
    inputs={"push": push, "x0": fader_at}, unit="loss",
    formula="readout after − readout before (as displayed)",
    fmt=lambda v: f"{v:.2f}", notes="0.03", notes_quote="变了零点零三",
    note="the exact change is 0.02985; the two-decimal readout shows 0.03",
)

fader_after = derived(
    "slider.fader_after", lambda x0, push: x0 + push, inputs={"x0": fader_at, "push": push},
    unit="fader travel", formula="x₀ + push", fmt="{:.2f}",
    measures="where panel A's fader sits after the push: the parameter's own value, which is not its derivative",
)

rate_jia = derived(
    "slider.rate_fader_to_jia", lambda x0: stage_rates(x0)[0], inputs={"x0": fader_at}, unit="甲 per fader",
    formula="d(2x)/dx = 2", fmt=show_rate, notes="2", notes_quote="推子动一格，中间量甲动两格",
)
rate_yi = derived(
    "slider.rate_jia_to_yi", lambda x0: stage_rates(x0)[1], inputs={"x0": fader_at}, unit="乙 per 甲",
    formula=f"d(√a)/da = 1/(2√a) at a = 2·x₀ = {stage_jia(FADER_AT)}", fmt=show_rate,
    notes="0.5", notes_quote="甲动一格，乙只动半格",
)
rate_loss = derived(
    "slider.rate_yi_to_loss", lambda x0: stage_rates(x0)[2], inputs={"x0": fader_at}, unit="loss per 乙",
    formula="d(2 + 3b)/db = 3", fmt=show_rate, notes="3", notes_quote="乙动一格，难听程度动三格",
)
chain_rate = derived(
    "slider.chain_rate", lambda a, b, c: a * b * c,
    inputs={"a": rate_jia, "b": rate_yi, "c": rate_loss}, unit="loss per fader",
    formula="rate(推子→甲) × rate(甲→乙) × rate(乙→难听程度)", fmt=show_rate,
    notes="3", notes_quote="二乘零点五乘三，等于三",
)
derivative = derived(
    "slider.derivative", lambda x0: math.prod(stage_rates(x0)), inputs={"x0": fader_at},
    unit="loss per fader", formula=f"dL/dx of L(x) = 2 + 3·√(2x) at x₀ = {FADER_AT}: 3/√(2x₀)", fmt=show_rate,
    note="over the 0.01 push the exact slope is 2.985; the two-decimal readout shows 0.03 ÷ 0.01 = 3",
    notes="3", notes_quote="那这个推子的导数就是 0.03 除以 0.01，等于 3",
)

for _i in range(len(DESK_POSITIONS)):
    derived(
        f"slider.partial_{_i + 1}",
        lambda positions, targets, weights, coupling, i=_i: desk_partials(positions, targets, weights, coupling)[i],
        inputs={"positions": desk_positions, "targets": desk_targets, "weights": desk_weights,
                "coupling": desk_coupling},
        unit="loss per fader", fmt=show_rate,
        formula=f"∂L/∂x{_i + 1} with the other faders held, {DESK_FORMULA}",
        measures=f"partial derivative of fader {_i + 1} of five (panel B)",
    )

desk_faders = speakers_example(
    "slider.desk_faders", 3e11, unit="faders (parameters)",
    measures="the speaker's round figure for the parameters of a large model "
             "(order of magnitude; GPT-3 has 175B, DeepSeek-V3 671B, see sources.md)",
    fmt=zh_round, notes="三千亿", notes_quote="而这台调音台有三千亿个推子。",
)
