"""Parse worker processes: `python -m pageindex_platform.index.parse_worker`, started through
subprocess with pipes, prepare files (pure work: no database, no embeddings) while the
ingest that started them embeds and stores. Being a module of the library rather than a
fork or a multiprocessing spawn, a worker never imports the caller's script, so a plain
script that ingests needs no `if __name__ == "__main__":` guard.

The protocol: length-prefixed pickles. The parent sends the worker's setup, then jobs
`(job, path, options)`; the worker answers each with `(job, PreparedDocument or the
error, seconds)`. A worker ends when its input closes, and with the ingest that started
it, even one killed with `kill -9`.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import pickle
import queue
import signal
import struct
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

logger = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1
_HEADER = struct.Struct("<Q")


@dataclass(frozen=True)
class Setup:
    """What a worker is told first: the records the parent shows, and the CPU slots."""

    log_level: int
    slots: Any  # CpuSlots


@dataclass(frozen=True)
class Done:
    """A job's answer: the prepared document, or why it could not be prepared."""

    job: int
    result: Any  # PreparedDocument | Exception
    seconds: float


def send(stream: IO[bytes], value: object) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(data)) + data)
    stream.flush()


def receive(stream: IO[bytes]) -> Any:
    """The next value on `stream`; None when it closed."""
    header = stream.read(_HEADER.size)
    if len(header) < _HEADER.size:
        return None
    (size,) = _HEADER.unpack(header)
    data = stream.read(size)
    if len(data) < size:
        return None
    return pickle.loads(data)


def start_module(module: str) -> subprocess.Popen[bytes]:
    """A process running `module` of this library (`python -m`, so the caller's script is
    never imported again), talked to through its stdin and stdout."""
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])  # this library, whatever sys.path was
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    return subprocess.Popen(
        [sys.executable, "-P", "-m", module], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env
    )


class Worker:
    """One worker process and the thread that reads its answers into `answers`."""

    def __init__(self, setup: Setup, answers: queue.Queue[tuple[Worker, Done | None]]) -> None:
        self.jobs: list[int] = []  # sent, not answered, in order
        self.process = start_module(__name__)
        assert self.process.stdin is not None and self.process.stdout is not None
        self._input: IO[bytes] = self.process.stdin
        self.alive = True
        send(self._input, setup)
        self._reader = threading.Thread(
            target=self._read,
            args=(self.process.stdout, answers),
            name="parse-worker",
            daemon=True,
        )
        self._reader.start()

    def _read(self, output: IO[bytes], answers: queue.Queue[tuple[Worker, Done | None]]) -> None:
        with output:
            while True:
                try:
                    done = receive(output)
                except Exception as exc:  # a torn answer: the worker is gone
                    logger.info("a parse worker's answer could not be read (%s)", exc)
                    done = None
                answers.put((self, done))
                if done is None:
                    return

    def submit(self, job: int, path: Path, options: Any) -> bool:
        """Send a job; False when the worker is gone."""
        try:
            send(self._input, (job, str(path), options))
        except OSError:
            self.alive = False
            return False
        self.jobs.append(job)
        return True

    def close(self, *, wait: float = 2.0) -> None:
        """End the worker: its input closed, then killed if it does not end by itself."""
        self.alive = False
        with contextlib.suppress(OSError):  # a worker already gone
            self._input.close()
        try:
            self.process.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._reader.join(timeout=wait)  # it closes the worker's output at its end

    def exit_reason(self) -> str:
        code = self.process.poll()
        if code is None:
            return "the parse worker stopped answering"
        if code < 0:
            try:
                return f"the parse worker was killed ({signal.Signals(-code).name})"
            except ValueError:
                return f"the parse worker was killed (signal {-code})"
        return f"the parse worker ended (exit code {code})"


def own_stdout() -> IO[bytes]:
    """This process's stdout, kept for its answers alone: whatever else writes to it (a print,
    a C library's message on file descriptor 1) goes to stderr instead."""
    sys.stdout.flush()
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return answers


def _serve() -> None:
    """In a worker: prepare each job sent on stdin, each holding a CPU slot, answering on
    stdout (which nothing else may write to: prints go to stderr)."""
    jobs, answers = sys.stdin.buffer, own_stdout()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the ingest, which ends us
    _die_with_parent(os.getppid())
    setup: Setup | None = receive(jobs)
    if setup is None:
        return
    from ..logs import log_to_stderr

    log_to_stderr(setup.log_level)
    from .build import prepare_document

    while (job := receive(jobs)) is not None:
        number, path, options = job
        with setup.slots.held():
            started = time.perf_counter()
            try:
                result: Any = prepare_document(Path(path), options)
            except Exception as exc:  # reported per file by the parent; the worker goes on
                result = exc if _picklable(exc) else RuntimeError(f"{type(exc).__name__}: {exc}")
        send(answers, Done(number, result, time.perf_counter() - started))


def _picklable(exc: Exception) -> bool:
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        return False
    return True


def _die_with_parent(parent: int) -> None:
    """End when the ingest that started this worker ends, even by `kill -9` — the kernel's
    parent-death signal where there is one (Linux), and a watch on the parent."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


if __name__ == "__main__":  # run as a module: serve from its imported copy, whose classes
    # the parent unpickles by their own names
    from pageindex_platform.index import parse_worker

    parse_worker._serve()
