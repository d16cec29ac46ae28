"""A scene is re-rendered when a module it imports changes, and only then.

The render runs in a copy of the project (so editing a kit module touches nothing real),
against the fixture scene ``tiny``, which imports ``scenes.kit.text`` for its words.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from studio.engine import cache, registry
from tests.render_helpers import FIXTURE_SCENES, ROOT, env

# What a render needs of the project: the CLI, the pipeline, the kit, numbers and config.
PROJECT_PARTS = ("render.py", "studio", "scenes", "lecture_numerics", "config", "assets")


def _copy_project(target: Path) -> Path:
    target.mkdir()
    for part in PROJECT_PARTS:
        source = ROOT / part
        if source.is_dir():
            shutil.copytree(source, target / part, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, target / part)
    shutil.copytree(FIXTURE_SCENES, target / "fixture_scenes", ignore=shutil.ignore_patterns("__pycache__"))
    return target


def _render_in(project: Path, out: Path, *args: str) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, str(project / "render.py"), "tiny", "--quality", "low",
                             "--out", str(out), *args],
                            cwd=project, env=env(LECTURE_SCENES_DIR=str(project / "fixture_scenes"),
                                                 PYTHONPATH=str(project)),
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def test_dependencies_follow_imports(monkeypatch):
    monkeypatch.setenv("LECTURE_SCENES_DIR", str(FIXTURE_SCENES))
    deps = cache.dependencies(registry.select(["tiny"])[0])
    assert FIXTURE_SCENES / "tiny.py" in deps
    # Imported by the scene itself, then through the base scene (base → theme → config).
    for module in ("scenes/kit/text.py", "scenes/kit/base.py", "scenes/kit/theme.py", "studio/config.py"):
        assert ROOT / module in deps, module
    # Not imported by anything tiny reaches: editing it must not re-render tiny.
    assert ROOT / "scenes/kit/vote_widgets.py" not in deps


def test_remembered_imports_follow_edits_and_keep_one_entry_per_file(tmp_path, monkeypatch):
    """The parsed imports kept across runs are read again when a file's bytes change, from
    the file on disk after a restart, and an edit replaces the file's entry."""
    monkeypatch.setattr(cache, "IMPORTS_MEMO", tmp_path / "imports.json")
    monkeypatch.setattr(cache, "_imports_memo", None)
    module = tmp_path / "figure.py"
    module.write_text("from scenes.kit import text\n")
    assert "scenes.kit.text" in cache._imported_names(module, module.read_bytes())
    cache.save_imports_memo()
    monkeypatch.setattr(cache, "_imports_memo", None)            # a new run reads the file
    module.write_text("import scenes.kit.plots\n")
    names = cache._imported_names(module, module.read_bytes())
    assert "scenes.kit.plots" in names and "scenes.kit.text" not in names
    cache.save_imports_memo()
    assert list(json.loads((tmp_path / "imports.json").read_text())) == [str(module)]


@pytest.mark.render
def test_editing_an_imported_module_rerenders(tmp_path):
    project = _copy_project(tmp_path / "project")
    out = tmp_path / "out"
    first = _render_in(project, out)
    assert "1 rendered, 0 cached" in first.stdout

    # A module tiny does not import: still cached.
    with open(project / "scenes/kit/vote_widgets.py", "a", encoding="utf-8") as handle:
        handle.write("\n# edited: tiny does not import this module\n")
    assert "0 rendered, 1 cached" in _render_in(project, out).stdout

    # The module tiny takes its words from: the cached video is stale.
    text = project / "scenes/kit/text.py"
    text.write_text(text.read_text(encoding="utf-8") + "\n# edited: tiny imports this module\n", encoding="utf-8")
    assert "1 rendered, 0 cached" in _render_in(project, out).stdout


def test_every_pipeline_module_is_in_every_key_and_a_missing_one_raises(monkeypatch):
    # Each name resolves to a file that every scene's key reads...
    files = cache.pipeline_files()
    assert [f.relative_to(ROOT).with_suffix("").as_posix().replace("/", ".") for f in files] == list(
        cache.PIPELINE_MODULES)
    entry = registry.discover()["fig-underflow"]
    assert set(files) <= set(cache.dependencies(entry))
    # ...and a name that resolves to nothing (a module moved without this list) stops the key.
    monkeypatch.setattr(cache, "PIPELINE_MODULES", (*cache.PIPELINE_MODULES, "studio.moved_away"))
    with pytest.raises(RuntimeError, match="studio.moved_away"):
        cache.cache_key(entry, "low", {"width": 1})
