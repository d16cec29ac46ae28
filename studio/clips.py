"""Beat clips into panel clips, and beat posters, without re-encoding a frame.

A beat is a manim section (scenes/kit/base.py), so manim already wrote each beat as its own
clip. A panel's clip is its beats joined with ffmpeg's concat demuxer (stream copy), which
keeps every frame byte for byte; a beat's poster is its last frame as a JPEG (small enough
for a deck with a slide per beat).
"""

from __future__ import annotations

from pathlib import Path

from studio import encode

POSTER_JPEG_QUALITY = 3   # ffmpeg's mjpeg q scale (2 best … 31 worst): text stays crisp


def join(parts: list[Path], target: Path) -> None:
    """``target`` = ``parts`` one after another (same codec and settings), faststart."""
    if len(parts) == 1:
        encode.faststart_mp4(parts[0], target)
    else:
        encode.concat_copy(parts, target)


def last_frame_jpeg(source: Path, target: Path) -> None:
    """The clip's last frame, as a JPEG: what the screen holds when the beat has ended."""
    encode._run(["-sseof", "-0.1", "-i", str(source), "-update", "1", "-q:v", str(POSTER_JPEG_QUALITY),
                 "-f", "image2", "-c:v", "mjpeg", str(target)])


def group_beats(sections: list[dict]) -> list[tuple[str, list[dict]]]:
    """Manim's sections ``A.1, A.2, B.1`` → ``[("A", [A.1, A.2]), ("B", [B.1])]``, in order.
    A section named without a beat number (an older scene) is a panel of one beat."""
    panels: list[tuple[str, list[dict]]] = []
    for section in sections:
        panel = section["name"].rsplit(".", 1)[0] if "." in section["name"] else section["name"]
        if not panels or panels[-1][0] != panel:
            panels.append((panel, []))
        panels[-1][1].append(section)
    return panels
