"""The ingest flow, top-down: discover the files → decide which to build (unchanged files
skipped, a different file under a stored name refused) → prepare them ahead in worker
processes, each claimed first → embed and store each document in ONE transaction, reconnecting
once when the database went away.

A run killed at any point leaves only whole documents behind; the next run skips what is
stored unchanged (same name and sha256) and finishes the rest.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.exc import IntegrityError

from ..db import queries
from ..db.engine import Database, connection_lost, database_gone, disk_full
from ..embeddings import Embedder, prepare_models
from ..errors import InputError
from ..llm import StructuredChat
from .build import BuildOptions, document_name
from .claims import Claim, Claims, file_sha256
from .discover import discover
from .prefetch import NotOurs, Prepared, Unprepared, prepared_stream
from .report import (
    BatchStarted,
    FileBegun,
    FileDone,
    FileResult,
    FileStatus,
    IngestReport,
    Preparing,
    Progress,
    ProgressEvent,
    SkipReason,
)
from .slots import CpuSlots
from .store import (
    Embedded,
    StoreOptions,
    embed_document,
    override_stored,
    store_embedded,
)

logger = logging.getLogger(__name__)


def ingest_paths(
    *,
    db: Database,
    paths: Iterable[Path],
    force: bool = False,
    overrides: dict[str, dict[str, Any]] | None = None,
    embedder: Embedder | None = None,
    progress: Progress | None = None,
    parallel: bool = True,
    chat: StructuredChat | None = None,
    replace: bool = False,
    follow_links: bool = False,
    parse_workers: int | None = None,
) -> IngestReport:
    """Ingest files and folders. Bad files are reported and the batch goes on.

    A stored document is rebuilt when its own source file changed; a different file with the
    same name (the file stem) is refused unless `replace` — nothing stored is lost unasked.
    With `chat` (llm mode) the model refines each tree and writes summaries; without it
    everything is deterministic (local mode). The documents go to `db`, the corpus's
    database. With `parallel`, files are parsed by `parse_workers` processes (default: this
    process's share of the CPU slots, less the one it embeds in: `CpuSlots.parse_workers`)
    while this one embeds and stores, holding one of the machine's ingest seats (beyond C
    processes, a process waits for one: `CpuSlots.ingesting`); the
    models the embedder needs are prepared first, once per user, their progress told as
    `Preparing` events."""
    started = time.perf_counter()
    found = discover(paths, follow_links=follow_links)
    report = IngestReport(ignored=found.ignored, not_followed=found.not_followed)
    batch = _Batch(db, Claims(db), report, progress)
    batch.notify(BatchStarted(len(found.files) + len(found.failures)))
    for failure in found.failures:
        batch.finish(failure)
    plan = _to_build(
        found.files, batch, force=force, replace=replace, overrides=overrides, embedder=embedder
    )
    if plan.build:
        slots = CpuSlots.of(db.settings)
        with slots.ingesting():  # one of the machine's ingest seats (waited for)
            if embedder is None:
                prepare_models(settings=db.settings, progress=batch.preparing)
            options = StoreOptions(
                db=db,
                embedder=embedder,
                overrides=overrides or {},
                chat=chat,
                build=BuildOptions.from_settings(db.settings),
                slots=slots,
            )
            workers = (parse_workers or None) if parallel else 0  # None: the slots' share
            _build_all(plan.build, batch, options, workers=workers, force=force)
    _link_copies(plan.copies, batch)
    batch.report.seconds = time.perf_counter() - started
    return batch.report


@dataclass
class _Batch:
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


@dataclass(frozen=True)
class _Plan:
    build: list[Path]  # the files to prepare and store
    copies: list[tuple[Path, str, str]]  # a file with another's content: its sha256, that name


def _to_build(
    files: Sequence[Path],
    batch: _Batch,
    *,
    force: bool,
    replace: bool,
    overrides: dict[str, dict[str, Any]] | None,
    embedder: Embedder | None,
) -> _Plan:
    """The files to prepare and store, and those whose content is another's (stored, or
    earlier in the batch): they are linked to it, not stored twice. The others finish here:
    a second file of one name and a different file under a stored name fail, an unchanged
    one is skipped (its `--metadata` row applied to the stored document)."""
    with batch.db.session() as session:
        documents = queries.documents(session)
    stored = {d.name: (d.sha256, d.source_path) for d in documents}
    content = {d.sha256: d.name for d in documents}
    plan = _Plan([], [])
    seen: dict[str, Path] = {}
    for path in files:
        name = document_name(path)
        if name in seen:
            problem = (
                f"duplicate document name '{name}' (also {seen[name]}); rename one of the files"
            )
            batch.finish(FileResult.failed(path, InputError(path, problem)))
            continue
        seen[name] = path
        sha = file_sha256(path)
        if sha and name not in stored:
            if sha in content:
                plan.copies.append((path, sha, content[sha]))
                continue
            content[sha] = name  # a later file of this content is a copy of this one
        if name in stored and not replace and _other_source(path, *stored[name], sha):
            problem = (
                f"a different document named '{name}' is already stored (from "
                f"{stored[name][1]}); use --replace to replace it, or rename this file"
            )
            batch.finish(FileResult.failed(path, InputError(path, problem)))
            continue
        if not force and name in stored and stored[name][0] == sha:
            if overrides and name in overrides:
                override_stored(db=batch.db, name=name, row=overrides[name], embedder=embedder)
            batch.finish(FileResult.skipped(path))
            continue
        plan.build.append(path)
    return plan


def _link_copies(copies: Sequence[tuple[Path, str, str]], batch: _Batch) -> None:
    """Each copy linked to the stored document of its content ("same content as X"); a copy
    of a file this batch failed to store fails with it, one whose original another worker
    holds is left to that worker."""
    outcome = {r.name: r for r in batch.report.files}
    for path, sha, original in copies:
        with batch.db.session() as session:
            if queries.stored_sha256(session, original) == sha:
                queries.link_copy(session, name=document_name(path), of=original)
                batch.finish(FileResult.skipped(path, SkipReason.COPY, of=original))
                continue
        result = outcome.get(original)
        if result is not None and result.skip is SkipReason.CLAIMED:
            batch.finish(FileResult.skipped(path, SkipReason.CLAIMED))
        else:
            problem = f"same content as {original}, which was not stored"
            batch.finish(FileResult.failed(path, InputError(path, problem)))


def _other_source(path: Path, stored_sha: str, stored_source: str, sha: str | None) -> bool:
    """Whether `path` is another file than the stored document's source, with other content
    (the same file moved or copied elsewhere is the same document)."""
    if sha == stored_sha:
        return False
    try:
        return Path(stored_source) != path.resolve()
    except OSError:
        return True


def _build_all(
    paths: Sequence[Path],
    batch: _Batch,
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


def _settle(path: Path, future: Future[_Written], batch: _Batch) -> bool:
    """The stored document's result shown; False when the database is gone."""
    written = future.result()
    if written.result is not None:
        batch.finish(written.result)
    if written.stopped is not None:
        batch.report.stopped = written.stopped
        return False
    return True


def _embed(prepared: Prepared, batch: _Batch, options: StoreOptions) -> Embedded | FileResult:
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
