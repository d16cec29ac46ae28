"""How frames reach x264 (studio/manim_hooks/fastencode.py): a held frame is converted once, and a clip
decodes to the same pictures every time it is encoded."""

from __future__ import annotations

import threading
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from tests.render_helpers import decoded_frames_digest

# 854×480 is the low preset: a width that is not a multiple of 64, where x264's output for
# identical input varied from run to run while swscale shared its thread.
WIDTH, HEIGHT = 854, 480


FIXTURES = Path(__file__).parent / "fixtures"


def picture(seed: int) -> np.ndarray:
    """A lecture-like RGBA frame: light background, dark strokes with soft edges."""
    rng = np.random.default_rng(seed)
    image = np.full((HEIGHT, WIDTH, 4), 250, np.uint8)
    for _ in range(60):
        y, x = rng.integers(0, HEIGHT - 12), rng.integers(0, WIDTH - 40)
        image[y:y + 10, x:x + rng.integers(4, 40), :3] = rng.integers(40, 200, 3)
        image[y + 10, x:x + 40, :3] = 200      # a light fringe, as anti-aliased text leaves
    image[..., 3] = 255
    return image


def lecture_frame() -> np.ndarray:
    """The last frame of fig-optimizers at low quality (a real render, stored losslessly)."""
    return np.ascontiguousarray(np.asarray(Image.open(FIXTURES / "held-frame.png").convert("RGBA")))


class RecordingStream:
    """Stands in for the encoder's PyAV stream: notes which thread encodes which format."""

    def __init__(self, stream, seen: list):
        self._stream, self._seen = stream, seen

    def encode(self, frame=None):
        if frame is not None:
            self._seen.append((threading.current_thread().name, frame.format.name))
        return self._stream.encode(frame)


def encode(path, frames: list[tuple[np.ndarray, int]], seen: list | None = None):
    """Through manim's segment encoder with our write_frame installed."""
    from manim._config.video_encoder import VideoEncoderSpec
    from manim.scene.video_segment_encoder import VideoSegmentEncoder

    from studio.manim_hooks import fastencode

    spec = VideoEncoderSpec(container_format="mp4", codec="libx264", pixel_format="yuv420p", width=WIDTH,
                            height=HEIGHT, frame_rate=Fraction(15), options=(("crf", "23"),))
    fastencode.install()
    try:
        encoder = VideoSegmentEncoder(target=path, spec=spec)
        if seen is not None:
            encoder._stream = RecordingStream(encoder._stream, seen)
        for pixels, repeat in frames:
            encoder.write_frame(pixels, repeat=repeat)
        encoder.finish()
    finally:
        fastencode.uninstall()
    return path


def test_a_held_frame_encodes_as_its_repeats_would(tmp_path):
    """write_frame(p, repeat=N) converts p once; the video is the one N single writes give."""
    held = [(picture(1), 1), (picture(2), 12), (picture(3), 1)]
    spelled_out = [(picture(1), 1)] + [(picture(2), 1)] * 12 + [(picture(3), 1)]
    once = encode(tmp_path / "once.mp4", held)
    each = encode(tmp_path / "each.mp4", spelled_out)
    assert decoded_frames_digest(once) == decoded_frames_digest(each)


def test_frames_reach_x264_converted_on_another_thread(tmp_path, monkeypatch):
    """Every frame the stream encodes is already yuv420p (so PyAV does not convert it on the
    encoding thread), and every conversion ran on the converter thread."""
    from studio.manim_hooks import fastencode

    converted_on = []
    real = fastencode.to_yuv

    def recording(pixels, pixel_format):
        converted_on.append(threading.current_thread().name)
        return real(pixels, pixel_format)

    monkeypatch.setattr(fastencode, "to_yuv", recording)
    seen = []
    encode(tmp_path / "clip.mp4", [(picture(1), 1), (picture(2), 5)], seen)
    assert [fmt for _, fmt in seen] == ["yuv420p"] * 6
    assert len(converted_on) == 2
    assert not set(converted_on) & {thread for thread, _ in seen}


