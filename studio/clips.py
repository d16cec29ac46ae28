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


def join_as_manim(parts: list[Path], target: Path) -> None:
    """``parts`` (one play's clip each) into ``target`` exactly as manim joins a scene's clips
    into its movie (SceneFileWriter.combine_files: libav's concat demuxer through PyAV, the
    decoding timestamps left to the muxer). ffmpeg's own concat of the same clips keeps each
    clip's rounded length, so its timestamps drift from a whole render's by a frame's worth."""
    import io

    import av

    listing = "".join(f"file 'file:{Path(p).resolve().as_posix()}'\n" for p in parts).encode()
    source = av.open(io.BytesIO(listing), options={"safe": "0", "an": "1"}, format="concat")
    try:
        with av.open(str(target), mode="w") as output:
            stream = output.add_stream_from_template(template=source.streams.video[0])
            for packet in source.demux(source.streams.video[0]):
                if packet.dts is None:   # the flushing packets demux ends with
                    continue
                packet.dts = None        # consecutive clips' dts need not increase: libav recomputes
                packet.stream = stream
                output.mux(packet)
    finally:
        source.close()


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
