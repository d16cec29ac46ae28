"""The one way a render process starts a scene's worker (or the stills child): the
project on the path, unbuffered output for live progress, the project root as cwd. A
crash is read the same way everywhere (``last_error``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from studio import config


# The workers already take a core each; numpy's BLAS threads would only spin beside them
# (perf: OpenBLAS's thread server was 0.7 % of a cut render's CPU, for no matrix work to speak of).
ONE_BLAS_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}


def child_env() -> dict[str, str]:
    return {**ONE_BLAS_THREAD, **os.environ, "PYTHONPATH": str(config.PROJECT_ROOT), "PYTHONUNBUFFERED": "1"}


def module_command(module: str, *args: str) -> list[str]:
    return [sys.executable, "-m", module, *args]


def start(module: str, *args: str, stdout=subprocess.DEVNULL, stderr=None, text: bool = False) -> subprocess.Popen:
    """``python -m module args…`` as a child of this render."""
    return subprocess.Popen(module_command(module, *args), cwd=config.PROJECT_ROOT, env=child_env(),
                            stdout=stdout, stderr=stderr, text=text)


def run(module: str, *args: str) -> subprocess.CompletedProcess:
    """``python -m module args…`` to completion, its output captured as text."""
    return subprocess.run(module_command(module, *args), cwd=config.PROJECT_ROOT, env=child_env(),
                          capture_output=True, text=True)


def last_error(log_path: Path) -> str:
    """The exception line at the end of a worker's log (or its last line)."""
    try:
        lines = [line.strip() for line in log_path.read_text(errors="replace").splitlines() if line.strip()]
    except OSError:
        return "worker failed (no log)"
    for line in reversed(lines):
        if "Error" in line or "Exception" in line:
            return line[:300]
    return lines[-1][:300] if lines else "worker failed without output"
