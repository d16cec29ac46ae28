"""The stills the slides show, taken from the frames as the worker writes them, so no clip
is decoded again to find its last picture.

- ``<beat>.jpg``: each beat's last frame (the deck's and page's poster of that beat);
- the scene's poster (README): a loop's opening frame (``first.png``), a walkthrough's first
  panel complete (``<that panel's last beat>.png``), otherwise the finished picture
  (``last.png``).

A part of a cut scene (studio/manim_hooks/split_render.py) writes the stills of the beats it drew. Both
parts see every beat's name, drawn or skipped, so both know which panel is the first; a part
writes the PNG of the last beat of that panel it drew, and the pipeline takes the one whose
beat is the panel's last overall.

The frames are manim's own RGBA arrays, which the file writer owns once written (manim never
reuses them), so keeping the latest one costs no copy. The JPEG and PNG are written on a
thread of their own while drawing goes on.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from manim.scene.scene_file_writer import SceneFileWriter

from studio.media import clips
from studio.manim_hooks.split_render import AUTOCREATED, BEFORE_CUT

# The beat posters: JPEG at 90, about ffmpeg's mjpeg -q:v 3 that made them before (text
# crisp at about a fifth of the PNG's bytes), but from the drawn frame, not the decoded one.
JPEG_QUALITY = 90
# Sections that are no beat: manim's implicit first one, and the one a cut render's tail
# skips the beats before its cut in (studio/manim_hooks/split_render.py).
NOT_BEATS = (AUTOCREATED, BEFORE_CUT)

_ORIGINAL_WRITE = SceneFileWriter.write_frame
_ORIGINAL_NEXT_SECTION = SceneFileWriter.next_section


class SlideStills:
    """Collects one worker's stills into ``folder``; ``from_start``: this worker draws the
    movie's first frame (a whole render or the head of a cut one)."""

    def __init__(self, folder: Path, *, loop: bool, from_start: bool):
        self.folder, self.loop, self.from_start = folder, loop, from_start
        self.first_panel: str | None = None
        self._section: str | None = None
        self._last = None                 # the latest frame written
        self._drawn_in_section = False
        self._panel_end: tuple[str, object] | None = None   # first panel's latest beat drawn here
        self._any_beat = False
        self._saver = ThreadPoolExecutor(max_workers=1, thread_name_prefix="slide-stills")
        self._pending: list[Future] = []

    # -- called by the file writer ---------------------------------------------------
    def frame(self, pixels) -> None:
        if self._last is None and self.from_start and self.loop:
            self._save(pixels, "first.png")
        self._last, self._drawn_in_section = pixels, True

    def section(self, name: str) -> None:
        """A section called ``name`` begins (drawn or skipped)."""
        self._end_section()
        self._section = name
        if name not in NOT_BEATS:
            self._any_beat = True
            if self.first_panel is None:
                self.first_panel = clips.panel_of(name)

    # -- the end ---------------------------------------------------------------------
    def finish(self) -> dict[str, str]:
        """Write what is left; name → path of every still this worker made."""
        self._end_section()
        if self._panel_end is not None:
            self._save(self._panel_end[1], f"{self._panel_end[0]}.png")
        elif not self._any_beat and not self.loop and self._last is not None:
            self._save(self._last, "last.png")
        for future in self._pending:
            future.result()
        self._saver.shutdown()
        return {path.name: str(path) for path in sorted(self.folder.glob("*.*"))}

    def _end_section(self) -> None:
        name = self._section
        if name is None or name in NOT_BEATS or not self._drawn_in_section:
            self._drawn_in_section = False
            return
        self._save(self._last, f"{name}.jpg")
        if clips.panel_of(name) == self.first_panel and not self.loop:
            self._panel_end = (name, self._last)
        self._drawn_in_section = False

    def _save(self, pixels, file_name: str) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self._pending.append(self._saver.submit(save_picture, pixels, self.folder / file_name))


def save_picture(pixels, target: Path) -> None:
    """An RGBA frame as JPEG or PNG (by ``target``'s suffix), written whole or not at all."""
    from PIL import Image

    picture = Image.fromarray(pixels[..., :3])
    temporary = target.with_name(f".{target.name}.tmp")
    if target.suffix == ".jpg":
        picture.save(temporary, format="JPEG", quality=JPEG_QUALITY)
    else:
        picture.save(temporary, format="PNG")
    temporary.replace(target)


_STILLS: SlideStills | None = None


def _write_frame(self: SceneFileWriter, pixels, *, repeat: int = 1) -> None:
    if _STILLS is not None and self._current_encode_job is not None:
        _STILLS.frame(pixels)
    _ORIGINAL_WRITE(self, pixels, repeat=repeat)


def _next_section(self: SceneFileWriter, name: str, type_: str, skip_animations: bool) -> None:
    if _STILLS is not None:
        _STILLS.section(name)
    _ORIGINAL_NEXT_SECTION(self, name, type_, skip_animations)


def install(stills: SlideStills) -> None:
    """Collect ``stills`` from every frame manim writes from now on (after
    studio/manim_hooks/fastencode.install, whose frame path this one wraps)."""
    global _STILLS, _ORIGINAL_WRITE
    _STILLS = stills
    if SceneFileWriter.write_frame is not _write_frame:
        _ORIGINAL_WRITE = SceneFileWriter.write_frame
    SceneFileWriter.write_frame = _write_frame
    SceneFileWriter.next_section = _next_section


def uninstall() -> None:
    global _STILLS
    _STILLS = None
    SceneFileWriter.write_frame = _ORIGINAL_WRITE
    SceneFileWriter.next_section = _ORIGINAL_NEXT_SECTION
