"""The GIF without a second decode: studio/manim_hooks/fastencode.GifFrames gathers the GIF's frames (scaled
once, at the GIF's rate) while the clips are encoded, and encode.gif makes the GIF from them
with the movie gone. The pictures are the movie's, frame for frame, and the same inputs give
the same bytes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import av
import numpy as np
import pytest

from studio.media import encode
from tests.render_helpers import ROOT, env

# A 16:9 picture wider than the GIF at 60 fps: the GIF's frames are scaled (1280 → 960) and
# every other one is taken (60 → 30 fps), as at high quality, in a render of seconds.
WIDTH, HEIGHT, FPS = 1280, 720, 60


def render(staging):
    """The fixture scene "tiny", rendered as the worker renders it, with the GIF's frames gathered."""
    staging.mkdir(parents=True, exist_ok=True)
    result = subprocess.run([sys.executable, str(ROOT / "tests" / "gif_frames_render.py"), "tiny", str(WIDTH),
                             str(HEIGHT), str(FPS), str(staging)], cwd=ROOT, env=env(PYTHONPATH=str(ROOT)),
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    paths = json.loads(result.stdout.splitlines()[-1])
    return {name: staging / path for name, path in paths.items()}


def pictures(path, pixel_format="yuv420p") -> list[np.ndarray]:
    with av.open(str(path)) as container:
        return [frame.reformat(format=pixel_format).to_ndarray() for frame in container.decode(video=0)]


def keyframe_count(path) -> int:
    with av.open(str(path)) as container:
        return sum(packet.is_keyframe for packet in container.demux(video=0) if packet.size)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    return render(tmp_path_factory.mktemp("gif-frames") / "first")


@pytest.mark.render
def test_the_gif_frames_are_the_movie_scaled_at_the_gifs_rate(rendered):
    """Frame k of the GIF's stream is movie frame 2k, scaled to 960 wide as the GIF step scales
    (compared with ffmpeg's own fps and lanczos scale of the movie; they differ only by the
    movie's x264 loss). A frame taken from the wrong time would differ by the fade's steps."""
    size = encode.gif_frame_size(WIDTH, HEIGHT)
    assert size == (960, 540)
    ours = pictures(rendered["gif_frames"])
    movie = pictures(rendered["movie"])
    assert len(ours) == -(-len(movie) // 2)
    scaled = subprocess.run(["ffmpeg", "-v", "error", "-i", str(rendered["movie"]), "-vf",
                             f"fps={encode.gif_fps(FPS)},scale={size[0]}:-2:flags=lanczos", "-f", "rawvideo",
                             "-pix_fmt", "yuv420p", "-"], capture_output=True, check=True).stdout
    reference = np.frombuffer(scaled, np.uint8).reshape(-1, size[1] * 3 // 2, size[0])
    assert len(reference) == len(ours)
    errors = [np.abs(a.astype(int) - b.astype(int)).mean() for a, b in zip(ours, reference)]
    assert max(errors) < 1.0, max(errors)
    # the same comparison one frame late would fail: the scene changes between frames
    shifted = [np.abs(a.astype(int) - b.astype(int)).mean() for a, b in zip(ours[1:], reference)]
    assert max(shifted) > 2 * max(errors)


@pytest.mark.render
def test_every_clip_starts_on_a_keyframe_as_in_the_movie(rendered):
    """The palette is chosen from keyframes: each animation's first frame must be one in the
    GIF's stream, as it is in the movie."""
    assert keyframe_count(rendered["gif_frames"]) >= keyframe_count(rendered["movie"])


@pytest.mark.render
def test_a_gif_is_made_without_the_movie(rendered, tmp_path):
    """The movie and every clip are deleted before the GIF step runs: it reads only the GIF's
    frames, and its GIF shows what the GIF made from the movie shows."""
    staging = tmp_path / "staging"
    shutil.copytree(rendered["movie"].parents[3], staging)   # the render's own folder stays whole
    movie = staging / rendered["movie"].relative_to(rendered["movie"].parents[3])
    frames = staging / rendered["gif_frames"].name
    from_movie = tmp_path / "from-movie.gif"
    duration = encode.probe(movie)["duration_s"]
    encode.gif(movie, from_movie, WIDTH, FPS, duration)
    shutil.rmtree(staging / "media")  # the movie, its clips, its sections
    assert [p for p in staging.rglob("*.mp4")] == [frames]
    target = tmp_path / "from-frames.gif"
    encode.gif(frames, target, WIDTH, FPS, duration)
    ours, theirs = pictures(target, "rgb24"), pictures(from_movie, "rgb24")
    assert ours[0].shape == theirs[0].shape == (540, 960, 3)
    assert len(ours) == len(theirs)
    difference = np.mean([np.abs(a.astype(int) - b.astype(int)).mean() for a, b in zip(ours, theirs)])
    assert difference < 2.0, difference


@pytest.mark.render
def test_the_same_scene_gives_the_same_movie_and_gif_frames(rendered, tmp_path):
    """Byte-determinism with the chosen x264 setting and the GIF's frames gathered: a second
    render gives the same movie bytes and the same GIF bytes."""
    second = render(tmp_path / "second")
    assert second["movie"].read_bytes() == rendered["movie"].read_bytes()
    gifs = []
    for run in (rendered, second):
        gif = tmp_path / f"{len(gifs)}.gif"
        encode.gif(run["gif_frames"], gif, WIDTH, FPS, 3.0)
        gifs.append(gif.read_bytes())
    assert gifs[0] == gifs[1]
