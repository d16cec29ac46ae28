"""Publish files whole: write next to the target under a temporary name, then rename.

A rename within one folder is atomic, so a reader (or a slide deck) sees either the old
file or the new one, never a truncated one — even if the run is killed mid-write.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any


TMP_SUFFIX = ".tmp"


def remove_leftovers(folder: Path) -> None:
    """Delete temporary files a killed run left behind (``.<name>.<random>.tmp``)."""
    for path in folder.rglob(f".*{TMP_SUFFIX}"):
        path.unlink(missing_ok=True)


def write_bytes(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TMP_SUFFIX)
    try:
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
    try:
        os.replace(source, target)
    except OSError:
        # Different filesystem: copy next to the target first, then rename.
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=TMP_SUFFIX)
        os.close(fd)
        try:
            shutil.copyfile(source, tmp)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
