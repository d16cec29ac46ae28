"""Published files are readable by others (the page can be served from the output folder),
as far as the umask allows; temporary files stay private until renamed into place."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from studio import atomic


@pytest.fixture
def umask():
    """Set the process umask for one test and put the old one back."""
    old = os.umask(0o022)
    yield lambda mask: os.umask(mask)
    os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("mask, expected", [(0o022, 0o644), (0o027, 0o640), (0o002, 0o664)])
def test_written_files_follow_the_umask(tmp_path, umask, mask, expected):
    umask(mask)
    atomic.write_text(tmp_path / "index.html", "<!DOCTYPE html>")
    atomic.write_json(tmp_path / "manifest.json", {"scenes": []})
    atomic.write_bytes(tmp_path / "sub" / "ledger.html", b"x")
    for name in ("index.html", "manifest.json", "sub/ledger.html"):
        assert mode(tmp_path / name) == expected, f"{name}: {oct(mode(tmp_path / name))}"


def test_umask_is_read_without_changing_it(umask):
    umask(0o027)
    assert atomic.current_umask() == 0o027
    assert atomic.published_mode() == 0o640
    assert os.umask(0o027) == 0o027  # still what the test set


def test_published_media_become_readable(tmp_path, umask):
    umask(0o022)
    staged = tmp_path / "staging" / "clip.mp4"
    staged.parent.mkdir()
    staged.write_bytes(b"\0" * 16)
    staged.chmod(0o600)  # as a tool writing through mkstemp would leave it
    atomic.publish(staged, tmp_path / "low" / "clip.mp4")
    assert mode(tmp_path / "low" / "clip.mp4") == 0o644


def test_publish_across_filesystems_is_readable_too(tmp_path, umask, monkeypatch):
    umask(0o022)
    staged = tmp_path / "clip.mp4"
    staged.write_bytes(b"\1" * 16)
    staged.chmod(0o600)
    real_replace = os.replace
    calls = []

    def cross_device_once(src, dst):  # the first rename fails as it does across devices
        calls.append((src, dst))
        if len(calls) == 1:
            raise OSError(18, "Invalid cross-device link")
        return real_replace(src, dst)

    monkeypatch.setattr(atomic.os, "replace", cross_device_once)
    atomic.publish(staged, tmp_path / "out" / "clip.mp4")
    assert len(calls) == 2 and mode(tmp_path / "out" / "clip.mp4") == 0o644
    assert not list((tmp_path / "out").glob(f".*{atomic.TMP_SUFFIX}"))


def test_an_interrupted_write_leaves_no_file(tmp_path, monkeypatch):
    def boom(*_args):
        raise KeyboardInterrupt

    monkeypatch.setattr(atomic.os, "replace", boom)
    with pytest.raises(KeyboardInterrupt):
        atomic.write_text(tmp_path / "index.html", "x")
    assert list(tmp_path.iterdir()) == []
