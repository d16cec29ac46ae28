"""The lecture's numbers: pure numpy/scipy, no drawing. See provenance.py."""

from __future__ import annotations

import importlib
import pkgutil

from lecture_numerics.provenance import (REGISTRY, Chosen, Derived, Quantity, Sourced, chosen, derived, quantity,
                                         sourced)

__all__ = ["REGISTRY", "Chosen", "Derived", "Quantity", "Sourced", "chosen", "derived", "quantity", "sourced",
           "load_all"]

# Modules that hold machinery rather than declarations.
_NOT_DECLARING = {"provenance", "ledger", "notes", "zh", "axes", "runcache", "errata", "notes_file",
                  "census", "census_rules", "approx"}


def load_all() -> dict[str, Quantity]:
    """Import every module of the package so that all quantities are registered."""
    for info in pkgutil.iter_modules(__path__):
        if info.name not in _NOT_DECLARING and not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")
    return REGISTRY
