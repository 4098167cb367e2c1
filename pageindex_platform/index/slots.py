"""Machine-wide CPU slots: the CPU-heavy stages of ingest (a file's parsing, a document's
embedding) each hold one of C slots while they run, C being the cores (PI_CPU_SLOTS), over
every ingest process of the user on this machine — `pi ingest --workers N`, several
`pi ingest` started separately, Python callers alike. N processes on C cores then take
about the time of C, instead of thrashing the cores between them.

A slot is an advisory lock on a file of the user cache (`cpu-slots/N.lock`), released when
its holder ends, even by `kill -9`. Where the platform has no advisory locks, slots are
not enforced.

An ingest process that has files to build also holds one of C ingest seats while it builds
them (`ingesting`, a lock file `ingest-N.lock`): a process beyond C waits for a seat instead
of paying for its own models and workers on cores that are busy, and by then mostly finds its
files stored. A seated process starts parse workers for its share of the cores only
(`parse_workers`): alone on C cores it parses in C - 1 workers while it embeds; with C seats
held, each parses in its own process.
"""

from __future__ import annotations

import contextlib
import logging
import os
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from ..settings import Settings, default_cache

logger = logging.getLogger(__name__)

_FIRST_WAIT = 0.01  # seconds between tries when every slot is held, doubling up to _LAST_WAIT
_LAST_WAIT = 0.05
_SEAT_WAIT = 0.1  # seconds between tries when every ingest seat is held


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # no affinity (macOS, Windows)
        return os.cpu_count() or 1


class CpuSlots:
    """`count` slots shared through lock files in `folder` (picklable: a worker process is
    handed the same slots)."""

    def __init__(self, folder: Path, count: int) -> None:
        self.folder = folder
        self.count = max(1, count)

    @classmethod
    def of(cls, settings: Settings) -> CpuSlots:
        return cls(default_cache() / "cpu-slots", settings.cpu_slots or cores())

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """One slot held for the block, waited for while all are taken."""
        handle = self._take()
        try:
            yield
        finally:
            if handle is not None:
                handle.close()  # closing the file releases its lock

    @contextlib.contextmanager
    def ingesting(self) -> Iterator[None]:
        """One of C ingest seats held while the block runs, waited for while all are taken:
        the processes beyond C wait rather than share the cores (and then mostly find their
        files stored)."""
        handle, waited = None, 0.0
        try:
            while handle is None:
                handle = next(filter(None, map(self._seat, range(self.count))), None)
                if handle is None:
                    if not waited:
                        logger.info("every ingest seat is taken: waiting for one")
                    time.sleep(_SEAT_WAIT)
                    waited += _SEAT_WAIT
        except (ImportError, OSError) as exc:  # no advisory locks, or a read-only cache
            logger.info("no ingest seats (%s)", exc)
        try:
            yield
        finally:
            if handle is not None:
                handle.close()  # closing the file releases its lock

    def ingests(self) -> int:
        """The ingest seats held now (at least one: this process's)."""
        held = 0
        for i in range(self.count):
            try:
                handle = self._seat(i, create=False)
            except (ImportError, OSError):
                continue  # no such seat yet, or no locks
            if handle is None:
                held += 1
            else:
                handle.close()
        return max(1, held)

    def parse_workers(self) -> int:
        """The parse workers this process starts: its share of the slots, less the one it
        embeds in (none when as many processes as slots hold a seat)."""
        return max(0, self.count // self.ingests() - 1)

    def _seat(self, i: int, create: bool = True) -> IO[bytes] | None:
        """Seat `i` taken without waiting; None when another process holds it."""
        if create:
            self.folder.mkdir(parents=True, exist_ok=True)
        return _locked(self.folder / f"ingest-{i}.lock", create=create)

    def _take(self) -> IO[bytes] | None:
        try:
            import fcntl  # noqa: F401 - advisory locks exist here
        except ImportError:  # pragma: no cover - Windows
            return None
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:  # a read-only cache: run unbounded rather than fail
            logger.info("no CPU slots (%s)", exc)
            return None
        wait, waited = _FIRST_WAIT, 0.0
        while True:
            first = random.randrange(self.count)
            for i in range(self.count):
                handle = _locked(self.folder / f"{(first + i) % self.count}.lock")
                if handle is None:
                    continue
                if waited:
                    logger.debug("waited %.2f s for a CPU slot", waited)
                return handle
            time.sleep(wait)
            waited += wait
            wait = min(wait * 2, _LAST_WAIT)


def _locked(path: Path, *, create: bool = True) -> IO[bytes] | None:
    """`path` opened and locked for this process without waiting (released when closed, or
    when the process ends); None when another process holds it."""
    import fcntl

    handle = open(path, "a+b" if create else "rb")  # noqa: SIM115 - held open as the lock
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        return None
    return handle
