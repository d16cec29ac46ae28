"""The GIF: a palette chosen once, frames streamed through it (memory does not grow with the
clip), and a size ladder (a GIF over its budget is made again at lower rungs until it fits)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from studio.media import encode
from tests.render_helpers import probe

SECONDS = 2.0
WIDTH = 320
FPS = 60
FFMPEG = encode._run  # the real one, before any test records it


@pytest.fixture(scope="module")
def clip(tmp_path_factory):
    """Busy footage (ffmpeg's moving test pattern) at 60 fps, so every rung's frame rate differs."""
    path = tmp_path_factory.mktemp("gif") / "busy.mp4"
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=size={WIDTH}x180:rate={FPS}",
                    "-t", f"{SECONDS}", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", str(path)],
                   check=True)
    return path


def _fps(path) -> float:
    """A GIF's frame rate, rounded: GIF delays are whole centiseconds, so 15 fps reads 15.08."""
    num, den = map(int, probe(path)["streams"][0]["avg_frame_rate"].split("/"))
    return round(num / den)


@pytest.fixture(scope="module")
def rung_sizes(clip, tmp_path_factory) -> list[int]:
    """Bytes of the clip's GIF made at each rung of the ladder."""
    folder, sizes = tmp_path_factory.mktemp("rungs"), []
    for rung, (max_fps, colours, bayer) in enumerate(encode.GIF_LADDER):
        target, palette = folder / f"rung{rung}.gif", folder / f"palette{rung}.png"
        encode.palette(clip, palette, WIDTH, colours)
        encode.gif_rung(clip, target, palette, WIDTH, min(FPS, max_fps), bayer)
        sizes.append(target.stat().st_size)
    return sizes


@pytest.fixture()
def tries(monkeypatch):
    """The frame rate of every GIF the ladder makes, in order."""
    made = []

    def recording(args):
        FFMPEG(args)
        if args[-3:-1] == ["-f", "gif"]:
            made.append(_fps(args[-1]))

    monkeypatch.setattr(encode, "_run", recording)
    return made


def test_each_rung_is_smaller_than_the_one_before(rung_sizes):
    assert all(b < a for a, b in zip(rung_sizes, rung_sizes[1:])), rung_sizes


def test_gif_within_budget_takes_the_first_rung(clip, tmp_path, tries):
    target = tmp_path / "a.gif"
    encode.gif(clip, target, WIDTH, FPS, SECONDS)
    assert target.stat().st_size <= encode.GIF_BYTES_PER_SECOND * SECONDS
    assert tries == [encode.GIF_MAX_FPS]
    assert _fps(target) == encode.GIF_MAX_FPS


def test_gif_over_budget_steps_down_to_the_first_rung_that_fits(clip, rung_sizes, tmp_path, tries, monkeypatch):
    first, second = rung_sizes[:2]
    budget = (first + second) / 2  # over for the first rung, within for the second
    monkeypatch.setattr(encode, "GIF_BYTES_PER_SECOND", budget / SECONDS)
    target = tmp_path / "fits.gif"
    encode.gif(clip, target, WIDTH, FPS, SECONDS)
    assert tries == [encode.GIF_LADDER[0][0], encode.GIF_LADDER[1][0]]
    assert target.stat().st_size == second <= budget
    assert _fps(target) == encode.GIF_LADDER[1][0]


def test_gif_that_never_fits_ends_on_the_smallest_rung(clip, tmp_path, tries, monkeypatch):
    monkeypatch.setattr(encode, "GIF_BYTES_PER_SECOND", 1)
    target = tmp_path / "tiny-budget.gif"
    encode.gif(clip, target, WIDTH, FPS, SECONDS)
    assert tries == [rung[0] for rung in encode.GIF_LADDER]
    assert _fps(target) == encode.GIF_LADDER[-1][0]


def test_gif_leaves_no_palette_behind(clip, tmp_path):
    encode.gif(clip, tmp_path / "a.gif", WIDTH, FPS, SECONDS)
    assert [p.name for p in tmp_path.iterdir()] == ["a.gif"]


def _gif_peak_mb(clip, seconds: int, tmp_path) -> float:
    """Peak memory of the ffmpeg runs that make the clip's GIF, measured in a fresh process."""
    code = textwrap.dedent(f"""
        import resource
        from pathlib import Path
        from studio.media import encode
        encode.GIF_BYTES_PER_SECOND = 10 ** 12  # the first rung only (see below)
        encode.gif(Path({str(clip)!r}), Path({str(tmp_path / "m.gif")!r}), 1920, 60, {seconds})
        print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    """)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(run.stdout.split()[-1]) / 1024


def test_gif_memory_does_not_grow_with_the_clip(tmp_path):
    """A one-pass palettegen/paletteuse graph holds every frame until the palette is known
    (+500 MB for the 8 s clip here); the GIF streams through a palette chosen first.
    (The first rung only: paletteuse's colour cache grows with the distinct
    colours it meets, which ffmpeg's noisy test pattern has many of and slides do not.)"""
    peaks = []
    for seconds in (1, 8):
        clip = tmp_path / f"{seconds}s.mp4"
        subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=960x540:rate=30",
                        "-t", str(seconds), "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
                        str(clip)], check=True)
        peaks.append(_gif_peak_mb(clip, seconds, tmp_path))
    short, long = peaks
    assert long < short + 40, f"GIF peak {short:.0f} MB for 1 s, {long:.0f} MB for 8 s"


