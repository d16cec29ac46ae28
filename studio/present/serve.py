"""``render.py --serve [ID ...]``: the rehearsal page on localhost, re-rendered as you save.

Renders the named scenes (every lecture scene when none are named) at low quality, then
serves ``<out>/low/`` on 127.0.0.1 at a free port. It watches every input of those scenes
(each scene's cache-key inputs, studio/engine/cache.py ``dependencies()``, and the config files)
and, when one changes, re-renders what is stale through the normal pipeline (same cache,
same atomic publishing), rewrites the page and ledger, and bumps a version number. The
served page polls ``/__version`` and reloads when it changes; the files on disk are the
ones a plain render writes (the reload script is added only while serving).

Ctrl-C (or SIGTERM) stops it: running workers are stopped by the pipeline, the server
closes, exit 0.
"""

from __future__ import annotations

import functools
import http.server
import signal
import sys
import threading
import time
from pathlib import Path

from studio.engine import cache, registry
from studio import config
from studio.present import publish
from studio.media import toolcheck
from studio.errors import UsageError

QUALITY = "low"
POLL_S = 0.4
SETTLE_S = 0.3        # an editor's save may touch a file more than once: wait until it is quiet
VERSION_PATH = "/__version"
PAGES = ("/", "/index.html", "/ledger.html")
RELOAD_SCRIPT = f"""<script>
// Added by render.py --serve: reload when a re-render has published new clips.
(function () {{
  let seen = null;
  setInterval(function () {{
    fetch("{VERSION_PATH}", {{cache: "no-store"}}).then(function (r) {{ return r.text(); }}).then(function (v) {{
      if (seen !== null && v !== seen) location.reload();
      seen = v;
    }}).catch(function () {{}});
  }}, 1000);
}})();
</script>
"""


class State:
    """What the HTTP threads read while the main thread renders."""

    def __init__(self) -> None:
        self.version = 0
        self.lock = threading.Lock()

    def bump(self) -> None:
        with self.lock:
            self.version += 1

    def current(self) -> int:
        with self.lock:
            return self.version


class Handler(http.server.SimpleHTTPRequestHandler):
    state: State

    def end_headers(self) -> None:
        # Clips are replaced in place under the same names: never let the browser keep one.
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        path = self.path.split("?", 1)[0]
        if path == VERSION_PATH:
            return self._send(str(self.state.current()).encode(), "text/plain; charset=utf-8")
        if path in PAGES:
            page = Path(self.directory) / ("index.html" if path == "/" else path.lstrip("/"))
            try:
                html = page.read_text(encoding="utf-8")
            except OSError:
                return self._send("还没有渲染好的场景（see the terminal）".encode(), "text/plain; charset=utf-8", 503)
            html = html.replace("</body>", RELOAD_SCRIPT + "</body>", 1)
            return self._send(html.encode("utf-8"), "text/html; charset=utf-8")
        return super().do_GET()

    def _send(self, body: bytes, content_type: str, status: int = 200) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args) -> None:  # noqa: A002
        pass  # the terminal is for render progress; requests would drown it


def start_server(directory: Path, state: State) -> http.server.ThreadingHTTPServer:
    """Bound to 127.0.0.1 only (the page is for the author's own browser), at a free port."""
    handler = functools.partial(type("ServeHandler", (Handler,), {"state": state}), directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="serve-http", daemon=True).start()
    return server


def watched_files(entries) -> list[Path]:
    """Every file whose change changes a cache key, plus the scene modules (a new or
    renamed scene changes the registry)."""
    files = {p for entry in entries for p in cache.dependencies(entry)}
    files.update(config.config_files())
    files.update(registry.scenes_dir().glob("*.py"))
    return sorted(files)


def snapshot(files: list[Path]) -> dict[Path, tuple[int, int] | None]:
    found = {}
    for path in files:
        try:
            info = path.stat()
            found[path] = (info.st_mtime_ns, info.st_size)
        except OSError:
            found[path] = None
    return found


def rebuild(ids: list[str], out_dir: Path, jobs: int) -> bool:
    """Render what is stale, then rewrite ledger and page; True when a scene was rendered
    or failed (the page then shows something new)."""
    from studio.engine.pipeline import Batch, render_batch
    from studio.track import beats

    entries = registry.select(ids)
    batch = Batch(entries=entries, quality=QUALITY, out_dir=out_dir, jobs=jobs)
    states, manifest = render_batch(batch, list(registry.discover().values()), annotate=beats.annotate_from_notes)
    publish.write_page(batch.quality_dir, manifest, publish.write_ledger(out_dir))
    publish.summary(states, batch.quality_dir)
    return any(s.state in ("done", "failed") for s in states.values())


def _stop_on_sigterm(signum, _frame):
    raise KeyboardInterrupt(signal.Signals(signum).name)


def run(ids: list[str], out_dir: Path, jobs: int) -> int:
    from studio.engine.pipeline import Interrupted

    entries = registry.select(ids)  # an unknown id is a usage error before anything starts
    publish.check_out_dir(out_dir)
    toolcheck.check_theme_fonts(config.theme())
    toolcheck.check_encoder()
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    # Started in the background by a script, SIGINT arrives ignored; Ctrl-C must still stop us.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    state, server = State(), None
    try:
        files = watched_files(entries)
        seen = snapshot(files)
        rebuild(ids, out_dir, jobs)
        server = start_server(out_dir / QUALITY, state)
        host, port = server.server_address[:2]
        print(f"serving http://{host}:{port}/ — watching {len(files)} files; Ctrl-C stops", flush=True)
        while True:
            time.sleep(POLL_S)
            if snapshot(files) == seen:
                continue
            while True:  # let the save finish before reading the files
                seen = snapshot(files)
                time.sleep(SETTLE_S)
                if snapshot(files) == seen:
                    break
            try:
                files = watched_files(registry.select(ids))
                seen = snapshot(files)  # taken before rendering: a save during the render is seen next
                if rebuild(ids, out_dir, jobs):
                    state.bump()
            except (UsageError, SyntaxError) as error:
                # A half-finished edit: say so and keep watching; the next save tries again.
                print(f"serve: {error}", flush=True)
    except (KeyboardInterrupt, Interrupted):
        print("serve: stopped", file=sys.stderr, flush=True)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if server is not None:
            server.shutdown()
            server.server_close()
    return 0
