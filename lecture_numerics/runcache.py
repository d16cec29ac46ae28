"""A disk memo for the numerics' few expensive runs (a learning-rate sweep takes seconds).

Every scene, worker and ``--list`` loads the whole package, so a run that takes seconds at
import would be paid dozens of times per render. The runs are deterministic, so their results
are kept under ``.cache/numerics/`` keyed by the run's name and arguments and by the contents
of every module in this package and the numpy version: any edit to the numerics makes a new
key, and a stale result can never be read. ``LECTURE_NUMERICS_CACHE=off`` runs everything.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import os
import pickle
import tempfile
from pathlib import Path
from typing import Any, Callable

import numpy as np

PACKAGE = Path(__file__).resolve().parent
CACHE_DIR = PACKAGE.parent / ".cache" / "numerics"


@functools.lru_cache(maxsize=1)
def package_digest() -> str:
    digest = hashlib.sha256(np.__version__.encode())
    for path in sorted(PACKAGE.glob("*.py")):
        digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()


def _enabled() -> bool:
    return os.environ.get("LECTURE_NUMERICS_CACHE", "on") != "off"


def _write(path: Path, value: Any) -> None:
    """Written aside and renamed, so a reader never sees half a result."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".run-")
    try:
        with os.fdopen(fd, "wb") as out:
            pickle.dump(value, out, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def disk_cached(run: Callable[..., Any]) -> Callable[..., Any]:
    """Memoise a deterministic run on disk (and in memory) by its arguments' repr (defaults
    filled in, so ``f(1)`` and ``f(1, steps=400)`` are one entry)."""
    signature = inspect.signature(run)

    @functools.lru_cache(maxsize=None)
    def by_arguments(arguments: tuple[tuple[str, Any], ...]) -> Any:
        if not _enabled():
            return run(**dict(arguments))
        key = hashlib.sha256(f"{package_digest()}|{run.__module__}.{run.__qualname__}|{arguments!r}".encode())
        path = CACHE_DIR / f"{key.hexdigest()[:32]}.pkl"
        try:
            return pickle.loads(path.read_bytes())
        except (OSError, pickle.UnpicklingError, EOFError):
            pass
        value = run(**dict(arguments))
        try:
            _write(path, value)
        except OSError:
            pass        # a read-only checkout still works, only slower
        return value

    @functools.wraps(run)
    def cached(*args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return by_arguments(tuple((name, _hashable(value)) for name, value in bound.arguments.items()))

    cached.uncached = run
    return cached


def _hashable(value: Any) -> Any:
    return tuple(_hashable(v) for v in value) if isinstance(value, (list, tuple)) else value
