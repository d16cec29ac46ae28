"""Publish files whole: write next to the target under a temporary name, then rename.

A rename within one folder is atomic, so a reader (or a slide deck) sees either the old
file or the new one, never a truncated one — even if the run is killed mid-write.

Published files get the mode a plain ``open()`` would give them (0644 under the usual umask
022): the temporary file ``mkstemp`` makes is private (0600), and a page served to others
from the output folder must be readable by them.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any


TMP_SUFFIX = ".tmp"


def current_umask() -> int:
    """The process umask, read without changing it where the kernel reports it: render
    threads publish concurrently, and briefly setting the umask to read it would leak a
    wrong mode into a file another thread is creating."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def published_mode() -> int:
    """rw for everyone the umask lets read: 0644 under umask 022, 0640 under 027."""
    return 0o666 & ~current_umask()


def remove_leftovers(folder: Path) -> None:
    """Delete temporary files a killed run left behind (``.<name>.<random>.tmp``)."""
    for path in folder.rglob(f".*{TMP_SUFFIX}"):
        path.unlink(missing_ok=True)


def write_bytes(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TMP_SUFFIX)
    try:
        os.fchmod(fd, published_mode())
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text(path: Path, text: str) -> None:
    write_bytes(path, text.encode("utf-8"))


def write_json(path: Path, data: Any) -> None:
    write_text(path, json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def publish(source: Path, target: Path) -> None:
    """Move a finished file into place. ``source`` must be on the same filesystem."""
    target.parent.mkdir(parents=True, exist_ok=True)
    os.chmod(source, published_mode())  # staged by tools that may make private files
    try:
        os.replace(source, target)
    except OSError:
        # Different filesystem: copy next to the target first, then rename.
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=TMP_SUFFIX)
        os.close(fd)
        try:
            shutil.copyfile(source, tmp)
            os.chmod(tmp, published_mode())
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
