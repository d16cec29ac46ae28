"""fig-vote numerics against independent references: scipy's softmax and logsumexp,
finite differences of the loss, and numpy's mean over per-sample gradients."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import logsumexp
from scipy.special import softmax as scipy_softmax

from lecture_numerics import quantity
from lecture_numerics import vote

TOKENS = vote.TOKENS
LOGITS = np.array(quantity("vote.logits").value)


def reference_loss(logits: np.ndarray, answer: str) -> float:
    """Cross-entropy written a second way: logsumexp(z) − z[answer]."""
    return float(logsumexp(logits) - logits[TOKENS.index(answer)])


def finite_difference(f, x: np.ndarray, h: float = 1e-6) -> np.ndarray:
    """Central differences of a scalar function, one coordinate at a time."""
    grad = np.zeros_like(x, dtype=float)
    for i in range(x.size):
        step = np.zeros_like(x, dtype=float)
        step[i] = h
        grad[i] = (f(x + step) - f(x - step)) / (2 * h)
    return grad


def shown(prefix: str) -> np.ndarray:
    return np.array([quantity(f"{prefix}.{k}").value for k in vote.TOKEN_KEYS])


# ---------------------------------------------------------------- Ⓐ

def test_probabilities_are_scipy_softmax_of_the_logits():
    np.testing.assert_allclose(shown("vote.p"), scipy_softmax(LOGITS), rtol=0, atol=1e-12)


def test_probabilities_match_the_speakers_notes():
    for key in ("vote.p.de", "vote.p.le"):
        q = quantity(key)
        assert q.notes is not None and q.display == q.notes
    assert quantity("vote.p.de").display == "0.3" and quantity("vote.p.le").display == "0.2"


def test_loss_matches_logsumexp_reference():
    for answer in TOKENS:
        assert vote.cross_entropy(LOGITS, answer) == pytest.approx(reference_loss(LOGITS, answer), abs=1e-12)


def test_seed_is_the_finite_difference_gradient_of_the_loss():
    answer = quantity("vote.answer").value
    numeric = finite_difference(lambda z: reference_loss(z, answer), LOGITS)
    np.testing.assert_allclose(shown("vote.seed"), numeric, atol=1e-7)


def test_seed_is_positive_where_guessed_too_high_negative_at_the_answer():
    seeds = shown("vote.seed")
    answer_index = TOKENS.index(quantity("vote.answer").value)
    assert seeds[answer_index] < 0
    assert all(s > 0 for i, s in enumerate(seeds) if i != answer_index)
    # the seed's displayed sign uses a true minus sign
    assert quantity("vote.seed.de").display.startswith("−")


def test_push_grows_with_the_gap():
    """Among the wrong tokens, the one guessed highest gets the strongest push down."""
    seeds, probs = shown("vote.seed"), shown("vote.p")
    wrong = [i for i, t in enumerate(TOKENS) if t != quantity("vote.answer").value]
    by_prob = sorted(wrong, key=lambda i: probs[i])
    assert list(np.argsort(np.abs(seeds[wrong]))) == [wrong.index(i) for i in by_prob]


# ---------------------------------------------------------------- Ⓑ

def test_wire_gradient_is_the_finite_difference_of_the_loss_in_that_weight():
    """z(的) = w_bright·a_bright + w_dim·a_dim + b; perturb each weight, watch the loss."""
    a = np.array([quantity("vote.bright_activation").value, quantity("vote.dim_activation").value])
    weights = np.array([0.7, -1.3])                      # any weights: the gradient does not depend on them
    bias = LOGITS[0] - weights @ a                      # so that the 的 logit equals the example's
    answer = quantity("vote.answer").value

    def loss(w):
        z = LOGITS.copy()
        z[0] = w @ a + bias
        return reference_loss(z, answer)

    numeric = finite_difference(loss, weights)
    assert quantity("vote.wire_grad.bright").value == pytest.approx(numeric[0], abs=1e-7)
    assert quantity("vote.wire_grad.dim").value == pytest.approx(numeric[1], abs=1e-7)


def test_brighter_wire_pays_more():
    bright, dim = quantity("vote.wire_grad.bright").value, quantity("vote.wire_grad.dim").value
    assert abs(bright) > abs(dim)
    ratio = quantity("vote.dim_activation").value / quantity("vote.bright_activation").value
    assert quantity("vote.bright_payoff_ratio").value == pytest.approx(1 / ratio)


# ---------------------------------------------------------------- Ⓒ

def test_batch_gradient_is_numpy_mean_of_per_sample_finite_differences():
    answers = quantity("vote.batch_answers").value
    per_sample = [finite_difference(lambda z, a=a: reference_loss(z, a), LOGITS) for a in answers]
    np.testing.assert_allclose(shown("vote.mean_seed"), np.mean(per_sample, axis=0), atol=1e-7)


def test_batch_gradient_is_the_gradient_of_the_mean_loss():
    answers = quantity("vote.batch_answers").value
    numeric = finite_difference(lambda z: np.mean([reference_loss(z, a) for a in answers]), LOGITS)
    np.testing.assert_allclose(shown("vote.mean_seed"), numeric, atol=1e-7)


def test_requests_drawn_are_minus_each_samples_seed():
    answers = quantity("vote.batch_answers").value
    probs = scipy_softmax(LOGITS)
    expected = np.stack([np.eye(len(TOKENS))[TOKENS.index(a)] - probs for a in answers])
    np.testing.assert_allclose(vote.batch_requests(), expected, atol=1e-12)


def test_averaged_request_is_numpy_mean_of_the_votes():
    np.testing.assert_allclose(vote.mean_request(), np.mean(vote.batch_requests(), axis=0), atol=1e-12)


def reference_descent(answers, lr, steps):
    z = LOGITS.copy()
    targets = np.mean([np.eye(len(TOKENS))[TOKENS.index(a)] for a in answers], axis=0)
    for _ in range(steps):
        z = z - lr * (scipy_softmax(z) - targets)
    return scipy_softmax(z)


def test_listening_to_only_the_first_sample_always_answers_de():
    answers = quantity("vote.batch_answers").value
    lr, steps = quantity("vote.only_first.lr").value, quantity("vote.only_first.steps").value
    expected = reference_descent(answers[:1], lr, steps)
    assert quantity("vote.only_first.p_de").value == pytest.approx(expected[0], abs=1e-12)
    assert expected[0] > 0.95 and TOKENS[int(np.argmax(expected))] == "的"


def test_listening_to_everyone_learns_how_often_each_answer_comes():
    """The contrast the panel implies: the averaged vote heads for the answers' frequencies."""
    answers = quantity("vote.batch_answers").value
    probs = vote.softmax(vote.train_logits(LOGITS, answers, lr=1.0, steps=2000))
    frequencies = np.array([answers.count(t) for t in TOKENS]) / len(answers)
    np.testing.assert_allclose(probs, frequencies, atol=0.01)


