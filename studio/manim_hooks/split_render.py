"""One scene rendered by two workers at once: the head from the start, the tail from a play
near the middle. Used by the pipeline when a core would otherwise sit idle (one scene, two
cores); each worker is ``python -m studio.engine.worker ID QUALITY STAGING --part head|tail``.

Both run the whole construct. Like a panel preview (studio/manim_hooks/panel_only.py), a part skips the
animations it does not render, which still finishes them, so the tail starts from the same
stage a full render reaches there and its frames are the same.

The two agree on where to cut without talking to each other first. Each counts the frames
every play makes, rendered or skipped, as manim counts them (``play_frames``), so both know
every play's first frame. The tail picks the cut: the first play starting at or after
``aim`` frames, where the pipeline aims at the play nearest the middle of the scene's last
render (a scene never rendered, or a short one, is rendered by one worker). It writes
that play's first frame to ``split.json`` and renders from there to the end; when the cut
falls inside a beat, the tail opens that beat again, so the beat's clips are in both parts
and the pipeline joins them. The head reads the file at every play it starts: it ends
before the cut when it gets there, or, if it is already past the cut when it first reads the
file, renders to the end and says so (``split-missed``), and the tail stops. The pipeline
joins the two parts only when the head ended at the cut having written exactly as many
frames as the cut says; otherwise the head's render is the whole scene. So the published
files never depend on where, or whether, the scene was cut.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

SPLIT_FILE = "split.json"
AUTOCREATED = "autocreated"   # manim's implicit section, before the first next_section
# The section the tail skips everything before its cut in: no beat of the scene.
BEFORE_CUT = "before the cut"
MISSED_FILE = "split-missed"


def play_frames(duration: float, frame_rate: float, frozen: bool) -> int:
    """Frames manim 0.22 writes for one play of ``duration`` seconds: a static wait is one
    frame repeated ``int(duration / dt)`` times (CairoRenderer.freeze_current_frame), any
    other play one frame per step of ``np.arange(0, duration, dt)`` (Scene.get_time_progression)."""
    import numpy as np

    dt = 1 / frame_rate
    return int(duration / dt) if frozen else len(np.arange(0, duration, dt))


def count_frames(scene, frame_rate: float | None = None) -> None:
    """Keep ``scene.planned_frames``: the frames of every play so far, skipped or not,
    ``scene.written_frames``: those actually handed to the movie (at ``frame_rate``, by
    default the camera's), and ``scene.play_starts``."""
    renderer = scene.renderer
    frame_rate = frame_rate or renderer.camera.frame_rate
    original_play, original_add = renderer.play, renderer.add_frame
    scene.planned_frames = scene.written_frames = 0
    scene.play_starts = []   # each play's first frame: where a scene can be cut

    def play(scene_, *args, **kwargs):
        scene_.play_starts.append(scene_.planned_frames)
        original_play(scene_, *args, **kwargs)
        frozen = bool(scene_.animations) and scene_.is_current_animation_frozen_frame()
        scene_.planned_frames += play_frames(scene_.duration, frame_rate, frozen)

    def add_frame(frame, num_frames: int = 1):
        if not renderer.skip_animations:
            scene.written_frames += num_frames
        original_add(frame, num_frames)

    renderer.play, renderer.add_frame = play, add_frame


def counted(scene_cls):
    """``scene_cls`` keeping count of its frames and plays (``count_frames``), as a part does:
    a whole render records where the scene could be cut next time."""
    class Counted(scene_cls):
        def setup(self) -> None:
            super().setup()
            count_frames(self)

    Counted.__name__ = Counted.__qualname__ = scene_cls.__name__
    return Counted


def drawn_sections(scene) -> list[dict]:
    """Each section this part drew, with its plays' clips: where the cut falls inside a
    beat, the pipeline joins that beat from both parts' clips, as manim joins a section's."""
    return [{"name": section.name, "clips": [str(c) for c in section.get_clean_partial_movie_files()]}
            for section in scene.renderer.file_writer.sections if section.video is not None]


def read_split(staging: Path) -> int | None:
    try:
        return int(json.loads((staging / SPLIT_FILE).read_text())["frame"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def write_split(staging: Path, frame: int) -> None:
    temporary = staging / f".{SPLIT_FILE}.tmp"
    temporary.write_text(json.dumps({"frame": frame}))
    os.replace(temporary, staging / SPLIT_FILE)   # the head never reads half a file


def ended_early(tear_down) -> None:
    """The scene's tear_down, which may play (the kit shows the last beat's takeaway there):
    manim stops a scene early only inside construct, so a cut there ends tear_down too."""
    from manim.utils.exceptions import EndSceneEarlyException

    try:
        tear_down()
    except EndSceneEarlyException:
        pass


def head_part(scene_cls, staging: Path):
    """``scene_cls`` rendered from the start up to the tail's cut (or to the end)."""
    from manim.utils.exceptions import EndSceneEarlyException

    class Head(scene_cls):
        def setup(self) -> None:
            super().setup()
            count_frames(self)
            self.cut_at: int | None = None
            self.missed_cut = False

        def stop_at_cut(self) -> None:
            at = self.planned_frames
            if self.cut_at is None and not self.missed_cut:
                cut = read_split(staging)
                if cut is not None and at > cut:
                    self.missed_cut = True
                    (staging / MISSED_FILE).touch()
                self.cut_at = None if self.missed_cut else cut
            if self.cut_at is not None and at >= self.cut_at:
                raise EndSceneEarlyException()   # manim ends the scene normally from here

        def next_section(self, *args, **kwargs) -> None:
            self.stop_at_cut()
            super().next_section(*args, **kwargs)

        def play(self, *args, **kwargs) -> None:
            self.stop_at_cut()
            super().play(*args, **kwargs)

        def tear_down(self) -> None:
            ended_early(super().tear_down)

    Head.__name__ = Head.__qualname__ = scene_cls.__name__
    return Head


def tail_part(scene_cls, staging: Path, aim: int):
    """``scene_cls`` rendered from the first play that starts at or after frame ``aim``."""
    from manim import Scene
    from manim.utils.exceptions import EndSceneEarlyException

    class Tail(scene_cls):
        def setup(self) -> None:
            super().setup()
            count_frames(self)
            self.cut_at: int | None = None
            self.beat_name = AUTOCREATED   # the section being built, and how it was opened
            self.beat_args: tuple = ((), {})
            Scene.next_section(self, BEFORE_CUT, skip_animations=True)

        def next_section(self, name: str = "unnamed", *args, **kwargs) -> None:
            self.stop_if_missed()
            kwargs.pop("skip_animations", None)
            self.beat_name, self.beat_args = name, (args[:1], kwargs)
            super().next_section(name, *args[:1], skip_animations=self.cut_at is None, **kwargs)

        def play(self, *args, **kwargs) -> None:
            self.stop_if_missed()
            at = self.planned_frames
            if self.cut_at is None and at >= max(aim, 1):   # the head renders at least one play
                self.cut_at = at
                self.started_at(at)
                write_split(staging, at)
                # The beat this play is in, opened again to be drawn (the skipped opening
                # has no clips: manim drops it).
                positional, keywords = self.beat_args
                Scene.next_section(self, self.beat_name, *positional, skip_animations=False, **keywords)
            super().play(*args, **kwargs)

        def get_time_progression(self, run_time, *args, **kwargs):
            # A skipped play moves a time-based updater (``lambda m, dt: …``) by its whole
            # run time in one step; a drawn play steps it a frame at a time, which ends a
            # frame short. So before the cut such a play steps as if drawn (drawing nothing):
            # the tail starts from where a whole render is.
            if self.cut_at is None and len(args) < 3 and self.has_time_based_updaters():
                kwargs["override_skip_animations"] = True
            return super().get_time_progression(run_time, *args, **kwargs)

        def has_time_based_updaters(self) -> bool:
            return any(m.has_time_based_updater() for m in self.get_mobject_family_members())

        def tear_down(self) -> None:
            ended_early(super().tear_down)

        def stop_if_missed(self) -> None:
            if (staging / MISSED_FILE).exists():
                raise EndSceneEarlyException()   # the head renders everything: stop working

        def started_at(self, frame: int) -> None:
            """Hook for the worker: the first frame this part renders is frame ``frame``."""

    Tail.__name__ = Tail.__qualname__ = scene_cls.__name__
    return Tail
