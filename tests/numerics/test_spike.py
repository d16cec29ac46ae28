"""fig-spike's illustrative curve: scipy counts the sourced number of spikes, none on the green
strip, and the times show what the notes point at: a cluster, a long gap then one alone, one late."""

from __future__ import annotations

import numpy as np
from scipy.signal import find_peaks

from lecture_numerics import quantity
from lecture_numerics.spike import MIN_SEPARATION, largest_cluster, lone_spike, palm_sketch, sketch

PROMINENCE = 0.1    # well above the noise (σ = 0.006), well below the smallest spike (0.25)


def test_scipy_finds_exactly_the_sourced_count_on_red_and_none_on_green():
    s = palm_sketch()
    assert len(find_peaks(s.loss, prominence=PROMINENCE)[0]) == quantity("spike.count").value == 20
    assert len(find_peaks(s.trend, prominence=PROMINENCE)[0]) == 0


CLOSE = 0.03        # spikes nearer than 3 % of the run read as one cluster on screen


def test_spike_times_are_irregular_and_countable():
    times = palm_sketch().spike_times
    gaps = np.diff(times)
    assert np.all(gaps > 0) and gaps.min() >= MIN_SEPARATION
    assert gaps.std() / gaps.mean() > 1.0                 # clusters and long gaps, not a metronome


def test_the_pattern_the_notes_point_at():
    """「挤在一起的有，隔很久才来一个的也有，训到很晚了还会来」: all three must be on the curve."""
    times = palm_sketch().spike_times
    gaps = np.diff(times)
    close = gaps < CLOSE
    assert any(close[i] and close[i + 1] for i in range(len(close) - 1)), "no cluster of three"
    lone = [i + 1 for i, g in enumerate(gaps) if g > 0.25 and (i + 1 == len(gaps) or gaps[i + 1] >= CLOSE)]
    assert lone, "no single spike after a gap longer than a quarter of the run"
    assert times.max() > 0.8, "no spike in the last fifth of the run"
    # What the figure labels is that same spike and a cluster of at least three.
    assert lone_spike(times) == times[lone[0]]
    assert len(largest_cluster(times)) >= 3


def test_the_spikes_do_not_calm_down():
    """「所以不要以为「开头挺过去就没事了」」: the curve must not show it. At least as many spikes
    after the midpoint as before it, a cluster of three among them, and one in the last tenth."""
    times = palm_sketch().spike_times
    late_half = times[times > 0.5]
    assert len(late_half) >= len(times) / 2, f"only {len(late_half)} of {len(times)} spikes after the midpoint"
    gaps = np.diff(late_half)
    assert any(a < CLOSE and b < CLOSE for a, b in zip(gaps, gaps[1:])), "no cluster of three after the midpoint"
    assert times.max() > 0.9


def test_the_pattern_would_be_caught_missing():
    evenly = np.linspace(0.05, 0.95, 20)                  # a metronome: no cluster, no long gap
    gaps = np.diff(evenly)
    assert not (gaps < CLOSE).any() and not (gaps > 0.25).any()


def test_the_generator_is_seeded():
    a, b = sketch(20, 540, 1200), sketch(20, 540, 1200)
    assert np.array_equal(a.loss, b.loss) and np.array_equal(a.spike_times, b.spike_times)


def test_sourced_recipe_and_the_notes_beside_it():
    assert quantity("spike.rollback_steps").value == 100
    skipped = quantity("spike.skipped_batches")
    assert skipped.value == (200, 500) and skipped.notes == "两三百"      # the notes say 两三百; PaLM 200–500
