"""`pi ingest --workers N`: N worker processes on this machine divide one batch.

Each worker runs the ordinary ingest over the whole batch; the database's claims (see
`claims.py`) give every document to exactly one of them, as they do for `pi ingest`
processes started separately or on other machines. The workers report each file to this
process, which shows one progress display for the batch: a file counts once, when a worker
stored or failed it, or when every worker found it unchanged or taken.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ..db.engine import Database
from ..embeddings import prepare_models
from ..embeddings.cache import PrepareProgress
from ..logs import log_to_stderr, shown_level
from ..settings import Settings
from .discover import discover
from .parse_worker import own_stdout, receive, send, start_module
from .pipeline import ingest_paths
from .report import (
    BatchStarted,
    FileBegun,
    FileDone,
    FileResult,
    FileStatus,
    IngestReport,
    Preparing,
    Progress,
    ProgressEvent,
    SkipReason,
    WorkerStopped,
)
from .slots import CpuSlots

logger = logging.getLogger(__name__)

_POLL_SECONDS = 0.5


@dataclass(frozen=True)
class _Job:
    settings: Settings  # the corpus's: each worker opens its own connections to its database
    paths: list[Path]
    force: bool
    overrides: dict[str, dict[str, Any]] | None
    replace: bool
    llm: bool
    follow_links: bool
    log_level: int  # the records the parent shows
    parse_workers: int  # each worker's parse processes: together, one per CPU slot


@dataclass(frozen=True)
class _Done:
    """A worker's batch is over (its report)."""

    report: IngestReport


@dataclass(frozen=True)
class _Crashed:
    """A worker failed: why, in one line."""

    why: str


def _work(job: _Job, events: Any) -> None:
    """One worker process: the ordinary ingest, its events sent to the parent."""
    log_to_stderr(job.log_level)
    db = Database(job.settings)
    try:
        with contextlib.ExitStack() as stack:
            stack.callback(db.dispose)
            chat = None
            if job.llm:
                from ..llm.openai_compatible import open_chat

                chat = stack.enter_context(open_chat(job.settings, db))
            report = ingest_paths(
                db=db,
                paths=job.paths,
                force=job.force,
                overrides=job.overrides,
                progress=events.put,
                chat=chat,
                replace=job.replace,
                follow_links=job.follow_links,
                parse_workers=job.parse_workers,
            )
        events.put(_Done(report))
    except BaseException as exc:  # the parent reports it; a worker never dies silently
        events.put(_Crashed(f"{type(exc).__name__}: {exc}"))


class _Events:
    """A worker's events, written to its stdout for the parent."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream

    def put(self, event: object) -> None:
        send(self.stream, event)


def _serve() -> None:
    """In a worker process: its job from stdin, its events on stdout (prints go to stderr)."""
    job, events = receive(sys.stdin.buffer), own_stdout()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the parent, which ends us
    if job is not None:
        _work(job, _Events(events))


def ingest_with_workers(
    *,
    db: Database,
    paths: list[Path],
    workers: int,
    force: bool = False,
    overrides: dict[str, dict[str, Any]] | None = None,
    progress: Progress | None = None,
    replace: bool = False,
    llm: bool = False,
    follow_links: bool = False,
) -> IngestReport:
    """Ingest `paths` with `workers` processes (each started as a module: the caller's script
    is never imported again); one merged report, one file's line once. A worker that stopped
    early is reported (WorkerStopped) and its files are finished here."""
    started = time.perf_counter()
    # the models, prepared once here rather than waited for by every worker
    prepare_models(settings=db.settings, progress=progress and _preparing(progress))
    job = _Job(
        settings=db.settings,
        paths=paths,
        force=force,
        overrides=overrides,
        replace=replace,
        llm=llm,
        follow_links=follow_links,
        log_level=shown_level(),
        parse_workers=max(1, (CpuSlots.of(db.settings).count - 1) // workers),
    )
    events: queue.Queue[object] = queue.Queue()
    procs = [_start(job, events) for _ in range(workers)]
    merged = _Merge(workers, progress)
    try:
        _follow(events, procs, merged)
    finally:
        for proc in procs:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.terminate()
                proc.wait()
    left = [p for p in discover(paths, follow_links=follow_links).files if merged.left(str(p))]
    if left:  # a worker's files when it died or ended early: this process finishes them
        for why in merged.crashes:
            logger.info("%s; its files are finished by the main process", why)
            if progress:
                progress(WorkerStopped(why))
        again = ingest_paths(db=db, paths=left, force=force, overrides=overrides, replace=replace)
        for result in again.files:
            merged.decide(result)
        merged.stopped = again.stopped
        merged.not_attempted = set(again.not_attempted)
    report = merged.report()
    report.seconds = time.perf_counter() - started
    return report


def _preparing(progress: Progress) -> PrepareProgress:
    return lambda what, done, total: progress(Preparing(what, done, total))


def _start(job: _Job, events: queue.Queue[object]) -> subprocess.Popen[bytes]:
    """A worker process, started as this module, and the thread that reads its events."""
    proc = start_module(__name__)
    assert proc.stdin is not None and proc.stdout is not None
    with proc.stdin:
        send(proc.stdin, job)

    def read(output: IO[bytes]) -> None:
        with output:
            while (event := receive(output)) is not None:
                events.put(event)

    threading.Thread(target=read, args=(proc.stdout,), name="ingest-worker", daemon=True).start()
    return proc


def _follow(
    events: queue.Queue[object], procs: list[subprocess.Popen[bytes]], merged: _Merge
) -> None:
    """Read the workers' events until each has said it is done or crashed (or all are gone)."""
    running = len(procs)
    quiet_polls = 0
    while running:
        try:
            event = events.get(timeout=_POLL_SECONDS)
        except queue.Empty:
            gone = all(p.poll() is not None for p in procs)
            quiet_polls = quiet_polls + 1 if gone else 0
            if quiet_polls >= 2:  # all gone and nothing more to read: killed
                merged.crashed("it was killed")
                return
            continue
        if isinstance(event, _Done):
            running -= 1
            merged.done(event.report)
        elif isinstance(event, _Crashed):
            running -= 1
            merged.crashed(event.why)
        elif isinstance(event, BatchStarted | FileBegun | FileDone | Preparing):
            merged.event(event)


