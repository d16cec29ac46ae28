"""Package-wide properties: every quantity carries its provenance, nothing pulls in manim.

Values are checked against independent references elsewhere (tests/test_drawn_oracles.py for
every number a scene draws): recomputing a declaration with its own function proves nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from lecture_numerics import Chosen, Sourced, load_all

ROOT = Path(__file__).resolve().parents[2]
REGISTRY = load_all()


def test_every_quantity_has_provenance():
    for key, q in REGISTRY.items():
        assert q.unit is not None and q.display != "", key
        if isinstance(q, Sourced):
            assert q.citation.strip() and q.measures.strip(), key
        elif isinstance(q, Chosen):
            assert q.reason.strip() and q.measures.strip(), key
        else:
            assert q.formula.strip(), key
            assert all(dep.key in REGISTRY for dep in q.inputs.values()), key


def test_every_derived_quantity_names_its_inputs():
    """A derived number is recomputed from named inputs (chosen, sourced or derived): one computed
    from module constants alone would leave the ledger unable to say what it came from."""
    bare = sorted(key for key, q in REGISTRY.items() if not isinstance(q, (Sourced, Chosen)) and not q.inputs)
    assert not bare, f"derived quantities with no inputs (declare what they are computed from): {bare}"


def test_importing_the_numerics_does_not_import_manim():
    code = ("import sys, lecture_numerics; lecture_numerics.load_all(); "
            "from lecture_numerics import ledger, timeline; "
            "bad = sorted(m for m in sys.modules if m == 'manim' or m.startswith('manim.')); "
            "print(bad); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
