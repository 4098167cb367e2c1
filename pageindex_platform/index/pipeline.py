"""The ingest flow, top-down: discover the files → decide which to build (unchanged files
skipped, a different file under a stored name refused) → wait for an ingest seat → build them
(`building.py`: prepared ahead in worker processes, each claimed first, then embedded and
stored, each document in ONE transaction, reconnecting once when the database went away).

A run killed at any point leaves only whole documents behind; the next run skips what is
stored unchanged (same name and sha256) and finishes the rest.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..db import queries
from ..db.engine import Database, database_gone
from ..embeddings import Embedder, prepare_models
from ..errors import InputError
from ..llm import StructuredChat
from .batch_state import Batch
from .build import BuildOptions, document_name
from .claims import Claims, file_sha256
from .discover import discover
from .report import (
    BatchStarted,
    FileResult,
    IngestReport,
    Progress,
    SkipReason,
)
from .slots import CpuSlots

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
    batch = Batch(db, Claims(db), report, progress)
    batch.notify(BatchStarted(len(found.files) + len(found.failures)))
    for failure in found.failures:
        batch.finish(failure)
    plan = _to_build(
        found.files, batch, force=force, replace=replace, overrides=overrides, embedder=embedder
    )
    if plan.build:
        workers = (parse_workers or None) if parallel else 0  # None: the slots' share
        _build_seated(
            plan.build, batch, embedder=embedder, overrides=overrides, chat=chat, workers=workers,
            force=force,
        )  # fmt: skip
    _link_copies(plan.copies, batch)
    batch.report.seconds = time.perf_counter() - started
    return batch.report


@dataclass(frozen=True)
class _Plan:
    build: list[Path]  # the files to prepare and store
    copies: list[tuple[Path, str, str]]  # a file with another's content: its sha256, that name


def _to_build(
    files: Sequence[Path],
    batch: Batch,
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
    with batch.db.reader() as session:
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
                from .store import override_stored

                override_stored(db=batch.db, name=name, row=overrides[name], embedder=embedder)
            batch.finish(FileResult.skipped(path))
            continue
        plan.build.append(path)
    return plan


def _build_seated(
    paths: Sequence[Path],
    batch: Batch,
    *,
    embedder: Embedder | None,
    overrides: dict[str, dict[str, Any]] | None,
    chat: StructuredChat | None,
    workers: int | None,
    force: bool,
) -> None:
    """Build `paths` holding one of the machine's ingest seats (waited for). The files another
    process stored meanwhile are skipped first; what builds the rest (the PDF reader, numpy,
    SQLAlchemy's ORM, the models) is loaded only when files are left, so a process that
    waited for a seat while others stored its batch ends without loading any of it."""
    db = batch.db
    slots = CpuSlots.of(db.settings)
    with slots.ingesting():
        left = list(paths) if force else _not_stored_meanwhile(paths, batch)
        if not left:
            return
        from .building import build_all
        from .store import StoreOptions

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
        build_all(left, batch, options, workers=workers, force=force)


def _not_stored_meanwhile(paths: Sequence[Path], batch: Batch) -> list[Path]:
    """`paths` less the files another process stored, unchanged, since the batch was planned:
    each a skip, as building it would find. A database gone meanwhile leaves them all to the
    building, which reconnects (or says the batch stopped) as it does for any file."""
    names = [document_name(p) for p in paths]
    try:
        with batch.db.reader() as session:
            stored = {d.name: d.sha256 for d in queries.documents(session, names=names)}
    except Exception as exc:
        if not database_gone(exc):
            raise
        return list(paths)
    left = []
    for path, name in zip(paths, names, strict=True):
        if name in stored and stored[name] == file_sha256(path):
            batch.finish(FileResult.skipped(path, SkipReason.UNCHANGED))
        else:
            left.append(path)
    return left


def _link_copies(copies: Sequence[tuple[Path, str, str]], batch: Batch) -> None:
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
