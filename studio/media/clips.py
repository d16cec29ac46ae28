"""Beat clips into panel clips, and beat posters, without re-encoding a frame.

A beat is a manim section (scenes/kit/base.py), so manim already wrote each beat as its own
clip. A panel's clip is its beats joined with libav's concat demuxer (stream copy, through PyAV),
which keeps every frame byte for byte. Beats are named ``<panel>.<n>``; these read the names.
"""

from __future__ import annotations

from pathlib import Path

def join(parts: list[Path], target: Path) -> None:
    """``target`` = ``parts`` one after another (same codec and settings), faststart."""
    join_as_manim(parts, target)


def join_as_manim(parts: list[Path], target: Path, *, timestamps: str = "manim") -> None:
    """``parts`` (one play's clip each) into ``target``, faststart, in this process (PyAV).

    ``timestamps="manim"``: exactly as manim joins a scene's clips into its movie
    (SceneFileWriter.combine_files: libav's concat demuxer, the decoding timestamps left to
    the muxer). ffmpeg's own concat of the same clips keeps each clip's rounded length, so its
    timestamps drift from a whole render's by a frame's worth; ``timestamps="concat"`` keeps
    the concat demuxer's (ffmpeg's ``-f concat -c copy``), which the GIF's frame picking
    (its ``fps`` filter) was measured with.

    No ffmpeg process: a beat's, a panel's and a movie's remux each cost an ffmpeg start-up
    (65 ms of CPU, mostly linking its libraries) for a few ms of copying."""
    import io

    import av

    if not parts:
        raise ValueError("nothing to join")
    listing = "".join("file '{}'\n".format(Path(p).resolve().as_posix().replace("'", "'\\''")) for p in parts)
    temporary = target.with_name(f".{target.name}.tmp")
    # One part is remuxed straight from its file: its packets as they are (the concat demuxer
    # would put the parameter sets in front of the first one again).
    source = (av.open(str(parts[0])) if len(parts) == 1 else
              av.open(io.BytesIO(listing.encode()), options={"safe": "0", "an": "1"}, format="concat"))
    try:
        with av.open(str(temporary), mode="w", format="mp4", options={"movflags": "+faststart"}) as output:
            stream = output.add_stream_from_template(template=source.streams.video[0])
            for packet in source.demux(source.streams.video[0]):
                if packet.dts is None:   # the flushing packets demux ends with
                    continue
                if timestamps == "manim":
                    packet.dts = None    # consecutive clips' dts need not increase: libav recomputes
                packet.stream = stream
                output.mux(packet)
        temporary.replace(target)
    finally:
        source.close()
        temporary.unlink(missing_ok=True)


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
