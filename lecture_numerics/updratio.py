"""fig-updratio: the update ÷ parameter ruler, measured on a small MLP trained for real.

The toy: a two-layer tanh MLP 8 → 16 → 4 without biases, X and Y drawn N(0, 1) (64 rows),
full-batch plain gradient descent for 400 steps on Σ(E²)/(2·64), logged loss mean(E²).
Each drawn point at step k is ‖η·∂W1‖ ÷ ‖W1‖ for the first layer, before the update.

「刚好」's learning rate is swept, not chosen: η = 10^e for e on a 0.02 grid from −3 to 1, the
one whose median ratio over steps 50–399 sits closest to 1e-3 (in log10). 「太小」 and 「太大」
are that η divided and multiplied by 30. All runs of a sweep go through one vectorised loop
(one weight stack per learning rate), which is the same arithmetic as running them apart.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lecture_numerics.axes import power_of_ten_label, tick_formatter, tick_values_log
from lecture_numerics.runcache import disk_cached
from lecture_numerics.provenance import chosen, derived, sourced
from lecture_numerics.zh import zh_several

_TOY = "a toy small enough to run in a blink, big enough to have a first layer whose norm can grow"
LAYERS = chosen("updratio.layers", (8, 16, 4), unit="units", fmt=lambda v: " → ".join(map(str, v)),
                measures="input, hidden (tanh) and output widths of the MLP", reason=_TOY)
SAMPLES = chosen("updratio.samples", 64, unit="rows", fmt="{}", measures="rows of X and Y (full batch)", reason=_TOY)
SEEDS = chosen("updratio.seeds", (0, 1), unit="", fmt=str, measures="numpy default_rng seeds: data, initial weights",
               reason="fixed so that every run, and every test, sees the same toy")
STEPS = chosen("updratio.steps", 400, unit="steps", fmt="{}", measures="gradient-descent steps per run",
               reason="long enough for the ratios to settle and the 太大 run's weights to grow")
SWEEP = chosen("updratio.sweep_exponents", (-3.0, 1.0, 0.02), unit="log10 η", fmt=str,
               measures="the learning-rate sweep: from, to, step of the exponent",
               reason="four decades around the ruler's line, fine enough to land within 5 % of it")
WINDOW = chosen("updratio.median_window", (50, 400), unit="steps", fmt=str,
                measures="steps whose median ratio the sweep compares with the line",
                reason="skips the first transient steps")
SPREAD = chosen("updratio.spread", 30.0, unit="×", fmt="{:g}×",
                measures="太小 = η ÷ spread, 太大 = η × spread",
                reason="wide enough that the three curves sit clearly below / on / above the line")
CLIFF_GRID = chosen("updratio.cliff_grid", 0.01, unit="×", fmt="{:g}",
                    measures="step of the multiplier grid on the 太大 η searched for NaN",
                    reason="the notes' 2.1 is ill-defined: finite and non-finite runs interleave, so the cliff is "
                           "defined as the first multiplier on this grid whose run ends non-finite")
TARGET = sourced("updratio.target_ratio", 1e-3, unit="", fmt=lambda v: "10⁻³",
                 measures="the rule-of-thumb update ÷ parameter ratio",
                 citation="CS231n course notes, Neural Networks Part 3, §Ratio of weights:updates: \"A rough "
                          "heuristic is that this ratio should be somewhere around 1e-3\"; \"Note: updates, not "
                          "the raw gradients\"",
                 notes="千分之一", notes_quote="经验值是千分之一，图上那条黑线就是它。")


@dataclass(frozen=True)
class Runs:
    ratios: np.ndarray   # (runs, steps): ‖η∂W1‖ ÷ ‖W1‖ before each update
    losses: np.ndarray   # (runs, steps + 1): mean(E²) before each update, and after the last
    norms: np.ndarray    # (runs, steps + 1): ‖W1‖_F


def toy_data(seeds=SEEDS.value, layers=LAYERS.value, samples=SAMPLES.value):
    """X, Y from the data seed; W1 ~ N/√fan_in, W2 ~ N/√fan_in from the weight seed."""
    n_in, n_hidden, n_out = layers
    data = np.random.default_rng(seeds[0])
    x, y = data.normal(size=(samples, n_in)), data.normal(size=(samples, n_out))
    init = np.random.default_rng(seeds[1])
    w1 = init.normal(size=(n_in, n_hidden)) / np.sqrt(n_in)
    w2 = init.normal(size=(n_hidden, n_out)) / np.sqrt(n_hidden)
    return x, y, w1, w2


def train(etas, steps: int = STEPS.value) -> Runs:
    """Full-batch gradient descent, one weight stack per learning rate in ``etas``."""
    etas = np.asarray(etas, dtype=float)
    x, y, w1, w2 = toy_data()
    k, n = len(etas), len(x)
    w1, w2 = np.repeat(w1[None], k, 0), np.repeat(w2[None], k, 0)
    ratios, losses, norms = np.zeros((k, steps)), np.zeros((k, steps + 1)), np.zeros((k, steps + 1))
    # A run whose loss has turned non-finite stays so (inf and NaN only spread); from then on its
    # readings are NaN and its weights are parked at zero, since arithmetic on NaN is slow and
    # every run in the stack is computed on its own (the others' values do not change).
    dead = np.zeros(k, dtype=bool)
    with np.errstate(all="ignore"):          # the runs past the cliff overflow: that is the point
        for s in range(steps + 1):
            h = np.tanh(x @ w1)
            e = h @ w2 - y
            losses[:, s] = np.mean(e * e, axis=(1, 2))
            norms[:, s] = np.linalg.norm(w1, axis=(1, 2))
            dead |= ~np.isfinite(losses[:, s])
            losses[dead, s] = norms[dead, s] = np.nan
            if s == steps:
                break
            d_out = e / n                                         # ∂[Σ(E²)/(2n)] / ∂out
            d_w2 = h.transpose(0, 2, 1) @ d_out
            d_w1 = x.T @ ((d_out @ np.ascontiguousarray(w2.transpose(0, 2, 1))) * (1 - h * h))
            ratios[:, s] = etas * np.linalg.norm(d_w1, axis=(1, 2)) / norms[:, s]
            w1 = w1 - etas[:, None, None] * d_w1
            w2 = w2 - etas[:, None, None] * d_w2
            w1[dead] = 0.0
            w2[dead] = 0.0
    return Runs(ratios, losses, norms)


def sweep_exponents(sweep=SWEEP.value) -> np.ndarray:
    low, high, step = sweep
    return np.round(np.arange(low, high + step / 2, step), 6)


@disk_cached
def _sweep_pick(sweep, window, target) -> float:
    exponents = sweep_exponents(sweep)
    ratios = train(10.0 ** exponents).ratios
    medians = np.median(ratios[:, window[0]:window[1]], axis=1)
    distance = np.abs(np.log10(medians) - np.log10(target))
    return float(10.0 ** exponents[int(np.nanargmin(distance))])


@disk_cached
def three_runs(eta_ok: float, spread: float) -> Runs:
    """太小, 刚好, 太大, in that order."""
    return train([eta_ok / spread, eta_ok, eta_ok * spread])


@disk_cached
def cliff(eta_big: float, grid: float, batch: int = 25, limit: float = 4.0) -> float:
    """The smallest multiplier m on the grid (from 1) whose 400-step run at m·η_big ends non-finite.

    Near the edge the outcome is chaotic: even the summation order of a product moves it by a
    few grid steps (a one-run-at-a-time loop finds 1.55 where this batched one finds 1.52), so
    the value is shown to one decimal."""
    start = 1.0
    while start < limit:
        multipliers = np.round(start + grid * np.arange(batch), 6)
        final = train(eta_big * multipliers).losses[:, -1]
        bad = ~np.isfinite(final)
        if bad.any():
            return float(multipliers[int(np.argmax(bad))])
        start = float(multipliers[-1] + grid)
    raise ValueError(f"no non-finite run below {limit}× the 太大 learning rate")


RUN_NAMES = ("small", "ok", "big")

LR_OK = derived("updratio.lr_ok", _sweep_pick, inputs={"sweep": SWEEP, "window": WINDOW, "target": TARGET},
                unit="", fmt="{:.4f}", formula="10^e, e on the sweep grid minimising |log10 median ratio − log10 1e-3|",
                measures="the swept learning rate whose update ratio sits on 1e-3 (刚好)")
LR_SMALL = derived("updratio.lr_small", lambda ok, spread: ok / spread, inputs={"ok": LR_OK, "spread": SPREAD},
                   unit="", fmt="{:.5f}", formula="η_ok ÷ spread", measures="太小's learning rate")
LR_BIG = derived("updratio.lr_big", lambda ok, spread: ok * spread, inputs={"ok": LR_OK, "spread": SPREAD},
                 unit="", fmt="{:.3f}", formula="η_ok × spread", measures="太大's learning rate")


def _runs(ok, spread) -> Runs:
    return three_runs(ok, spread)


_RUN_INPUTS = {"ok": LR_OK, "spread": SPREAD}
MEDIANS = derived("updratio.median_ratios",
                  lambda ok, spread, window: tuple(float(v) for v in np.median(
                      _runs(ok, spread).ratios[:, window[0]:window[1]], axis=1)),
                  inputs={**_RUN_INPUTS, "window": WINDOW}, unit="", fmt=str, item_fmt="{:.1e}",
                  formula="median over steps 50–399 of ‖η∂W1‖ ÷ ‖W1‖", measures="太小, 刚好, 太大's typical ratio")
FINAL_LOSS_BIG = derived("updratio.final_loss_big", lambda ok, spread: float(_runs(ok, spread).losses[2, -1]),
                         inputs=_RUN_INPUTS, unit="", fmt="{:.2f}", formula="mean(E²) after step 400, 太大",
                         measures="final loss of the 太大 run")
FINAL_LOSS_OK = derived("updratio.final_loss_ok", lambda ok, spread: float(_runs(ok, spread).losses[1, -1]),
                        inputs=_RUN_INPUTS, unit="", fmt="{:.2f}", formula="mean(E²) after step 400, 刚好",
                        measures="final loss of the 刚好 run")
NORM_GROWTH = derived("updratio.weight_norm_growth",
                      lambda ok, spread: float(_runs(ok, spread).norms[2, -1] / _runs(ok, spread).norms[2, 0]),
                      inputs=_RUN_INPUTS, unit="×", fmt="{:.1f}×", formula="‖W1‖ after step 400 ÷ ‖W1‖ at step 0, 太大",
                      measures="how far the 太大 run stretches its first layer",
                      notes="四倍多", notes_quote="权重被撑到四倍多",
                      note="the run gives 4.2×, which is 「四倍多」 (four and a bit); the agreement check cannot read 多")
NORM_GROWTH_CALM = derived("updratio.weight_norm_growth_calm",
                           lambda ok, spread: tuple(float(v) for v in _runs(ok, spread).norms[:2, -1]
                                                    / _runs(ok, spread).norms[:2, 0]),
                           inputs=_RUN_INPUTS, unit="×", fmt=str, item_fmt="{:.2f}×",
                           formula="‖W1‖ after step 400 ÷ ‖W1‖ at step 0, 太小 and 刚好",
                           measures="the two calm runs' first-layer growth (they nearly coincide)")
# 「抖动」 is what is left of the loss once its trend is taken out. Over the last 100 steps the
# 刚好 run is a smooth, slightly bending descent, so the step-to-step |Δloss| of the two runs
# (JITTER below) mixes that descent in with the shaking; the wobble is measured about a
# polynomial trend instead.
TAIL = chosen("updratio.jitter_window", 100, unit="steps", fmt="{}",
              measures="the last steps whose loss the jitter is measured over (the zoomed plot of Ⓑ)",
              reason="long enough to hold many of the 太大 run's oscillations, short enough to be the run's end")
DETREND = chosen("updratio.detrend_degree", 2, unit="", fmt="{}",
                 measures="degree of the least-squares polynomial trend taken out of the tail before measuring jitter",
                 reason="a straight line leaves the 刚好 run's gentle bend behind as if it were shaking; from degree 2 "
                        "up the 太大 run's residual stays the same (0.0144 at 2 and 3), so the trend is out and the "
                        "shaking is kept")


def detrended_jitter(losses: np.ndarray, window: int = TAIL.value, degree: int = DETREND.value) -> float:
    """RMS of the last ``window`` steps' loss about its least-squares polynomial trend."""
    tail = np.asarray(losses[-(window + 1):], dtype=float)
    steps = np.arange(len(tail), dtype=float)
    trend = np.polynomial.Polynomial.fit(steps, tail, degree)(steps)
    return float(np.sqrt(np.mean((tail - trend) ** 2)))


