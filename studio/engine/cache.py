"""Content-hash cache keys: a scene is re-rendered only when something it depends on changed.

A scene's inputs are its own source and every project module it imports (found by reading
import statements, transitively), the config files, the Manim version, the quality preset,
the pipeline's post-processing version and the x264 setting chosen (render.py --encoder).
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
from importlib import metadata
from pathlib import Path

from studio import config
from studio.media.encode import POSTPROCESS_VERSION, encoder_options
from studio.engine.registry import SceneEntry

ROOT = config.PROJECT_ROOT
# Modules whose code shapes every render, whether or not a scene imports them.
PIPELINE_MODULES = ("studio.engine.worker", "studio.media.encode", "studio.manim_hooks.fastencode")


def _project_roots() -> set[str]:
    """Top-level names that can be project modules: a name outside them (numpy, manim…)
    is not looked up on disk at all."""
    return {p.stem if p.suffix == ".py" else p.name for p in ROOT.iterdir()
            if p.suffix == ".py" or (p / "__init__.py").is_file()}


def _module_file(name: str, roots: set[str]) -> Path | None:
    """The project file of module ``name``; None for anything outside the project."""
    parts = name.split(".")
    if parts[0] not in roots:
        return None
    base = ROOT.joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _package_parts(path: Path) -> tuple[str, ...]:
    """The package a module file belongs to (for ``__init__.py``, the package itself)."""
    return path.parent.relative_to(ROOT).parts


# Each file's parsed imports, with the digest of the bytes they were parsed from: in memory,
# and in .cache/imports.json across runs, so a no-op re-run reads the project's files but
# parses none of them (parsing was most of its time). One entry per file, so edits
# replace entries rather than pile them up.
IMPORTS_MEMO = ROOT / ".cache" / "imports.json"
_imports_memo: dict[str, dict] | None = None
_memo_grew = False


def _memo() -> dict[str, dict]:
    global _imports_memo
    if _imports_memo is None:
        try:
            kept = json.loads(IMPORTS_MEMO.read_text())
        except (OSError, ValueError):
            kept = {}
        # Anything of another shape (a damaged file) is dropped, not trusted.
        kept = kept if isinstance(kept, dict) else {}
        _imports_memo = {label: entry for label, entry in kept.items() if isinstance(entry, dict)}
    return _imports_memo


def save_imports_memo() -> None:
    """Keep what this run parsed for the next (written whole; a read-only checkout only loses speed)."""
    global _memo_grew
    if not _memo_grew:
        return
    from studio import atomic

    try:
        atomic.write_json(IMPORTS_MEMO, _memo())
        _memo_grew = False
    except OSError:
        pass


def _imported_names(path: Path, content: bytes) -> list[str]:
    """Every dotted name the import statements of ``path`` (whose bytes are ``content``) name."""
    global _memo_grew
    memo = _memo()
    label = str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    digest = hashlib.sha256(content).hexdigest()
    if memo.get(label, {}).get("sha256") != digest:
        memo[label] = {"sha256": digest, "names": sorted(_parse_imports(path, content))}
        _memo_grew = True
    return memo[label]["names"]


def _parse_imports(path: Path, content: bytes) -> set[str]:
    """Every dotted name (and its parents) the file's import statements name."""
    tree = ast.parse(content.decode("utf-8"))
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
    return {n for n in expanded if n}


def dependencies(entry: SceneEntry, contents: dict[Path, bytes] | None = None) -> list[Path]:
    """The scene's file and every project module it reaches through imports. ``contents``
    collects the bytes read on the way (the cache key hashes the same bytes)."""
    contents = {} if contents is None else contents
    roots = _project_roots()
    files: dict[str, Path | None] = {}  # name → module file, looked up once per walk

    def module_file(name: str) -> Path | None:
        if name not in files:
            files[name] = _module_file(name, roots)
        return files[name]

    seen: dict[Path, None] = {}
    stack = [entry.path, *pipeline_files(module_file)]
    while stack:
        path = stack.pop()
        if path in seen:
            continue
        seen[path] = None
        if path not in contents:
            contents[path] = path.read_bytes()
        stack.extend(filter(None, map(module_file, _imported_names(path, contents[path]))))
    return sorted(seen)


def pipeline_files(module_file=None) -> list[Path]:
    """The files of PIPELINE_MODULES. A name that resolves to no file raises: dropping it
    would leave the pipeline's own code out of every key, and stale renders would pass as
    fresh (a module moved without updating this list)."""
    module_file = module_file or functools.partial(_module_file, roots=_project_roots())
    files = {name: module_file(name) for name in PIPELINE_MODULES}
    missing = [name for name, path in files.items() if path is None]
    if missing:
        raise RuntimeError(f"cache.PIPELINE_MODULES names no project module: {', '.join(missing)}")
    return list(files.values())


def cache_key(entry: SceneEntry, quality: str, preset: dict) -> str:
    digest = hashlib.sha256()
    digest.update(json.dumps({
        "scene": entry.scene_id, "quality": quality, "preset": preset,
        "manim": _manim_version(), "postprocess": POSTPROCESS_VERSION,
        # render.py --encoder picks a setting of config/encoder.yaml: its clips are another file.
        "encoder": encoder_options(),
    }, sort_keys=True).encode())
    contents: dict[Path, bytes] = {}
    for path in [*dependencies(entry, contents), *config.config_files()]:
        digest.update(str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name).encode())
        digest.update(contents[path] if path in contents else path.read_bytes())
    save_imports_memo()
    return digest.hexdigest()[:16]


@functools.lru_cache(maxsize=1)
def _manim_version() -> str:
    return metadata.version("manim")
