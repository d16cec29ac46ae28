"""Turn manim's output into slide-ready files with ffmpeg.

- x264 setting: config/encoder.yaml (``encoder_options``), chosen by bench/encoder.py; every
  clip is encoded once, by the worker, and everything after that copies its packets.
- mp4: H.264 yuv420p as manim encoded it, with the index at the front ("faststart") so
  browsers, PowerPoint and Keynote start playing at once; the worker writes it so, and clips
  join without a re-encode (studio/media/clips.join_as_manim, in process).
- gif: loops forever, at most 960 px wide and 30 fps, with a palette chosen once for the
  clip from its keyframes, within 5 MB per 10 s of video. Its source is the small stream
  the worker wrote while encoding (studio/manim_hooks/fastencode.GifFrames), or any clip.
- png: the poster frame — the first frame of the clip it is given when that clip loops,
  its last frame otherwise (the pipeline hands it a walkthrough's first panel).
"""

from __future__ import annotations

import json
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from pathlib import Path

from studio import config
from studio.errors import UsageError
from studio.media.toolcheck import ffmpeg_binary

GIF_MAX_WIDTH = 960
GIF_MAX_FPS = 30
# Bumped whenever post-processing changes, so cached scenes are re-published.
POSTPROCESS_VERSION = 5


class EncodeError(RuntimeError):
    pass


ENCODER_FILE = "encoder.yaml"
X264_PRESETS = ("ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow")
X264_SETTING = {
    "type": "object",
    "required": ["preset", "crf"],
    "additionalProperties": False,
    "properties": {
        "preset": {"enum": list(X264_PRESETS)},
        # 0 is lossless for 8-bit x264 (the benchmark's reference); 51 is x264's limit.
        "crf": {"type": "number", "minimum": 0, "maximum": 51},
        # x264's own options on top of the preset (x264 --help's names), e.g. "cabac=1".
        "params": {"type": "string", "pattern": "^[a-z0-9-]+=[A-Za-z0-9.,-]+(:[a-z0-9-]+=[A-Za-z0-9.,-]+)*$"},
    },
}
ENCODER_SCHEMA = {
    "type": "object",
    "required": ["x264"],
    "additionalProperties": False,
    "properties": {
        "x264": X264_SETTING,   # the default: the measured choice (bench/encoder.py --write)
        # Named settings a user picks with render.py --encoder NAME, each with its trade-off.
        "alternatives": {"type": "object", "additionalProperties": X264_SETTING,
                         "propertyNames": {"pattern": "^[a-z][a-z0-9-]*$", "not": {"const": "default"}}},
    },
}
# render.py --encoder NAME sets this for its workers; unset (or "default") is x264: above.
ENCODER_ENV = "LECTURE_ENCODER"
DEFAULT_ENCODER = "default"


def encoder_names(path: Path | None = None) -> list[str]:
    """``default`` and the named alternatives of config/encoder.yaml."""
    return [DEFAULT_ENCODER, *_encoder_config(path).get("alternatives", {})]


def encoder_options(path: Path | None = None, name: str | None = None) -> dict[str, str]:
    """x264's options for every clip: config/encoder.yaml's ``x264`` setting, or the named
    alternative (``name``, else $LECTURE_ENCODER). UsageError when the file is invalid or
    the name is not in it."""
    settings = _encoder_config(path)
    name = name or os.environ.get(ENCODER_ENV) or DEFAULT_ENCODER
    alternatives = settings.get("alternatives", {})
    if name != DEFAULT_ENCODER and name not in alternatives:
        raise UsageError(f"unknown encoder {name!r}; choose one of: {', '.join([DEFAULT_ENCODER, *alternatives])} "
                         "(config/encoder.yaml)")
    x264 = settings["x264"] if name == DEFAULT_ENCODER else alternatives[name]
    options = {"preset": x264["preset"], "crf": f"{x264['crf']:g}"}
    if x264.get("params"):
        options["x264-params"] = x264["params"]
    return options


def _encoder_config(path: Path | None) -> dict:
    return config.load_yaml(path or config.config_dir() / ENCODER_FILE, ENCODER_SCHEMA)


# Post-processing yields to the workers: a batch's next scene renders while this one's GIF
# is made, and the worker's x264 is the longer chain (its output bytes do not depend on it).
NICENESS = 10


def _run(args: list[str]) -> None:
    with subprocess.Popen([ffmpeg_binary(), "-hide_banner", "-loglevel", "error", "-nostdin", "-y", *args],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) as child:
        try:
            os.setpriority(os.PRIO_PROCESS, child.pid, NICENESS)
        except OSError:
            pass  # it ended already, or the system does not allow it: only the pace changes
        _, stderr = child.communicate()
    if child.returncode != 0:
        raise EncodeError(f"ffmpeg failed: {stderr.strip().splitlines()[-1] if stderr.strip() else child.returncode}")


