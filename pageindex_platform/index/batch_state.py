"""One process's ingest batch as it runs: the report being made, the progress shown of it,
the database and this worker's claims in it (`pipeline.ingest_paths` plans the batch,
`building.build_all` builds it)."""

from __future__ import annotations

from dataclasses import dataclass

from ..db.engine import Database
from .claims import Claims
from .report import FileDone, FileResult, IngestReport, Preparing, Progress, ProgressEvent


@dataclass
class Batch:
    """The report being made, and the progress shown of it; the database and this worker's
    claims in it."""

    db: Database
    claims: Claims
    report: IngestReport
    progress: Progress | None

    def notify(self, event: ProgressEvent) -> None:
        if self.progress:
            self.progress(event)

    def preparing(self, what: str, done: int, total: int) -> None:
        self.notify(Preparing(what, done, total))

    def finish(self, result: FileResult) -> None:
        self.report.files.append(result)
        self.notify(FileDone(result))
