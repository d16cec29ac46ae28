"""Every number the lecture shows, tagged as looked up (sourced) or computed (derived).

A ``Sourced`` value carries what exactly it measures and where it was read.
A ``Derived`` value carries its formula, its named inputs (themselves quantities)
and the function that computes it, so anyone can recompute it.

Modules of this package declare quantities with :func:`sourced` and :func:`derived`;
each declaration lands in :data:`REGISTRY` under its stable key, which is what the
ledger lists and what scenes draw via ``quantity(key).display``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Union

Number = Union[int, float]
Formatter = Callable[[Any], str]


@dataclass(frozen=True)
class Sourced:
    """A looked-up fact: its value, unit, what it measures and its citation."""

    key: str
    value: Any
    unit: str
    measures: str
    citation: str
    display: str
    notes: str | None = None
    notes_quote: str = ""
    kind: str = field(default="sourced", init=False)


@dataclass(frozen=True)
class Derived:
    """A computed number: value, unit, formula and the named inputs it came from."""

    key: str
    value: Any
    unit: str
    formula: str
    inputs: Mapping[str, "Quantity"]
    compute: Callable[..., Any] = field(repr=False, compare=False)
    display: str
    measures: str = ""
    note: str = ""
    notes: str | None = None
    notes_quote: str = ""
    kind: str = field(default="derived", init=False)

    def recompute(self) -> Any:
        """Evaluate the formula again from the inputs' current values."""
        return self.compute(**{name: q.value for name, q in self.inputs.items()})


Quantity = Union[Sourced, Derived]

REGISTRY: dict[str, Quantity] = {}


class DuplicateKeyError(ValueError):
    """Two declarations claimed the same stable key."""


def _format(value: Any, fmt: str | Formatter) -> str:
    return fmt(value) if callable(fmt) else fmt.format(value)


def _register(q: Quantity) -> Quantity:
    existing = REGISTRY.get(q.key)
    if existing is not None and existing != q:
        raise DuplicateKeyError(f"quantity key declared twice: {q.key}")
    REGISTRY[q.key] = q
    return q


def sourced(
    key: str,
    value: Any,
    *,
    unit: str,
    measures: str,
    citation: str,
    fmt: str | Formatter = "{}",
    notes: str | None = None,
    notes_quote: str = "",
) -> Sourced:
    """Declare a looked-up value. ``fmt`` turns the value into the on-screen string;
    ``notes`` is the value as the speaker's notes state it (``notes_quote``: their words)."""
    return _register(
        Sourced(key=key, value=value, unit=unit, measures=measures, citation=citation,
                display=_format(value, fmt), notes=notes, notes_quote=notes_quote)
    )


def derived(
    key: str,
    compute: Callable[..., Any],
    *,
    inputs: Mapping[str, Quantity],
    unit: str,
    formula: str,
    fmt: str | Formatter = "{}",
    measures: str = "",
    note: str = "",
    notes: str | None = None,
    notes_quote: str = "",
) -> Derived:
    """Declare a computed value: ``compute(**inputs' values)`` gives it."""
    value = compute(**{name: q.value for name, q in inputs.items()})
    return _register(
        Derived(key=key, value=value, unit=unit, formula=formula, inputs=dict(inputs),
                compute=compute, display=_format(value, fmt), measures=measures, note=note,
                notes=notes, notes_quote=notes_quote)
    )


# Itemised breakdowns of a quantity (e.g. the per-operator activation list), shown in the
# ledger next to the quantity: key -> function returning a list of JSON-ready dicts.
BREAKDOWNS: dict[str, Callable[[], list[dict[str, Any]]]] = {}


def breakdown(key: str, items: Callable[[], list[dict[str, Any]]]) -> None:
    """Attach an itemised breakdown to the quantity ``key`` (listed in the ledger)."""
    BREAKDOWNS[key] = items


def quantity(key: str) -> Quantity:
    """Look a quantity up by its stable key (loads every numerics module first)."""
    from lecture_numerics import load_all

    load_all()
    try:
        return REGISTRY[key]
    except KeyError:
        raise KeyError(f"no quantity with key {key!r}") from None
