"""The render.py contract: outputs, manifest, cache, failure isolation, errors (exit 2)."""

from __future__ import annotations

import json
import shutil
import struct
from pathlib import Path

import numpy as np
import pytest

from tests.render_helpers import ROOT, manifest, probe, render, snapshot
from tests.video_checks import drawn_fraction, frames, image, seam_problems

pytestmark = pytest.mark.render


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    out = tmp_path_factory.mktemp("out")
    result = render("tiny", "loopy", "--quality", "low", "--out", str(out))
    assert result.returncode == 0, result.stderr + result.stdout
    return out, result


def _top_level_atoms(path: Path) -> list[str]:
    data, atoms, pos = path.read_bytes(), [], 0
    while pos + 8 <= len(data):
        size, name = struct.unpack(">I4s", data[pos:pos + 8])
        atoms.append(name.decode("latin-1"))
        if size == 1:
            size = struct.unpack(">Q", data[pos + 8:pos + 16])[0]
        if size < 8:
            break
        pos += size
    return atoms


def test_outputs_and_manifest(rendered):
    out, _ = rendered
    qdir = out / "low"
    data = manifest(qdir)
    assert (data["quality"], data["width"], data["height"], data["fps"]) == ("low", 854, 480, 15)
    by_id = {s["id"]: s for s in data["scenes"]}
    assert set(by_id) == {"tiny", "loopy"}
    tiny = by_id["tiny"]
    assert tiny["loop"] is False and by_id["loopy"]["loop"] is True
    assert [s["name"] for s in tiny["sections"]] == ["A", "B"]
    # A: the word, then the square (two beats); B: one beat. Each beat holds its end 0.5 s.
    assert tiny["duration_s"] == pytest.approx(3.0, abs=0.1)
    assert sum(s["duration_s"] for s in tiny["sections"]) == pytest.approx(tiny["duration_s"], abs=0.15)
    for scene in data["scenes"]:
        beat_files = [f for s in scene["sections"] for b in s["beats"] for f in (b["file"], b["poster"])]
        for name in [*scene["files"].values(), *(s["file"] for s in scene["sections"]), *beat_files]:
            assert (qdir / name).is_file(), name
        assert len(scene["cache_key"]) >= 16
        assert scene["title"]


def test_beats_are_listed_with_their_clips_times_and_quotes(rendered):
    out, _ = rendered
    tiny = next(s for s in manifest(out / "low")["scenes"] if s["id"] == "tiny")
    panel_a, panel_b = tiny["sections"]
    assert [(b["name"], b["file"], b["poster"]) for b in panel_a["beats"]] == [
        ("A.1", "tiny/A/1.mp4", "tiny/A/1.jpg"), ("A.2", "tiny/A/2.mp4", "tiny/A/2.jpg")]
    assert [b["says"] for b in panel_a["beats"]] == [None, "左边的方块"]
    assert [b["name"] for b in panel_b["beats"]] == ["B.1"]
    starts = [b["start_s"] for s in tiny["sections"] for b in s["beats"]]
    ends = [b["end_s"] for s in tiny["sections"] for b in s["beats"]]
    assert starts[0] == pytest.approx(0.0, abs=0.05) and ends[-1] == pytest.approx(tiny["duration_s"], abs=0.1)
    assert all(a == pytest.approx(b, abs=0.05) for a, b in zip(ends, starts[1:])), "beats leave gaps or overlap"
    assert loop_has_no_sections(manifest(out / "low"))


def loop_has_no_sections(data: dict) -> bool:
    return next(s for s in data["scenes"] if s["id"] == "loopy")["sections"] == []


def test_beat_clips_join_up_to_the_panel_clip_frame_for_frame(rendered):
    out, _ = rendered
    qdir = out / "low" / "tiny"
    beats = [frames(qdir / "A" / f"{n}.mp4", 854, 480) for n in (1, 2)]
    panel = frames(qdir / "A.mp4", 854, 480)
    assert len(panel) == sum(len(b) for b in beats)
    assert np.array_equal(np.concatenate(beats), panel), "the panel clip is not its beats, frame for frame"
    assert not np.array_equal(beats[0][-1], beats[1][-1]), "the fixture's two beats end alike: the check is blind"


