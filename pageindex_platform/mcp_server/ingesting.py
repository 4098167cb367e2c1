"""What the `ingest` tool needs besides the corpus: the folders it may read (`pi mcp
--allow-ingest DIR`), and its progress sent to the client — the point where an ingest whose
client cancelled the call or went away stops."""

from __future__ import annotations

import concurrent.futures
import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import anyio
import anyio.from_thread
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError

from ..api import BatchStarted, FileDone, FileStatus, Preparing, ProgressEvent
from ..errors import ConfigurationError

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class IngestFolders:
    """The folders an MCP client may ingest from (resolved: links followed once, here). A
    path is taken when it resolves inside one of them — a `..` or a link that leads outside
    is refused — and links inside a folder that lead outside it are not followed."""

    folders: tuple[Path, ...] = ()

    @classmethod
    def of(cls, folders: Iterable[str | Path]) -> IngestFolders:
        resolved = []
        for folder in folders:
            path = Path(folder).expanduser().resolve()
            if not path.is_dir():
                raise ConfigurationError(f"--allow-ingest {folder}: no such folder")
            resolved.append(path)
        return cls(tuple(dict.fromkeys(resolved)))

    def __bool__(self) -> bool:
        return bool(self.folders)

    def __iter__(self) -> Iterator[Path]:
        return iter(self.folders)

    def check(self, given: str) -> Path:
        """`given` resolved (a relative path is read from the first folder), or a ToolError
        when it leads outside every folder."""
        path = Path(given).expanduser()
        if not path.is_absolute():
            path = self.folders[0] / path
        try:
            resolved = path.resolve()
        except (OSError, RuntimeError) as exc:  # a loop of links, a name too long
            raise ToolError(f"{given}: cannot be resolved ({exc})") from exc
        if not any(resolved.is_relative_to(folder) for folder in self.folders):
            raise ToolError(f"{given}: outside the folders this server may ingest ({self})")
        return resolved

    def __str__(self) -> str:
        return ", ".join(str(folder) for folder in self.folders)


class ClientGone(BaseException):
    """The client of an ingest cancelled the call or its session ended. Raised from the
    progress callback between files, so the ingest stops there: a BaseException, so that no
    per-file handler reports it as a bad file; the documents already stored are whole."""


@dataclass
class ProgressToClient:
    """An ingest's progress events as MCP progress notifications (the batch's size, a model
    being prepared, then one per file done), called in the ingest's worker thread; raises
    ClientGone when the call was cancelled or its session ended."""

    ctx: Context
    total: int = 0
    done: int = 0
    stored: list[str] = field(default_factory=list)

    def __call__(self, event: ProgressEvent) -> None:
        if isinstance(event, BatchStarted):
            self.total = event.total
            self._send("started")
        elif isinstance(event, FileDone):
            self.done += 1
            if event.result.status is FileStatus.STORED:
                self.stored.append(event.result.name)
            self._send(f"{event.result.name}: {event.result.status}")
        elif isinstance(event, Preparing):  # the first ingest of a new machine waits on it
            self._send(f"preparing the {event.what} (once): {event.done}/{event.total}")

    def _send(self, message: str) -> None:
        try:
            anyio.from_thread.check_cancelled()
        except Exception:  # not called from the tool's worker thread: a bug, shown as one
            raise
        except BaseException as exc:  # the event loop's cancellation of this call
            raise ClientGone(self.why()) from exc
        try:
            anyio.from_thread.run(self.ctx.report_progress, self.done, self.total, message)
        except (concurrent.futures.CancelledError, anyio.RunFinishedError) as exc:
            raise ClientGone(self.why()) from exc

    def why(self) -> str:
        return (
            f"the ingest stopped after {self.done} of {self.total} files: its client cancelled "
            f"the call or went away ({len(self.stored)} stored, each whole)"
        )
