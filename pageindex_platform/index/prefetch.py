"""Files prepared ahead: while the caller embeds and stores a document, the next files are
parsed by a pool of worker processes sized to the cores (`parse_worker.py`: pure work, no
database, no embeddings), which end with the ingest that started them, even one killed with
`kill -9`. Each file's document is claimed before it is prepared (`Claims.take`), and each
preparation holds one of the machine's CPU slots (`slots.py`)."""

from __future__ import annotations

import logging
import queue
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..logs import shown_level
from ..records import PreparedDocument
from .build import BuildOptions, prepare_document
from .claims import Claim, Claims
from .parse_worker import Done, Setup, Worker
from .slots import CpuSlots

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Prepared:
    path: Path
    document: PreparedDocument
    seconds: float


@dataclass(frozen=True)
class Unprepared:
    """A file that could not be prepared: a bad file (InputError) or a worker's failure."""

    path: Path
    error: Exception
    seconds: float


@dataclass(frozen=True)
class NotOurs:
    """A file whose document another worker has claimed, or stored meanwhile."""

    path: Path
    claim: Claim


Outcome = Prepared | Unprepared | NotOurs


def prepared_stream(
    paths: Sequence[Path],
    options: BuildOptions,
    claims: Claims,
    *,
    slots: CpuSlots,
    workers: int | None,
    force: bool = False,
) -> Iterator[Outcome]:
    """Each file's outcome, in order, each claimed first; with several files, they are
    prepared by `workers` worker processes (None: this process's share of the CPU slots,
    `CpuSlots.parse_workers`), started once a first file is claimed, while the caller embeds
    and stores; with `workers` 0, no share, or one file, in this process."""
    if workers != 0 and len(paths) >= 2:
        yield from _in_workers(paths, options, claims, force, slots, workers)
        return
    yield from _one_by_one(paths, options, claims, force, slots)


def _one_by_one(
    paths: Sequence[Path],
    options: BuildOptions,
    claims: Claims,
    force: bool,
    slots: CpuSlots,
    claimed: Path | None = None,
) -> Iterator[Outcome]:
    """Each file claimed (`claimed`: already), then prepared in this process."""
    for path in paths:
        claim = Claim.OURS if path == claimed else claims.take(path, force)
        if claim is not Claim.OURS:
            yield NotOurs(path, claim)
            continue
        started = time.perf_counter()
        try:
            with slots.held():
                document = prepare_document(path, options)
        except Exception as exc:  # reported per file; the batch goes on
            yield Unprepared(path, exc, time.perf_counter() - started)
            continue
        yield Prepared(path, document, time.perf_counter() - started)


class _Pool:
    """Worker processes answering jobs in any order; each job's outcome is kept until the
    caller asks for it. A worker that dies fails its jobs and is replaced."""

    def __init__(self, size: int, slots: CpuSlots) -> None:
        self.setup = Setup(shown_level(), slots)
        self.answers: queue.Queue[tuple[Worker, Done | None]] = queue.Queue()
        self.workers = [Worker(self.setup, self.answers) for _ in range(size)]
        self.done: dict[int, Done | Exception] = {}

    def submit(self, job: int, path: Path, options: BuildOptions) -> None:
        for _ in range(2):
            idle = min(self.workers, key=lambda w: (not w.alive, len(w.jobs)))
            if not idle.alive:
                self.workers[self.workers.index(idle)] = idle = Worker(self.setup, self.answers)
            if idle.submit(job, path, options):
                return
        self.done[job] = RuntimeError("no parse worker could be started")

    def busy(self) -> int:
        """The fewest jobs waiting at one worker."""
        return min(len(w.jobs) for w in self.workers)

    def ready(self, job: int) -> bool:
        """Whether `job`'s answer is in (the answers so far taken in)."""
        while job not in self.done:
            try:
                self._take(*self.answers.get_nowait())
            except queue.Empty:
                return False
        return True

    def wait_for(self, job: int) -> Done | Exception:
        while job not in self.done:
            self._take(*self.answers.get())
        return self.done.pop(job)

    def _take(self, worker: Worker, answer: Done | None) -> None:
        if answer is None:  # the worker is gone: its jobs fail
            worker.alive = False
            why = RuntimeError(worker.exit_reason())
            for lost in worker.jobs:
                self.done[lost] = why
            worker.jobs.clear()
            return
        worker.jobs.remove(answer.job)
        self.done[answer.job] = answer

    def close(self) -> None:
        for worker in self.workers:
            worker.close()


def _in_workers(
    paths: Sequence[Path],
    options: BuildOptions,
    claims: Claims,
    force: bool,
    slots: CpuSlots,
    workers: int | None,
) -> Iterator[Outcome]:
    """The files prepared by the pool's workers, and by this process while the next file in
    order is not ready (the workers starting, or a long file): no core waits idle. The pool
    starts with the first file claimed: a process whose files are all other workers' starts
    none."""
    pool: _Pool | None = None
    try:
        pending: list[tuple[int, Path, float]] = []
        waiting = list(paths)
        while waiting or pending:
            # each worker has one file in hand and one queued; this process takes the next
            # file itself while the one it must hand on next is not ready
            here = bool(pending) and pool is not None and not pool.ready(pending[0][0])
            while waiting and (here or pool is None or pool.busy() < 2):
                path = waiting.pop(0)
                claim = claims.take(path, force)
                if claim is not Claim.OURS:
                    yield NotOurs(path, claim)
                    continue
                if pool is None:
                    size = slots.parse_workers() if workers is None else workers
                    if size <= 0:  # no share of the cores to parse in: all in this process
                        rest = [path, *waiting]
                        yield from _one_by_one(rest, options, claims, force, slots, path)
                        return
                    pool = _Pool(min(size, len(waiting) + 1), slots)
                job = len(paths) - len(waiting)
                pending.append((job, path, time.perf_counter()))
                if here:
                    pool.done[job] = _prepare_here(job, path, options, slots)
                    break
                pool.submit(job, path, options)
            if pending and pool is not None and (not waiting or pool.ready(pending[0][0])):
                job, path, submitted = pending.pop(0)
                yield _outcome(path, pool.wait_for(job), submitted)
    finally:
        if pool is not None:
            pool.close()


def _prepare_here(job: int, path: Path, options: BuildOptions, slots: CpuSlots) -> Done:
    started = time.perf_counter()
    try:
        with slots.held():
            result: PreparedDocument | Exception = prepare_document(path, options)
    except Exception as exc:  # reported per file; the batch goes on
        result = exc
    return Done(job, result, time.perf_counter() - started)


def _outcome(path: Path, answer: Done | Exception, submitted: float) -> Outcome:
    """A worker's answer for `path` (its own preparation time; a failure's time since it was
    submitted)."""
    if isinstance(answer, Exception):  # the worker process failed (killed, out of memory)
        logger.info("%s: the parse worker failed (%s)", path, answer)
        return Unprepared(path, answer, time.perf_counter() - submitted)
    if isinstance(answer.result, Exception):
        return Unprepared(path, answer.result, answer.seconds)
    return Prepared(path, answer.result, answer.seconds)
