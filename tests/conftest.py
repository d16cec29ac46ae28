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
    """Every real scene rendered once at low quality, as `python render.py --quality low` does,
    with --strict: a 🖥 line naming no scene, or timings that fit no cue, fails the suite."""
    import subprocess

    out = tmp_path_factory.mktemp("lecture")
    result = subprocess.run([sys.executable, str(ROOT / "render.py"), "--quality", "low", "--strict", "--out", str(out)],
                            cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert result.returncode == 0, result.stdout + result.stderr
    return out


# Folders of the working copy that renders and stills write to by default. Tests write into
# temporary folders only: a test that forgets --out must not overwrite someone's render.
GUARDED = ("out", "scratch")


def _listing(folder: Path) -> dict[str, tuple[int, int]] | None:
    if not folder.exists():
        return None
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in folder.rglob("*") if p.is_file()}


@pytest.fixture(scope="session", autouse=True)
def working_copy_outputs_untouched():
    """Fails the session if any test wrote into the repository's out/ or scratch/."""
    before = {name: _listing(ROOT / name) for name in GUARDED}
    yield
    for name in GUARDED:
        assert _listing(ROOT / name) == before[name], f"a test wrote into the repository's {name}/ (use tmp_path)"


def pytest_collection_modifyitems(config, items):
    """The whole-lecture render is the longest file: run it first, so that with several
    workers (make test) the other files finish while it renders, not after it."""
    items.sort(key=lambda item: 0 if item.get_closest_marker("render") and "render_all" in item.nodeid else 1)
