"""How the lecture's frames reach x264: converted once per picture, and never on the encoding thread.

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
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

import av

from manim.scene.video_segment_encoder import VideoSegmentEncoder

_ORIGINAL = VideoSegmentEncoder.write_frame
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


def _write_frame_once(self: VideoSegmentEncoder, pixels, *, repeat: int = 1) -> None:
    self._validate_frame(pixels, repeat)
    time_base = Fraction(self.spec.frame_rate.denominator, self.spec.frame_rate.numerator)
    try:
        frame = _CONVERTER.submit(to_yuv, pixels, self.spec.pixel_format).result()
        for _ in range(repeat):
            frame.pts = self._next_pts
            frame.time_base = time_base
            self._next_pts += 1
            for packet in self._stream.encode(frame):
                self._container.mux(packet)
    except BaseException as error:
        raise self._operation_error("encode", error) from error


def install() -> None:
    VideoSegmentEncoder.write_frame = _write_frame_once


def uninstall() -> None:
    VideoSegmentEncoder.write_frame = _ORIGINAL