_JITTER_INPUTS = {**_RUN_INPUTS, "window": TAIL, "degree": DETREND}
_JITTER_FORMULA = "RMS over the last 100 steps of loss − its least-squares quadratic trend"
JITTER_BIG = derived("updratio.loss_jitter_big",
                     lambda ok, spread, window, degree: detrended_jitter(_runs(ok, spread).losses[2], window, degree),
                     inputs=_JITTER_INPUTS, unit="", fmt="{:.3f}", formula=_JITTER_FORMULA + ", 太大",
                     measures="how much the 太大 run's loss shakes about its trend at the end")
JITTER_OK = derived("updratio.loss_jitter_ok",
                    lambda ok, spread, window, degree: detrended_jitter(_runs(ok, spread).losses[1], window, degree),
                    inputs=_JITTER_INPUTS, unit="", fmt="{:.1e}", formula=_JITTER_FORMULA + ", 刚好",
                    measures="how much the 刚好 run's loss shakes about its trend at the end (it hardly does)")
# 刚好's residual is only what a polynomial cannot follow of a smooth descent: it shrinks with
# every degree added (2.2e-6 at 2, 1.8e-7 at 3), so the ratio of the two jitters has no steady
# value. It is kept for the errata (its lower bound, and its value at each degree); the screen
# draws no multiple, only 太大's jitter and 刚好's smooth line.
TREND_DEGREES = chosen("updratio.detrend_degrees_bound", (2, 3, 4), unit="", fmt=str,
                       measures="trend degrees over which the jitter ratio's lower bound is taken",
                       reason="degree 2 is the first that takes the 刚好 run's bend out (updratio.detrend_degree); "
                              "higher degrees only shrink 刚好's fit residual, so the smallest ratio is at 2")


