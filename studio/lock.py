"""One writer per output folder: a second run waits for the first, and says so."""

from __future__ import annotations

import fcntl
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

LOCK_NAME = ".render.lock"


@contextmanager
def output_lock(out_dir: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``out_dir`` for the duration of the block.

    The lock is an flock on a file, so the kernel releases it when the holder dies,
    even by SIGKILL: a crashed run never leaves the folder locked.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    handle = open(out_dir / LOCK_NAME, "a+")
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            print(f"another render is writing to {out_dir} (pid {holder}); waiting for it to finish…",
                  file=sys.stderr, flush=True)
            fcntl.flock(handle, fcntl.LOCK_EX)
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        yield
    finally:
        handle.close()
