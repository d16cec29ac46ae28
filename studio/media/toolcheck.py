"""Check the machine before rendering: the CJK font and the encoder.

Pango silently substitutes a fallback font when the one asked for is missing, and the
result is tofu boxes (□) instead of Chinese. So the font is checked explicitly.
"""

from __future__ import annotations

import os
import shutil
import subprocess

from studio.errors import UsageError

FONT_HINT = "install it with: apt-get install fonts-noto-cjk (or run `make setup`)"
FFMPEG_HINT = "install it with: apt-get install ffmpeg (or run `make setup`)"


def ffmpeg_binary() -> str:
    """The ffmpeg to use; LECTURE_FFMPEG overrides (tests point it at a missing one)."""
    return os.environ.get("LECTURE_FFMPEG", "ffmpeg")


def check_font(family: str, what: str = "CJK font", hint: str = FONT_HINT) -> None:
    fc_match = shutil.which("fc-match")
    if fc_match is None:
        raise UsageError(f"fontconfig (fc-match) not found, cannot check for the {what} {family!r}; {hint}")
    found = subprocess.run([fc_match, "--format=%{family}", family], capture_output=True, text=True).stdout
    if family not in found.split(","):
        raise UsageError(f"{what} {family!r} is not installed (fontconfig would substitute {found or 'nothing'!r}); {hint}")


FORMULA_FONT_HINT = "install it with: apt-get install fonts-dejavu-core (or run `make setup`)"


def check_theme_fonts(theme: dict) -> None:
    """The text font and the formula font the theme names, before any worker starts."""
    check_font(theme["font"])
    if theme.get("formula_font"):
        check_font(theme["formula_font"], "formula font", FORMULA_FONT_HINT)


def check_encoder() -> None:
    binary = shutil.which(ffmpeg_binary())
    if binary is None:
        raise UsageError(f"encoder not found: {ffmpeg_binary()!r} is not on PATH; {FFMPEG_HINT}")
    encoders = subprocess.run([binary, "-hide_banner", "-encoders"], capture_output=True, text=True).stdout
    if "libx264" not in encoders:
        raise UsageError(f"{binary} has no libx264 encoder (needed for slide-ready H.264); {FFMPEG_HINT}")