def test_the_same_frames_always_give_the_same_video(tmp_path):
    """Eight encodes of one clip (a held lecture frame, written frame by frame as an
    animation's last frames are): one set of decoded pictures. With the conversion on the
    encoding thread this was a matter of luck: one trial in four gave three different videos."""
    frames = [(lecture_frame(), 1) for _ in range(30)]
    digests = {decoded_frames_digest(encode(tmp_path / f"run{n}.mp4", frames)) for n in range(8)}
    assert len(digests) == 1


@pytest.mark.render
def test_a_scene_renders_to_the_same_bytes_twice(tmp_path):
    """Two renders of one scene are byte-identical MP4s (the worker's whole movie)."""
    import subprocess
    import sys

    from tests.render_helpers import ROOT, env

    movies = []
    for run in ("first", "second"):
        staging = tmp_path / run
        staging.mkdir()
        subprocess.run([sys.executable, "-m", "studio.engine.worker", "tiny", "low", str(staging)], cwd=ROOT,
                       env=env(PYTHONPATH=str(ROOT)), check=True, capture_output=True)
        movies.append(next(staging.rglob("tiny.mp4")).read_bytes())
    assert movies[0] == movies[1]


def x264_settings(movie: Path) -> str:
    """The options string x264 writes into the first frame of every clip it encodes."""
    data = movie.read_bytes()
    start = data.index(b"x264 - core")
    return data[start:data.index(b"\0", start)].decode("ascii", "replace")


def config_with_encoder(tmp_path, text: str) -> Path:
    import shutil

    from studio import config

    folder = tmp_path / "config"
    shutil.copytree(config.CONFIG_DIR, folder)
    (folder / "encoder.yaml").write_text(text)
    return folder


@pytest.mark.render
def test_clips_are_encoded_with_the_setting_in_config(tmp_path):
    """The worker's clips carry config/encoder.yaml's preset, crf and x264 options (here
    ultrafast, crf 30, CABAC back on: no B-frames, crf=30.0 and cabac=1 in x264's own record
    of its options, where ultrafast alone has cabac=0)."""
    import subprocess
    import sys

    from tests.render_helpers import ROOT, env

    folder = config_with_encoder(tmp_path, "x264: {preset: ultrafast, crf: 30, params: \"cabac=1\"}\n")
    staging = tmp_path / "staging"
    staging.mkdir()
    subprocess.run([sys.executable, "-m", "studio.engine.worker", "tiny", "low", str(staging)], cwd=ROOT,
                   env=env(PYTHONPATH=str(ROOT), LECTURE_CONFIG_DIR=str(folder)), check=True, capture_output=True)
    settings = x264_settings(next(staging.rglob("tiny.mp4")))
    assert " crf=30.0 " in settings and " bframes=0 " in settings and "cabac=1 " in settings, settings


def test_the_chosen_setting_is_read_and_checked(tmp_path, monkeypatch):
    from studio.media import encode
    from studio.errors import UsageError

    good = config_with_encoder(tmp_path / "good", "x264:\n  preset: superfast\n  crf: 21.5\n")
    monkeypatch.setenv("LECTURE_CONFIG_DIR", str(good))
    assert encode.encoder_options() == {"preset": "superfast", "crf": "21.5"}
    tuned = config_with_encoder(tmp_path / "tuned", "x264: {preset: ultrafast, crf: 24, params: 'cabac=1:ref=2'}\n")
    monkeypatch.setenv("LECTURE_CONFIG_DIR", str(tuned))
    assert encode.encoder_options() == {"preset": "ultrafast", "crf": "24", "x264-params": "cabac=1:ref=2"}
    injected = config_with_encoder(tmp_path / "injected", "x264: {preset: ultrafast, crf: 24, params: 'cabac=1 -y'}\n")
    monkeypatch.setenv("LECTURE_CONFIG_DIR", str(injected))
    with pytest.raises(UsageError, match=r"x264\.params"):
        encode.encoder_options()
    bad = config_with_encoder(tmp_path / "bad", "# a comment\nx264:\n  preset: quick\n  crf: 21\n")
    monkeypatch.setenv("LECTURE_CONFIG_DIR", str(bad))
    with pytest.raises(UsageError, match=r"encoder\.yaml:3: invalid config: x264\.preset"):
        encode.encoder_options()
    missing = config_with_encoder(tmp_path / "missing", "x264: {preset: fast}\n")
    monkeypatch.setenv("LECTURE_CONFIG_DIR", str(missing))
    with pytest.raises(UsageError, match="crf"):
        encode.encoder_options()


