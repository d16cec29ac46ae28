"""Find the lecture's scenes without importing manim: read scenes/*.py as text.

A scene module defines a class with ``scene_id = "…"`` and ``title = "…"`` class
attributes. Ids are validated against this registry before anything touches a path,
so an id can never name a file outside the output folder.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from studio import config
from studio.errors import UsageError

import os

SCENES_DIR = config.PROJECT_ROOT / "scenes"


def scenes_dir() -> Path:
    """Where scene modules live; tests point LECTURE_SCENES_DIR at fixture scenes."""
    return Path(os.environ.get("LECTURE_SCENES_DIR", SCENES_DIR))


@dataclass(frozen=True)
class SceneEntry:
    scene_id: str
    title: str
    module: str          # importable name, e.g. scenes.fig_circuit
    class_name: str
    path: Path
    loop: bool
    ledger_keys: tuple[str, ...]


# Read without importing the scene, so they must be literals; anything else is an error, never
# a silent default (a computed ledger_keys would otherwise read as "draws nothing").
LITERAL_ATTRS = ("scene_id", "title", "loop", "ledger_keys")


def _class_attrs(node: ast.ClassDef, path: Path) -> dict[str, object]:
    attrs: dict[str, object] = {}
    for stmt in node.body:
        target = None
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            target, value = stmt.targets[0].id, stmt.value
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            target, value = stmt.target.id, stmt.value
        if target is not None:
            try:
                attrs[target] = ast.literal_eval(value)
            except ValueError:
                if target in LITERAL_ATTRS:
                    raise UsageError(f"{path}:{stmt.lineno}: {node.name}.{target} must be a literal "
                                     "(the registry reads it without importing the scene)") from None
    return attrs


# Parsed scene files by (file, mtime, size): one command asks for the registry several
# times, and a long-running --serve must still see every edit.
_ENTRIES_SEEN: dict[tuple[Path, int, int], list[SceneEntry]] = {}


def _entries_in(path: Path) -> list[SceneEntry]:
    stat = path.stat()
    key = (path, stat.st_mtime_ns, stat.st_size)
    if key not in _ENTRIES_SEEN:
        _ENTRIES_SEEN[key] = _parse_entries(path)
    return list(_ENTRIES_SEEN[key])


def _parse_entries(path: Path) -> list[SceneEntry]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            attrs = _class_attrs(node, path)
            if isinstance(attrs.get("scene_id"), str) and attrs["scene_id"]:
                found.append(SceneEntry(
                    scene_id=attrs["scene_id"], title=str(attrs.get("title", "")),
                    module=f"scenes.{path.stem}", class_name=node.name, path=path,
                    loop=bool(attrs.get("loop", False)),
                    ledger_keys=tuple(attrs.get("ledger_keys", ())),
                ))
    return found


DEMO_PREFIX = "demo"


def is_demo(scene_id: str) -> bool:
    """Demo scenes (``demo-…``) show the kit, not the lecture: rendered only when named."""
    return scene_id.startswith(DEMO_PREFIX)


def discover(*, include_demos: bool = False) -> dict[str, SceneEntry]:
    """Every registered scene, in lecture order (config/lecture.yaml), then by id; demo
    scenes only with ``include_demos`` (they stay out of the lecture, its page and ledger)."""
    entries: dict[str, SceneEntry] = {}
    for path in sorted(scenes_dir().glob("*.py")):
        for entry in _entries_in(path):
            if is_demo(entry.scene_id) and not include_demos:
                continue
            if entry.scene_id in entries:
                raise UsageError(f"scene id {entry.scene_id!r} is defined twice ({entry.path}, {entries[entry.scene_id].path})")
            entries[entry.scene_id] = entry
    order = {sid: i for i, sid in enumerate(config.lecture_order())}
    return dict(sorted(entries.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0])))


def select(ids: list[str]) -> list[SceneEntry]:
    """The entries for ``ids`` (all lecture scenes when empty; a demo only when named); an
    unknown id is a usage error listing the valid ones."""
    if not ids:
        return list(discover().values())
    known = discover(include_demos=True)
    unknown = [i for i in ids if i not in known]
    if unknown:
        raise UsageError(f"unknown scene id {', '.join(map(repr, unknown))}; valid ids: {', '.join(known)}")
    return [known[i] for i in dict.fromkeys(ids)]


def load_class(entry: SceneEntry):
    """Import the scene's class (this imports manim)."""
    import importlib
    import importlib.util
    import sys

    if entry.path.parent == SCENES_DIR:
        return getattr(importlib.import_module(entry.module), entry.class_name)
    name = f"_fixture_scenes.{entry.path.stem}"
    spec = importlib.util.spec_from_file_location(name, entry.path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return getattr(module, entry.class_name)
