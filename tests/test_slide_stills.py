"""studio/manim_hooks/slide_stills.py: which stills a worker writes from the frames it draws, and that
they are those frames (the PNG exactly, the JPEG within coding noise)."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from studio.manim_hooks.slide_stills import SlideStills
from studio.manim_hooks.split_render import BEFORE_CUT

SIZE = (48, 64)


def picture(value: int) -> np.ndarray:
    """A frame told apart from the others by its colour and a bar at its own height."""
    frame = np.zeros((*SIZE, 4), np.uint8)
    frame[..., :3] = (value, 255 - value, (value * 7) % 256)
    frame[value % SIZE[0], :, :3] = 255
    frame[..., 3] = 255
    return frame


def play(stills: SlideStills, script: list[tuple[str, list[int]]]) -> dict[str, str]:
    """Sections in order, each with the frames drawn in it ([] = skipped, as a tail skips
    the beats before its cut)."""
    for name, values in script:
        stills.section(name)
        for value in values:
            stills.frame(picture(value))
    return stills.finish()


def read(path: str) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB")).astype(int)


WALKTHROUGH = [("autocreated", []), ("A.1", [10, 20]), ("A.2", [30]), ("B.1", [40, 50])]


def test_each_beat_gets_its_last_frame_and_the_poster_is_the_first_panel_complete(tmp_path):
    made = play(SlideStills(tmp_path, loop=False, from_start=True), WALKTHROUGH)
    assert sorted(made) == ["A.1.jpg", "A.2.jpg", "A.2.png", "B.1.jpg"]
    assert np.array_equal(read(made["A.2.png"]), picture(30)[..., :3])
    for name, value in (("A.1.jpg", 20), ("A.2.jpg", 30), ("B.1.jpg", 50)):
        error = np.abs(read(made[name]) - picture(value)[..., :3]).mean()
        assert error < 4, f"{name} is not the beat's last frame"
        assert np.abs(read(made[name]) - picture(value - 10)[..., :3]).mean() > 20, "the frames look alike"


def test_a_loops_poster_is_its_opening_frame(tmp_path):
    made = play(SlideStills(tmp_path, loop=True, from_start=True), [("A.1", [5, 6]), ("A.2", [7])])
    assert sorted(made) == ["A.1.jpg", "A.2.jpg", "first.png"]
    assert np.array_equal(read(made["first.png"]), picture(5)[..., :3])


def test_a_tail_writes_only_the_beats_it_drew_and_knows_the_first_panel(tmp_path):
    """The tail skips A.1; its first drawn beat is A.2, still the first panel's."""
    made = play(SlideStills(tmp_path, loop=True, from_start=False), [("A.1", []), ("A.2", [30]), ("B.1", [40])])
    assert sorted(made) == ["A.2.jpg", "B.1.jpg"]        # no opening frame: the head drew it
    made = play(SlideStills(tmp_path / "walk", loop=False, from_start=False), [("A.1", []), ("A.2", [30]), ("B.1", [40])])
    assert sorted(made) == ["A.2.jpg", "A.2.png", "B.1.jpg"]


def test_a_tail_inside_the_first_panel_still_ends_it_with_the_poster(tmp_path):
    """As the tail sees it: manim's implicit section, the one it skips the beats before the
    cut in, then the skipped beats of panel A; A is still the first panel (fig-recompute,
    one panel, cut at A.4: the poster is A.6 complete, drawn by the tail)."""
    script = [("autocreated", []), (BEFORE_CUT, []), ("A.1", []), ("A.2", [30]), ("A.3", [40, 50])]
    made = play(SlideStills(tmp_path, loop=False, from_start=False), script)
    assert sorted(made) == ["A.2.jpg", "A.3.jpg", "A.3.png"]
    assert np.array_equal(read(made["A.3.png"]), picture(50)[..., :3])


@pytest.mark.parametrize("loop", [False, True])
def test_a_scene_without_beats_shows_its_last_or_first_frame(tmp_path, loop):
    made = play(SlideStills(tmp_path, loop=loop, from_start=True), [("autocreated", [1, 2, 3])])
    name, value = ("first.png", 1) if loop else ("last.png", 3)
    assert sorted(made) == [name]
    assert np.array_equal(read(made[name]), picture(value)[..., :3])


def test_nothing_half_written_is_left(tmp_path):
    play(SlideStills(tmp_path, loop=False, from_start=True), WALKTHROUGH)
    assert not list(tmp_path.glob(".*")), "a temporary file was left behind"
