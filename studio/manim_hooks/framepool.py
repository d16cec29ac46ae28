"""Hand each drawn frame to the movie without copying it: the camera draws the next frame
into another buffer instead.

Manim copies the camera's 8 MB picture (at 1080p) out for every frame it writes
(``CairoRenderer.get_frame``), into freshly allocated memory the kernel must zero first,
because the camera draws the next frame over the same buffer. Every frame starts by
overwriting the whole buffer anyway (``Camera.reset`` or ``set_frame_to_background``), so
the drawn buffer itself can be handed over, and the camera given one that nobody holds any
more. perf put the copy and the page clearing at 1.3 s of anim-saddle's 6.7 s drawing thread.

A buffer is handed out as a view; a weak reference to that view tells when the movie, the
GIF and the stills have all let go of it (numpy views keep their own reference count).
Buffers are kept for good, so the cairo context manim caches per buffer (by ``id``) stays
valid; when all are taken the frame is copied, as manim does.
"""

from __future__ import annotations

import weakref

import numpy as np
from manim.renderer.cairo_renderer import CairoRenderer

# Frames waiting for an encoder (8 per clip, 2 clips) and for the converter, plus the GIF's
# and the stills' latest: beyond this, frames are copied.
POOL_SIZE = 24

_ORIGINAL_GET_FRAME = CairoRenderer.get_frame


class FramePool:
    def __init__(self, size: int = POOL_SIZE):
        self.size = size
        self.buffers: list[np.ndarray] = []
        self.handed: dict[int, weakref.ref] = {}   # id(buffer) → its latest view, while held

    def hand_over(self, camera) -> np.ndarray:
        """The camera's picture as it is, for the movie to own; the camera draws the next
        frame into a free buffer."""
        drawn = camera.pixel_array
        if not self._owns(drawn):
            if len(self.buffers) >= self.size:
                return drawn.copy()
            self.buffers.append(drawn)
        spare = self._free(drawn)
        if spare is None:
            return drawn.copy()
        frame = drawn.view()
        self.handed[id(drawn)] = weakref.ref(frame)
        camera.pixel_array = spare
        return frame

    def _owns(self, buffer: np.ndarray) -> bool:
        return any(buffer is b for b in self.buffers)

    def _free(self, drawn: np.ndarray) -> np.ndarray | None:
        for buffer in self.buffers:
            if buffer is drawn:
                continue
            held = self.handed.get(id(buffer))
            if held is None or held() is None:
                self.handed.pop(id(buffer), None)
                return buffer
        if len(self.buffers) < self.size:
            spare = np.empty_like(drawn)
            self.buffers.append(spare)
            return spare
        return None


_POOL: FramePool | None = None


def _get_frame(self: CairoRenderer) -> np.ndarray:
    return _POOL.hand_over(self.camera) if _POOL is not None else _ORIGINAL_GET_FRAME(self)


def install(pool: FramePool | None = None) -> None:
    global _POOL
    _POOL = pool or FramePool()
    CairoRenderer.get_frame = _get_frame


def uninstall() -> None:
    global _POOL
    _POOL = None
    CairoRenderer.get_frame = _ORIGINAL_GET_FRAME
