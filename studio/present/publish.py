"""What a render publishes besides the clips: the output folder's check, the ledger, the
rehearsal page with its cue sheet, and the batch's summary. The CLI and ``--serve`` both
publish through here (neither imports the other)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from studio import atomic, config
from studio.engine import registry
from studio.errors import UsageError

EXIT_OK, EXIT_FAILED = 0, 1


def check_out_dir(out_dir: Path) -> None:
    """The folder must be creatable and writable; find out before rendering anything."""
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out_dir, prefix=".write-test-"):
            pass
    except OSError as error:
        raise UsageError(f"output folder {out_dir} is not writable ({error.strerror})") from None


def scene_keys() -> dict[str, tuple[str, ...]]:
    return {sid: e.ledger_keys for sid, e in registry.discover().items()}


# What the ledger is computed from: the numerics' code, the libraries that run it, and the
# keys each scene draws. When none changed, the ledger on disk is the ledger.
NUMERICS_LIBRARIES = ("numpy", "scipy", "ml_dtypes")


def ledger_stamp(keys: dict[str, tuple[str, ...]]) -> str:
    import hashlib
    import json
    from importlib import metadata

    def version(name: str) -> str:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return "absent"

    libraries = [version(name) for name in NUMERICS_LIBRARIES]
    digest = hashlib.sha256(json.dumps({"scenes": keys, "libraries": libraries}, sort_keys=True).encode())
    for path in sorted((config.PROJECT_ROOT / "lecture_numerics").glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def write_ledger(out_dir: Path) -> dict:
    """ledger.json and ledger.md, computed only when their inputs changed (importing the
    numerics and running their runs is most of a no-op re-run otherwise)."""
    import json

    keys = scene_keys()
    stamp, stamp_path = ledger_stamp(keys), out_dir / ".ledger-stamp"
    try:
        if stamp_path.read_text() == stamp and (out_dir / "ledger.md").is_file():
            return json.loads((out_dir / "ledger.json").read_text())
    except (OSError, ValueError):
        pass
    from lecture_numerics.ledger import ledger_entries, ledger_markdown

    entries = ledger_entries(keys)
    stamp_path.unlink(missing_ok=True)  # gone while the files change: a killed run recomputes
    atomic.write_json(out_dir / "ledger.json", entries)
    atomic.write_text(out_dir / "ledger.md", ledger_markdown(entries))
    atomic.write_text(stamp_path, stamp)
    return entries


def write_page(quality_dir: Path, manifest: dict, ledger: dict, sheet: dict | None = None) -> dict:
    """index.html and ledger.html, and cues.json (the notes' cue sheet against this render,
    which the page's lecture mode steps through). Returns the published cue sheet."""
    from studio.track import cues
    from studio.present.page import build_page

    published = cues.publish(quality_dir, manifest, sheet, ledger)
    for name, content in build_page(manifest, ledger, published).items():
        atomic.write_text(quality_dir / name, content)
    return published


def summary(states, quality_dir: Path) -> int:
    rendered = [s for s in states.values() if s.state == "done"]
    cached = [s for s in states.values() if s.state == "cached"]
    failed = [s for s in states.values() if s.state == "failed"]
    print(f"{len(rendered)} rendered, {len(cached)} cached, {len(failed)} failed → {quality_dir}")
    if cached and not rendered and not failed:
        print("nothing to render: every scene is up to date (use --force to re-render)")
    for s in failed:
        print(f"FAILED {s.scene_id}: {s.error}\n       log: {s.log}")
    return EXIT_FAILED if failed else EXIT_OK
