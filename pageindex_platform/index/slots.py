"""Machine-wide CPU slots: the CPU-heavy stages of ingest (a file's parsing, a document's
embedding) each hold one of C slots while they run, C being the cores (PI_CPU_SLOTS), over
every ingest process of the user on this machine — `pi ingest --workers N`, several
`pi ingest` started separately, Python callers alike. N processes on C cores then take
about the time of C, instead of thrashing the cores between them.

A slot is an advisory lock on a file of the user cache (`cpu-slots/N.lock`), released when
its holder ends, even by `kill -9`. Where the platform has no advisory locks, slots are
not enforced.

Each ingest process is also counted while it stores (`ingesting`, a held lock file
`ingest-PID.lock`), so that processes sharing the cores start parse workers for their share of
them only (`parse_workers`): one process on C cores parses in C - 1 workers while it embeds;
C or more processes each parse in their own process, and none pays for starting workers the
cores cannot run.
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
        """This process counted among the ingests sharing the slots while the block runs."""
        handle = self._lock(self.folder / f"ingest-{os.getpid()}.lock")
        try:
            yield
        finally:
            if handle is not None:
                with contextlib.suppress(OSError):
                    os.unlink(handle.name)
                handle.close()

    def ingests(self) -> int:
        """The ingest processes counted now (`ingesting`), this one included; the lock files
        of ended ones are removed."""
        own = f"ingest-{os.getpid()}.lock"
        live = 1
        for path in self.folder.glob("ingest-*.lock"):
            if path.name == own:
                continue
            if not path.exists():
                continue  # removed meanwhile: its process ended
            handle = self._lock(path, create=False)
            if handle is None:
                live += path.exists()
                continue
            with contextlib.suppress(OSError):
                path.unlink()  # its process ended: the lock was free
            handle.close()
        return live

    def parse_workers(self) -> int:
        """The parse workers this process starts: its share of the slots, less the one it
        embeds in (none when the processes counted are as many as the slots)."""
        return max(0, self.count // self.ingests() - 1)

    def _lock(self, path: Path, create: bool = True) -> IO[bytes] | None:
        """`path` opened and locked, without waiting; None when another process holds it (or
        it cannot be locked at all)."""
        try:
            import fcntl

            self.folder.mkdir(parents=True, exist_ok=True)
            handle = open(path, "a+b" if create else "r+b")  # noqa: SIM115
        except (ImportError, OSError):
            return None
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            return None
        return handle

    def _take(self) -> IO[bytes] | None:
        try:
            import fcntl
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
                handle = open(self.folder / f"{(first + i) % self.count}.lock", "a+b")  # noqa: SIM115
                try:
                    fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    handle.close()
                    continue
                if waited:
                    logger.debug("waited %.2f s for a CPU slot", waited)
                return handle
            time.sleep(wait)
            waited += wait
            wait = min(wait * 2, _LAST_WAIT)