def jitter_ratio_bound(big: np.ndarray, ok: np.ndarray, degrees=TREND_DEGREES.value,
                       window: int = TAIL.value) -> float:
    """The smallest, over ``degrees``, of 太大's detrended jitter ÷ 刚好's."""
    return min(detrended_jitter(big, window, d) / detrended_jitter(ok, window, d) for d in degrees)


JITTER_TREND_RATIO = derived(
    "updratio.loss_jitter_trend_ratio",
    lambda ok, spread, window, degrees: jitter_ratio_bound(_runs(ok, spread).losses[2], _runs(ok, spread).losses[1],
                                                           degrees, window),
    inputs={**_RUN_INPUTS, "window": TAIL, "degrees": TREND_DEGREES}, unit="×",
    fmt=zh_several,      # 几千: its order is all that is steady (the digits move with the trend's degree)
    formula="min over trend degrees 2–4 of (RMS of 太大's last-100-step loss about its trend ÷ the same for 刚好)",
    measures="how many times more the 太大 run's loss shakes about its trend than the 刚好 run's, at least",
    notes="近十倍", notes_quote="抖动大了近十倍",
    note="the notes' 「近十倍」 is the step-to-step change (updratio.loss_jitter_ratio, 8.5×), which is mostly "
         "descent; about its trend the 刚好 run hardly shakes at all, and the ratio moves with the trend's degree "
         "(updratio.jitter_ratio_by_degree), so no multiple is said: 「loss 一直在抖（刚好那条几乎不抖）」")
