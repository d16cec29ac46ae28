"""Every number the lecture shows, tagged as looked up (sourced), computed (derived) or
picked for a figure (chosen) — the lecture's 查来的 / 推来的 / 示例取值, never mixed.

A ``Sourced`` value carries what exactly it measures and where it was read; one whose
citation could not be confirmed is declared with ``confirmed=False`` (待核) and is drawn
only with a visible mark.
A ``Derived`` value carries its formula, its named inputs (themselves quantities)
and the function that computes it, so anyone can recompute it.
A ``Chosen`` value is an input picked for a figure (a worked example's numbers, a toy
learning rate, an illustrative batch): it carries the reason it was picked and, where the
notes state it, their value and words. It is never listed under 查来的.

Modules of this package declare quantities with :func:`sourced`, :func:`derived` and
:func:`chosen`; each declaration lands in :data:`REGISTRY` under its stable key, which is
what the ledger lists and what scenes draw via ``quantity(key).display``. A quantity whose
value is a sequence (axis ticks, a run's readouts) may also format each item
(``item_fmt``): scenes draw item ``i`` as ``{key[i]}``.
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
    note: str = ""
    confirmed: bool = True
    item_displays: tuple[str, ...] = ()
    kind: str = field(default="sourced", init=False)

    @property
    def status(self) -> str:
        """"" for a confirmed citation, "待核" (unconfirmed) otherwise."""
        return "" if self.confirmed else UNCONFIRMED


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
    item_displays: tuple[str, ...] = ()
    kind: str = field(default="derived", init=False)

    @property
    def status(self) -> str:
        """待核 when anything it is computed from is unconfirmed: the doubt travels with the number."""
        return UNCONFIRMED if any(q.status == UNCONFIRMED for q in self.inputs.values()) else ""

    def recompute(self) -> Any:
        """Evaluate the formula again from the inputs' current values."""
        return self.compute(**{name: q.value for name, q in self.inputs.items()})


@dataclass(frozen=True)
class Chosen:
    """An input picked for a figure: its value, unit, what it stands for and why it was picked."""

    key: str
    value: Any
    unit: str
    measures: str
    reason: str
    display: str
    notes: str | None = None
    notes_quote: str = ""
    note: str = ""
    item_displays: tuple[str, ...] = ()
    kind: str = field(default="chosen", init=False)
    status: str = field(default="", init=False)


Quantity = Union[Sourced, Derived, Chosen]
UNCONFIRMED = "待核"

REGISTRY: dict[str, Quantity] = {}


class DuplicateKeyError(ValueError):
    """Two declarations claimed the same stable key."""


def _format(value: Any, fmt: str | Formatter) -> str:
    return fmt(value) if callable(fmt) else fmt.format(value)


def _items(value: Any, item_fmt: str | Formatter | None) -> tuple[str, ...]:
    return () if item_fmt is None else tuple(_format(v, item_fmt) for v in value)


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
    note: str = "",
    confirmed: bool = True,
    item_fmt: str | Formatter | None = None,
) -> Sourced:
    """Declare a looked-up value. ``fmt`` turns the value into the on-screen string;
    ``notes`` is the value as the speaker's notes state it (``notes_quote``: their words).
    ``confirmed=False``: the citation could not be read or checked (待核)."""
    return _register(
        Sourced(key=key, value=value, unit=unit, measures=measures, citation=citation,
                display=_format(value, fmt), notes=notes, notes_quote=notes_quote, note=note,
                confirmed=confirmed, item_displays=_items(value, item_fmt))
    )


def chosen(
    key: str,
    value: Any,
    *,
    unit: str,
    measures: str,
    reason: str,
    fmt: str | Formatter = "{}",
    notes: str | None = None,
    notes_quote: str = "",
    note: str = "",
    item_fmt: str | Formatter | None = None,
) -> Chosen:
    """Declare an input picked for a figure (示例取值): ``reason`` says why this value.
    Where the notes state it, ``notes``/``notes_quote`` give their value and words."""
    return _register(
        Chosen(key=key, value=value, unit=unit, measures=measures, reason=reason,
               display=_format(value, fmt), notes=notes, notes_quote=notes_quote, note=note,
               item_displays=_items(value, item_fmt))
    )


# The reason a value the speaker picked to illustrate a point carries: it is the notes' own
# example, so it is 示例取值 (never 查来的), quoted from the notes.
SPEAKERS_EXAMPLE = "讲者举的例子"


def speakers_example(key: str, value: Any, *, unit: str, measures: str, notes_quote: str,
                     notes: str | None = None, fmt: str | Formatter = "{}", note: str = "") -> Chosen:
    """A value the speaker picked as an example (三千亿个推子, 推了零点零一, a = 2): 示例取值,
    with the notes' words, not a fact looked up in them."""
    return chosen(key, value, unit=unit, measures=measures, reason=SPEAKERS_EXAMPLE, fmt=fmt,
                  notes=notes, notes_quote=notes_quote, note=note)


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
    item_fmt: str | Formatter | None = None,
) -> Derived:
    """Declare a computed value: ``compute(**inputs' values)`` gives it."""
    value = compute(**{name: q.value for name, q in inputs.items()})
    return _register(
        Derived(key=key, value=value, unit=unit, formula=formula, inputs=dict(inputs),
                compute=compute, display=_format(value, fmt), measures=measures, note=note,
                notes=notes, notes_quote=notes_quote, item_displays=_items(value, item_fmt))
    )


# Itemised breakdowns of a quantity (e.g. the per-operator activation list), shown in the
# ledger next to the quantity: key -> function returning a list of JSON-ready dicts.
BREAKDOWNS: dict[str, Callable[[], list[dict[str, Any]]]] = {}


def breakdown(key: str, items: Callable[[], list[dict[str, Any]]]) -> None:
    """Attach an itemised breakdown to the quantity ``key`` (listed in the ledger)."""
    BREAKDOWNS[key] = items

