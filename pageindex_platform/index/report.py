"""What an ingest reports: each file's outcome (a line of `pi ingest --json`'s "files"), the
batch's summary, and the progress events a door shows while it runs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from ..errors import InputError
from .build import document_name


class FileStatus(StrEnum):
    STORED = "stored"
    SKIPPED = "skipped"
    FAILED = "failed"
    WORKING = "working"  # only in a FileBegun event, never in a report


class SkipReason(StrEnum):
    """Why a file was skipped: stored unchanged, another worker has it, or its content is
    stored under another name."""

    UNCHANGED = "unchanged"
    CLAIMED = "claimed by another worker"
    COPY = "same content as"  # another stored document, which the file's name is linked to


@dataclass
class FileResult:
    """One line of `pi ingest --json`'s "files" list."""

    path: str
    name: str
    status: FileStatus
    pages: int = 0
    nodes: int = 0
    chunks: int = 0
    seconds: float = 0.0
    error: str | None = None  # a failure's problem, or a skip's reason other than unchanged
    stages: dict[str, float] = field(default_factory=dict)
    usage: dict[str, Any] = field(default_factory=dict)  # LLM calls, tokens, cost (llm mode)
    skip: SkipReason | None = None
    warnings: list[str] = field(default_factory=list)  # what the stored document's reading
    # left out, and what it claims that other stored documents claim too

    @classmethod
    def skipped(
        cls, path: Path | str, reason: SkipReason = SkipReason.UNCHANGED, *, of: str = ""
    ) -> FileResult:
        """A skipped file; `of`: the stored document a copy's content is (SkipReason.COPY)."""
        if reason is SkipReason.COPY:
            error: str | None = f"same content as {of}: stored once, linked under both names"
        else:
            error = None if reason is SkipReason.UNCHANGED else str(reason)
        return cls(
            str(path), document_name(Path(path)), FileStatus.SKIPPED, error=error, skip=reason
        )

    @classmethod
    def failed(cls, path: Path | str, error: BaseException, seconds: float = 0.0) -> FileResult:
        """A failed file, with its problem on one short line."""
        if isinstance(error, InputError):
            detail = error.detail
        else:
            cause = getattr(error, "orig", None) or error  # SQLAlchemy wraps the driver's error
            lines = str(cause).strip().splitlines() or [""]
            detail = f"{type(cause).__name__}: {lines[0][:300]}"
            if getattr(cause, "sqlstate", None) == "54000":  # a program limit of PostgreSQL
                detail = (
                    "too large for PostgreSQL's full-text index (over 1 MB of distinct words "
                    f"in one page or document; {detail})"
                )
        return cls(
            str(path), document_name(Path(path)), FileStatus.FAILED, seconds=seconds, error=detail
        )

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out.pop("skip")
        out["status"] = str(self.status)
        out["seconds"] = round(self.seconds, 3)
        out["stages"] = {k: round(v, 3) for k, v in self.stages.items()}
        return out


@dataclass
class IngestReport:
    files: list[FileResult] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    not_followed: list[str] = field(default_factory=list)  # links out of a folder, not followed
    seconds: float = 0.0
    stopped: str | None = None  # why the batch stopped early (the database went away)
    not_attempted: list[str] = field(default_factory=list)

    def count(self, status: FileStatus) -> int:
        return sum(1 for f in self.files if f.status == status)

    @property
    def failed(self) -> int:
        return self.count(FileStatus.FAILED) + len(self.not_attempted)

    def to_dict(self) -> dict[str, Any]:
        return {
            "files": [f.to_dict() for f in self.files],
            "stored": self.count(FileStatus.STORED),
            "skipped": self.count(FileStatus.SKIPPED),
            "failed": self.failed,
            "ignored": self.ignored,
            "not_followed": self.not_followed,
            "pages": sum(f.pages for f in self.files if f.status == FileStatus.STORED),
            "chunks": sum(f.chunks for f in self.files if f.status == FileStatus.STORED),
            "seconds": round(self.seconds, 3),
            "stopped": self.stopped,
            "not_attempted": self.not_attempted,
        }


@dataclass(frozen=True)
class BatchStarted:
    """The batch's files are known (`total`, failures of named paths included)."""

    total: int


@dataclass(frozen=True)
class FileBegun:
    """A prepared file's embedding and storing starts (status WORKING)."""

    result: FileResult


@dataclass(frozen=True)
class FileDone:
    """A file is finished: stored, skipped or failed."""

    result: FileResult


@dataclass(frozen=True)
class WorkerStopped:
    """A worker process of `--workers N` ended before its files were done; the main process
    finishes them."""

    why: str


ProgressEvent = BatchStarted | FileBegun | FileDone | WorkerStopped
Progress = Callable[[ProgressEvent], None]
