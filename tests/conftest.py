"""Shared fixtures. Scenes are found through the registry, like the pipeline does."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


import pytest  # noqa: E402


@pytest.fixture(scope="session")
def lecture_render(tmp_path_factory):
    """Every real scene rendered once at low quality, as `python render.py --quality low` does."""
    import subprocess

    out = tmp_path_factory.mktemp("lecture")
    result = subprocess.run([sys.executable, str(ROOT / "render.py"), "--quality", "low", "--out", str(out)],
                            cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert result.returncode == 0, result.stdout + result.stderr
    return out