class _Merge:
    """Each file's final outcome, from N workers' events about the same batch."""

    def __init__(self, workers: int, progress: Progress | None) -> None:
        self.workers = workers
        self.progress = progress
        self.final: dict[str, FileResult] = {}  # path → the result shown
        self.seen: dict[str, list[FileResult]] = {}  # path → undecided skips so far
        self.started = False
        self.ignored: list[str] = []
        self.not_followed: list[str] = []
        self.stopped: str | None = None
        self.not_attempted: set[str] = set()
        self.crashes: list[str] = []

    def event(self, event: ProgressEvent) -> None:
        if isinstance(event, BatchStarted):
            if not self.started and self.progress:
                self.progress(event)
            self.started = True
        elif isinstance(event, FileBegun | Preparing):
            if self.progress:
                self.progress(event)
        elif isinstance(event, FileDone):
            self._file(event.result)

    def _file(self, result: FileResult) -> None:
        if result.path in self.final:
            return
        if result.status != FileStatus.SKIPPED:  # stored or failed: decided
            self.decide(result)
            return
        skips = self.seen.setdefault(result.path, [])
        skips.append(result)
        if len(skips) == self.workers:  # every worker found it unchanged or taken
            self.decide(_shown_skip(skips))

    def decide(self, result: FileResult) -> None:
        """Show `result` as the file's outcome (the main process's, after a worker died,
        replaces a "claimed by another worker")."""
        self.final[result.path] = result
        self.seen.pop(result.path, None)
        if self.progress:
            self.progress(FileDone(result))

    def done(self, report: IngestReport) -> None:
        self.ignored = self.ignored or report.ignored
        self.not_followed = self.not_followed or report.not_followed
        self.stopped = self.stopped or report.stopped
        self.not_attempted.update(report.not_attempted)

    def crashed(self, why: str) -> None:
        self.crashes.append(f"a worker stopped ({why})")

    def left(self, path: str) -> bool:
        """Whether no worker finished `path`: a worker ended before it, or it was claimed by
        another worker (perhaps one of ours that was killed: its claim is taken over)."""
        result = self.final.get(path)
        return result is None or result.skip is SkipReason.CLAIMED

    def report(self) -> IngestReport:
        for skips in list(self.seen.values()):  # workers that ended early never saw these
            self.decide(_shown_skip(skips))
        not_attempted = sorted(p for p in self.not_attempted if p not in self.final)
        return IngestReport(
            files=list(self.final.values()),
            ignored=self.ignored,
            not_followed=self.not_followed,
            stopped=self.stopped,
            not_attempted=not_attempted,
        )


def _shown_skip(skips: list[FileResult]) -> FileResult:
    """Of several workers' skips of one file, "unchanged" over "claimed by another worker"."""
    return next((s for s in skips if s.skip is SkipReason.UNCHANGED), skips[0])


if __name__ == "__main__":  # run as a module: serve from its imported copy, whose classes
    # the parent unpickles by their own names
    from pageindex_platform.index import workers

    workers._serve()
