"""How the lecture's frames reach x264: converted once per picture, never on the encoding
thread, with the x264 setting of config/encoder.yaml (studio/media/encode.encoder_options); and,
on the way, the GIF's frames.

Manim 0.22 writes a ``wait()`` as one frame repeated N times, and converts the RGBA
picture to yuv420p for every repeat (about 10 ms of CPU per 1080p frame, measured by
bench/known_costs.py). The picture does not change between repeats, so we convert it
once and hand the same yuv420p frame to x264 with consecutive timestamps.

The conversion runs on one converter thread of its own, not on the clip's encoding
thread. When swscale and x264 share a thread (as they do in PyAV's own encode path),
x264's output for identical input varies from run to run: a few near-white pixels around
text, enough to make two renders of one scene differ (fig-optimizers at low quality: three
renders in 24 differed; eight encodes of one held frame in a bare PyAV loop gave up to
three videos). With the conversion off that thread, 24 renders of fig-optimizers were
byte-identical (tests/test_fastencode.py holds the design and the outcome).

The GIF (``GifFrames``): the converter also scales each picture the GIF shows to the GIF's
size, once, at the GIF's frame rate, and the clip's encoding thread writes it into a small
lossless stream beside the clip. ``GifFrames.finish`` joins those streams, in movie order,
into the file the GIF step reads, so the GIF never decodes the 1080p60 movie again.

The movie and the beats' clips are joined as manim joins them, but faststart and without
manim's metadata: they are published as the worker wrote them.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from pathlib import Path

import av

from manim import config as manim_config
from manim.scene.scene_file_writer import SceneFileWriter
from manim.scene.video_segment_encoder import VideoSegmentEncoder

from studio.media import clips, encode

_ORIGINAL_WRITE = VideoSegmentEncoder.write_frame
_ORIGINAL_FINISH = VideoSegmentEncoder.finish
_ORIGINAL_ABORT = VideoSegmentEncoder.abort
_ORIGINAL_WRITER_WRITE = SceneFileWriter.write_frame
_ORIGINAL_COMBINE = SceneFileWriter.combine_files
# One thread is enough: a conversion is a few ms against the tens of ms a frame takes to
# draw, and the clips' encoders only wait on it, they never convert themselves.
_CONVERTER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rgba-to-yuv")

def to_yuv(pixels, pixel_format: str) -> av.VideoFrame:
    """The RGBA picture as the encoder's pixel format (swscale, one slice thread).

    swscale reads manim's array in place (``from_numpy_buffer``): copying 8 MB into a
    fresh frame first cost more than the conversion itself (9.8 ms against 3.6 ms per
    1080p picture, bench/known_costs.py). The caller waits for the result, so the array
    cannot change while it is read, and the converted frame owns its own pixels."""
    return av.VideoFrame.from_numpy_buffer(pixels, format="rgba").reformat(format=pixel_format, threads=1)


def gif_sized(frame: av.VideoFrame, size: tuple[int, int]) -> av.VideoFrame:
    """The yuv420p picture at the GIF's size, scaled as the GIF step's ffmpeg scales (lanczos).

    Scaling the converted yuv420p picture costs 1.2 ms at 1080p → 960×540; scaling the RGBA
    one would cost 12 ms."""
    return frame.reformat(width=size[0], height=size[1], interpolation="LANCZOS", threads=1)


def _convert(pixels, pixel_format: str, gif_size: tuple[int, int] | None):
    frame = to_yuv(pixels, pixel_format)
    return frame, (gif_sized(frame, gif_size) if gif_size else None)


class GifSegment:
    """One clip's GIF frames: a lossless yuv420p stream at the GIF's size and rate.

    Made on the drawing thread when the clip's first frame arrives (``start`` = frames of the
    movie before it), written on the clip's encoding thread only, opened at its first frame."""

    def __init__(self, frames: "GifFrames", index: int, start: int):
        self.frames, self.start = frames, start
        self.path = frames.folder / f"{index:05d}.mp4"
        self._container = self._stream = None
        self._next_pts = 0

    def copies(self, first: int, repeat: int) -> int:
        """How many GIF frames the movie frames first … first+repeat-1 of this clip make."""
        return self.frames.shown_by(self.start + first + repeat) - self.frames.shown_by(self.start + first)

    def write(self, frame: av.VideoFrame, copies: int) -> None:
        if self._stream is None:
            self._open(frame)
        for _ in range(copies):
            frame.pts = self._next_pts
            frame.time_base = Fraction(1, self.frames.rate)
            self._next_pts += 1
            for packet in self._stream.encode(frame):
                self._container.mux(packet)

    def _open(self, frame: av.VideoFrame) -> None:
        self._container = av.open(str(self.path), mode="w", format="mp4")
        self._stream = self._container.add_stream("libx264", rate=self.frames.rate, options=self.frames.x264)
        self._stream.pix_fmt, self._stream.width, self._stream.height = "yuv420p", frame.width, frame.height

    def close(self) -> None:
        if self._stream is not None:
            for packet in self._stream.encode():
                self._container.mux(packet)
            self._container.close()
            self._stream = None


