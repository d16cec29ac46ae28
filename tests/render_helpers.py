"""Run render.py as the user does, against the small fixture scenes."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE_SCENES = ROOT / "tests" / "fixtures" / "scenes"


def env(**extra: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    base["LECTURE_SCENES_DIR"] = str(FIXTURE_SCENES)
    base.update(extra)
    return base


def command(*args: str) -> list[str]:
    return [sys.executable, str(ROOT / "render.py"), *args]


def render(*args: str, timeout: float = 300, **extra_env: str) -> subprocess.CompletedProcess:
    return subprocess.run(command(*args), cwd=ROOT, env=env(**extra_env), capture_output=True, text=True, timeout=timeout)


def snapshot(folder: Path) -> dict[str, str]:
    """sha256 of every published file below ``folder`` (hidden bookkeeping excluded)."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(folder).parts)
    }


def manifest(quality_dir: Path) -> dict:
    return json.loads((quality_dir / "manifest.json").read_text())


def probe(path: Path) -> dict:
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries",
                          "stream=codec_name,pix_fmt,width,height,avg_frame_rate,nb_frames:format=duration,format_name",
                          "-of", "json", str(path)], capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def decoded_frames_digest(path: Path) -> str:
    """md5 of the decoded frames: equal digests mean identical pictures."""
    out = subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-f", "framemd5", "-"],
                         capture_output=True, text=True, check=True).stdout
    return hashlib.md5("\n".join(l for l in out.splitlines() if not l.startswith("#")).encode()).hexdigest()
