"""Converting a held frame once gives the same video as manim's per-repeat conversion."""

from __future__ import annotations

import pytest

from tests.render_helpers import decoded_frames_digest

pytestmark = pytest.mark.render


def _render_scene_with(tmp_path, patched: bool):
    import subprocess
    import sys

    from tests.render_helpers import ROOT, env

    code = (
        "import sys; from pathlib import Path; from studio import fastencode, worker;"
        + ("" if patched else "fastencode.install = lambda: None;")
        + "worker.main(['tiny', 'low', sys.argv[1]])"
    )
    staging = tmp_path / ("patched" if patched else "stock")
    staging.mkdir()
    subprocess.run([sys.executable, "-c", code, str(staging)], cwd=ROOT, env=env(PYTHONPATH=str(ROOT)), check=True,
                   capture_output=True)
    return next(staging.rglob("tiny.mp4"))


def test_held_frames_encode_identically(tmp_path):
    stock = _render_scene_with(tmp_path, patched=False)
    ours = _render_scene_with(tmp_path, patched=True)
    assert decoded_frames_digest(stock) == decoded_frames_digest(ours)


