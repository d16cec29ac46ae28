"""Every quantity by its key: the package's declaring modules are imported first.

Modules are found on disk and imported by name, so this lookup sits beside provenance
(which defines what a quantity is) without the package and provenance importing each other.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from lecture_numerics.provenance import REGISTRY, Quantity

PACKAGE = "lecture_numerics"
PACKAGE_DIR = Path(__file__).resolve().parent
# Modules that hold machinery rather than declarations.
NOT_DECLARING = {"provenance", "lookup", "ledger", "notes", "zh", "axes", "runcache", "errata", "notes_file",
                 "census", "census_rules", "approx", "config_files"}


def load_all() -> dict[str, Quantity]:
    """Import every declaring module of the package so that all quantities are registered."""
    for info in pkgutil.iter_modules([str(PACKAGE_DIR)]):
        if info.name not in NOT_DECLARING and not info.name.startswith("_"):
            importlib.import_module(f"{PACKAGE}.{info.name}")
    return REGISTRY


def quantity(key: str) -> Quantity:
    """Look a quantity up by its stable key (loads every numerics module first)."""
    load_all()
    try:
        return REGISTRY[key]
    except KeyError:
        raise KeyError(f"no quantity with key {key!r}") from None
