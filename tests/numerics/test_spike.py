"""fig-spike's illustrative curve: scipy counts the sourced number of spikes, none on the green
strip, and the times are irregular, countable and reach late into the run."""

from __future__ import annotations

import numpy as np
from scipy.signal import find_peaks

from lecture_numerics import quantity
from lecture_numerics.spike import LATE, MIN_SEPARATION, palm_sketch, sketch

PROMINENCE = 0.1    # well above the noise (σ = 0.006), well below the smallest spike (0.25)


def test_scipy_finds_exactly_the_sourced_count_on_red_and_none_on_green():
    s = palm_sketch()
    assert len(find_peaks(s.loss, prominence=PROMINENCE)[0]) == quantity("spike.count").value == 20
    assert len(find_peaks(s.trend, prominence=PROMINENCE)[0]) == 0


def test_spike_times_are_irregular_countable_and_late():
    times = palm_sketch().spike_times
    gaps = np.diff(times)
    assert gaps.std() / gaps.mean() > 1.0                 # clusters and long gaps, not a metronome
    assert gaps.min() >= MIN_SEPARATION
    assert times.max() > LATE


def test_the_generator_is_seeded():
    a, b = sketch(20, 540, 1200), sketch(20, 540, 1200)
    assert np.array_equal(a.loss, b.loss) and np.array_equal(a.spike_times, b.spike_times)


def test_sourced_recipe_and_the_notes_beside_it():
    assert quantity("spike.rollback_steps").value == 100
    skipped = quantity("spike.skipped_batches")
    assert skipped.value == (200, 500) and skipped.notes == "两三百"      # the notes say 两三百; PaLM 200–500
