"""`render.py --serve`: the page over HTTP from 127.0.0.1, re-rendered after a source edit."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from tests.render_helpers import FIXTURE_SCENES, ROOT, command, env
from tests.test_preview import frame_digests

pytestmark = pytest.mark.render

# Straight to 127.0.0.1, whatever proxy the environment names.
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))
WAIT_S = 180  # bounded waits: a render of the tiny scene takes seconds, even on a busy machine


def fetch(url: str) -> bytes:
    with DIRECT.open(url, timeout=30) as response:
        assert response.status == 200
        return response.read()


def wait_for(predicate, what: str, timeout: float = WAIT_S):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.3)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def processes_mentioning(text: str) -> list[str]:
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit() and int(proc.name) != os.getpid():
            try:
                cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if text in cmdline:
                found.append(cmdline)
    return found


def test_serve_rerenders_after_an_edit_and_stops_cleanly(tmp_path):
    scenes = tmp_path / "scenes"
    scenes.mkdir()
    shutil.copy(FIXTURE_SCENES / "tiny.py", scenes / "tiny.py")
    out = tmp_path / "out"
    log = tmp_path / "serve.log"
    with open(log, "w") as sink:
        server = subprocess.Popen(command("--serve", "tiny", "--out", str(out)), cwd=ROOT,
                                  env=env(LECTURE_SCENES_DIR=str(scenes)), stdout=sink, stderr=subprocess.STDOUT)
    try:
        found = wait_for(lambda: re.search(r"serving (http://127\.0\.0\.1:\d+/)", log.read_text())
                         or server.poll() is not None, "the server's address")
        assert server.poll() is None, log.read_text()
        base = found.group(1)

        page = fetch(base).decode()
        assert "小测试" in page and "/__version" in page
        version = fetch(base + "__version").decode()
        a_before = frame_digests(_saved(fetch(base + "tiny/A.mp4"), tmp_path / "a1.mp4"))
        b_before = frame_digests(_saved(fetch(base + "tiny/B.mp4"), tmp_path / "b1.mp4"))

        # Panel B's square moves: B's clip must change, A's must not.
        source = scenes / "tiny.py"
        edited = source.read_text().replace("shift(RIGHT * 3)", "shift(RIGHT * 1)")
        assert edited != source.read_text()
        source.write_text(edited)

        wait_for(lambda: fetch(base + "__version").decode() != version, "a re-render after the edit")
        b_after = frame_digests(_saved(fetch(base + "tiny/B.mp4"), tmp_path / "b2.mp4"))
        a_after = frame_digests(_saved(fetch(base + "tiny/A.mp4"), tmp_path / "a2.mp4"))
        assert len(b_after) == len(b_before) == 15
        assert b_after != b_before
        assert a_after == a_before
    finally:
        server.send_signal(signal.SIGINT)  # what Ctrl-C sends
        try:
            code = server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
            raise
    text = log.read_text()
    assert code in (0, 130), text
    assert "Traceback" not in text
    assert processes_mentioning(str(out)) == []  # no worker left behind


def _saved(data: bytes, path: Path) -> Path:
    path.write_bytes(data)
    return path
