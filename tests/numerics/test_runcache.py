"""The disk memo returns what the run returns, and never a result from other code."""

from __future__ import annotations

import numpy as np

from lecture_numerics import runcache


def test_a_cached_run_equals_the_run_itself_and_survives_a_corrupt_file(tmp_path, monkeypatch):
    monkeypatch.setattr(runcache, "CACHE_DIR", tmp_path)
    calls = []

    def run(n, scale=2.0):
        calls.append(n)
        return np.arange(n) * scale

    cached = runcache.disk_cached(run)
    assert np.array_equal(cached(4), run(4))
    assert np.array_equal(cached(4, scale=2.0), run(4))          # defaults filled: one entry
    assert calls.count(4) == 3                                    # computed once through the memo
    [stored] = list(tmp_path.glob("*.pkl"))
    stored.write_bytes(b"not a pickle")
    again = runcache.disk_cached(run)                             # a new process, in effect
    assert np.array_equal(again(4), run(4))


def test_the_key_follows_the_numerics_source(tmp_path, monkeypatch):
    monkeypatch.setattr(runcache, "CACHE_DIR", tmp_path)
    first = runcache.disk_cached(lambda n: n + 1)
    first(1)
    monkeypatch.setattr(runcache, "package_digest", lambda: "edited")
    second = runcache.disk_cached(lambda n: n + 1)
    second(1)
    assert len(list(tmp_path.glob("*.pkl"))) == 2                # an edit never reads an old result


def test_the_sweep_is_the_same_with_and_without_the_memo():
    from lecture_numerics import updratio

    assert updratio.three_runs.uncached(0.0288, 30.0).losses.tolist() == \
        updratio.three_runs(0.0288, 30.0).losses.tolist()
