"""The project's one look, read from config/theme.yaml: concept colours (a line variant and
a darker text variant each), fonts, text sizes, and the spacing and stroke scales."""

from __future__ import annotations

from manim import ManimColor

from lecture_numerics import config_files


def _theme() -> dict:
    return config_files.theme()


def role(name: str) -> str:
    """The canonical role behind ``name`` (``gradients`` is ``backward``)."""
    theme = _theme()
    name = theme["aliases"].get(name, name)
    if name not in theme["colors"]:
        known = sorted({*theme["colors"], *theme["aliases"]})
        raise KeyError(f"theme has no colour {name!r}; known: {', '.join(known)}")
    return name


def color(name: str) -> ManimColor:
    """A role's line colour (``ink``, ``backward``, ``weights`` …): for strokes and fills."""
    return ManimColor(_theme()["colors"][role(name)])


def text_color(name: str) -> ManimColor:
    """A role's text colour: darker where the line colour is too light to read."""
    canonical = role(name)
    variants = _theme()["text_colors"]
    if canonical not in variants:
        raise KeyError(f"theme colour {canonical!r} fills surfaces; it has no text variant")
    return ManimColor(variants[canonical])


def roles() -> list[str]:
    """Every role that colours lines and text (not the surface fills)."""
    theme = _theme()
    return [name for name in theme["colors"] if name not in theme["fills"]]


def meaning(name: str) -> str:
    """What a colour role means across the lecture, in the words of the colour key."""
    return _theme()["meanings"][role(name)]


def takeaway_style(level: str) -> dict:
    """How a takeaway of this emphasis level is set (``plain``, ``star`` … ``star3``,
    ``warning``, ``back``, ``recap``): its size name, weight, colour role and ⛔ band."""
    return {"band": False, **_theme()["takeaway_styles"][level]}


def size(name: str) -> float:
    """A theme font size by role (``title``, ``body``, ``small`` …)."""
    return _theme()["sizes"][name]


def space(name: str) -> float:
    """A gap or buff from the theme's spacing scale (``tight``, ``small``, ``medium`` …)."""
    return _theme()["spacing"][name]


def stroke(name: str) -> float:
    """A stroke width from the theme's scale (``thin``, ``regular``, ``bold`` …)."""
    return _theme()["strokes"][name]


def font() -> str:
    return _theme()["font"]


def formula_font() -> str:
    """The Latin font formulas are set in (real super- and subscripts)."""
    return _theme()["formula_font"]


def background() -> ManimColor:
    return ManimColor(_theme()["background"])
