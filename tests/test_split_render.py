"""A scene cut in two (studio/manim_hooks/split_render.py): both workers plan frames as manim writes them,
the joined parts are the whole render, and every way the cut can go wrong falls back to it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from studio.engine import pipeline
from studio.manim_hooks import split_render
from tests import render_helpers as rh

SCENE = "cutable"


@pytest.fixture(autouse=True)
def fixture_scenes(monkeypatch):
    monkeypatch.setenv("LECTURE_SCENES_DIR", str(rh.FIXTURE_SCENES))


def cutable_class():
    from studio.engine import registry

    return registry.load_class(registry.select([SCENE])[0])


def test_play_frames_closed_forms():
    # np.arange(0, 1/3, 1/15) = 0, 1/15, …, 4/15: five frames; a static wait is int(d / dt).
    assert split_render.play_frames(1 / 3, 15, frozen=False) == 5
    assert split_render.play_frames(0.37, 15, frozen=False) == 6      # ceil(5.55)
    assert split_render.play_frames(0.7, 15, frozen=True) == 10       # int(10.5)
    assert split_render.play_frames(0.7, 60, frozen=True) == 42
    assert split_render.play_frames(1.0, 60, frozen=False) == 60


@pytest.mark.parametrize("fps", [15, 60])
def test_planned_frames_are_the_frames_manim_writes(tmp_path, fps):
    """Every play of the fixture (odd run times, a static wait, a wait an updater moves),
    planned by the formula, against the frames manim hands to its movie."""
    from manim import tempconfig

    class Counted(cutable_class()):
        def setup(self):
            super().setup()
            split_render.count_frames(self)

    with tempconfig({"pixel_width": 64, "pixel_height": 36, "frame_rate": fps, "write_to_movie": False,
                     "disable_caching": True, "media_dir": str(tmp_path), "progress_bar": "none",
                     "verbosity": "ERROR"}):
        scene = Counted()
        scene.render()
    assert scene.written_frames > 0
    assert scene.planned_frames == scene.written_frames


def beat_starts(fps: int) -> tuple[list[int], int]:
    """Each beat's first frame and the scene's frames, from a build with every animation skipped."""
    from studio.engine import stills

    starts = []

    class Starts(cutable_class()):
        def setup(self):
            super().setup()
            split_render.count_frames(self, fps)

        def next_section(self, *args, **kwargs):
            starts.append(self.planned_frames)
            super().next_section(*args, **kwargs)

    return starts, stills.build_scene_class(Starts).planned_frames


def worker(staging: Path, *args: str, scene: str = SCENE, scenes: Path = rh.FIXTURE_SCENES) -> dict:
    staging.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "studio.engine.worker", scene, "low", str(staging), *args],
                   cwd=rh.ROOT, env=rh.env(LECTURE_SCENES_DIR=str(scenes)), check=True, capture_output=True,
                   text=True, timeout=120)
    return json.loads((staging / "result.json").read_text())


def play_starts(whole: dict, fps: int) -> list[int]:
    return [round(t * fps) for t in whole["play_starts_s"]]


@pytest.mark.parametrize("at", ["beat", "play", "tear_down"])
def test_joined_parts_are_the_whole_render(tmp_path, at):
    """The tail first (it writes the cut), then the head, which finds the cut and stops
    there: their clips joined are the whole render's movie, GIF frames and beat clips, cut
    where a beat starts (after a wait an updater moved), at a play inside a beat (the beat
    then joined from both parts), or at the last play, which the kit plays in tear_down."""
    whole = worker(tmp_path / "whole")
    meet = tmp_path / "meet"
    meet.mkdir()
    starts, total = beat_starts(15)
    if at == "play":
        starts = [frame for frame in play_starts(whole, 15) if frame not in starts]
    aim = min(starts[1:], key=lambda frame: abs(frame - total / 2))
    if at == "tear_down":
        aim = play_starts(whole, 15)[-1]
    tail = worker(tmp_path / "tail", "--part", "tail", str(meet), "--aim", str(aim))
    head = worker(tmp_path / "head", "--part", "head", str(meet))
    assert head["cut_at"] == tail["cut_at"] == head["written_frames"] == aim > 0
    assert tail["written_frames"] > 0
    joined = pipeline.join_parts(head, tail, tmp_path)
    assert [s["name"] for s in joined["sections"]] == [s["name"] for s in whole["sections"]]
    assert [b["name"] for b in joined["beats"]] == [b["name"] for b in whole["beats"]]
    assert joined["duration_s"] == pytest.approx(whole["duration_s"])
    assert rh.decoded_frames_digest(Path(joined["movie"])) == rh.decoded_frames_digest(Path(whole["movie"]))
    assert rh.probe(Path(joined["movie"]))["format"]["duration"] == rh.probe(Path(whole["movie"]))["format"]["duration"]
    assert rh.decoded_frames_digest(Path(joined["gif_frames"])) == rh.decoded_frames_digest(Path(whole["gif_frames"]))
    for ours, theirs in zip(joined["sections"], whole["sections"]):
        assert Path(ours["file"]).read_bytes() == Path(theirs["file"]).read_bytes(), ours["name"]
    split = (tail["sections"][0]["name"] == head["sections"][-1]["name"])
    assert split == (at != "beat")


def test_a_head_past_the_cut_renders_everything_and_the_tail_stops(tmp_path):
    meet = tmp_path / "meet"
    meet.mkdir()
    # The head reads the cut at every beat it starts; one before its first beat stands for a
    # cut it is already past when it first reads it (the tail was slow to find it).
    split_render.write_split(meet, -1)
    head = worker(tmp_path / "head", "--part", "head", str(meet))
    assert head["missed_cut"] and head["cut_at"] is None
    assert (meet / split_render.MISSED_FILE).exists()
    whole = worker(tmp_path / "whole")
    assert head["written_frames"] == round(whole["duration_s"] * 15)
    assert head["gif_frames"] is not None      # a head not cut is a whole render, GIF frames joined
    tail = worker(tmp_path / "tail", "--part", "tail", str(meet), "--aim", "1")
    assert tail["written_frames"] == 0 and tail["sections"] == [] and tail["movie"] is None


MANY_PLAYS = """
from manim import RIGHT, Dot