# Slides embed GIFs by the dozen: keep each under 5 MB per 10 s of video. Busy footage
# (the rotating, shaded saddle) is tried at lower frame rates and fewer colours until it
# fits; each rung was checked by eye for banding and legible text.
GIF_BYTES_PER_SECOND = 500_000
GIF_LADDER = (  # (max fps, palette colours, bayer scale: higher = less dither noise, smaller)
    (GIF_MAX_FPS, 128, 4),
    (20, 96, 5),
    (15, 96, 5),
    (15, 64, 5),
    (10, 64, 5),
)


def gif_frame_size(width: int, height: int) -> tuple[int, int]:
    """The GIF's picture size for a movie of ``width``×``height``: what ``scale=W:-2`` gives
    (the width capped, the height kept in proportion, rounded to an even number)."""
    out_width = min(width, GIF_MAX_WIDTH)
    return out_width, (out_width * height + width) // (2 * width) * 2


def gif_fps(fps: int) -> int:
    """The GIF's first-rung frame rate for a movie at ``fps``."""
    return min(fps, GIF_MAX_FPS)


def palette(source: Path, target: Path, width: int, colours: int) -> None:
    """The GIF's palette, chosen once from the clip's keyframes.

    Each animation starts on a keyframe, so they sample every state the scene passes through
    (43 of fig-vote's 2265 frames) and decoding them is cheap. Choosing the palette apart
    from its use lets the GIF stream: a one-pass palettegen/paletteuse graph has to hold
    every frame until the palette is known (2.5 GB for fig-vote's 38 s at 960 px)."""
    _run(["-skip_frame", "nokey", "-i", str(source), "-vf",
          f"scale={min(width, GIF_MAX_WIDTH)}:-2:flags=lanczos,palettegen=max_colors={colours}:stats_mode=full",
          "-fps_mode", "passthrough", "-update", "1", "-f", "image2", str(target)])


def gif_filter(width: int, fps: float, bayer_scale: int = 4) -> str:
    """Input 0 is the clip, input 1 its palette."""
    out_width = min(width, GIF_MAX_WIDTH)
    return (f"[0]fps={fps:g},scale={out_width}:-2:flags=lanczos[v];"
            f"[v][1]paletteuse=dither=bayer:bayer_scale={bayer_scale}:diff_mode=rectangle")


def gif_rung(source: Path, target: Path, palette_png: Path, width: int, fps: float, bayer_scale: int,
             duration_s: float = 0.0) -> None:
    """One rung of the ladder. A clip of at least ``GIF_HALVES_MIN_S`` is made in two halves
    side by side, joined (``join_gifs``): paletteuse and the GIF encoder run on one core
    each, and the GIF was the last step of a render."""
    # Where the halves meet follows from the frames themselves (their count and rate), never
    # from how the render was timed, so a cut render's GIF is a whole render's byte for byte.
    cut = gif_half_point(frames_length_s(source)) if duration_s >= GIF_HALVES_MIN_S else None
    if cut is None:
        _gif_part(source, target, palette_png, width, fps, bayer_scale)
        return
    halves = [target.with_name(f".{target.stem}.half{n}.gif") for n in (1, 2)]
    try:
        with ThreadPoolExecutor(max_workers=2) as pool:
            list(pool.map(lambda args: _gif_part(*args),
                          [(source, halves[0], palette_png, width, fps, bayer_scale, ["-t", f"{cut:g}"]),
                           (source, halves[1], palette_png, width, fps, bayer_scale, ["-ss", f"{cut:g}"])]))
        join_gifs(halves, target)
    finally:
        for half in halves:
            half.unlink(missing_ok=True)


# The halves meet on a frame every rung's rate shares (30, 20, 15 and 10 fps all step through
# each fifth of a second), so the second half's frames are the ones a single pass picks.
GIF_HALVES_GRID_S = 0.2
GIF_HALVES_MIN_S = 4.0   # below this, the second ffmpeg start-up and its seek cost what the halves save


def frames_length_s(path: Path) -> float:
    """A clip's frame count over its frame rate, read from its packets (nothing decoded)."""
    import av

    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        return sum(1 for packet in container.demux(stream) if packet.size) / float(stream.average_rate)


def gif_half_point(duration_s: float) -> float | None:
    if duration_s < GIF_HALVES_MIN_S:
        return None
    return round(duration_s / 2 / GIF_HALVES_GRID_S) * GIF_HALVES_GRID_S


def _gif_part(source: Path, target: Path, palette_png: Path, width: int, fps: float, bayer_scale: int,
              window: list[str] | None = None) -> None:
    _run([*(window or []), "-i", str(source), "-i", str(palette_png), "-filter_complex",
          gif_filter(width, fps, bayer_scale), "-loop", "0", "-f", "gif", str(target)])


