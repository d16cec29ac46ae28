"""fig-vote: a gradient is a vote — every sample's request, averaged.

Ⓐ one sample: softmax of concrete logits, the one-hot answer, seed = prediction − answer.
Ⓑ one wire: ∂L/∂w = upstream activation × downstream gradient (bright vs dim upstream).
Ⓒ a small batch: each sample's seed, their mean (the gradient), and what a net learns
   when it listens to the first sample only.

The example net is illustrative, not measured: its logits are chosen as ln of the odds
3 : 2 : 4 : 1, so that softmax gives exactly the notes' 「的」0.3 and 「了」0.2 (plus 是 0.4,
在 0.1 to fill the distribution). Every number shown is computed from those choices here.
"""

from __future__ import annotations

import numpy as np

from lecture_numerics.provenance import chosen, derived, speakers_example
from lecture_numerics.zh import zh_count


TOKENS = ("的", "了", "是", "在")
TOKEN_KEYS = ("de", "le", "shi", "zai")   # ledger-key spelling of each token


# ---------------------------------------------------------------- the maths (no drawing)

def softmax(logits: np.ndarray) -> np.ndarray:
    """Probabilities from logits; shifted by the max so exp never overflows."""
    shifted = np.exp(np.asarray(logits, dtype=float) - np.max(logits))
    return shifted / shifted.sum()


def one_hot(token: str, tokens: tuple[str, ...] = TOKENS) -> np.ndarray:
    """The answer as a distribution: 1 at the right token, 0 elsewhere."""
    return np.array([1.0 if t == token else 0.0 for t in tokens])


def cross_entropy(logits: np.ndarray, answer: str) -> float:
    """The loss of one sample: −ln of the probability the net gave the right token."""
    return float(-np.log(softmax(logits)[TOKENS.index(answer)]))


def seed_gradient(probs: np.ndarray, answer: str) -> np.ndarray:
    """∂loss/∂logits of softmax + cross-entropy: prediction − answer (the chain's seed)."""
    return np.asarray(probs, dtype=float) - one_hot(answer)


def wire_gradient(upstream_activation: float, downstream_gradient: float) -> float:
    """∂L/∂w for the wire w feeding z = w·a + …: the upstream brightness a times ∂L/∂z."""
    return upstream_activation * downstream_gradient


def batch_seeds(probs: np.ndarray, answers: tuple[str, ...]) -> np.ndarray:
    """One row per sample: that sample's seed (its vote) for the same prediction."""
    return np.stack([seed_gradient(probs, a) for a in answers])


def train_logits(logits: np.ndarray, answers: tuple[str, ...], lr: float, steps: int) -> np.ndarray:
    """Plain gradient descent on the logits, each step following the batch-mean seed."""
    z = np.asarray(logits, dtype=float).copy()
    for _ in range(steps):
        z -= lr * batch_seeds(softmax(z), answers).mean(axis=0)
    return z


def signed(digits: int):
    """Formatter with an explicit sign and a true minus (−), e.g. +0.2, −0.7."""
    return lambda v: f"{v:+.{digits}f}".replace("-", "−")


# ---------------------------------------------------------------- Ⓐ one sample's request

ODDS = chosen(
    "vote.odds", (3.0, 2.0, 4.0, 1.0), unit="relative odds (的, 了, 是, 在)",
    measures="how strongly the example net favours each next character",
    reason="的 : 了 = 3 : 2 so that their probabilities are the notes' 0.3 and 0.2; 是 and 在 are not in "
           "the notes and were filled in (4 and 1) so that the four make a distribution summing to 1",
    notes_quote="下一个字是「的」的概率零点三、是「了」的概率零点二",
)
LOGITS = derived(
    "vote.logits", lambda odds: tuple(float(x) for x in np.log(odds)), inputs={"odds": ODDS},
    unit="logit (的, 了, 是, 在)", formula="logit = ln(odds)",
    fmt=lambda v: ", ".join(f"{x:.3f}" for x in v),
    note="chosen as ln of the odds so that softmax reproduces the notes' probabilities",
)
ANSWER = speakers_example(
    "vote.answer", "的", unit="character", measures="the sample's correct next character",
    notes="的", notes_quote="该是「的」，那就把「的」推上去",
)

_NOTED_PROBS = {"de": ("0.3", "下一个字是「的」的概率零点三"), "le": ("0.2", "是「了」的概率零点二")}

