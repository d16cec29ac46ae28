"""The project's one look, read from config/theme.yaml: colours, font, text sizes."""

from __future__ import annotations

from manim import ManimColor

from studio import config


def color(name: str) -> ManimColor:
    """A theme colour by meaning (``ink``, ``backward``, ``weights`` …)."""
    colors = config.theme()["colors"]
    if name not in colors:
        raise KeyError(f"theme has no colour {name!r}; known: {', '.join(sorted(colors))}")
    return ManimColor(colors[name])


def size(name: str) -> float:
    """A theme font size by role (``title``, ``body``, ``small`` …)."""
    return config.theme()["sizes"][name]


def font() -> str:
    return config.theme()["font"]


def exponent_font() -> str | None:
    """The font for superscript digits and signs, if the theme names one."""
    return config.theme().get("exponent_font")


def background() -> ManimColor:
    return ManimColor(config.theme()["background"])
