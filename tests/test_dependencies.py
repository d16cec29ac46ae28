"""Every package the studio imports at run time is a declared runtime dependency.

`make render` installs the project without its test extras, so a package that our code
imports but that only the tests (or another package, by chance) bring in breaks the render on
a fresh machine. Every import statement counts, at module level or deferred inside a function.
"""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNTIME_CODE = ("lecture_numerics", "scenes", "studio")
OUR_PACKAGES = {"lecture_numerics", "scenes", "studio", "render"}


def runtime_files(root: Path = ROOT) -> list[Path]:
    files = [root / "render.py"]
    for top in RUNTIME_CODE:
        files += sorted(p for p in (root / top).rglob("*.py") if "__pycache__" not in p.parts)
    return files


def top_level_imports(path: Path) -> dict[str, int]:
    """Top-level package → first line importing it, for every absolute import in ``path``."""
    found: dict[str, int] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            found.setdefault(name.partition(".")[0], node.lineno)
    return found


def normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def declared(pyproject: Path, extras: bool) -> set[str]:
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    requirements = list(project["dependencies"])
    if extras:
        requirements += [r for group in project.get("optional-dependencies", {}).values() for r in group]
    return {normalized(re.match(r"[A-Za-z0-9_.\-]+", r).group(0)) for r in requirements}


def undeclared_imports(root: Path, runtime: set[str]) -> list[str]:
    """'file:line imports X (distribution D)' for every third-party import whose distribution
    is not among ``runtime``."""
    distributions = importlib.metadata.packages_distributions()
    problems = []
    for path in runtime_files(root):
        for package, line in top_level_imports(path).items():
            if package in sys.stdlib_module_names or package in OUR_PACKAGES or package == "__future__":
                continue
            owners = {normalized(d) for d in distributions.get(package, [])}
            if not owners & runtime:
                owner = ", ".join(sorted(owners)) or "not installed"
                problems.append(f"{path.relative_to(root)}:{line} imports {package} ({owner})")
    return problems


def test_every_runtime_import_is_a_runtime_dependency():
    problems = undeclared_imports(ROOT, declared(ROOT / "pyproject.toml", extras=False))
    assert not problems, ("imported at run time but not in [project] dependencies of pyproject.toml "
                          "(test extras do not count):\n" + "\n".join(problems))


def test_a_package_moved_to_the_test_extras_is_caught(tmp_path):
    """The check itself can fail: with ml_dtypes back among the test extras, underflow.py's
    import of it is named."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    line = next(l for l in text.splitlines() if l.strip().startswith('"ml_dtypes'))
    moved = text.replace(line + "\n", "").replace("test = [\n", "test = [\n" + line + "\n")
    (tmp_path / "pyproject.toml").write_text(moved, encoding="utf-8")
    runtime = declared(tmp_path / "pyproject.toml", extras=False)
    assert "ml-dtypes" not in runtime
    assert "ml-dtypes" in declared(tmp_path / "pyproject.toml", extras=True)
    problems = undeclared_imports(ROOT, runtime)
    assert any("lecture_numerics/underflow.py" in p and "imports ml_dtypes" in p for p in problems), problems


def test_pinned_internals_are_in_the_constraints_file():
    """av and svgelements have internals the speed hooks patch, and manim is patched too: the
    set-up installs them at the versions the tests ran with."""
    pins = {normalized(m.group(1)): m.group(2) for m in
            re.finditer(r"^([A-Za-z0-9_.\-]+)==(\S+)", (ROOT / "constraints.txt").read_text(), re.M)}
    for package in ("manim", "av", "svgelements", "numpy", "ml-dtypes"):
        assert package in pins, f"{package} is not pinned in constraints.txt"
        assert importlib.metadata.version(package) == pins[package], (
            f"{package} {importlib.metadata.version(package)} is installed, constraints.txt pins {pins[package]}")
