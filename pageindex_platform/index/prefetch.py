"""Files prepared one ahead: while the caller embeds and stores a document, the next file is
parsed in a worker process (pure work: no database, no embeddings), which ends with the
ingest that started it, even one killed with `kill -9`. Each file's document is claimed
before it is prepared (`Claims.take`)."""

from __future__ import annotations

import ctypes
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from ..records import PreparedDocument
from .build import BuildOptions, prepare_document
from .claims import Claim, Claims

logger = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1


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
    parallel: bool,
    force: bool = False,
) -> Iterator[Outcome]:
    """Each file's outcome, in order, each claimed first; with `parallel`, the next file is
    prepared in a worker process while the caller embeds and stores the current one."""
    if parallel and len(paths) >= 2:
        yield from _in_worker(paths, options, claims, force)
        return
    for path in paths:
        claim = claims.take(path, force)
        if claim is not Claim.OURS:
            yield NotOurs(path, claim)
            continue
        started = time.perf_counter()
        try:
            document = prepare_document(path, options)
        except Exception as exc:  # reported per file; the batch goes on
            yield Unprepared(path, exc, time.perf_counter() - started)
            continue
        yield Prepared(path, document, time.perf_counter() - started)


def _in_worker(
    paths: Sequence[Path], options: BuildOptions, claims: Claims, force: bool
) -> Iterator[Outcome]:
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        max_workers=1,
        mp_context=context,
        initializer=_die_with_parent,
        initargs=(os.getpid(),),
    ) as pool:
        pending: list[tuple[Path, Future[PreparedDocument | InputError], float]] = []
        queue = list(paths)
        try:
            while queue or pending:
                while queue and len(pending) < 2:
                    path = queue.pop(0)
                    claim = claims.take(path, force)
                    if claim is not Claim.OURS:
                        yield NotOurs(path, claim)
                        continue
                    future = pool.submit(_prepare_in_worker, str(path), options)
                    pending.append((path, future, time.perf_counter()))
                if not pending:
                    continue
                path, future, submitted = pending.pop(0)
                yield _outcome(path, future, submitted)
        finally:
            for _, future, _ in pending:
                future.cancel()


def _outcome(
    path: Path, future: Future[PreparedDocument | InputError], submitted: float
) -> Outcome:
    """The worker's result for `path`, with the time since it was submitted."""
    try:
        prepared = future.result()
    except Exception as exc:  # the worker process failed (killed, out of memory)
        logger.info("%s: the parse worker failed (%s)", path, exc)
        return Unprepared(path, exc, time.perf_counter() - submitted)
    seconds = time.perf_counter() - submitted
    if isinstance(prepared, InputError):
        return Unprepared(path, prepared, seconds)
    return Prepared(path, prepared, seconds)


def _prepare_in_worker(path: str, options: BuildOptions) -> PreparedDocument | InputError:
    try:
        return prepare_document(Path(path), options)
    except InputError as exc:
        return exc


def _die_with_parent(parent: int) -> None:
    """In a parse worker: end when the ingest that started it ends, even by `kill -9` — the
    kernel's parent-death signal where there is one (Linux), and a watch on the parent."""
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