# -- stream copies: beats and panels cost no encode --------------------------------------
def _clip(path, seconds: float, pattern: str):
    """A short H.264 clip with B-frames (x264's defaults), as manim writes a section."""
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", f"{pattern}=size=320x180:rate=30",
                    "-t", str(seconds), "-c:v", "libx264", "-pix_fmt", "yuv420p", str(path)], check=True)
    return path


def _packets(path) -> list[bytes]:
    import av

    with av.open(str(path)) as container:
        return [bytes(packet) for packet in container.demux(video=0) if packet.size]


SPS, PPS = 7, 8   # H.264 NAL unit types of the parameter sets


def _nal_units(packet: bytes) -> list[bytes]:
    """The NAL units of an MP4 packet (each behind its 4-byte length)."""
    units, at = [], 0
    while at < len(packet):
        size = int.from_bytes(packet[at:at + 4], "big")
        units.append(packet[at + 4:at + 4 + size])
        at += 4 + size
    return units


def _frame_digests(path) -> list[str]:
    out = subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-f", "framemd5", "-"],
                         capture_output=True, text=True, check=True).stdout
    return [line.split(",")[-1].strip() for line in out.splitlines() if not line.startswith("#")]


def _moov_before_mdat(path) -> bool:
    data = path.read_bytes()
    return 0 <= data.find(b"moov") < data.find(b"mdat")


def test_faststart_is_a_stream_copy(tmp_path):
    """The published clip carries manim's packets unchanged (nothing decoded or encoded again),
    with its index moved to the front."""
    source = _clip(tmp_path / "section.mp4", 1.0, "testsrc2")
    target = tmp_path / "published.mp4"
    from studio.media import clips

    clips.join([source], target)
    assert _packets(target) == _packets(source)
    assert _moov_before_mdat(target)


def _join_in_process(timestamps):
    from studio.media import clips

    return lambda parts, target: clips.join_as_manim(parts, target, timestamps=timestamps)


@pytest.mark.parametrize("join", [_join_in_process("manim"), _join_in_process("concat")],
                         ids=["manim", "concat"])