def test_beat_poster_is_the_beats_last_frame(rendered):
    out, _ = rendered
    qdir = out / "low" / "tiny"
    for n in (1, 2):
        clip = frames(qdir / "A" / f"{n}.mp4", 854, 480)
        jpeg = (qdir / "A" / f"{n}.jpg").read_bytes()
        assert jpeg[:2] == b"\xff\xd8", "beat poster is not a JPEG"
        poster = image(qdir / "A" / f"{n}.jpg")
        assert _differing_pixels(poster, clip[-1]) < 0.0005
        assert _differing_pixels(poster, clip[0]) > 0.001, "the beat does not change: the check is blind"


def test_mp4_plays_everywhere(rendered):
    out, _ = rendered
    for name in ("low/tiny.mp4", "low/tiny/A.mp4", "low/tiny/A/2.mp4", "low/loopy.mp4"):
        info = probe(out / name)
        stream = info["streams"][0]
        assert (stream["codec_name"], stream["pix_fmt"]) == ("h264", "yuv420p")
        atoms = _top_level_atoms(out / name)
        assert atoms.index("moov") < atoms.index("mdat"), f"{name} is not faststart: {atoms}"


def test_gif_loops_and_fits_slides(rendered):
    out, _ = rendered
    gif = (out / "low" / "tiny.gif").read_bytes()
    assert gif[:6] == b"GIF89a"
    assert b"NETSCAPE2.0\x03\x01\x00\x00" in gif, "gif does not loop forever"
    width = struct.unpack("<H", gif[6:8])[0]
    assert width <= 960
    stream = probe(out / "low" / "tiny.gif")["streams"][0]
    num, den = map(int, stream["avg_frame_rate"].split("/"))
    assert num / den <= 30
    duration = next(s for s in manifest(out / "low")["scenes"] if s["id"] == "tiny")["duration_s"]
    assert len(gif) <= 5_000_000 * duration / 10, "gif over 5 MB per 10 s"


def _differing_pixels(a, b) -> float:
    """Share of pixels that differ clearly (more than coding noise) between two images."""
    return float((np.abs(a - b).max(axis=-1) > 40).mean())


def _assert_poster_is(poster, chosen, *others, what: str) -> None:
    assert _differing_pixels(poster, chosen) < 0.0005, f"poster is not {what}"
    for other in others:
        # The right frame is told apart from the wrong ones, so a poster taken from the
        # wrong frame fails (the fixtures change visibly from frame to frame).
        assert _differing_pixels(chosen, other) > 0.003, f"{what} looks like another frame: the check cannot tell"
        assert _differing_pixels(poster, other) > 0.003


