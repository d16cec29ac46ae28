"""fig-saddle: three kinds of flat ground, one surface family, and the fraction of up-directions.

The family z = (a·x² + b·y²)/2 with a, b = ±1 holds all three: (+, +) the true valley
floor, (−, −) the hilltop, (+, −) the pass — the last is anim-saddle's surface
(lecture_numerics/saddle.py, z = (x² − y²)/2), so the two figures read as one story and share
its colour code: red where a cut rises, green where it falls, black at the flat point.
At the centre every member's gradient is zero; the Hessian diag(a, b) says which way each
cut bends. The share of directions that go up (positive eigenvalues) is 1 only at a true
valley floor: that is Ⓒ's threshold, by definition, not a measurement.
"""

from __future__ import annotations

import numpy as np

from lecture_numerics import slider
from lecture_numerics.provenance import chosen, derived, sourced, speakers_example
from lecture_numerics.zh import zh_count, zh_several

KINDS = ("valley", "peak", "pass")
SIGNS = {"valley": (1.0, 1.0), "peak": (-1.0, -1.0), "pass": (1.0, -1.0)}
HALF_WIDTH = 1.0  # the cuts are drawn over x (or y) in [−1, 1], like anim-saddle's patch


def height(kind: str, x, y):
    a, b = SIGNS[kind]
    return (a * np.square(x) + b * np.square(y)) / 2


def gradient(kind: str, x: float, y: float) -> np.ndarray:
    a, b = SIGNS[kind]
    return np.array([a * x, b * y], dtype=float)


def hessian(kind: str) -> np.ndarray:
    return np.diag(SIGNS[kind])


def cuts(kind: str, samples: int = 41) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """s along each cut, the height along the x cut (y = 0) and along the y cut (x = 0)."""
    s = np.linspace(-HALF_WIDTH, HALF_WIDTH, samples)
    return s, height(kind, s, 0.0), height(kind, 0.0, s)


def up_fraction(kind: str) -> float:
    """Share of the Hessian's principal directions along which the ground rises."""
    eig = np.linalg.eigvalsh(hessian(kind))
    return float(np.mean(eig > 0))


# The family's members, as the signs (a, b) of their two curvatures: the figure's three kinds.
FAMILY = chosen("flat.curvature_signs", tuple(SIGNS[k] for k in KINDS), unit="", fmt=str,
                measures="signs (a, b) of z = (a·x² + b·y²)/2 for the valley floor, the hilltop and the pass",
                reason="the simplest surfaces with each kind of flat point at the origin; (+1, −1) is anim-saddle's")
CENTRE = chosen("flat.centre", (0.0, 0.0), unit="", fmt=str, measures="the flat point every member is read at",
                reason="the origin, where all three members' gradients vanish")


def _up_share(signs) -> float:
    return float(np.mean(np.linalg.eigvalsh(np.diag(signs)) > 0))


SLOPES = derived("flat.slopes_at_centre",
                 lambda signs, centre: tuple(float(np.linalg.norm(np.multiply(s, centre))) for s in signs),
                 inputs={"signs": FAMILY, "centre": CENTRE},
                 unit="", fmt=str, item_fmt="{:g}", formula="|∇z(0, 0)| for z = (a·x² + b·y²)/2, a, b = ±1",
                 measures="slope at the flat point of the valley, the hilltop and the pass (all zero)")
UP_FRACTIONS = derived("flat.up_fractions", lambda signs: tuple(_up_share(s) for s in signs),
                       inputs={"signs": FAMILY}, unit="",
                       fmt=str, item_fmt="{:g}", formula="share of positive Hessian eigenvalues of diag(a, b)",
                       measures="share of up-directions at the valley floor, the hilltop and the pass")
AXIS_TICKS = derived("flat.up_fraction_ticks", lambda signs: sorted(_up_share(s) for s in signs),
                     inputs={"signs": FAMILY}, unit="",
                     fmt=lambda v: " / ".join(f"{x:g}" for x in v), item_fmt="{:g}",
                     formula="the three kinds' shares of up-directions, sorted (hilltop, pass, valley floor)",
                     measures="Ⓒ's axis ticks: where each kind of flat ground sits")
SENSES = chosen("flat.senses_along_an_axis", (-1, +1), unit="", fmt=str,
                measures="the senses one can move in along a single parameter's axis",
                reason="by definition: an axis has a − and a + sense")
DIRECTIONS_1D = derived("flat.directions_one_parameter", lambda senses: len(senses), inputs={"senses": SENSES},
                        unit="directions",
                        fmt=zh_count, formula="a single axis has two senses: − and +",
                        measures="ways to move away from a point when there is one parameter",
                        notes="两", notes_quote="一维图上只有两个方向")
# Ⓑ says the large model's size as an order (几千亿), where other lines round it (三千亿): the
# same speaker's figure, drawn as this line says it.
MODEL_DIRECTIONS = speakers_example(
    "flat.model_directions", slider.desk_faders.value, unit="directions (one per parameter)", fmt=zh_several,
    measures="directions to move in for a large model: one per parameter, the order of slider.desk_faders",
    notes="几千亿", notes_quote="可我们谈的是几千亿个参数，那就是几千亿个方向。")
# Ⓒ's measurement: the paper is found and its abstract read; the passage with the measured
# share of up-directions was not, so the result is 待核 and spoken only (not projected).
DAUPHIN = ("Dauphin, Pascanu, Gulcehre, Cho, Ganguli & Bengio 2014, \"Identifying and attacking the saddle point "
           "problem in high-dimensional non-convex optimization\", NIPS 27 (proceedings.neurips.cc, abstract: "
           "'based on results from statistical physics, random matrix theory, neural network theory, and empirical "
           "evidence … a deeper and more profound difficulty originates from the proliferation of saddle points')")
MEASUREMENT_YEAR = sourced("flat.measurement_paper.year", 2014, unit="year", fmt="{}", citation=DAUPHIN,
                           measures="year of the paper that measured critical points of network losses (fig-saddle Ⓒ)")
NEVER_ONE = sourced(
    "flat.measured_up_share_below", 1, unit="share", fmt="{}", confirmed=False,
    citation=f"{DAUPHIN}; the measurement (§4, Fig. 1: the index of critical points against the training error) "
             "was not read, only the abstract and the opening of the introduction: 待核. Two doubts stand until it "
             "is: the paper finds its critical points with a Newton-type search, not where training stopped; and "
             "as the paper is usually summarised, the index (the share of down-directions) falls with the error, "
             "so its lowest-error points have an up-share near 1, against 「从来没到过 1」",
    measures="the share of up-directions that the measured stopping points never reached (a true valley floor's)",
    notes="1", notes_quote="结果是 —— 那个比例从来没到过 1。")
# Ⓒ draws the measured stopping points only as a picture of the claim (「从来没到过 1」): the
# paper's figure was not read, so the dots are placed by hand, labelled 示意 on screen.
SKETCHED_STOPS = chosen(
    "flat.sketched_stop_shares",
    (0.52, 0.56, 0.6, 0.63, 0.67, 0.7, 0.74, 0.77, 0.81, 0.85, 0.88),
    unit="share", fmt=lambda v: " / ".join(f"{x:g}" for x in v),
    measures="where Ⓒ's sketched stopping points sit on the share-of-up-directions axis (示意, not data)",
    reason="a spread clearly left of 1 and right of 0 (training never stops at a hilltop), with a visible gap "
           "before the true-valley marker: the picture of 「那个比例从来没到过 1」 without claiming values")