class GifFrames:
    """The frames of a scene's GIF, gathered while its clips are encoded.

    ``folder`` receives one small stream per clip; ``finish(target)`` joins them in movie
    order. ``width``, ``height`` and ``fps`` are the movie's (config/presets.yaml); the GIF's
    size and rate follow from them as in studio/media/encode.py, so encode.gif reads this stream
    exactly as it would read the movie, without scaling it again."""

    # Lossless (crf 0 is exact for 8-bit x264), so the GIF's pixels never depend on x264's
    # choices; ultrafast costs about 1 ms per 960×540 frame.
    X264 = {"preset": "ultrafast", "crf": "0"}
    # The movie's clips have x264's default keyframe interval, 250 frames; the same spacing in
    # seconds keeps the GIF palette's sample (the keyframes) what it was from the movie.
    MOVIE_KEYINT = 250

    def __init__(self, folder: Path, width: int, height: int, fps: int):
        self.folder = folder
        self.size = encode.gif_frame_size(width, height)
        self.source_fps, self.rate = fps, encode.gif_fps(fps)
        self.x264 = {**self.X264, "g": str(max(1, round(self.MOVIE_KEYINT * self.rate / fps)))}
        self.segments: list[GifSegment] = []
        self._movie_frames = 0

    def shown_by(self, movie_frames: int) -> int:
        """GIF frames shown by the time ``movie_frames`` frames of the movie have passed: frame
        k of the GIF is the first movie frame at or after k / rate seconds (an exact 2:1 pick
        at 60 → 30 fps)."""
        return -(-movie_frames * self.rate // self.source_fps)

    def start_at(self, movie_frame: int) -> None:
        """The first frame drawn is the movie's frame ``movie_frame`` (the tail of a cut scene,
        studio/manim_hooks/split_render.py): the GIF picks its frames on the whole movie's clock."""
        if self.segments:
            raise RuntimeError("the GIF's clock is set before its first frame")
        self._movie_frames = movie_frame

    def note(self, encoder: VideoSegmentEncoder, repeat: int) -> int:
        """On the drawing thread, in movie order: the next ``repeat`` frames go to ``encoder``.
        Returns how many GIF frames they make."""
        if getattr(encoder, "gif_segment", None) is None:
            encoder.gif_segment = GifSegment(self, len(self.segments), self._movie_frames)
            self.segments.append(encoder.gif_segment)
        copies = self.shown_by(self._movie_frames + repeat) - self.shown_by(self._movie_frames)
        self._movie_frames += repeat
        return copies

    def finish(self, target: Path) -> Path | None:
        """Join the clips' GIF frames into ``target`` (stream copy); None when nothing was drawn."""
        parts = [s.path for s in self.segments if s.path.is_file()]
        if not parts:
            return None
        clips.join_as_manim(parts, target, timestamps="concat")
        for part in parts:
            part.unlink()
        return target


_GIF: GifFrames | None = None
_MANIM_OPTIONS = dict(manim_config.video_encoder_options)


class Converting:
    """A frame on its way to x264: the RGBA picture, already handed to the converter when
    the drawing thread wrote it. The clip's encoding thread waits only for what is not done
    yet, so converting frame n+1 overlaps encoding frame n (a one-clip scene, anim-saddle,
    was held back by the two in a row: 3.7 ms of swscale plus x264's time per 1080p frame)."""

    __slots__ = ("pixels", "converted", "gif_copies")

    def __init__(self, pixels, converted, gif_copies: int):
        self.pixels, self.converted, self.gif_copies = pixels, converted, gif_copies


def _write_frame_in_order(self: SceneFileWriter, pixels, *, repeat: int = 1) -> None:
    job = self._current_encode_job
    if job is not None and not job.failed:
        encoder = job.encoder
        encoder._validate_frame(pixels, repeat)
        copies = _GIF.note(encoder, repeat) if _GIF is not None else 0
        size = _GIF.size if copies else None
        pixels = Converting(pixels, _CONVERTER.submit(_convert, pixels, encoder.spec.pixel_format, size), copies)
    _ORIGINAL_WRITER_WRITE(self, pixels, repeat=repeat)


def _write_frame_once(self: VideoSegmentEncoder, pixels, *, repeat: int = 1) -> None:
    time_base = Fraction(self.spec.frame_rate.denominator, self.spec.frame_rate.numerator)
    gif = getattr(self, "gif_segment", None)
    try:
        if isinstance(pixels, Converting):
            copies = pixels.gif_copies
            frame, small = pixels.converted.result()
        else:   # written to the encoder directly, not through the scene's file writer
            self._validate_frame(pixels, repeat)
            copies = gif.copies(self._next_pts, repeat) if gif is not None else 0
            frame, small = _CONVERTER.submit(_convert, pixels, self.spec.pixel_format,
                                             gif.frames.size if copies else None).result()
        for _ in range(repeat):
            frame.pts = self._next_pts
            frame.time_base = time_base
            self._next_pts += 1
            for packet in self._stream.encode(frame):
                self._container.mux(packet)
        if copies:
            gif.write(small, copies)
    except BaseException as error:
        raise self._operation_error("encode", error) from error


def _close_gif(encoder: VideoSegmentEncoder, *, discard: bool) -> None:
    gif = getattr(encoder, "gif_segment", None)
    if gif is not None:
        gif.close()
        if discard:  # the clip is thrown away, so are its GIF frames
            gif.path.unlink(missing_ok=True)


def _finish_with_gif(self: VideoSegmentEncoder) -> None:
    try:
        _ORIGINAL_FINISH(self)
    finally:
        _close_gif(self, discard=False)


def _abort_with_gif(self: VideoSegmentEncoder) -> None:
    try:
        _ORIGINAL_ABORT(self)
    finally:
        _close_gif(self, discard=True)


def _combine_slide_ready(self: SceneFileWriter, input_files: list[str], output_file: Path,
                         create_gif: bool = False, includes_sound: bool = False) -> None:
    """Manim's join of a scene's (or a beat's) clips, written faststart and without manim's
    metadata: the files the slides get, so the pipeline publishes them as they are."""
    if create_gif or includes_sound:
        return _ORIGINAL_COMBINE(self, input_files, output_file, create_gif, includes_sound)
    output_file.parent.mkdir(parents=True, exist_ok=True)
    clips.join_as_manim([Path(f) for f in input_files], output_file)


def install(gif: GifFrames | None = None) -> None:
    """Our frame path for every clip manim encodes from now on, with config/encoder.yaml's
    x264 settings; with ``gif``, the GIF's frames are gathered too."""
    global _GIF
    manim_config.video_encoder_options = encode.encoder_options()
    _GIF = gif
    if gif is not None:
        gif.folder.mkdir(parents=True, exist_ok=True)
    VideoSegmentEncoder.write_frame = _write_frame_once
    VideoSegmentEncoder.finish = _finish_with_gif
    VideoSegmentEncoder.abort = _abort_with_gif
    SceneFileWriter.write_frame = _write_frame_in_order
    SceneFileWriter.combine_files = _combine_slide_ready


def uninstall() -> None:
    global _GIF
    _GIF = None
    manim_config.video_encoder_options = _MANIM_OPTIONS
    VideoSegmentEncoder.write_frame = _ORIGINAL_WRITE
    VideoSegmentEncoder.finish = _ORIGINAL_FINISH
    VideoSegmentEncoder.abort = _ORIGINAL_ABORT
    SceneFileWriter.write_frame = _ORIGINAL_WRITER_WRITE
    SceneFileWriter.combine_files = _ORIGINAL_COMBINE
