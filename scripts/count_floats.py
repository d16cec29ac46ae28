"""Count the inline float literals in each scene file (numbers typed where they are used).

    python scripts/count_floats.py [scenes/...py ...]

A float counts when it stands anywhere but in the value of a module-level constant
(``PANEL_GAP = 0.35`` names it; ``buff=0.35`` in a call does not). The second column leaves
out timing (``run_time=``, ``lag_ratio=``, ``label_time=``, ``self.wait(…)``), so what remains
is layout: positions, buffs, sizes. Prints ``all<TAB>layout<TAB>path`` per file, most first,
then the totals.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMING_KEYWORDS = frozenset({"run_time", "lag_ratio", "label_time"})


def _ids(nodes) -> set[int]:
    return {id(n) for node in nodes for n in ast.walk(node)}


def _named_constants(tree: ast.Module) -> set[int]:
    """The nodes that are (part of) a module-level constant's value."""
    return _ids(node.value for node in tree.body
                if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None)


def _timing(tree: ast.Module) -> set[int]:
    """The nodes of run times, lag ratios and waits."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg in TIMING_KEYWORDS:
            found.append(node.value)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "wait":
            found += node.args
    return _ids(found)


def inline_floats(source: str) -> tuple[int, int]:
    """(every inline float, the layout ones among them)."""
    tree = ast.parse(source)
    named, timing = _named_constants(tree), _timing(tree)
    inline = [node for node in ast.walk(tree)
              if isinstance(node, ast.Constant) and type(node.value) is float and id(node) not in named]
    return len(inline), sum(1 for node in inline if id(node) not in timing)


def main(argv: list[str]) -> int:
    paths = [Path(a).resolve() for a in argv] or sorted((ROOT / "scenes").glob("*.py"))
    counts = []
    for path in paths:
        try:
            counts.append((*inline_floats(path.read_text(encoding="utf-8")), path))
        except (OSError, SyntaxError, UnicodeDecodeError) as error:
            print(f"{path}: cannot read ({error})", file=sys.stderr)
            return 2
    for every, layout, path in sorted(counts, key=lambda c: (-c[0], str(c[2]))):
        print(f"{every}\t{layout}\t{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    print(f"{sum(c[0] for c in counts)}\t{sum(c[1] for c in counts)}\ttotal")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
