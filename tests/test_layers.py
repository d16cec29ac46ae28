"""Imports point down only, and no project modules import each other in a circle.

The layers, bottom to top: lecture_numerics (numbers and the config loader, no drawing) ←
scenes.kit ← scenes ← studio ← render.py, with bench and scripts on top. studio/ has its own
rooms, bottom to top: its shared modules (config, errors, atomic, lock) ← media ← manim_hooks
← engine ← track ← present ← cli; and in present, the deck does not import the page. Tests
may import anything. Every import statement counts, at module level or inside a function: a deferred
import is still a dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("lecture_numerics", "scenes.kit", "scenes", "studio", "studio.media", "studio.manim_hooks",
          "studio.engine", "studio.track", "studio.present", "studio.cli", "render", "bench", "scripts")
# Neighbours in one layer that must not lean on each other: (importer prefix, imported prefix).
APART = (("studio.present.deck", "studio.present.page"),)
EXEMPT = ("tests",)


def layer_of(module: str) -> int | None:
    """The index in LAYERS of the most specific layer ``module`` belongs to (None: not ours)."""
    matches = [i for i, layer in enumerate(LAYERS) if module == layer or module.startswith(layer + ".")]
    return max(matches, key=lambda i: len(LAYERS[i])) if matches else None


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_files(root: Path = ROOT) -> list[Path]:
    files = [root / "render.py"] if (root / "render.py").is_file() else []
    for top in ("lecture_numerics", "scenes", "studio", "bench", "scripts"):
        files += sorted((root / top).rglob("*.py"))
    return [f for f in files if "__pycache__" not in f.parts]


def imports_of(path: Path, known: set[str], root: Path = ROOT) -> list[tuple[int, str]]:
    """(line, project module) for every import in ``path``: ``from a.b import c`` names the
    module a.b.c when that is a module, else a.b."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = module_name(path, root)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.append((node.lineno, full if full in known else base))
    return [(line, name) for line, name in found if layer_of(name) is not None and name.split(".")[0] != "tests"]


def graph(root: Path = ROOT) -> dict[str, list[tuple[int, str]]]:
    files = project_files(root)
    known = {module_name(f, root) for f in files}
    return {module_name(f, root): imports_of(f, known, root) for f in files}


def upward_imports(edges: dict[str, list[tuple[int, str]]]) -> list[str]:
    wrong = []
    for module, imported in edges.items():
        here = layer_of(module)
        for line, name in imported:
            if layer_of(name) > here:
                wrong.append(f"{module}:{line} imports {name} ({LAYERS[layer_of(name)]} sits above "
                             f"{LAYERS[here]})")
            wrong += [f"{module}:{line} imports {name} ({importer}* keeps apart from {imported_}*)"
                      for importer, imported_ in APART if module.startswith(importer) and name.startswith(imported_)]
    return wrong


def cycles(edges: dict[str, list[tuple[int, str]]]) -> list[list[str]]:
    """Each strongly connected group of two or more modules (Tarjan), as a sorted list."""
    adjacency = {m: sorted({n for _, n in imported if n in edges and n != m}) for m, imported in edges.items()}
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in adjacency[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(adjacency):
        if node not in index:
            visit(node)
    return groups


def test_imports_point_down():
    wrong = upward_imports(graph())
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


def test_no_import_cycles():
    found = cycles(graph())
    assert not found, "import cycles: " + "; ".join(" ↔ ".join(group) for group in found)


def test_the_layer_rules_bite(tmp_path):
    """A small tree with one upward import and one cycle: both are found, and nothing else."""
    for name, text in {
        "lecture_numerics/__init__.py": "",
        "lecture_numerics/numbers.py": "from scenes.kit import theme\n",      # numerics → kit: up
        "scenes/__init__.py": "", "scenes/kit/__init__.py": "",
        "scenes/kit/theme.py": "from lecture_numerics import numbers\n",
        "studio/__init__.py": "", "studio/engine/__init__.py": "", "studio/track/__init__.py": "",
        "studio/present/__init__.py": "",
        "studio/cli.py": "def main():\n    from studio.present import serve\n",
        "studio/present/serve.py": "from studio.cli import main\nfrom scenes.kit import theme\n",
        "studio/engine/pipeline.py": "from studio.track import cues\n",               # engine → track: up
        "studio/track/cues.py": "from studio.engine import registry\n",
        "studio/engine/registry.py": "",
        "studio/present/deck.py": "from studio.present.page_track import clock\n",  # deck → page: apart
        "studio/present/page_track.py": "from studio.track import cues\n",
        "render.py": "from studio import cli\n",
    }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    edges = graph(tmp_path)
    assert sorted(upward_imports(edges)) == [
        "lecture_numerics.numbers:1 imports scenes.kit.theme (scenes.kit sits above lecture_numerics)",
        "studio.engine.pipeline:1 imports studio.track.cues (studio.track sits above studio.engine)",
        "studio.present.deck:1 imports studio.present.page_track (studio.present.deck* keeps apart from "
        "studio.present.page*)",
        "studio.present.serve:1 imports studio.cli (studio.cli sits above studio.present)"]
    assert sorted(cycles(edges)) == [["lecture_numerics.numbers", "scenes.kit.theme"], ["studio.cli", "studio.present.serve"]]


@pytest.mark.parametrize("module, layer", [("scenes.kit.text", "scenes.kit"), ("scenes.fig_vote", "scenes"),
                                           ("render", "render"), ("lecture_numerics.config_files", "lecture_numerics"),
                                           ("studio.errors", "studio"), ("studio.engine.worker", "studio.engine"),
                                           ("studio.manim_hooks", "studio.manim_hooks"), ("studio.cli", "studio.cli")])
def test_layer_of(module, layer):
    assert LAYERS[layer_of(module)] == layer
