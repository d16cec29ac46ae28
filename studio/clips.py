"""Beat clips into panel clips, and beat posters, without re-encoding a frame.

A beat is a manim section (scenes/kit/base.py), so manim already wrote each beat as its own
clip. A panel's clip is its beats joined with ffmpeg's concat demuxer (stream copy), which
keeps every frame byte for byte. Beats are named ``<panel>.<n>``; these read the names.
"""

from __future__ import annotations

from pathlib import Path

from studio import encode

def join(parts: list[Path], target: Path) -> None:
    """``target`` = ``parts`` one after another (same codec and settings), faststart."""
    if len(parts) == 1:
        encode.faststart_mp4(parts[0], target)
    else:
        encode.concat_copy(parts, target)


def panel_of(section_name: str) -> str:
    """``"A.2"`` → ``"A"`` (a section named without a beat number is its own panel)."""
    return section_name.rsplit(".", 1)[0] if "." in section_name else section_name


def beat_number(section_name: str) -> str:
    """``"A.2"`` → ``"2"``; a section named without a beat number is beat 1 of itself."""
    return section_name.rsplit(".", 1)[1] if "." in section_name else "1"


def group_beats(sections: list[dict]) -> list[tuple[str, list[dict]]]:
    """Manim's sections ``A.1, A.2, B.1`` → ``[("A", [A.1, A.2]), ("B", [B.1])]``, in order.
    A section named without a beat number (an older scene) is a panel of one beat."""
    panels: list[tuple[str, list[dict]]] = []
    for section in sections:
        panel = panel_of(section["name"])
        if not panels or panels[-1][0] != panel:
            panels.append((panel, []))
        panels[-1][1].append(section)
    return panels
