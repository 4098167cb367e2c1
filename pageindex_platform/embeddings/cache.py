"""The user's model cache (`PI_MODEL_CACHE`, by default the user cache directory): what the
embedders need beyond the shipped weights (the fast embedder's token table, the question
model's ONNX file) is prepared there once per user and shared by every PI_HOME.

Two processes that need the same file at once prepare it once: the first takes a lock file
beside it and writes it under a temporary name, renamed into place when complete; the
others wait for the lock, then find it made. A home prepared before the cache existed keeps
using its own copy (`$PI_HOME/models/...`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

logger = logging.getLogger(__name__)

# what is being prepared, how much of it is done, out of how much (a door shows it)
PrepareProgress = Callable[[str, int, int], None]


def _quiet(what: str, done: int, total: int) -> None:
    pass


@contextlib.contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """An exclusive lock on `path` (created if missing) held by this process until the block
    ends, or until the process dies; where the platform has no advisory locks, none."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+b") as handle:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - Windows: no advisory locks
            yield
            return
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def locate(name: str, *, cache: Path, home: Path) -> Path:
    """Where `name` is read from: the home's own copy when it has one (made before the cache
    existed), else the cache's."""
    own = home / "models" / name
    return own if own.exists() else cache / name


def prepare(
    target: Path,
    make: Callable[[Path], object],
    *,
    what: str,
    total: int = 1,
    progress: PrepareProgress | None = None,
) -> Path:
    """`target`, made by `make(staging)` unless it exists: `make` writes a file or folder at
    `staging` (beside `target`), which is renamed to `target` once complete. Done once over
    all processes of the user (a lock file beside `target`); `progress` hears `what` start
    (0 of `total`) and finish (`total` of `total`), and `make` may report between."""
    if target.exists():
        return target
    report = progress or _quiet
    report(what, 0, total)
    with file_lock(target.parent / f".{target.name}.lock"):
        if not target.exists():  # nobody made it while we waited for the lock
            logger.warning("preparing the %s in %s (once for every PI_HOME)", what, target)
            _make_and_rename(target, make)
    report(what, total, total)
    return target


def _make_and_rename(target: Path, make: Callable[[Path], object]) -> None:
    staging = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}-"))
    made = staging / target.name
    try:
        make(made)
        os.replace(made, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