def join_gifs(parts: list[Path], target: Path) -> None:
    """GIFs of one palette, one after another: the first whole but its trailer, then each
    next one's frames (its header, screen descriptor, palette and loop block dropped).
    Each part's first frame is a whole picture, so nothing depends on the frame before it."""
    pieces = []
    for index, part in enumerate(parts):
        data = part.read_bytes()
        head_end, blocks = _gif_blocks(data)
        if index == 0:
            first_head = data[:head_end]
            pieces.append(first_head)
        elif data[:head_end][6:] != first_head[6:]:
            raise EncodeError(f"{part.name} does not share the first part's screen and palette")
        pieces.extend(data[start:end] for kind, start, end in blocks
                      if kind not in ("trailer",) and not (index and kind == "application"))
    pieces.append(b"\x3b")
    temporary = target.with_name(f".{target.name}.tmp")
    temporary.write_bytes(b"".join(pieces))
    temporary.replace(target)


def _gif_blocks(data: bytes) -> tuple[int, list[tuple[str, int, int]]]:
    """Where a GIF's header (with its global palette) ends, and its blocks: (kind, start, end)."""
    if data[:6] not in (b"GIF87a", b"GIF89a"):
        raise EncodeError("not a GIF")
    packed = data[10]
    at = 13 + (3 * 2 ** ((packed & 7) + 1) if packed & 0x80 else 0)
    head_end, blocks = at, []
    while at < len(data):
        start, introducer = at, data[at]
        if introducer == 0x3B:
            blocks.append(("trailer", at, at + 1))
            break
        if introducer == 0x21:
            kind = {0xFF: "application", 0xF9: "control", 0xFE: "comment"}.get(data[at + 1], "extension")
            at += 2
        elif introducer == 0x2C:
            kind, local = "image", data[at + 9]
            at += 10 + (3 * 2 ** ((local & 7) + 1) if local & 0x80 else 0) + 1   # + LZW minimum code size
        else:
            raise EncodeError(f"unknown GIF block 0x{introducer:02x} at byte {at}")
        while data[at]:                      # sub-blocks, each led by its length, to a zero
            at += data[at] + 1
        at += 1
        blocks.append((kind, start, at))
    return head_end, blocks


def gif(source: Path, target: Path, width: int, fps: float, duration_s: float) -> None:
    """The first rung of the ladder that fits the size budget (else the smallest)."""
    budget = GIF_BYTES_PER_SECOND * max(duration_s, 0.1)
    palettes: dict[int, Path] = {}
    try:
        for max_fps, colours, bayer_scale in GIF_LADDER:
            if colours not in palettes:
                palettes[colours] = target.with_name(f"{target.stem}.palette{colours}.png")
                palette(source, palettes[colours], width, colours)
            gif_rung(source, target, palettes[colours], width, min(fps, max_fps), bayer_scale, duration_s)
            if target.stat().st_size <= budget:
                return
    finally:
        for path in palettes.values():
            path.unlink(missing_ok=True)


# A JPEG poster (a beat's, one per slide of the deck) at ffmpeg's mjpeg q 3 (2 best … 31
# worst): text stays crisp at a fifth of the PNG's size.
POSTER_JPEG_QUALITY = 3


def poster(source: Path, target: Path, *, first_frame: bool) -> None:
    """The clip's first or last frame, as PNG, or as JPEG when ``target`` ends in .jpg."""
    still = (["-c:v", "mjpeg", "-q:v", str(POSTER_JPEG_QUALITY)] if target.suffix == ".jpg"
             else ["-c:v", "png"])
    if first_frame:
        _run(["-i", str(source), "-frames:v", "1", "-f", "image2", *still, str(target)])
    else:
        # Decode the last tenth of a second and keep overwriting: the file ends as the
        # last frame (a longer tail only decodes and encodes frames we throw away).
        _run(["-sseof", "-0.1", "-i", str(source), "-update", "1", "-f", "image2", *still, str(target)])


def duration_s(path: Path) -> float:
    """A movie's length as ffprobe's ``format=duration`` gives it, read in this process
    (PyAV: the same libavformat field, without an ffprobe start-up per published clip)."""
    import av

    try:
        with av.open(str(path)) as container:
            return container.duration / av.time_base
    except (av.FFmpegError, TypeError) as error:
        raise EncodeError(f"could not read the length of {path.name}: {error}") from None


def probe(path: Path) -> dict:
    """Duration, size, frame rate and codec of a video (via ffprobe)."""
    ffprobe = ffmpeg_binary().replace("ffmpeg", "ffprobe")
    result = subprocess.run([ffprobe, "-v", "error", "-select_streams", "v:0", "-show_entries",
                             "stream=codec_name,pix_fmt,width,height,avg_frame_rate,nb_frames:format=duration",
                             "-of", "json", str(path)], capture_output=True, text=True)
    if result.returncode != 0:
        raise EncodeError(f"ffprobe could not read {path.name}")
    data = json.loads(result.stdout)
    stream = data["streams"][0]
    return {
        "codec": stream["codec_name"], "pix_fmt": stream.get("pix_fmt"),
        "width": stream["width"], "height": stream["height"],
        "fps": float(Fraction(stream["avg_frame_rate"])),
        "frames": int(stream.get("nb_frames", 0) or 0),
        "duration_s": float(data["format"]["duration"]),
    }
