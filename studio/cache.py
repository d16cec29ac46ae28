"""Content-hash cache keys: a scene is re-rendered only when something it depends on changed.

A scene's inputs are its own source and every project module it imports (found by reading
import statements, transitively), the config files, the Manim version, the quality preset
and the pipeline's post-processing version.
"""

from __future__ import annotations

import ast
import hashlib
import json
from importlib import metadata
from pathlib import Path

from studio import config
from studio.encode import POSTPROCESS_VERSION
from studio.registry import SceneEntry

ROOT = config.PROJECT_ROOT
# Modules whose code shapes every render, whether or not a scene imports them.
PIPELINE_MODULES = ("studio.worker", "studio.encode", "studio.fastencode")


def _module_file(name: str) -> Path | None:
    parts = name.split(".")
    base = ROOT.joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _package_parts(path: Path) -> tuple[str, ...]:
    """The package a module file belongs to (for ``__init__.py``, the package itself)."""
    return path.parent.relative_to(ROOT).parts


# Parsed imports by (file, mtime, size): listing or rendering the whole lecture asks for the
# kit's modules once per scene, and a long-running --serve still sees every edit.
_IMPORTS_SEEN: dict[tuple[Path, int, int], set[str]] = {}


def _imports(path: Path) -> set[str]:
    """Project modules named by the import statements of ``path``."""
    stat = path.stat()
    key = (path, stat.st_mtime_ns, stat.st_size)
    if key not in _IMPORTS_SEEN:
        _IMPORTS_SEEN[key] = _parse_imports(path)
    return _IMPORTS_SEEN[key]


def _parse_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = _package_parts(path)
                keep = package[: len(package) - node.level + 1]
                base = ".".join([*keep, base] if base else keep)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    # A package that imports all its modules dynamically (pkgutil) depends on all of them.
    if path.name == "__init__.py" and "pkgutil" in names:
        package = ".".join(_package_parts(path))
        names.update(f"{package}.{p.stem}" for p in path.parent.glob("*.py"))
    expanded = set()
    for name in names:
        parts = name.split(".")
        expanded.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return {n for n in expanded if n and _module_file(n) is not None}


def dependencies(entry: SceneEntry) -> list[Path]:
    """The scene's file and every project module it reaches through imports."""
    seen: dict[Path, None] = {}
    stack = [entry.path, *filter(None, (_module_file(m) for m in PIPELINE_MODULES))]
    while stack:
        path = stack.pop()
        if path in seen:
            continue
        seen[path] = None
        stack.extend(_module_file(name) for name in _imports(path))
    return sorted(seen)


def cache_key(entry: SceneEntry, quality: str, preset: dict) -> str:
    digest = hashlib.sha256()
    digest.update(json.dumps({
        "scene": entry.scene_id, "quality": quality, "preset": preset,
        "manim": metadata.version("manim"), "postprocess": POSTPROCESS_VERSION,
    }, sort_keys=True).encode())
    for path in [*dependencies(entry), *config.config_files()]:
        digest.update(str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