def test_one_hot_is_one_at_the_answer_only():
    # Read off the answer by hand: 的 is the sample's next character.
    assert quantity("vote.answer").value == "的"
    assert [quantity(f"vote.onehot.{k}").value for k in vote.TOKEN_KEYS] == [1.0, 0.0, 0.0, 0.0]


def test_averages_are_drawn_enlarged_but_shorter_than_the_sum():
    """Ⓒ draws the gradient column 放大 vote.mean_zoom 倍: ±0.2 reads (≥ 40 px at 1280×720, 90 px
    a scene unit), and every average stays shorter than its sum, so 「取平均」 still shrinks."""
    from scenes.fig_vote import VOTE_UNIT

    zoom = quantity("vote.mean_zoom").value
    px_per_unit = 720 / 8
    assert 0.2 * VOTE_UNIT * zoom * px_per_unit >= 40
    sums = np.abs(vote.batch_requests().sum(axis=0))
    assert np.all(np.abs(vote.mean_request()) * zoom < sums)
    assert quantity("vote.mean_zoom").display == str(zoom)


def test_the_cards_merged_sum_is_the_same_average():
    """Ⓒ 跨卡汇总: each card sums its own samples (甲乙丙 | 丁戊), the sums are added and divided by
    the batch size: exactly numpy's mean of all the votes, however unevenly the batch is split.
    (Averaging each card's mean instead would not be, with 3 + 2.)"""
    requests = vote.batch_requests()
    split = quantity("vote.card_split").value
    assert quantity("vote.batch_size").value == len(requests) == 5
    np.testing.assert_allclose(vote.cards_merged_mean(requests, split), requests.mean(axis=0), atol=1e-12)
    means_of_means = (requests[:split].mean(axis=0) + requests[split:].mean(axis=0)) / 2
    assert not np.allclose(means_of_means, requests.mean(axis=0))
