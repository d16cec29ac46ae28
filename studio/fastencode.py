"""Make manim's encoder convert a held frame once, not once per repeat.

Manim 0.22 writes a ``wait()`` as one frame repeated N times, and converts the RGBA
picture to yuv420p for every repeat (about 10 ms of CPU per 1080p frame, measured by
bench/known_costs.py). The picture does not change between repeats, so we convert it
once and hand the same yuv420p frame to x264 with consecutive timestamps. The decoded
frames are identical (tests/test_fastencode.py decodes both and compares).
"""

from __future__ import annotations

from fractions import Fraction

import av

from manim.scene.video_segment_encoder import VideoSegmentEncoder

_ORIGINAL = VideoSegmentEncoder.write_frame


def _write_frame_once(self: VideoSegmentEncoder, pixels, *, repeat: int = 1) -> None:
    self._validate_frame(pixels, repeat)
    time_base = Fraction(self.spec.frame_rate.denominator, self.spec.frame_rate.numerator)
    try:
        frame = av.VideoFrame.from_ndarray(pixels, format="rgba")
        if repeat > 1:
            frame = frame.reformat(format=self.spec.pixel_format)
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
