"""What an ingest reports: each file's outcome (a line of `pi ingest --json`'s "files"), the
batch's summary, and the progress events a door shows while it runs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..shapes import Shape


def document_name(path: Path) -> str:
    """A file's document name (`build.document_name`: its stem), without importing the
    readers (a question's process never parses a file)."""
    from .build import document_name as name_of

    return name_of(path)


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

    def outcome(self) -> FileOutcome:
        """The file's line as reported (`files` of `pi ingest --json`)."""
        return FileOutcome(
            path=self.path,
            name=self.name,
            status=str(self.status),
            pages=self.pages,
            nodes=self.nodes,
            chunks=self.chunks,
            seconds=round(self.seconds, 3),
            error=self.error,
            stages={k: round(v, 3) for k, v in self.stages.items()},
            usage=dict(self.usage),
            warnings=list(self.warnings),
        )

    def to_dict(self) -> dict[str, Any]:
        return self.outcome().to_dict()


@dataclass(frozen=True)
class FileOutcome(Shape):
    """One file of an ingest: stored, skipped or failed (`error`: the problem, or a skip's
    reason other than unchanged), its sizes, time, stages, LLM use and warnings."""

    path: str
    name: str
    status: str
    pages: int
    nodes: int
    chunks: int
    seconds: float
    error: str | None
    stages: dict[str, float]
    usage: dict[str, Any]
    warnings: list[str]


@dataclass(frozen=True)
class IngestSummary(Shape):
    """An ingest's result: each file's outcome and the batch's counts; `stopped` says why
    the batch stopped early, and `not_attempted` the files it did not reach."""

    files: list[FileOutcome]
    stored: int
    skipped: int
    failed: int
    ignored: list[str]
    not_followed: list[str]
    pages: int
    chunks: int
    seconds: float
    stopped: str | None
    not_attempted: list[str]


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

    def summary(self) -> IngestSummary:
        """The batch as reported (`pi ingest --json`, the MCP `ingest` tool)."""
        stored = [f for f in self.files if f.status == FileStatus.STORED]
        return IngestSummary(
            files=[f.outcome() for f in self.files],
            stored=len(stored),
            skipped=self.count(FileStatus.SKIPPED),
            failed=self.failed,
            ignored=list(self.ignored),
            not_followed=list(self.not_followed),
            pages=sum(f.pages for f in stored),
            chunks=sum(f.chunks for f in stored),
            seconds=round(self.seconds, 3),
            stopped=self.stopped,
            not_attempted=list(self.not_attempted),
        )

    def to_dict(self) -> dict[str, Any]:
        return self.summary().to_dict()


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


@dataclass(frozen=True)
class Preparing:
    """A model the ingest needs is being prepared, once per user, in the model cache (the
    fast embedder's `token table`, the `question model`): `done` of `total` steps; the last
    event of each has done == total. A process that waits for another preparing it hears
    0 and then total."""

    what: str
    done: int
    total: int


ProgressEvent = BatchStarted | FileBegun | FileDone | WorkerStopped | Preparing
Progress = Callable[[ProgressEvent], None]


@dataclass(frozen=True)
class Rederived(Shape):
    """A document read again from its stored pages: each metadata field that changed, as
    [before, after], and the figures its statement tables give now."""

    name: str
    changed: dict[str, list[Any]] = field(default_factory=dict)
    figures: int = 0


@dataclass(frozen=True)
class Refreshed(Shape):
    """What `pi docs refresh` did: the documents whose metadata was derived again, and
    what changed in each."""

    documents: list[Rederived]
    changed: int