def test_concat_copy_has_exactly_the_frames_of_its_parts(tmp_path, join):
    """Beat clips joined into a panel clip: the decoded frames are the parts' frames, in order,
    none lost or repeated at a seam; the packets are copied (each part's first one carries that
    part's parameter sets in front of it, so a player can switch), the index is at the front."""
    parts = [_clip(tmp_path / "it's 1.mp4", 0.5, "testsrc2"), _clip(tmp_path / "2.mp4", 1.2, "smptebars"),
             _clip(tmp_path / "3.mp4", 0.1, "rgbtestsrc")]
    target = tmp_path / "panel.mp4"
    join(parts, target)
    assert _frame_digests(target) == [d for part in parts for d in _frame_digests(part)]
    joined, copied = _packets(target), [p for part in parts for p in _packets(part)]
    assert len(joined) == len(copied)
    for ours, theirs in zip(joined, copied):
        added = _nal_units(ours)
        for unit in _nal_units(theirs):
            added.remove(unit)                        # every unit of the part is there unchanged
        assert {unit[0] & 0x1F for unit in added} <= {SPS, PPS}
    assert _moov_before_mdat(target)
    info = encode.probe(target)
    assert (info["codec"], info["pix_fmt"]) == ("h264", "yuv420p")
    assert info["duration_s"] == pytest.approx(1.8, abs=0.05)
    assert encode.duration_s(target) == pytest.approx(info["duration_s"], abs=1e-6)   # PyAV reads ffprobe's field
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["it's 1.mp4", "2.mp4", "3.mp4", "panel.mp4"])


def test_concat_copy_of_nothing_is_refused(tmp_path):
    from studio.media import clips

    with pytest.raises(ValueError, match="nothing to join"):
        clips.join([], tmp_path / "panel.mp4")


def _gif_frames(path) -> tuple[list, list[int]]:
    """Each frame as shown (composited over the ones before), and its delay in ms."""
    import numpy as np
    from PIL import Image, ImageSequence

    pictures, delays = [], []
    with Image.open(path) as gif:
        for frame in ImageSequence.Iterator(gif):
            pictures.append(np.asarray(frame.convert("RGB")))
            delays.append(frame.info["duration"])
    return pictures, delays


@pytest.mark.parametrize("rung", range(len(encode.GIF_LADDER)))
def test_a_gif_made_in_two_halves_shows_what_one_pass_shows(tmp_path, rung):
    """Every rung's frame rate: the same frames, pixel for pixel, in the same number; the
    delays differ at most by a centisecond at the seam (each half rounds its own clock)."""
    import numpy as np

    seconds = 5.0
    source = tmp_path / "busy.mp4"
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=size=240x136:rate={FPS}",
                    "-t", f"{seconds}", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", str(source)],
                   check=True)
    max_fps, colours, bayer = encode.GIF_LADDER[rung]
    palette = tmp_path / "palette.png"
    encode.palette(source, palette, 240, colours)
    one, two = tmp_path / "one.gif", tmp_path / "two.gif"
    encode.gif_rung(source, one, palette, 240, min(FPS, max_fps), bayer)
    encode.gif_rung(source, two, palette, 240, min(FPS, max_fps), bayer, duration_s=seconds)
    assert encode.gif_half_point(seconds) is not None
    (single, single_delays), (halves, halves_delays) = _gif_frames(one), _gif_frames(two)
    assert len(single) == len(halves) == round(seconds * min(FPS, max_fps))
    assert all(np.array_equal(a, b) for a, b in zip(single, halves))
    seams = [i for i, (a, b) in enumerate(zip(single_delays, halves_delays)) if a != b]
    assert len(seams) <= 1 and all(abs(single_delays[i] - halves_delays[i]) <= 10 for i in seams)
    assert two.read_bytes().count(b"NETSCAPE2.0") == 1, "the second half's loop block was kept"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["busy.mp4", "one.gif", "palette.png", "two.gif"]


def test_joining_gifs_of_different_palettes_is_refused(tmp_path):
    from PIL import Image

    parts = []
    for n, colour in enumerate(((255, 0, 0), (0, 0, 255))):
        path = tmp_path / f"{n}.gif"
        Image.new("RGB", (8, 8), colour).convert("P", palette=Image.ADAPTIVE, colors=2).save(path)
        parts.append(path)
    with pytest.raises(encode.EncodeError, match="palette"):
        encode.join_gifs(parts, tmp_path / "joined.gif")
    assert not (tmp_path / "joined.gif").exists()
