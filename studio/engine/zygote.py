"""Workers forked from one process that has already imported manim.

Every worker spends its first 0.8 s of CPU importing the same things: manim, numpy, cairo,
PyAV, the kit. On 2 cores that is a tenth of a short scene's render, twice over when two
workers cut one scene (studio/manim_hooks/split_render.py), and 25 s over the lecture. So a batch starts
one zygote: ``python -m studio.engine.zygote FD`` imports all of it once, then forks a worker per
request. Each worker is still its own process (its own memory, exit status and signals),
runs ``studio.engine.worker.main`` as ``python -m studio.engine.worker`` would, and writes the same files.

The render process and the zygote share a Unix socket pair (SOCK_SEQPACKET: one message per
send). A request is ``{"id": n, "argv": [...]}`` with the worker's stdout and stderr attached
as file descriptors; the zygote answers ``{"id": n, "pid": p}`` at once and
``{"pid": p, "code": c}`` when the worker has ended (c < 0: killed by signal -c, as
``Popen.returncode`` says). When the render process goes, the socket closes and the zygote
ends its workers and itself.

Forking is safe because the zygote has one thread: it checks before every fork, and the
render process falls back to starting workers itself whenever the zygote is not there.
"""

from __future__ import annotations

import gc
import importlib
import io
import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

MESSAGE_BYTES = 1 << 16
# How often the zygote looks for ended workers (its only wait besides the socket).
REAP_EVERY_S = 0.02
# The worker's file with its pid, in its staging folder: the benchmark samples its memory by it.
PID_FILE = "worker.pid"
# The zygote's own pid: ``serve`` returns in the zygote and in every worker it forks.
ZYGOTE_PID = os.getpid()


# -- the zygote process ------------------------------------------------------------------
# What every worker imports before drawing (studio/engine/worker.py, scenes/kit).
PRELOAD = ("manim", "scenes.kit.base", "studio.engine.worker", "studio.manim_hooks.fastcopy", "studio.manim_hooks.fastencode",
           "studio.manim_hooks.framepool", "studio.manim_hooks.skipdraw", "studio.manim_hooks.slide_stills", "studio.manim_hooks.textcache")


def _preload() -> None:
    for module in PRELOAD:
        importlib.import_module(module)


def _threads() -> int:
    return len(os.listdir("/proc/self/task"))


def serve(channel: socket.socket) -> int:
    """Fork a worker per request until the render process closes the channel. In a forked
    worker this returns the worker's exit code."""
    children: set[int] = set()
    while True:
        ready, _, _ = select.select([channel], [], [], REAP_EVERY_S)
        if ready:
            try:
                message, fds, _, _ = socket.recv_fds(channel, MESSAGE_BYTES, 2)
            except OSError:
                message, fds = b"", []
            if not message:
                break
            request = json.loads(message)
            if _threads() != 1:   # a fork would copy locks other threads hold
                for fd in fds:
                    os.close(fd)
                _send(channel, {"id": request["id"], "error": "the zygote has threads"})
                continue
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                return _run_worker(channel, fds, request["argv"])
            for fd in fds:
                os.close(fd)
            children.add(pid)
            _send(channel, {"id": request["id"], "pid": pid})
        for pid in list(children):
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                children.discard(pid)
                _send(channel, {"pid": pid, "code": os.waitstatus_to_exitcode(status)})
    for pid in children:   # the render process is gone: so are its workers
        os.kill(pid, signal.SIGTERM)
    for pid in children:
        os.waitpid(pid, 0)
    return 0


def _send(channel: socket.socket, message: dict) -> None:
    try:
        channel.send(json.dumps(message).encode())
    except OSError:
        pass   # the render process is gone; the loop ends at its next read


def _run_worker(channel: socket.socket, fds: list[int], argv: list[str]) -> int:
    """In the forked child: become ``python -m studio.engine.worker argv`` with the given output."""
    channel.close()
    stdout_fd, stderr_fd = fds
    os.dup2(stdout_fd, 1)
    os.dup2(stderr_fd, 2)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    for fd in (stdout_fd, stderr_fd, devnull):
        os.close(fd)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    sys.argv = ["-m", *argv]
    from studio.engine import worker

    Path(argv[2], PID_FILE).write_text(json.dumps({"pid": os.getpid(), "scene": argv[0]}))
    try:
        return worker.main(argv)
    except SystemExit as end:
        return end.code if isinstance(end.code, int) else 1
    except BaseException:
        import traceback

        traceback.print_exc()
        return 1


