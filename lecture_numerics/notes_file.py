"""The speaker's notes as a file: its lines, and where a quote from them stands.

Quotes in the ledger are verbatim pieces of ``assets/lecture-notes.txt`` with white space
normalised away; a quote may skip words ("A …… B"). Lines are 1-based, as an editor shows them.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

NOTES_PATH = Path(__file__).resolve().parents[1] / "assets" / "lecture-notes.txt"


@lru_cache(maxsize=4)
def notes_lines(path: Path = NOTES_PATH) -> tuple[str, ...]:
    """The notes' lines, without their line ends."""
    return tuple(path.read_text(encoding="utf-8").splitlines())


def quote_pieces(quote: str) -> list[str]:
    """"A …… B" stands for two verbatim pieces of the notes."""
    return [p for p in re.split(r"\s*…+\s*", quote) if p.strip()]


@lru_cache(maxsize=4)
def _flat_index(lines: tuple[str, ...]) -> tuple[str, tuple[int, ...]]:
    """The notes with all white space removed, and for each of its characters its line."""
    chars, owners = [], []
    for number, line in enumerate(lines, start=1):
        for ch in re.sub(r"\s+", "", line):
            chars.append(ch)
            owners.append(number)
    return "".join(chars), tuple(owners)


def quote_line(quote: str, prefer: str = "", lines: tuple[str, ...] | None = None) -> int | None:
    """The line where ``quote`` (its piece containing ``prefer``, when one does) begins;
    None when no piece stands in the notes."""
    flat, owners = _flat_index(lines if lines is not None else notes_lines())
    pieces = [re.sub(r"\s+", "", p) for p in quote_pieces(quote)]
    pieces.sort(key=lambda p: prefer not in p if prefer else False)
    for piece in pieces:
        at = flat.find(piece)
        if piece and at >= 0:
            if prefer and prefer in piece:
                at += piece.index(prefer)
            return owners[at]
    return None


__all__ = ["NOTES_PATH", "notes_lines", "quote_line", "quote_pieces"]
