"""The ingest flow: discover files, prepare them (in a worker process, one file ahead), embed
their chunks, and store each document in ONE transaction.

A run killed at any point leaves only whole documents behind; the next run skips what is
stored unchanged (same name and sha256) and finishes the rest.
"""

from __future__ import annotations

import ctypes
import hashlib
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

import numpy as np
from sqlalchemy import delete, insert, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..db.embedded import process_alive
from ..db.engine import (
    connection_lost,
    disk_full,
    explain_failure,
    reconnect,
    session_scope,
)
from ..db.tables import Chunk, Document, Fact, Node, Page
from ..embeddings import Embedder, description_embedder, get_embedder
from ..errors import InputError, UnreadableFileError
from ..llm import StructuredChat, Usage
from ..records import PreparedDocument, TreeNode
from ..settings import get_settings
from .build import (
    SUPPORTED_SUFFIXES,
    TEXT_SUFFIXES,
    BuildOptions,
    document_name,
    prepare_document,
)
from .chunking import chunk_pages
from .llm_tree import build_llm_tree
from .metadata import letters
from .overrides import apply_overrides
from .submission import is_submission


class FileStatus(StrEnum):
    STORED = "stored"
    SKIPPED = "skipped"
    FAILED = "failed"
    WORKING = "working"  # only in a progress "begin" event, never in a report


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
    error: str | None = None
    stages: dict[str, float] = field(default_factory=dict)
    usage: dict[str, Any] = field(default_factory=dict)  # LLM calls, tokens, cost (llm mode)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["status"] = str(self.status)
        out["seconds"] = round(self.seconds, 3)
        out["stages"] = {k: round(v, 3) for k, v in self.stages.items()}
        return out


@dataclass
class IngestReport:
    files: list[FileResult] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
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
            "pages": sum(f.pages for f in self.files if f.status == FileStatus.STORED),
            "chunks": sum(f.chunks for f in self.files if f.status == FileStatus.STORED),
            "seconds": round(self.seconds, 3),
            "stopped": self.stopped,
            "not_attempted": self.not_attempted,
        }


CLAIMED_ELSEWHERE = "claimed by another worker"
# a stored document's distinct words (documents.lexemes), from its chunks (`d` is the document)
DOCUMENT_LEXEMES = (
    "(SELECT strip(tsvector_agg(strip(c.tsv))) FROM chunks c WHERE c.document_id = d.id)"
)

Progress = Callable[[str, FileResult | None, int], None]
"""Called as progress(event, result, total_files): event is 'start' (result None), 'begin'
(a file's embedding and storing starts: status WORKING) or 'file' (a file is finished)."""


def discover(paths: Iterable[Path]) -> tuple[list[Path], list[FileResult], list[str]]:
    """Files to ingest (folders recursively), failures for named paths that cannot be
    ingested, and files inside folders that were ignored for their extension."""
    files: list[Path] = []
    failures: list[FileResult] = []
    ignored: list[str] = []
    for path in paths:
        if path.is_dir():
            for child in sorted(path.rglob("*")):
                if child.name.startswith(".") or child.is_dir():
                    continue
                if child.suffix.lower() in SUPPORTED_SUFFIXES and (
                    child.suffix.lower() not in TEXT_SUFFIXES or _is_submission_file(child)
                ):  # a .txt found in a folder is taken when it is an EDGAR submission
                    files.append(child)
                else:
                    ignored.append(str(child))
        elif path.suffix.lower() in SUPPORTED_SUFFIXES and (path.exists() or path.is_symlink()):
            files.append(path)
        else:
            error = (
                UnreadableFileError(path, "no such file or folder")
                if not path.exists() and not path.is_symlink()
                else prepare_error(path)
            )
            failures.append(_failed(path, error))
    return files, failures, ignored


