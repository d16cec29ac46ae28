"""fig-spike: what PaLM's loss spikes look like — a labelled sketch (示意), and the sourced facts.

PaLM reports no curve and no numbers for its loss, only a description (§5.1 Training
Instability): roughly 20 spikes in the 540B run, despite gradient clipping, at highly
irregular intervals, sometimes late into training, not seen in the smaller models. The
curve drawn is therefore an illustration from a seeded generator: a smooth power-law trend
plus small noise, and exactly the sourced number of spikes at irregular times — clusters in
the first third, one alone after a quiet stretch longer than a quarter of the run, clusters
again after it, and one in the last tenth — each a sharp rise that recovers quickly. Half the
spikes come after the midpoint, so the curve never calms down (the picture must not argue for
「开头挺过去就没事了」, the belief the notes tell the room to drop). The green strip is
the same trend without spikes. The generator exposes its spike times for the tests.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lecture_numerics.provenance import chosen, sourced

PALM = "Chowdhery et al. 2022, PaLM (arXiv 2204.02311), §5.1 Training Instability"

PALM_PARAMS = sourced(
    "spike.palm_params", 540e9, unit="parameters", fmt=lambda v: f"{v / 1e9:.0f}B",
    measures="size of PaLM's largest model, the run with the spikes",
    citation=f"{PALM} (\"For the largest model\"); PaLM abstract: 540-billion parameter")
COUNT = sourced(
    "spike.count", 20, unit="spikes", fmt="{}",
    measures="loss spikes during PaLM 540B training (\"roughly 20 times\")",
    citation=f"{PALM}: \"we observed spikes in the loss roughly 20 times during training, despite the fact "
             "that gradient clipping was enabled\"",
    notes="二十", notes_quote="可你看这些往上扎的尖 ——  大约二十次。")
ROLLBACK_STEPS = sourced(
    "spike.rollback_steps", 100, unit="steps", fmt="{}",
    measures="how far before a spike PaLM restarted from a checkpoint (\"roughly 100 steps\")",
    citation=f"{PALM}: \"We re-started training from a checkpoint roughly 100 steps before the spike started\"",
    notes="一百", notes_quote="回滚到 spike 之前大约一百步，跳掉那两三百批数据，接着跑。")
SKIPPED_BATCHES = sourced(
    "spike.skipped_batches", (200, 500), unit="batches", fmt=lambda v: f"{v[0]}–{v[1]}",
    measures="data batches PaLM skipped after the restart (\"roughly 200–500\")",
    citation=f"{PALM}: \"and skipped roughly 200–500 data batches, which cover the batches that were seen "
             "before and during the spike\"",
    notes="两三百", notes_quote="回滚到 spike 之前大约一百步，跳掉那两三百批数据，接着跑。",
    note="PaLM §5.1 says roughly 200–500 batches; the notes' 两三百 is the low end. The screen shows the paper's range")

# --- the sketch ---------------------------------------------------------------------------------

SEED = chosen("spike.sketch.seed", 540, unit="", fmt="{}", measures="seed of the illustrative curve generator",
              reason="any fixed seed: the generator draws spike times inside the pattern PaLM describes")
POINTS = chosen("spike.sketch.points", 1200, unit="samples", fmt="{}",
                measures="samples along the illustrative curve's step axis",
                reason="fine enough that every spike is a few samples wide at 1280 px")
MIN_SEPARATION = 0.012   # spikes at least 1.2 % of the axis apart, so they can be counted
CLUSTER_GAP = 2.5 * MIN_SEPARATION   # spikes closer than this read as one cluster
# The pattern the notes point at (「挤在一起的有，隔很久才来一个的也有，训到很晚了还会来」), drawn
# from PaLM's "highly irregular intervals, sometimes happening late into training":
EARLY_END = 0.34         # the first clusters end here
LONE = (0.61, 0.65)      # one spike alone after a long quiet stretch (longer than LONG_GAP by construction)
LONG_GAP = 0.25          # the quiet stretch before the lone spike is longer than this share of the run
LATER = (LONE[1] + 2 * CLUSTER_GAP, 0.87)   # clusters again, after the lone spike
LATE = (0.91, 0.97)      # one spike in the last tenth of the run
RECOVERY = 0.004         # e-folding time of a spike's recovery, share of the run


@dataclass(frozen=True)
class Sketch:
    t: np.ndarray              # 0 … 1, share of the run
    trend: np.ndarray          # the green strip: trend + noise, no spikes
    loss: np.ndarray           # the red strip: the same plus the spikes
    spike_times: np.ndarray    # where each spike starts


def clustered(count: int, rng: np.random.Generator, start: float, end: float) -> np.ndarray:
    """``count`` spikes in clusters of two to seven after ``start``, a clear gap between clusters,
    all before ``end``."""
    while True:
        times: list[float] = []
        at = start
        while len(times) < count:
            at += rng.uniform(CLUSTER_GAP * 1.5, CLUSTER_GAP * 3.5)       # the quiet before a cluster
            for _ in range(rng.integers(2, 8)):
                times.append(at)
                at += rng.uniform(MIN_SEPARATION, 1.4 * MIN_SEPARATION)
        times_arr = np.array(times[:count])
        if times_arr.max() < end:
            return times_arr


def spike_times(count: int, rng: np.random.Generator) -> np.ndarray:
    """Clusters early, one alone after a long gap, clusters again, one late: all ``count`` of
    them, as many of the clustered ones after the lone spike as before it."""
    later = (count - 2) // 2
    return np.concatenate([clustered(count - 2 - later, rng, 0.0, EARLY_END), [rng.uniform(*LONE)],
                           clustered(later, rng, LATER[0] - CLUSTER_GAP * 1.5, LATER[1]), [rng.uniform(*LATE)]])


def lone_spike(times: np.ndarray) -> float:
    """The spike that comes alone after the longest quiet stretch (what 「隔很久才来一个的」 points at)."""
    return float(times[int(np.argmax(np.diff(times))) + 1])


def largest_cluster(times: np.ndarray) -> np.ndarray:
    """The longest run of spikes each within ``CLUSTER_GAP`` of the one before."""
    runs, run = [], [times[0]]
    for before, t in zip(times, times[1:]):
        run = run + [t] if t - before < CLUSTER_GAP else [t]
        runs.append(run)
    return np.array(max(runs, key=len))


def sketch(count: int, seed: int, points: int) -> Sketch:
    rng = np.random.default_rng(seed)
    t = np.linspace(0.0, 1.0, points)
    trend = 0.35 + 1.0 * (1 + 40 * t) ** -0.5 + rng.normal(0, 0.006, points)
    times = spike_times(count, rng)
    bumps = np.zeros(points)
    for start, height in zip(times, rng.uniform(0.25, 0.6, count)):
        after = t >= start
        bumps[after] += height * np.exp(-(t[after] - start) / RECOVERY)
    return Sketch(t, trend, trend + bumps, times)


def palm_sketch() -> Sketch:
    return sketch(COUNT.value, SEED.value, POINTS.value)


# --- fig-stability Ⓑ: one spike, the rollback and the skipped batches (示意) ---------------------

# The skipped window drawn this many times the rollback: PaLM skipped 200–500 batches after
# rolling back about 100 steps (one batch a step), 2–5×; 2.5 keeps the band inside the strip.
SKIPPED_PER_ROLLBACK = 2.5


@dataclass(frozen=True)
class Rollback:
    t: np.ndarray              # 0 … 1 of the window shown
    first: np.ndarray          # the first run: trend with one spike
    rerun: np.ndarray          # after the restart with the batches skipped: the trend, no spike
    spike: float               # when the spike starts
    restart: float             # the checkpoint restarted from
    skipped: tuple[float, float]   # the window of skipped data (as drawn, not to scale)


def rollback_sketch(points: int = 400, seed: int = 7) -> Rollback:
    """An illustrative window around one spike; positions are chosen for legibility, not to scale."""
    rng = np.random.default_rng(seed)
    t = np.linspace(0.0, 1.0, points)
    trend = 0.5 + 0.25 * (1 + 6 * t) ** -0.5 + rng.normal(0, 0.004, points)
    spike, restart = 0.55, 0.35
    first = trend.copy()
    after = t >= spike
    first[after] += 0.35 * np.exp(-(t[after] - spike) / 0.03)
    skipped_end = restart + SKIPPED_PER_ROLLBACK * (spike - restart)
    return Rollback(t, first, trend, spike, restart, (restart, skipped_end))
