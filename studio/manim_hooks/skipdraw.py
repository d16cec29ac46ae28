"""A play that is skipped draws nothing.

Manim draws two frames for every play it skips and throws both away: the picture of what
stands still (``save_static_frame_data``) and the play's end (one render step, or the frozen
frame of a wait); ``add_frame`` then writes nothing while skipping. A beat preview and the
tail of a cut scene skip every play before theirs: cProfile had fig-precision's preview of
C.6 drawing for 2.3 s of its 7.5 s, frames nobody saw. What a skipped play would have drawn
never shows: the first play drawn after a skip starts its frame from the background
(``update_frame`` resets the camera), and a whole render skips nothing.

Manim's own ways of asking for a drawing while skipping still draw: a call that says
``ignore_skipping=True`` (``show_frame``), and the end of the scene (``scene_finished``), which
draws the last frame of a still-image output after every play was skipped.
"""

from __future__ import annotations

from manim.renderer.cairo_renderer import CairoRenderer

_ORIGINAL_UPDATE_FRAME = CairoRenderer.update_frame
_ORIGINAL_SCENE_FINISHED = CairoRenderer.scene_finished


def _update_frame(self: CairoRenderer, *args, **kwargs) -> None:
    # Manim's default is ignore_skipping=True, so only an explicit True counts as asking.
    if self.skip_animations and not kwargs.get("ignore_skipping", False) and not getattr(self, "_finishing", False):
        return
    _ORIGINAL_UPDATE_FRAME(self, *args, **kwargs)


def _scene_finished(self: CairoRenderer, scene) -> None:
    self._finishing = True
    try:
        _ORIGINAL_SCENE_FINISHED(self, scene)
    finally:
        self._finishing = False


def install() -> None:
    CairoRenderer.update_frame = _update_frame
    CairoRenderer.scene_finished = _scene_finished


def uninstall() -> None:
    CairoRenderer.update_frame = _ORIGINAL_UPDATE_FRAME
    CairoRenderer.scene_finished = _ORIGINAL_SCENE_FINISHED