from scenes.kit.base import LectureScene


class ManyPlays(LectureScene):
    scene_id = "many-plays"
    title = "很多步"

    def construct(self):
        dot = Dot()
        for _ in range({plays}):
            self.play(dot.animate.shift(RIGHT * 0.01), run_time=1 / 15)   # a frame each at low
"""


def test_a_part_keeps_every_clip_it_wrote(tmp_path):
    """manim prunes its clip folder to 100 files once the movie is joined; a part's clips
    are joined by the pipeline after the worker ends, so none may be gone by then."""
    scenes = tmp_path / "scenes"
    scenes.mkdir()
    (scenes / "many_plays.py").write_text(MANY_PLAYS.format(plays=110), encoding="utf-8")
    meet = tmp_path / "meet"
    meet.mkdir()
    tail = worker(tmp_path / "tail", "--part", "tail", str(meet), "--aim", "1", scene="many-plays", scenes=scenes)
    assert len(tail["clips"]) > 100
    assert all(Path(clip).is_file() for clip in tail["clips"])


@pytest.mark.parametrize("scene, cut_in", [(SCENE, "(beat B.3)"), ("slow", " s)\n")])   # slow: no beats
def test_cut_render_publishes_what_one_worker_publishes(tmp_path, scene, cut_in):
    """render.py with two workers on one scene (the second render knows the scene's plays
    from the first's record) publishes byte for byte what one worker publishes."""
    one, two = tmp_path / "one", tmp_path / "two"
    assert rh.render(scene, "--quality", "low", "--jobs", "1", "--out", str(one)).returncode == 0
    shutil.copytree(one, two)
    run = rh.render(scene, "--quality", "low", "--jobs", "2", "--force", "--out", str(two))
    assert run.returncode == 0, run.stderr
    assert "two workers, the second from" in run.stderr and cut_in in run.stderr
    assert rh.snapshot(one / "low") == rh.snapshot(two / "low")
    if scene == SCENE:
        beats = [b for panel in rh.manifest(two / "low")["scenes"][0]["sections"] for b in panel["beats"]]
        assert beats[-1]["takeaway"] == "每个参数 16 字节"   # as drawn, not the {key} template


class _Quiet:
    def update(self, *args, **kwargs):
        pass


@pytest.mark.parametrize("head, tail", [
    ({"cut_at": 100, "written_frames": 99}, {"cut_at": 100, "written_frames": 50}),   # counts disagree
    ({"cut_at": 100, "written_frames": 100}, {"cut_at": 100, "written_frames": 0}),   # the tail drew nothing
    ({"cut_at": 100, "written_frames": 100}, {"cut_at": 90, "written_frames": 50}),   # two different cuts
])
def test_parts_that_do_not_fit_fall_back_to_a_whole_render(tmp_path, monkeypatch, head, tail):
    calls = []

    def fake_worker(self, entry, staging, log_path, extra=None, total_drawn=None):
        part = (extra or ["", "whole"])[1]
        calls.append(part)
        return {"head": head, "tail": tail, "whole": {"whole": True}}[part]

    monkeypatch.setattr(pipeline.Renderer, "_run_worker", fake_worker)
    entry = type("E", (), {"scene_id": SCENE})()
    renderer = pipeline.Renderer(pipeline.Batch(entries=[entry], quality="low", out_dir=tmp_path, jobs=2), _Quiet())
    renderer.worker_slots = threading.Semaphore(2)
    staging = tmp_path / "staging"
    staging.mkdir()
    assert renderer._render_cut(entry, staging, staging / "render.log", 100) == {"whole": True}
    assert sorted(calls) == ["head", "tail", "whole"]


def write_record(out: Path, quality: str, duration_s: float, starts: list[float],
                 plays: list[float] | None = None) -> None:
    beats = [{"start_s": t} for t in starts]
    record = {"duration_s": duration_s, "sections": [{"name": "A", "beats": beats}] if starts else []}
    if plays is not None:
        record["play_starts_s"] = plays
    (out / quality / pipeline.CACHE).mkdir(parents=True)
    (out / quality / pipeline.CACHE / f"{SCENE}.json").write_text(json.dumps(record))


def test_the_cut_aims_a_frame_before_the_beat_nearest_the_middle(tmp_path):
    assert pipeline.cut_aim(tmp_path, SCENE, 60) is None                     # never rendered: one worker
    write_record(tmp_path, "low", 10.0, [0.0, 2.0, 4.5, 7.0])
    assert pipeline.cut_aim(tmp_path, SCENE, 60) == round(4.5 * 60) - 1     # seconds read at any quality


@pytest.mark.parametrize("duration_s, starts", [(pipeline.MIN_CUT_VIDEO_S - 0.1, [0.0, 2.0]), (9.0, [0.0])])
def test_short_or_one_beat_scenes_are_not_cut(tmp_path, duration_s, starts):
    write_record(tmp_path, "high", duration_s, starts)
    assert pipeline.cut_aim(tmp_path, SCENE, 60) is None


def test_the_cut_aims_at_the_play_nearest_the_middle_where_plays_were_recorded(tmp_path):
    write_record(tmp_path, "low", 10.0, [0.0, 2.0, 7.0], plays=[0.0, 1.0, 2.0, 4.9, 7.0])
    assert pipeline.cut_aim(tmp_path, SCENE, 60) == round(4.9 * 60) - 1


def test_a_scene_without_beats_is_cut_between_its_plays(tmp_path):
    write_record(tmp_path, "low", 10.0, [], plays=[0.0, 3.0, 6.0])
    assert pipeline.cut_aim(tmp_path, SCENE, 30) == round(6.0 * 30) - 1