ALL_DEGREES = chosen("updratio.detrend_degrees_all", (1, 2, 3, 4), unit="", fmt=str,
                     measures="trend degrees over which the jitter ratio is shown to have no steady value",
                     reason="from a straight line up to the highest degree the lower bound uses")
JITTER_RATIO_BY_DEGREE = derived(
    "updratio.jitter_ratio_by_degree",
    lambda ok, spread, window, degrees: tuple(
        detrended_jitter(_runs(ok, spread).losses[2], window, d) / detrended_jitter(_runs(ok, spread).losses[1], window, d)
        for d in degrees),
    inputs={**_RUN_INPUTS, "window": TAIL, "degrees": ALL_DEGREES}, unit="×",
    fmt=lambda v: " / ".join(f"{x:,.0f}×" for x in v), item_fmt="{:,.0f}×",
    formula="for each trend degree: RMS of 太大's last-100-step loss about its trend ÷ the same for 刚好",
    measures="the jitter ratio at trend degrees 1, 2, 3, 4 (it grows about tenfold per degree: no steady value)")
JITTER = derived("updratio.loss_jitter_ratio",
                 lambda ok, spread: float(np.mean(np.abs(np.diff(_runs(ok, spread).losses[2, -101:])))
                                          / np.mean(np.abs(np.diff(_runs(ok, spread).losses[1, -101:])))),
                 inputs=_RUN_INPUTS, unit="×", fmt="{:.1f}×",
                 formula="mean |Δloss| over the last 100 steps, 太大 ÷ 刚好",
                 measures="how much more the 太大 run's loss moves from step to step at the end (descent and "
                          "shaking together; not drawn — the screen shows the detrended jitter)",
                 note="what the notes' 「近十倍」 measures (8.5×): step-to-step change, not jitter; about its trend "
                      "the 刚好 run hardly shakes at all (updratio.loss_jitter_ok), so the detrended ratio has a "
                      "near-zero denominator and no steady value; the screen shows 太大's jitter and 刚好's smooth "
                      "line with no multiple, and the errata tell the speaker")