def main(argv: list[str]) -> int:
    from studio.engine.worker import die_with_parent

    die_with_parent()
    channel = socket.socket(fileno=int(argv[0]))
    _preload()
    # What is imported stays put: the workers' garbage collector never walks it (nor copies
    # its pages by touching them).
    gc.freeze()
    code = serve(channel)
    if os.getpid() != ZYGOTE_PID:
        return code          # a worker ends as a Python program does (its threads joined)
    os._exit(code)           # the zygote has nothing to tidy up: no teardown of manim's modules


# -- the render process's side -----------------------------------------------------------
class ZygoteGone(RuntimeError):
    pass


def default_log() -> Path:
    return Path(tempfile.gettempdir()) / f"lecture-zygote-{os.getpid()}.log"


class ForkedWorker:
    """A worker forked by the zygote, read and waited for like a ``subprocess.Popen``."""

    def __init__(self, pid: int, stdout: io.TextIOBase, ended: threading.Event, codes: dict[int, int]):
        self.pid, self.stdout = pid, stdout
        self._ended, self._codes = ended, codes
        self.returncode: int | None = None

    def wait(self) -> int:
        self._ended.wait()
        self.returncode = self._codes[self.pid]
        self.stdout.close()
        return self.returncode

    def terminate(self) -> None:
        if not self._ended.is_set():
            try:
                os.kill(self.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass


class Zygote:
    """The render process's handle on its zygote (start it, fork workers, close it)."""

    def __init__(self, log_path: Path | None = None):
        from studio import config
        from studio.engine import launch

        # Its output goes to a log, which the fallback's warning names: a zygote that failed
        # to import (a module renamed in PRELOAD) must not cost 0.8 s per worker unseen.
        self.log_path = log_path or default_log()
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.channel = ours
        with open(self.log_path, "w") as log:
            self.process = subprocess.Popen(launch.module_command("studio.engine.zygote", str(theirs.fileno())),
                                            cwd=config.PROJECT_ROOT, env=launch.child_env(),
                                            pass_fds=[theirs.fileno()], stdout=log, stderr=subprocess.STDOUT)
        theirs.close()
        self._lock = threading.Lock()
        self._next_id = 0
        self._started: dict[int, dict] = {}             # request id → the zygote's answer
        self._answered: dict[int, threading.Event] = {}
        self._ended: dict[int, threading.Event] = {}    # pid → set when the worker has ended
        self._codes: dict[int, int] = {}
        self._gone = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True, name="zygote")
        self._reader.start()

    def start(self, argv: list[str], stderr) -> ForkedWorker:
        """Fork ``python -m studio.engine.worker argv``: its stdout a pipe (``.stdout``, text), its
        stderr the open file ``stderr``. ZygoteGone when the zygote cannot."""
        read_fd, write_fd = os.pipe()
        with self._lock:
            request_id, self._next_id = self._next_id, self._next_id + 1
            answered = self._answered[request_id] = threading.Event()
            try:
                if self._gone.is_set():
                    raise OSError
                socket.send_fds(self.channel, [json.dumps({"id": request_id, "argv": argv}).encode()],
                                [write_fd, stderr.fileno()])
            except OSError:
                os.close(read_fd)
                raise ZygoteGone("the zygote is not running") from None
            finally:
                os.close(write_fd)
        answered.wait()
        answer = self._started.pop(request_id, {})
        if "pid" not in answer:
            os.close(read_fd)
            raise ZygoteGone(answer.get("error", "the zygote ended"))
        return ForkedWorker(answer["pid"], open(read_fd, encoding="utf-8", errors="replace"),
                            self._ended[answer["pid"]], self._codes)

    def close(self) -> None:
        """End the zygote (it ends any worker still running) and wait for it; one that
        forked nothing is stopped at once (it may still be importing). Closing it again
        does nothing."""
        if self.channel.fileno() == -1:
            return
        if self._next_id == 0:
            self.process.kill()
        try:
            self.channel.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.process.wait()
        self._reader.join()
        self.channel.close()

    def _read(self) -> None:
        while True:
            try:
                message = self.channel.recv(MESSAGE_BYTES)
            except OSError:
                message = b""
            if not message:
                break
            answer = json.loads(message)
            if "id" in answer:
                with self._lock:
                    if "pid" in answer:
                        self._ended.setdefault(answer["pid"], threading.Event())
                    self._started[answer["id"]] = answer
                    self._answered[answer["id"]].set()
            else:
                self._codes[answer["pid"]] = answer["code"]
                with self._lock:
                    self._ended.setdefault(answer["pid"], threading.Event()).set()
        self._gone.set()
        with self._lock:   # nothing more will come: wake every waiter
            for event in self._answered.values():
                event.set()
            for pid, event in self._ended.items():   # its workers got SIGTERM (die_with_parent)
                self._codes.setdefault(pid, -signal.SIGTERM)
                event.set()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
