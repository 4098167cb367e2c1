"""One ingest as a caller asks for it (`Corpus.ingest`): the `--metadata` rows read, the files
stored by this process or by `workers` processes, and the batch's documents whose company is
not sure read again once the whole batch is stored (`rederive.settle`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..db.engine import Database
from ..llm import StructuredChat
from .overrides import load_overrides
from .report import FileStatus, IngestReport, Progress

Metadata = str | Path | Mapping[str, Mapping[str, Any]] | None


def ingest_batch(
    *,
    db: Database,
    paths: Sequence[Path],
    chat: StructuredChat | None,
    metadata: Metadata = None,
    workers: int = 1,
    progress: Progress | None = None,
    **options: Any,
) -> IngestReport:
    """Ingest `paths` into `db` (`options`: force, replace, follow_links); `metadata`: a
    CSV/JSONL file, or rows by file name, whose fields override the extracted ones."""
    overrides = (
        load_overrides(Path(metadata))
        if isinstance(metadata, str | Path)
        else {k: dict(v) for k, v in (metadata or {}).items()}
    )
    if workers > 1:
        from .workers import ingest_with_workers

        report = ingest_with_workers(
            db=db,
            paths=list(paths),
            workers=workers,
            llm=chat is not None,
            overrides=overrides or None,
            progress=progress,
            **options,
        )
    else:
        from .pipeline import ingest_paths

        report = ingest_paths(
            db=db, paths=paths, chat=chat, overrides=overrides or None, progress=progress, **options
        )
    stored = [f.name for f in report.files if f.status == FileStatus.STORED]
    if stored and not report.stopped:  # the database is there
        from .rederive import settle  # only after storing: SQLAlchemy's ORM reads them

        settle(db=db, names=stored, settings=db.settings)
    return report