PROBS = {}
ONE_HOT = {}
SEEDS = {}
for _i, _key in enumerate(TOKEN_KEYS):
    _noted, _quote = _NOTED_PROBS.get(_key, (None, ""))
    PROBS[_key] = derived(
        f"vote.p.{_key}", lambda logits, i=_i: float(softmax(logits)[i]), inputs={"logits": LOGITS},
        unit="probability", formula=f"p({TOKENS[_i]}) = softmax(logits)[{TOKENS[_i]}]", fmt="{:.1f}",
        measures=f"the net's predicted probability that the next character is {TOKENS[_i]}",
        notes=_noted, notes_quote=_quote,
    )
    ONE_HOT[_key] = derived(
        f"vote.onehot.{_key}", lambda answer, i=_i: float(one_hot(answer)[i]), inputs={"answer": ANSWER},
        unit="probability", formula=f"[answer = {TOKENS[_i]}]", fmt="{:.0f}",
        measures=f"the one-hot answer's entry for {TOKENS[_i]}: 1 at the right character, 0 elsewhere",
    )
    SEEDS[_key] = derived(
        f"vote.seed.{_key}", lambda p, y: float(p - y),
        inputs={"p": PROBS[_key], "y": ONE_HOT[_key]},
        unit="∂loss/∂logit", formula=f"seed({TOKENS[_i]}) = p({TOKENS[_i]}) − [answer = {TOKENS[_i]}]",
        fmt=signed(1), measures="the first gradient: positive = guessed too high, negative = should be higher",
    )

# ---------------------------------------------------------------- Ⓑ which wire pays

BRIGHT = chosen(
    "vote.bright_activation", 0.8, unit="activation", measures="brightness of the bright upstream neuron",
    reason="the notes say 「上游越亮的那根线」 without numbers; 0.8 against 0.2 makes one wire's "
           "gradient four times the other's, easy to see", fmt="{:.1f}",
)
DIM = chosen(
    "vote.dim_activation", 0.2, unit="activation", measures="brightness of the dim upstream neuron",
    reason="the dim partner of vote.bright_activation (not in the notes)", fmt="{:.1f}",
)
WIRE_GRAD_BRIGHT = derived(
    "vote.wire_grad.bright", wire_gradient, inputs={"upstream_activation": BRIGHT, "downstream_gradient": SEEDS["de"]},
    unit="∂loss/∂w", formula="∂L/∂w = upstream activation × downstream gradient", fmt=signed(2),
    measures="gradient of the wire from the bright neuron into 的",
)
WIRE_GRAD_DIM = derived(
    "vote.wire_grad.dim", wire_gradient, inputs={"upstream_activation": DIM, "downstream_gradient": SEEDS["de"]},
    unit="∂loss/∂w", formula="∂L/∂w = upstream activation × downstream gradient", fmt=signed(2),
    measures="gradient of the wire from the dim neuron into 的",
)
PAYOFF_RATIO = derived(
    "vote.bright_payoff_ratio", lambda bright, dim: bright / dim,
    inputs={"bright": WIRE_GRAD_BRIGHT, "dim": WIRE_GRAD_DIM},
    unit="×", formula="∂L/∂w(bright) ÷ ∂L/∂w(dim)", fmt="{:.0f}",
    measures="how much more the same thickening of the bright wire moves the loss",
)

# ---------------------------------------------------------------- Ⓒ many samples vote

BATCH_ANSWERS = chosen(
    "vote.batch_answers", ("的", "了", "是", "的", "了"), unit="characters",
    measures="the correct next character of five samples (甲 乙 丙 丁 戊) that share one prediction",
    reason="an illustrative batch (not in the notes) whose samples disagree, so that listening to 甲 "
           "alone and averaging all five end in visibly different places", fmt=" ".join,
)


def _mean_seed(i: int):
    def compute(logits, answers):
        return float(batch_seeds(softmax(logits), answers).mean(axis=0)[i])
    return compute


MEAN_SEEDS = {
    key: derived(
        f"vote.mean_seed.{key}", _mean_seed(i), inputs={"logits": LOGITS, "answers": BATCH_ANSWERS},
        unit="∂loss/∂logit", formula=f"mean over samples of (p({TOKENS[i]}) − [answer = {TOKENS[i]}])",
        fmt=signed(1), measures="the batch gradient: the average of every sample's request",
    )
    for i, key in enumerate(TOKEN_KEYS)
}

BATCH_SIZE = derived(
    "vote.batch_size", lambda answers: len(answers), inputs={"answers": BATCH_ANSWERS}, unit="samples",
    formula="len(vote.batch_answers)", fmt="{:d}",
    measures="how many samples the batch averages over: what the cards' merged sum is divided by",
)
CARD_SPLIT = chosen(
    "vote.card_split", 3, unit="samples on the first card", fmt="{:d}",
    measures="how Ⓒ's batch is shared out over two cards: 甲乙丙 on one, 丁戊 on the other (示意)",
    reason="an uneven split on purpose: each card sums its own samples, the sums are added and divided by "
           "the batch size, so the result is the batch mean however the samples are split",
)


def cards_merged_mean(requests: np.ndarray, split: int) -> np.ndarray:
    """跨卡汇总 as Ⓒ draws it: each card sums its own samples, the two sums are added, then ÷ batch size."""
    per_card = [requests[:split].sum(axis=0), requests[split:].sum(axis=0)]
    return (per_card[0] + per_card[1]) / len(requests)


