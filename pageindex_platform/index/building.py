"""Building a planned batch (`pipeline.ingest_paths`, once it holds an ingest seat): each file
prepared ahead in worker processes, claimed first, then embedded and stored in ONE
transaction by a writer thread while the next is embedded, reconnecting once when the
database went away."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.exc import IntegrityError

from ..db import queries
from ..db.engine import Database, connection_lost, database_gone, disk_full
from ..errors import InputError
from .batch_state import Batch
from .build import document_name
from .claims import Claim, Claims
from .prefetch import NotOurs, Prepared, Unprepared, prepared_stream
from .report import FileBegun, FileResult, FileStatus, SkipReason
from .store import Embedded, StoreOptions, embed_document, store_embedded

logger = logging.getLogger(__name__)


def build_all(
    paths: Sequence[Path],
    batch: Batch,
    options: StoreOptions,
    *,
    workers: int | None,
    force: bool,
) -> None:
    """Prepare, embed and store each file, in order: a document is stored by a writer thread
    while this one embeds the next (the database's work and the embedding overlap); the
    batch stops when the database is gone (the files left are listed as not attempted)."""
    done: set[Path] = set()
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="store") as writer:
        pending: tuple[Path, Future[_Written]] | None = None
        for outcome in prepared_stream(
            paths, options.build, batch.claims, slots=options.slots, workers=workers, force=force
        ):
            done.add(outcome.path)
            embedded = _embed(outcome, batch, options) if isinstance(outcome, Prepared) else None
            if pending is not None and not _settle(*pending, batch):  # the database is gone
                done -= {pending[0], outcome.path}
                batch.report.not_attempted = [str(p) for p in paths if p not in done]
                return
            pending = None
            if isinstance(outcome, NotOurs):  # another worker's
                reason = (
                    SkipReason.CLAIMED if outcome.claim is Claim.ELSEWHERE else SkipReason.UNCHANGED
                )
                batch.finish(FileResult.skipped(outcome.path, reason))
            elif isinstance(outcome, Unprepared):
                batch.claims.release(document_name(outcome.path))
                batch.finish(FileResult.failed(outcome.path, outcome.error, outcome.seconds))
            elif isinstance(embedded, FileResult):  # the embedding failed
                batch.finish(embedded)
            elif isinstance(outcome, Prepared) and embedded is not None:
                future = writer.submit(_write, outcome, embedded, batch.db, batch.claims, options)
                pending = (outcome.path, future)
        if pending is not None and not _settle(*pending, batch):
            batch.report.not_attempted = [str(p) for p in paths if p not in done - {pending[0]}]


@dataclass(frozen=True)
class _Written:
    """What storing a document came to: its file's result, or why the batch stops."""

    result: FileResult | None
    stopped: str | None = None


def _settle(path: Path, future: Future[_Written], batch: Batch) -> bool:
    """The stored document's result shown; False when the database is gone."""
    written = future.result()
    if written.result is not None:
        batch.finish(written.result)
    if written.stopped is not None:
        batch.report.stopped = written.stopped
        return False
    return True


def _embed(prepared: Prepared, batch: Batch, options: StoreOptions) -> Embedded | FileResult:
    """A prepared document embedded (its claim renewed first), or its failure."""
    doc = prepared.document
    batch.claims.renew(doc.name)  # the lease, renewed for the embedding
    working = FileResult(str(prepared.path), doc.name, FileStatus.WORKING, pages=len(doc.pages))
    batch.notify(FileBegun(working))
    try:
        return embed_document(doc, options)
    except KeyboardInterrupt:
        raise
    except Exception as exc:
        batch.claims.release(doc.name)
        return FileResult.failed(prepared.path, exc, prepared.seconds)


def _write(
    prepared: Prepared, embedded: Embedded, db: Database, claims: Claims, options: StoreOptions
) -> _Written:
    """Store one embedded document (in the writer thread), once more after the database came
    back; `stopped` when the database is gone."""
    doc, path = prepared.document, prepared.path
    for attempt in (1, 2):
        try:
            return _Written(store_embedded(embedded, options))
        except IntegrityError as exc:
            claims.release(doc.name)
            constraint = getattr(getattr(exc.orig, "diag", None), "constraint_name", None)
            if constraint == "documents_name_key":  # another ingest stored the same name
                return _Written(_stored_meanwhile(db, path, doc.name, doc.sha256))
            return _Written(FileResult.failed(path, exc, prepared.seconds))
        except Exception as exc:
            if connection_lost(exc) and not disk_full(exc) and attempt == 1:
                logger.info("the database connection was lost; reconnecting")
                if db.reconnect():
                    continue
            if database_gone(exc):  # no later file could be stored
                return _Written(None, stopped=db.explain(exc))
            claims.release(doc.name)
            return _Written(FileResult.failed(path, exc, prepared.seconds))
    return _Written(None)  # pragma: no cover - the loop always returns


def _stored_meanwhile(db: Database, path: Path, name: str, sha: str) -> FileResult:
    """Another ingest stored a document of this name between our check and our write: the
    same file is a skip; another file waits for the user to decide."""
    with db.session() as session:
        stored = queries.stored_sha256(session, name)
    if stored == sha:
        return FileResult.skipped(path)
    problem = f"another ingest stored a different '{name}' at the same time; run again to decide"
    return FileResult.failed(path, InputError(path, problem))