def test_posters_show_the_frame_the_readme_promises(rendered):
    """Loops: their first frame. Walkthroughs: the first panel complete (panel A's last frame)."""
    out, _ = rendered
    qdir = out / "low"
    for name in ("tiny", "loopy"):
        png = (qdir / f"{name}.png").read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", png[16:24]) == (854, 480)

    loop = frames(qdir / "loopy.mp4", 854, 480)
    assert drawn_fraction(loop[0]) > 0.005, "the loop fixture draws nothing visible"
    _assert_poster_is(image(qdir / "loopy.png"), loop[0], loop[-1], loop[len(loop) // 2],
                      what="the loop's first frame")

    whole = frames(qdir / "tiny.mp4", 854, 480)
    panel_a = frames(qdir / "tiny" / "A.mp4", 854, 480)
    assert drawn_fraction(panel_a[-1]) > 0.01, "panel A of the fixture draws nothing visible"
    _assert_poster_is(image(qdir / "tiny.png"), panel_a[-1], whole[-1], whole[0], panel_a[0],
                      what="panel A's last frame")


def test_loop_fixture_is_seamless(rendered):
    out, _ = rendered
    assert seam_problems(frames(out / "low" / "loopy.mp4", 854, 480)) == []


def test_second_run_is_cached(rendered):
    out, _ = rendered
    before = snapshot(out)
    again = render("tiny", "loopy", "--quality", "low", "--out", str(out))
    assert again.returncode == 0, again.stderr
    assert "0 rendered, 2 cached" in again.stdout
    assert "nothing to render" in again.stdout
    assert {k: v for k, v in snapshot(out).items() if k.endswith((".mp4", ".gif", ".png"))} == \
        {k: v for k, v in before.items() if k.endswith((".mp4", ".gif", ".png"))}


def test_force_rerenders(rendered):
    out, _ = rendered
    again = render("tiny", "--quality", "low", "--out", str(out), "--force")
    assert again.returncode == 0 and "1 rendered, 0 cached" in again.stdout


def test_list_shows_ids_titles_durations(tmp_path):
    result = render("--list", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    line = next(l for l in result.stdout.splitlines() if l.startswith("tiny"))
    assert "小测试" in line and "3.0 s" in line
    # The measured durations are remembered in the chosen output folder.
    remembered = json.loads((tmp_path / ".durations.json").read_text())
    assert float(remembered["tiny"]["duration"]) == pytest.approx(3.0, abs=0.05)


def test_ledger_writes_the_appendix(tmp_path):
    """--ledger writes ledger.json and ledger.md for the real scenes, and nothing else."""
    from studio.engine import registry

    out = tmp_path / "appendix"
    result = render("--ledger", "--out", str(out), LECTURE_SCENES_DIR=str(ROOT / "scenes"))
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == ["ledger.json", "ledger.md"]
    ledger = json.loads((out / "ledger.json").read_text())
    markdown = (out / "ledger.md").read_text()
    shown = [(sid, key) for sid, entry in registry.discover().items() for key in entry.ledger_keys]
    assert len(shown) > 10
    for scene_id, key in shown:
        entry = ledger[key]
        assert entry["kind"] in ("sourced", "derived", "chosen"), (key, entry["kind"])
        assert scene_id in entry["scenes"]
        assert entry["display"]
        assert f"`{key}`" in markdown, key
    assert "查来的" in markdown and "推来的" in markdown


def test_the_ledger_is_recomputed_only_when_its_inputs_change(tmp_path, monkeypatch):
    """A no-op re-run reads the ledger it wrote; a scene drawing another key, or a changed
    numerics module, computes it again."""
    from lecture_numerics import ledger as numerics_ledger
    from studio.present import publish

    computed = []
    monkeypatch.setattr(numerics_ledger, "ledger_entries", lambda keys: computed.append(keys) or {"k": dict(keys)})
    monkeypatch.setattr(numerics_ledger, "ledger_markdown", lambda entries: "# ledger\n")
    keys = {"fig-a": ("bytes.weights_bf16",)}
    monkeypatch.setattr(publish, "scene_keys", lambda: keys)
    first = publish.write_ledger(tmp_path)
    assert publish.write_ledger(tmp_path) == json.loads(json.dumps(first)) and len(computed) == 1
    keys["fig-a"] = ("bytes.weights_bf16", "bytes.master_fp32")
    publish.write_ledger(tmp_path)
    assert len(computed) == 2
    monkeypatch.setattr(publish, "ledger_stamp", lambda keys: "numerics edited")
    publish.write_ledger(tmp_path)
    assert len(computed) == 3
    (tmp_path / "ledger.md").unlink()                   # a half-published ledger is rebuilt
    publish.write_ledger(tmp_path)
    assert len(computed) == 4


def test_failing_scene_does_not_stop_others(tmp_path):
    result = render("broken", "dies", "tiny", "--quality", "low", "--out", str(tmp_path), "--jobs", "2")
    assert result.returncode == 1
    assert (tmp_path / "low" / "tiny.mp4").is_file()
    assert "FAILED broken: RuntimeError: this scene is broken on purpose" in result.stdout
    assert "FAILED dies: worker died (signal 9)" in result.stdout
    assert (tmp_path / "low" / "logs" / "broken.log").is_file()
    assert [s["id"] for s in manifest(tmp_path / "low")["scenes"]] == ["tiny"]
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("args, needles", [
    (["--preview", "nope"], ["unknown scene id 'nope'", "tiny"]),
    (["--preview", "tiny", "--section", "Z"], ["tiny has no panel or beat 'Z'", "its panels: A, B"]),
    (["--preview", "loopy", "--section", "A"], ["loopy has no panel or beat 'A'"]),
    (["--preview", "tiny", "loopy"], ["--preview takes exactly one scene id"]),
    (["tiny", "--section", "A"], ["--section goes with --preview"]),
])
def test_preview_errors_write_nothing(tmp_path, args, needles):
    out = tmp_path / "out"
    _expect_usage_error(render(*args, "--out", str(out)), *needles)
    assert not out.exists(), sorted(str(p) for p in out.rglob("*"))


def test_stills_writes_one_png_per_beat(tmp_path):
    import subprocess
    import sys

    from tests.render_helpers import env

    out = tmp_path / "stills"
    result = subprocess.run([sys.executable, "-m", "studio.engine.stills", "tiny", "--out", str(out),
                             "--width", "640", "--height", "360"],
                            cwd=ROOT, env=env(PYTHONPATH=str(ROOT)), capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["tiny_A.1.png", "tiny_A.2.png", "tiny_B.1.png"]
    assert sorted(result.stdout.split()) == sorted(str(p) for p in out.iterdir())
    word, panel_a, panel_b = (image(out / f"tiny_{name}.png") for name in ("A.1", "A.2", "B.1"))
    assert panel_a.shape == (360, 640, 3)
    # Each still is its beat's end: A.1 the word, A.2 adds the blue square, B the red one.
    assert drawn_fraction(word) > 0.001
    assert drawn_fraction(panel_a) > drawn_fraction(word) + 0.02
    assert drawn_fraction(panel_b) > drawn_fraction(panel_a) + 0.02


def test_preview_prints_path_without_display(tmp_path):
    result = render("--preview", "tiny", "--section", "B", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1].endswith("low/tiny/B.mp4")


# -- usage and config errors: one line, exit 2, no traceback, outputs untouched --------

def _config_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "config"
    shutil.copytree(ROOT / "config", folder)
    return folder


def _expect_usage_error(result, *needles: str) -> None:
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    lines = [l for l in result.stderr.splitlines() if l.strip()]
    assert len(lines) == 1, lines
    for needle in needles:
        assert needle in lines[0], lines[0]


def test_unknown_id_lists_valid_ids(rendered):
    out, _ = rendered
    before = snapshot(out)
    _expect_usage_error(render("nope", "--out", str(out)), "unknown scene id 'nope'", "tiny", "loopy")
    _expect_usage_error(render("../../etc/passwd", "--out", str(out)), "unknown scene id")
    assert snapshot(out) == before


def test_unknown_quality(rendered):
    out, _ = rendered
    _expect_usage_error(render("tiny", "--quality", "ultra", "--out", str(out)), "unknown quality 'ultra'", "low")


@pytest.mark.parametrize("name, text, needles", [
    ("presets.yaml", "low: {width: 854, height: 480, fps: 15\nhigh: [", ["presets.yaml:", "does not parse"]),
    ("presets.yaml", "low:\n  width: 854\n  height: 480\n  fps: -15\n", ["presets.yaml:4", "fps"]),
    ("theme.yaml", None, ["theme.yaml:", "colour 'reddish'"]),
    ("scenarios.yaml", "memtime:\n  model: deepseek-v3\n  seq_len: many\n  batch: 1\n  recompute: full\n  bytes_per_param: 16\n",
     ["scenarios.yaml:3", "seq_len"]),
    ("presets.yaml", "low: !!python/object/apply:os.system ['true']\n", ["presets.yaml:1", "does not parse"]),
])
def test_bad_config(tmp_path, rendered, name, text, needles):
    out, _ = rendered
    before = snapshot(out)
    folder = _config_copy(tmp_path)
    if text is None:
        text = (folder / name).read_text().replace('backward: "#D62728"', "backward: reddish")
    (folder / name).write_text(text)
    _expect_usage_error(render("tiny", "--quality", "low", "--out", str(out), LECTURE_CONFIG_DIR=str(folder)), *needles)
    assert snapshot(out) == before


def test_unwritable_output_folder(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    _expect_usage_error(render("tiny", "--quality", "low", "--out", str(blocker / "out")), "not writable")


def test_missing_cjk_font(tmp_path, rendered):
    out, _ = rendered
    before = snapshot(out)
    fonts_conf = tmp_path / "fonts.conf"
    fonts_conf.write_text(f'<?xml version="1.0"?><fontconfig><dir>{tmp_path}</dir><cachedir>{tmp_path}/cache</cachedir></fontconfig>')
    result = render("tiny", "--quality", "low", "--out", str(out), FONTCONFIG_FILE=str(fonts_conf))
    _expect_usage_error(result, "CJK font 'Noto Sans CJK SC' is not installed", "fonts-noto-cjk")
    assert snapshot(out) == before


def test_missing_encoder(tmp_path, rendered):
    out, _ = rendered
    before = snapshot(out)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "fc-match").symlink_to(shutil.which("fc-match"))
    _expect_usage_error(render("tiny", "--quality", "low", "--out", str(out), PATH=str(bin_dir)), "encoder not found", "ffmpeg")
    assert snapshot(out) == before


def test_bad_jobs():
    _expect_usage_error(render("tiny", "--jobs", "0"), "--jobs")


def test_a_scene_attribute_the_registry_cannot_read_is_an_error(tmp_path, monkeypatch):
    from studio.engine import registry
    from studio.errors import UsageError

    (tmp_path / "computed.py").write_text(
        'KEYS = ("a.b",)\n\nclass Computed:\n    scene_id = "computed"\n    ledger_keys = tuple(KEYS)\n',
        encoding="utf-8")
    monkeypatch.setenv("LECTURE_SCENES_DIR", str(tmp_path))
    with pytest.raises(UsageError, match="computed.py:5: Computed.ledger_keys must be a literal"):
        registry.discover()


def test_unknown_encoder(rendered):
    out, _ = rendered
    before = snapshot(out)
    _expect_usage_error(render("tiny", "--encoder", "turbo", "--out", str(out)), "unknown encoder 'turbo'", "default, fast")
    assert snapshot(out) == before


@pytest.mark.render
def test_encoder_fast_reaches_the_workers_and_never_passes_for_the_default(rendered, tmp_path):
    """render.py --encoder fast: the clip carries the alternative's x264 setting (x264's own
    record of its options). A folder holds one version of a scene: switching the encoder
    either way re-renders it, so neither setting's clip is ever taken for the other's."""
    from studio.media import encode
    from tests.test_fastencode import x264_settings

    out, _ = rendered
    default_clip = (out / "low" / "tiny.mp4").read_bytes()
    fast = encode.encoder_options(name="fast")
    result = render("tiny", "--quality", "low", "--encoder", "fast", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    settings = x264_settings(tmp_path / "low" / "tiny.mp4")
    assert f" crf={float(fast['crf']):.1f} " in settings and " bframes=0 " in settings, settings
    assert "1 rendered" in render("tiny", "--quality", "low", "--encoder", "fast", "--out", str(out)).stdout
    assert (out / "low" / "tiny.mp4").read_bytes() != default_clip
    assert "1 rendered" in render("tiny", "--quality", "low", "--out", str(out)).stdout
    assert (out / "low" / "tiny.mp4").read_bytes() == default_clip