def test_install_hands_manim_the_setting_and_uninstall_restores_manims(tmp_path, monkeypatch):
    from manim import config as manim_config

    from studio.manim_hooks import fastencode

    before = manim_config.video_encoder_options
    monkeypatch.setenv("LECTURE_CONFIG_DIR", str(config_with_encoder(tmp_path, "x264: {preset: veryfast, crf: 19}\n")))
    fastencode.install()
    try:
        assert manim_config.video_encoder_options == {"preset": "veryfast", "crf": "19"}
    finally:
        fastencode.uninstall()
    assert manim_config.video_encoder_options == before


def test_a_named_alternative_is_picked_by_name_or_by_the_environment(tmp_path, monkeypatch):
    from studio.media import encode
    from studio.errors import UsageError

    folder = config_with_encoder(tmp_path, "x264: {preset: superfast, crf: 18.5}\n"
                                           "alternatives:\n  fast: {preset: ultrafast, crf: 24, params: 'cabac=1'}\n")
    monkeypatch.setenv("LECTURE_CONFIG_DIR", str(folder))
    monkeypatch.delenv(encode.ENCODER_ENV, raising=False)
    assert encode.encoder_names() == ["default", "fast"]
    assert encode.encoder_options() == {"preset": "superfast", "crf": "18.5"}
    assert encode.encoder_options(name="fast") == {"preset": "ultrafast", "crf": "24", "x264-params": "cabac=1"}
    monkeypatch.setenv(encode.ENCODER_ENV, "fast")
    assert encode.encoder_options()["preset"] == "ultrafast"
    assert encode.encoder_options(name="default")["preset"] == "superfast"
    monkeypatch.setenv(encode.ENCODER_ENV, "tiny")
    with pytest.raises(UsageError, match="unknown encoder 'tiny'; choose one of: default, fast"):
        encode.encoder_options()


def test_an_alternative_may_not_be_called_default_nor_be_half_a_setting(tmp_path, monkeypatch):
    from studio.media import encode
    from studio.errors import UsageError

    for text, needle in [("x264: {preset: superfast, crf: 18}\nalternatives:\n  default: {preset: fast, crf: 20}\n",
                          "alternatives"),
                         ("x264: {preset: superfast, crf: 18}\nalternatives:\n  fast: {preset: ultrafast}\n", "crf")]:
        monkeypatch.setenv("LECTURE_CONFIG_DIR", str(config_with_encoder(tmp_path / needle, text)))
        with pytest.raises(UsageError, match=needle):
            encode.encoder_options()


def test_the_projects_fast_alternative_is_faster_and_bigger_than_the_default():
    """What --help promises of 'fast': a cheaper x264 preset and a higher crf than the default."""
    from studio.media import encode

    default, fast = encode.encoder_options(name="default"), encode.encoder_options(name="fast")
    assert encode.X264_PRESETS.index(fast["preset"]) < encode.X264_PRESETS.index(default["preset"])
    assert float(fast["crf"]) > float(default["crf"])


def test_the_encoder_chosen_is_in_the_cache_key(monkeypatch):
    """A render with --encoder fast is another file: it neither reuses nor replaces the default's."""
    from studio import config
    from studio.engine import cache, registry
    from studio.media import encode

    entry = registry.discover()["fig-underflow"]
    monkeypatch.delenv(encode.ENCODER_ENV, raising=False)
    default = cache.cache_key(entry, "low", config.presets()["low"])
    monkeypatch.setenv(encode.ENCODER_ENV, "fast")
    assert cache.cache_key(entry, "low", config.presets()["low"]) != default
    monkeypatch.setenv(encode.ENCODER_ENV, "default")
    assert cache.cache_key(entry, "low", config.presets()["low"]) == default