CLIFF = derived("updratio.nan_multiplier", lambda ok, spread, grid: cliff(ok * spread, grid),
                inputs={**_RUN_INPUTS, "grid": CLIFF_GRID}, unit="×", fmt="{:.1f}",
                formula="smallest m on a 0.01 grid from 1 whose 400-step run at m·η_big ends non-finite",
                measures="how much more learning rate the 太大 run takes before its loss turns NaN",
                notes="2.1", notes_quote="而学习率再乘 2.1 就直接 NaN。",
                note="The notes' 2.1 came from a bisection with a 200-step test; finite and non-finite runs "
                     "interleave between about 1.5 and 2.4 (even the summation order of a batched product moves "
                     "the edge), so a bisection lands on an arbitrary edge. Over the plotted 400 steps the first "
                     "multiplier on a 0.01 grid whose run ends non-finite is this one.")

# ---- the cliff: final loss against the learning rate, up to the first NaN ---------------------

CLIFF_OVER_OK = derived("updratio.cliff_over_ok", lambda spread, multiplier: spread * multiplier,
                        inputs={"spread": SPREAD, "multiplier": CLIFF}, unit="×", fmt="{:.0f}",
                        formula="spread × nan_multiplier (太大 = spread × 刚好, the cliff = nan_multiplier × 太大)",
                        measures="how many times 刚好's learning rate the first NaN run of the cliff search is")


@disk_cached
def loss_by_learning_rate(eta_ok: float, spread: float, cliff_multiplier: float,
                          sweep=SWEEP.value) -> tuple[np.ndarray, np.ndarray]:
    """Final loss after 400 steps against η: the sweep's grid below the cliff (the first NaN
    run of the multiplier scan, at cliff_multiplier × 太大's η) with the three drawn runs merged
    in, so their marks lie on the curve. Every run below the cliff ends finite; that is checked,
    so the drawn curve never steps over a NaN it does not show."""
    wall = eta_ok * spread * cliff_multiplier
    grid = 10.0 ** sweep_exponents(sweep)
    etas = np.sort(np.concatenate([grid[grid < wall], [eta_ok / spread, eta_ok, eta_ok * spread]]))
    losses = train(etas).losses[:, -1]
    if not np.isfinite(losses).all():
        raise ValueError("a run below the cliff ends non-finite: the cliff search missed it")
    return etas, losses


# ---- axes ------------------------------------------------------------------------------------

def _ticks(key: str, values, item_fmt, measures: str, reason: str):
    return chosen(key, list(values), unit="", item_fmt=item_fmt, measures=measures, reason=reason,
                  fmt=lambda ticks: " / ".join(map(item_fmt, ticks)))


RATIO_TICKS = _ticks("updratio.ratio_ticks", tick_values_log(1e-5, 1.0), power_of_ten_label,
                     "Ⓐ's log ratio axis, one tick per decade", "covers all three runs with the line in the middle")
_STEPS = [0.0, 100.0, 200.0, 300.0, 400.0]
STEP_TICKS = _ticks("updratio.step_ticks", _STEPS, tick_formatter(_STEPS), "step-axis ticks", "every 100 steps")
_NORM = [0.0, 2.0, 4.0]          # every second unit: the panel's small plot has room for three
NORM_TICKS = _ticks("updratio.norm_ticks", _NORM, tick_formatter(_NORM), "Ⓑ's ‖W1‖ ÷ start axis",
                    "from 0 past the 太大 run's growth")
_LAST = [300.0, 350.0, 400.0]
LAST_TICKS = _ticks("updratio.last_steps_ticks", _LAST, tick_formatter(_LAST), "Ⓑ's zoom on the last 100 steps",
                    "the window the jitter is measured over")
_LOSS = [0.2, 0.5, 0.8]
LOSS_RANGE = (0.2, 0.85)     # room above 刚好's line and under 太大's for their labels
LOSS_TICKS = _ticks("updratio.loss_ticks", _LOSS, tick_formatter(_LOSS), "Ⓑ's loss axis",
                    "spans both runs' last 100 steps")
LR_RANGE = (10 ** -3.2, 10 ** 0.45)   # 太小's η (just under 10⁻³) to past the cliff (1.3), with room for the NaN band
LR_TICKS = _ticks("updratio.lr_ticks", tick_values_log(*LR_RANGE), power_of_ten_label,
                  "Ⓑ's log learning-rate axis, one tick per decade", "from 太小's η to past the cliff")
_FINAL = [0.0, 0.5, 1.0]
FINAL_LOSS_RANGE = (0.0, 1.05)        # just over 太小's final loss (0.94)
FINAL_LOSS_TICKS = _ticks("updratio.final_loss_ticks", _FINAL, tick_formatter(_FINAL), "Ⓑ's final-loss axis",
                          "from 0 past 太小's final loss (0.94)")