MEAN_ZOOM = chosen(
    "vote.mean_zoom", 3, unit="×", measures="how much larger Ⓒ draws the averaged requests than the votes",
    reason="at the votes' own scale the averages (±0.1, ±0.2) would be 8–15 px specks; three times that "
           "makes ±0.2 about 45 px at 1280×720, readable, and still visibly shorter than the sum "
           "(which is five votes long), so the picture keeps 「平均比加起来小」; the screen says 放大 3 倍",
    fmt="{:d}",
)

ONLY_FIRST_STEPS = chosen(
    "vote.only_first.steps", 20, unit="steps", measures="gradient steps taken listening to sample 甲 only",
    reason="a toy run (not in the notes): enough steps for 甲's answer to dominate the prediction",
)
ONLY_FIRST_LR = chosen(
    "vote.only_first.lr", 1.0, unit="learning rate", measures="step size on the logits",
    reason="a toy learning rate (not in the notes): large enough that 20 steps move the prediction visibly",
)
ONLY_FIRST_P_DE = derived(
    "vote.only_first.p_de",
    lambda logits, answers, lr, steps: float(softmax(train_logits(logits, answers[:1], lr, steps))[0]),
    inputs={"logits": LOGITS, "answers": BATCH_ANSWERS, "lr": ONLY_FIRST_LR, "steps": ONLY_FIRST_STEPS},
    unit="probability", formula="p(的) after `steps` descent steps on sample 甲's seed alone", fmt="{:.2f}",
    measures="what a net that only listens to the first sample ends up predicting for 的",
)


# ---------------------------------------------------------------- for the drawing layer

def predicted_probs() -> np.ndarray:
    return np.array([PROBS[k].value for k in TOKEN_KEYS])


def batch_requests() -> np.ndarray:
    """Each sample's request, rows = samples: the push direction (answer − prediction = −seed)."""
    return -batch_seeds(predicted_probs(), BATCH_ANSWERS.value)


def only_first_probs() -> np.ndarray:
    return softmax(train_logits(LOGITS.value, BATCH_ANSWERS.value[:1], ONLY_FIRST_LR.value, ONLY_FIRST_STEPS.value))


def mean_request() -> np.ndarray:
    """The averaged push per token: minus the batch gradient shown on screen."""
    return -np.array([MEAN_SEEDS[k].value for k in TOKEN_KEYS])

# ---- Ⓑ the levers: z = w·a + b has one per symbol ----------------------------------------

LEVERS = ("bias b", "weight w", "upstream activation a")
LEVER_NAMES = chosen("vote.levers", LEVERS, unit="", fmt=" / ".join,
                     measures="the symbols of z = w·a + b, one lever each",
                     reason="the neuron's input as the lecture writes it: bias, weight, upstream activation")
ways_to_raise = derived(
    "vote.ways_to_raise", lambda levers: len(levers), inputs={"levers": LEVER_NAMES}, unit="ways",
    formula="one lever per symbol of z = w·a + b: " + ", ".join(LEVERS),
    measures="ways to raise a neuron's input when its output cannot be changed directly",
    fmt=zh_count, notes="三", notes_quote="想让一个数变大，其实只有三条路：",
)


# 「这就是刚才那颗种子，「预测减真值」，换成人话就是这一句」 (the notes, Ⓐ): the request is the
# seed turned round (答案 − 预测); Ⓐ writes 要求 = −种子. A notes-only key, for the erratum.
REQUEST_IS_MINUS_SEED = chosen(
    "vote.request_is_minus_seed", "反过来的种子", unit="", fmt="{}",
    measures="what a sample's request (答案 − 预测, Ⓐ's arrows) is to Ⓐ's seed (预测 − 答案)",
    reason="the request pushes the output toward the answer, answer − prediction, which is minus the seed "
           "(prediction − answer); Ⓐ draws the arrows against the seed's signs and writes 要求 = −种子",
    notes="就是刚才那颗种子", notes_quote="这就是刚才那颗种子，「预测减真值」，换成人话就是这一句。")

# 「那个平均，就是梯度」 (the notes, Ⓒ): a vote is a request (答案 − 预测), minus a seed, so their
# average is minus the gradient; Ⓒ draws it flipped (= −平均). A notes-only key, for the erratum.
MEAN_IS_GRADIENT = chosen(
    "vote.mean_request_is_gradient", "反过来就是梯度", unit="", fmt="{}",
    measures="what the averaged request (答案 − 预测, Ⓒ's arrows) is to the batch gradient (预测 − 答案)",
    reason="a request is minus a seed (Ⓐ: 要求 = −种子), so the average of the requests is minus the average of "
           "the seeds, which is the gradient (vote.mean_seed.*); Ⓒ draws it flipped, = −平均",
    notes="就是梯度", notes_quote="那个平均，就是梯度。")

