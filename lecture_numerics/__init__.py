"""The lecture's numbers: pure numpy/scipy, no drawing. See provenance.py."""

from __future__ import annotations

from lecture_numerics.lookup import load_all, quantity
from lecture_numerics.provenance import REGISTRY, Chosen, Derived, Quantity, Sourced, chosen, derived, sourced

__all__ = ["REGISTRY", "Chosen", "Derived", "Quantity", "Sourced", "chosen", "derived", "quantity", "sourced",
           "load_all"]