def _is_submission_file(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            return is_submission(f.read(4096).decode("utf-8", errors="replace"))
    except OSError:
        return True  # let ingest report why it cannot be read


def prepare_error(path: Path) -> InputError:
    try:
        prepare_document(path, BuildOptions())
    except InputError as exc:
        return exc
    return InputError(path)  # pragma: no cover - discover only calls this for bad paths


def _failed(path: Path, error: Exception, seconds: float = 0.0) -> FileResult:
    """A failed file, with its problem on one short line."""
    if isinstance(error, InputError):
        detail = error.detail
    else:
        cause = getattr(error, "orig", None) or error  # SQLAlchemy wraps the driver's error
        lines = str(cause).strip().splitlines() or [""]
        detail = f"{type(cause).__name__}: {lines[0][:300]}"
    return FileResult(
        path=str(path),
        name=document_name(path),
        status=FileStatus.FAILED,
        seconds=seconds,
        error=detail,
    )


def _sha256(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None  # prepare_document reports the problem


def _die_with_parent(parent: int) -> None:
    """In a parse worker: end when the ingest that started it ends, even by `kill -9` — the
    kernel's parent-death signal where there is one (Linux), and a watch on the parent."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


PR_SET_PDEATHSIG = 1


def _prepare_in_worker(path: str, options: BuildOptions) -> PreparedDocument | InputError:
    try:
        return prepare_document(Path(path), options)
    except InputError as exc:
        return exc


def build_options() -> BuildOptions:
    s = get_settings()
    return BuildOptions(
        toc_pages=s.toc_pages,
        chunk_tokens=s.chunk_tokens,
        split_max_pages=s.split_max_pages,
        split_max_tokens=s.split_max_tokens,
    )


class ClaimedElsewhere(Exception):
    """Another worker holds a live claim on this document."""


class StoredMeanwhile(Exception):
    """Another worker stored this very file after this batch looked."""


def _database_gone(exc: BaseException) -> bool:
    """The database cannot be reached or written: no later document could be stored."""
    return connection_lost(exc) or disk_full(exc)


def _stored_sha(name: str) -> str | None:
    with session_scope() as session:
        return session.scalar(select(Document.sha256).where(Document.name == name))


def _take(path: Path, force: bool) -> Exception | None:
    """Claim `path`'s document for this worker: None when it is ours to build, else why not."""
    name = document_name(path)
    if not _claimed(name):
        return ClaimedElsewhere()
    if not force:
        try:
            sha = _stored_sha(name)
        except Exception as exc:
            if _database_gone(exc):
                return None
            raise
        if sha is not None and sha == _sha256(path):
            release(name)
            return StoredMeanwhile()
    return None


WORKER = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def claim(name: str) -> bool:
    """Claim a document for this worker (or renew its claim): true unless another worker
    holds a claim that has not expired. One statement, so two workers cannot both win. A
    claim of a worker on this machine whose process is gone (killed) is taken over at once;
    one from another machine, when its lease expires."""
    lease = get_settings().ingest_lease_seconds
    with session_scope() as session:
        won = session.execute(
            text(
                "INSERT INTO ingest_claims (name, worker, expires_at) "
                "VALUES (:n, :w, now() + make_interval(secs => :lease)) "
                "ON CONFLICT (name) DO UPDATE SET worker = EXCLUDED.worker, "
                "expires_at = EXCLUDED.expires_at "
                "WHERE ingest_claims.expires_at < now() OR ingest_claims.worker = EXCLUDED.worker "
                "RETURNING worker"
            ),
            {"n": name, "w": WORKER, "lease": lease},
        ).first()
        if won is not None:
            return True
        holder = session.scalar(
            text("SELECT worker FROM ingest_claims WHERE name = :n"), {"n": name}
        )
        host, _, rest = (holder or "").partition(":")
        pid = rest.partition(":")[0]
        if host != socket.gethostname() or not pid.isdigit() or process_alive(int(pid)):
            return False
        taken = session.execute(
            text(
                "UPDATE ingest_claims SET worker = :w, "
                "expires_at = now() + make_interval(secs => :lease) "
                "WHERE name = :n AND worker = :holder RETURNING worker"
            ),
            {"n": name, "w": WORKER, "lease": lease, "holder": holder},
        ).first()
    return taken is not None


def _claimed(name: str) -> bool:
    """`claim`, going ahead when the database cannot be reached: storing the document will
    meet the same problem and stop the batch with its explanation (or reconnect)."""
    try:
        return claim(name)
    except Exception as exc:
        if _database_gone(exc):
            return True
        raise


def release(name: str, session: Session | None = None) -> None:
    """Drop this worker's claim (inside the caller's transaction when given)."""
    statement = text("DELETE FROM ingest_claims WHERE name = :n AND worker = :w")
    if session is not None:
        session.execute(statement, {"n": name, "w": WORKER})
        return
    try:
        with session_scope() as own:
            own.execute(statement, {"n": name, "w": WORKER})
    except Exception as exc:  # the claim expires on its own
        if not _database_gone(exc):
            raise


def _prepared_stream(
    paths: list[Path], options: BuildOptions, parallel: bool, force: bool = False
) -> Iterator[tuple[Path, PreparedDocument | Exception, float]]:
    """Prepared documents in order, each claimed first (a document another worker has
    claimed comes back as ClaimedElsewhere, unprepared); with `parallel`, the next file is
    prepared in a worker process while the caller embeds and stores the current one."""
    if not parallel or len(paths) < 2:
        for path in paths:
            taken = _take(path, force)
            if taken is not None:
                yield path, taken, 0.0
                continue
            started = time.perf_counter()
            try:
                yield path, prepare_document(path, options), time.perf_counter() - started
            except Exception as exc:  # reported per file; the batch goes on
                yield path, exc, time.perf_counter() - started
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        max_workers=1, mp_context=context, initializer=_die_with_parent, initargs=(os.getpid(),)
    ) as pool:
        pending: list[tuple[Path, Future[PreparedDocument | InputError], float]] = []
        queue = list(paths)
        try:
            while queue or pending:
                while queue and len(pending) < 2:
                    path = queue.pop(0)
                    taken = _take(path, force)
                    if taken is not None:
                        yield path, taken, 0.0
                        continue
                    future = pool.submit(_prepare_in_worker, str(path), options)
                    pending.append((path, future, time.perf_counter()))
                if not pending:
                    continue
                path, future, submitted = pending.pop(0)
                try:
                    outcome: PreparedDocument | Exception = future.result()
                except Exception as exc:
                    outcome = exc
                yield path, outcome, time.perf_counter() - submitted
        finally:
            for _, future, _ in pending:
                future.cancel()


def ingest_paths(
    *,
    paths: Iterable[Path],
    force: bool = False,
    overrides: dict[str, dict[str, Any]] | None = None,
    embedder: Embedder | None = None,
    progress: Progress | None = None,
    parallel: bool = True,
    chat: StructuredChat | None = None,
    replace: bool = False,
) -> IngestReport:
    """Ingest files and folders. Bad files are reported and the batch goes on.

    A stored document is rebuilt when its own source file changed; a different file with the
    same name (the file stem) is refused unless `replace` — nothing stored is lost unasked.
    With `chat` (llm mode) the model refines each tree and writes summaries; without it
    everything is deterministic (local mode)."""
    started = time.perf_counter()
    files, failures, ignored = discover(paths)
    report = IngestReport(files=list(failures), ignored=ignored)
    if progress:
        progress("start", None, len(files) + len(failures))
        for failure in failures:
            progress("file", failure, 0)

    def finish(result: FileResult) -> None:
        report.files.append(result)
        if progress:
            progress("file", result, 0)

    to_prepare: list[Path] = []
    seen: dict[str, Path] = {}
    with session_scope() as session:
        stored = {
            name: (sha, source)
            for name, sha, source in session.execute(
                select(Document.name, Document.sha256, Document.source_path)
            )
        }
    for path in files:
        name = document_name(path)
        if name in seen:
            finish(
                _failed(
                    path,
                    InputError(
                        path,
                        f"duplicate document name '{name}' "
                        f"(also {seen[name]}); rename one of the files",
                    ),
                )
            )
            continue
        seen[name] = path
        sha = _sha256(path) if name in stored else None
        if name in stored and not replace and _other_source(path, *stored[name], sha):
            finish(
                _failed(
                    path,
                    InputError(
                        path,
                        (
                            f"a different document named '{name}' is already stored (from "
                            f"{stored[name][1]}); use --replace to replace it, or rename this file"
                        ),
                    ),
                )
            )
            continue
        if not force and name in stored and stored[name][0] == sha:
            if overrides and name in overrides:
                _override_stored(name, overrides[name], embedder)
            finish(FileResult(path=str(path), name=name, status=FileStatus.SKIPPED))
            continue
        to_prepare.append(path)

    if to_prepare:
        embedder = embedder or get_embedder()
    done: set[Path] = set()
    stream = _prepared_stream(to_prepare, build_options(), parallel, force)
    for path, outcome, prep_seconds in stream:
        done.add(path)
        if isinstance(outcome, (ClaimedElsewhere, StoredMeanwhile)):  # another worker's
            why = CLAIMED_ELSEWHERE if isinstance(outcome, ClaimedElsewhere) else None
            result = FileResult(
                path=str(path), name=document_name(path), status=FileStatus.SKIPPED, error=why
            )
            finish(result)
            continue
        if isinstance(outcome, Exception):
            release(document_name(path))
            finish(_failed(path, outcome, prep_seconds))
            continue
        _claimed(outcome.name)  # renew the lease for the embedding
        assert embedder is not None
        if progress:
            working = FileResult(
                path=str(path),
                name=outcome.name,
                status=FileStatus.WORKING,
                pages=len(outcome.pages),
            )
            progress("begin", working, 0)
        for attempt in (1, 2):  # a second time after the database came back
            try:
                finish(_embed_and_store(outcome, embedder, overrides or {}, chat))
            except KeyboardInterrupt:
                raise
            except IntegrityError as exc:
                release(outcome.name)
                if "documents_name_key" not in str(exc.orig):
                    finish(_failed(path, exc, prep_seconds))
                else:  # another ingest stored the same name between our check and our write
                    finish(_stored_meanwhile(path, outcome))
            except Exception as exc:
                if connection_lost(exc) and not disk_full(exc) and attempt == 1 and reconnect():
                    continue
                if _database_gone(exc):  # no later file could be stored
                    report.stopped = explain_failure(exc)
                    done.discard(path)
                    break
                release(outcome.name)
                finish(_failed(path, exc, prep_seconds))
            break
        if report.stopped:
            break
    if report.stopped:
        report.not_attempted = [str(p) for p in to_prepare if p not in done]
    report.seconds = time.perf_counter() - started
    return report


def _stored_meanwhile(path: Path, doc: PreparedDocument) -> FileResult:
    if _stored_sha(doc.name) == doc.sha256:
        return FileResult(path=str(path), name=doc.name, status=FileStatus.SKIPPED)
    return _failed(
        path,
        InputError(
            path,
            f"another ingest stored a different '{doc.name}' at the same time; run again to decide",
        ),
    )


def _other_source(path: Path, stored_sha: str, stored_source: str, sha: str | None) -> bool:
    """Whether `path` is another file than the stored document's source, with other content
    (the same file moved or copied elsewhere is the same document)."""
    if sha == stored_sha:
        return False
    try:
        return Path(stored_source) != path.resolve()
    except OSError:
        return True


def _override_stored(name: str, row: dict[str, Any], embedder: Embedder | None) -> None:
    """`--metadata` for an unchanged, already stored document: its metadata is updated
    (the description's embedding too, the only case that loads the embedder) without
    rebuilding it."""
    with session_scope() as session:
        doc = session.scalars(select(Document).where(Document.name == name)).one()
        before = doc.description
        apply_overrides(doc, row)
        if doc.description and doc.description != before:
            doc.description_embedding = description_embedder(embedder or get_embedder()).embed(
                [doc.description]
            )[0]


def _embed_and_store(
    doc: PreparedDocument,
    embedder: Embedder,
    overrides: dict[str, dict[str, Any]],
    chat: StructuredChat | None,
) -> FileResult:
    stages = dict(doc.seconds)
    usage = Usage()
    if chat is not None:
        started = time.perf_counter()
        refine_with_llm(doc, chat, usage)
        stages["llm"] = time.perf_counter() - started
    if doc.name in overrides:
        apply_overrides(doc.metadata, overrides[doc.name])
    t0 = time.perf_counter()
    described = description_embedder(embedder).embed([doc.metadata.description or doc.name])
    vectors = np.vstack([embedder.embed([c.text for c in doc.chunks]), described])
    stages["embed"] = time.perf_counter() - t0
    t1 = time.perf_counter()
    with session_scope() as session:
        store_document(
            session=session,
            doc=doc,
            vectors=vectors,
            embedder_name=embedder.name,
            usage=usage.to_dict() if chat is not None else {},
        )
    stages["database"] = time.perf_counter() - t1
    # Preparation overlaps the previous file's embedding; count its own time, not the wait.
    seconds = sum(stages.values())
    return FileResult(
        path=doc.path,
        name=doc.name,
        status=FileStatus.STORED,
        pages=doc.page_count,
        nodes=len(doc.all_nodes()),
        chunks=len(doc.chunks),
        seconds=seconds,
        stages=stages,
        usage=usage.to_dict() if chat is not None else {},
    )


def refine_with_llm(doc: PreparedDocument, chat: StructuredChat, usage: Usage) -> None:
    """Replace the deterministic tree, summaries and description with the LLM-mode ones.
    Never raises for model failures: those become warnings on the document."""
    s = get_settings()
    result = chat.run(
        build_llm_tree(
            doc,
            chat,
            usage=usage,
            max_pages=s.split_max_pages,
            max_tokens=s.split_max_tokens,
            toc_check_pages=s.llm_toc_check_pages,
        )
    )
    doc.tree, doc.tree_source, doc.sections = result.tree, result.source, result.sections
    doc.warnings.extend(result.warnings)
    if result.description:
        doc.metadata.description = result.description
    doc.chunks = chunk_pages(doc.pages, doc.tree, max_tokens=s.chunk_tokens)


def store_document(
    *,
    session: Session,
    doc: PreparedDocument,
    vectors: Any,
    embedder_name: str,
    usage: dict[str, Any] | None = None,
) -> int:
    """Replace any stored document of the same name with `doc`, inside the caller's transaction."""
    session.execute(delete(Document).where(Document.name == doc.name))
    release(doc.name, session)  # with the document stored, in the same transaction
    meta = doc.metadata
    if meta.company:
        meta.company = stored_spelling(session, meta.company)
    document = Document(
        name=doc.name,
        source_path=str(Path(doc.path).resolve()),
        sha256=doc.sha256,
        status="ready",
        page_count=doc.page_count,
        company=meta.company,
        company_aliases=meta.company_aliases,
        doc_type=meta.doc_type,
        fiscal_year=meta.fiscal_year,
        fiscal_period=meta.fiscal_period,
        period_end=meta.period_end,
        cik=meta.cik,
        title=meta.title,
        description=meta.description,
        description_embedding=vectors[-1],
        tree_source=str(doc.tree_source),
        embedder=embedder_name,
        warnings=doc.warnings,
        usage=usage or {},
    )
    session.add(document)
    session.flush()
    doc_id = document.id
    session.execute(
        insert(Page), [{"document_id": doc_id, "page": p.page, "text": p.text} for p in doc.pages]
    )
    session.execute(insert(Node), list(_node_rows(doc_id, doc.tree)))
    if doc.facts:
        session.execute(
            insert(Fact),
            [
                {
                    "document_id": doc_id,
                    "concept": f.concept,
                    "value": f.value,
                    "unit": f.unit,
                    "decimals": f.decimals,
                    "period_start": f.period_start,
                    "period_end": f.period_end,
                    "dimensions": [list(d) for d in f.dimensions],
                    "page": f.page,
                }
                for f in doc.facts
            ],
        )
    if doc.chunks:
        session.execute(
            insert(Chunk),
            [
                {
                    "document_id": doc_id,
                    "node_id": c.node_id,
                    "page": c.page,
                    "text": c.text,
                    "embedding": vectors[i],
                }
                for i, c in enumerate(doc.chunks)
            ],
        )
        session.execute(
            text(f"UPDATE documents d SET lexemes = {DOCUMENT_LEXEMES} WHERE d.id = :id"),
            {"id": doc_id},
        )
    return doc_id


def stored_spelling(session: Session, company: str) -> str:
    """The spelling already stored for this company when one differs only in case, spacing
    or punctuation ("McDONALD’S CORPORATION" / "McDonald's Corporation"), so that one company
    is stored under one name."""
    wanted = letters(company)
    for stored in session.execute(
        text("SELECT DISTINCT company FROM documents WHERE company IS NOT NULL")
    ).scalars():
        if letters(stored) == wanted:
            return str(stored)
    return company


def _node_rows(doc_id: int, roots: list[TreeNode]) -> Iterator[dict[str, Any]]:
    def visit(nodes: list[TreeNode], parent: str | None, depth: int) -> Iterator[dict[str, Any]]:
        for position, node in enumerate(nodes):
            yield {
                "document_id": doc_id,
                "node_id": node.node_id,
                "parent_node_id": parent,
                "title": node.title,
                "start_page": node.start_page,
                "end_page": node.end_page,
                "depth": depth,
                "position": position,
                "summary": node.summary,
            }
            yield from visit(node.children, node.node_id, depth + 1)

    yield from visit(roots, None, 0)
