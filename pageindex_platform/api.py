"""The Python API: one corpus of filings, the one entry point of every door (the `pi` CLI, the
MCP server, the web page) and of Python callers.

    from pageindex_platform import Corpus

    with Corpus.open(home="~/filings-corpus") as corpus:
        corpus.ingest(["./filings"])
        answer = corpus.ask("Best Buy Q2 FY2024 comparable sales")
        print(answer.answer, answer.citations[0])

A `Corpus` owns its store: its settings and its database connections are its own, never
process-wide, so two corpora open in one process are independent, and a closed one raises
`CorpusClosedError`. Every method returns a typed value whose `to_dict()` is the CLI's
`--json` shape; errors are the package's `PageIndexError`s (a database failure is a
`DatabaseError`), with the one-line message the CLI prints."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from functools import wraps
from pathlib import Path
from types import TracebackType
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from . import catalog
from .catalog import DocumentList, Listed, Page, PageRange, Removed, Section, Shown, Tree
from .db.engine import Database
from .errors import CorpusClosedError, DatabaseError, PageNotFoundError
from .index.report import (
    BatchStarted,
    FileBegun,
    FileDone,
    FileOutcome,
    FileResult,
    FileStatus,
    IngestReport,
    IngestSummary,
    Preparing,
    ProgressEvent,
    WorkerStopped,
)
from .search.results import (
    Answer,
    Citation,
    DocumentScore,
    EvidenceLine,
    MetricWorking,
    NodeRef,
    SearchHit,
    SearchResult,
    StatedFigure,
    WorkingInput,
)
from .search.router import Route
from .search.scope import Filters
from .settings import Mode, Settings, load_settings

__all__ = [
    "MAX_PAGE_CHARS",
    "Answer",
    "BatchStarted",
    "Citation",
    "Corpus",
    "DocumentList",
    "DocumentScore",
    "EvidenceLine",
    "FileBegun",
    "FileDone",
    "FileOutcome",
    "FileResult",
    "FileStatus",
    "Filters",
    "IngestReport",
    "IngestSummary",
    "Listed",
    "MetricWorking",
    "NodeRef",
    "Page",
    "PageRange",
    "Preparing",
    "ProgressEvent",
    "Removed",
    "Route",
    "SearchHit",
    "SearchResult",
    "Section",
    "Shown",
    "StatedFigure",
    "Tree",
    "WorkerStopped",
    "WorkingInput",
]

logger = logging.getLogger(__name__)

MAX_PAGE_CHARS = 20_000  # the default cap of `pages`: about 5,000 tokens
P = ParamSpec("P")
R = TypeVar("R")


def _guarded(method: Callable[Concatenate[Corpus, P], R]) -> Callable[Concatenate[Corpus, P], R]:
    """A method of an open corpus: a closed one raises CorpusClosedError; a database failure
    becomes the package's DatabaseError, in words a user can act on."""

    @wraps(method)
    def run(self: Corpus, /, *args: P.args, **kwargs: P.kwargs) -> R:
        if self._closed:
            raise CorpusClosedError(
                f"this corpus ({self._db.location}) is closed: open it again with Corpus.open()"
            )
        try:
            return method(self, *args, **kwargs)
        except DBAPIError as exc:
            raise DatabaseError(self._db.explain(exc)) from exc

    return run


class Corpus:
    """A corpus: the embedded database in `settings.home` (PI_HOME), or any PostgreSQL with
    pgvector at `settings.database_url` (PI_DATABASE_URL). Open one with `Corpus.open`."""

    def __init__(self, settings: Settings, *, mode: Mode | str | None = None) -> None:
        self._settings = settings
        self._db = Database(settings)
        self._mode = Mode(mode) if mode is not None else None
        self._closed = False
        self._vocabulary: Any = None

    @classmethod
    def open(
        cls,
        *,
        home: str | Path | None = None,
        database_url: str | None = None,
        mode: Mode | str | None = None,
    ) -> Corpus:
        """The corpus at `home` / `database_url` (None: the environment's PI_HOME and
        PI_DATABASE_URL, as `pi` reads them; the other settings from the environment too);
        `mode`: "local" or "llm" for questions (None: llm when PI_LLM_MODEL is set). The
        database is started and migrated on first use."""
        settings = load_settings(
            home=Path(home).expanduser() if home is not None else None,
            database_url=database_url,
        )
        return cls(settings, mode=mode)

    @property
    def settings(self) -> Settings:
        """This corpus's settings (its home, database, embedder, model)."""
        return self._settings

    @property
    def mode(self) -> Mode:
        """How questions are answered unless a call says otherwise."""
        return self._mode or self._settings.default_mode

    @property
    def db(self) -> Database:
        """This corpus's database (for the package's own tools: evaluation, `pi db`)."""
        if self._closed:
            raise CorpusClosedError(f"this corpus ({self._db.location}) is closed")
        return self._db

    def __enter__(self) -> Corpus:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the database connections; the corpus then raises CorpusClosedError (an
        embedded server keeps running for the next process, as after `pi`; `pi db stop`
        stops it)."""
        if not self._closed:
            self._db.dispose()
            self._closed = True

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with self._db.session() as session:
            yield session

    def _vocab(self) -> Any:
        from .search.vocabulary import Vocabulary

        if self._vocabulary is None:
            self._vocabulary = Vocabulary.load(self._settings.home)
        return self._vocabulary

    # --- reading ------------------------------------------------------------------------

    @_guarded
    def documents(
        self,
        *,
        documents: str | Sequence[str] = (),
        company: str | None = None,
        year: int | None = None,
        doc_type: str | None = None,
        period: str | None = None,
        limit: int | None = None,
        offset: int = 0,
    ) -> DocumentList:
        """Stored documents by name, those matching every filter given, `offset` onwards (at
        most `limit`); iterate over it, or read `documents`, `total` and `next_offset`."""
        from .search.scope import select

        filters = Filters.of(
            documents=documents, company=company, year=year, doc_type=doc_type, period=period
        )
        with self._session() as session:
            kept = None
            if filters:
                aliases = self._vocab().aliases
                chosen = select(session=session, filters=filters, aliases=aliases, strict=False)
                kept = {d.id for d in chosen}
            listed = catalog.list_documents(session=session, ids=kept)
        start = max(0, offset)
        end = None if limit is None else start + max(0, limit)
        shown = listed[start:end]
        after = start + len(shown)
        return DocumentList(shown, len(listed), start, after if after < len(listed) else None)

    @_guarded
    def document(self, name: str) -> Shown:
        """One document's metadata, sizes, tree source and warnings."""
        with self._session() as session:
            return catalog.show_document(session=session, name=name)

    @_guarded
    def tree(self, name: str, *, depth: int | None = None) -> Tree:
        """A document's tree (node ids, titles, page ranges); `depth` levels at most."""
        with self._session() as session:
            return catalog.document_tree(
                session=session, name=name, depth=None if depth is None else max(1, depth)
            )

    @_guarded
    def page(self, name: str, number: int) -> Page:
        """One page's stored text (1-based, as cited) and the section holding it."""
        with self._session() as session:
            return catalog.document_page(session=session, name=name, page=number)

    @_guarded
    def pages(
        self, name: str, first: int, last: int | None = None, *, max_chars: int = MAX_PAGE_CHARS
    ) -> PageRange:
        """Pages `first` to `last` (inclusive), until `max_chars` characters: a page that
        would pass it is cut, the rest left out, and `note` says where to go on."""
        last = first if last is None else last
        found: list[Page] = []
        used, truncated, note = 0, False, None
        with self._session() as session:
            document = catalog.document_page(session=session, name=name, page=first)
            if last < first or last > document.page_count:
                raise PageNotFoundError(name, last, document.page_count)
            for number in range(first, last + 1):
                page = (
                    document
                    if number == first
                    else catalog.document_page(session=session, name=name, page=number)
                )
                room = max_chars - used
                if len(page.text) > room:
                    truncated = True
                    if room > 0:
                        found.append(replace(page, text=page.text[:room]))
                    note = (
                        f"cut at {max_chars:,} characters in page {number}: its text "
                        f"{'after that is' if room > 0 else 'is'} left out, and the pages "
                        f"after it; ask for page {number} onwards to read on"
                    )
                    break
                found.append(page)
                used += len(page.text)
        return PageRange(document.name, document.page_count, found, truncated, note)

    # --- questions ----------------------------------------------------------------------

    @_guarded
    def ask(
        self,
        question: str,
        *,
        route: Route | str = Route.AUTO,
        hint: str | None = None,
        mode: Mode | str | None = None,
        documents: str | Sequence[str] = (),
        company: str | None = None,
        year: int | None = None,
        doc_type: str | None = None,
        period: str | None = None,
    ) -> Answer:
        """The `pi ask` answer: the stated figure or metric, the text, citations, the lines
        it stands on, warnings and route. The filters restrict which filings may answer;
        `documents` is a name or a list of names."""
        from .embeddings.space import EmbeddingSpace
        from .llm.openai_compatible import chat_for
        from .search.pipeline import ask

        filters = Filters.of(
            documents=documents, company=company, year=year, doc_type=doc_type, period=period
        )
        chosen = Mode(mode) if mode is not None else self._mode
        with chat_for(chosen, self._settings, self._db) as chat, self._session() as session:
            return ask(
                session=session,
                question=question,
                space=EmbeddingSpace.of_corpus(session, self._settings),
                vocabulary=self._vocab(),
                route=Route(route),
                hint=hint,
                chat=chat,
                filters=filters or None,
                location=self._db.location,
            )

    @_guarded
    def search(
        self,
        question: str,
        *,
        documents: str | Sequence[str] = (),
        company: str | None = None,
        year: int | None = None,
        doc_type: str | None = None,
        period: str | None = None,
        limit: int = 10,
    ) -> SearchResult:
        """The filings and pages a question selects, best first, each with a short snippet
        (the page's line sharing most words with the question); no answer is written."""
        from .search.snippets import search_result

        answer = self.ask(
            question,
            mode=Mode.LOCAL,
            documents=documents,
            company=company,
            year=year,
            doc_type=doc_type,
            period=period,
        )
        with self._session() as session:
            return search_result(session=session, answer=answer, limit=limit)

    # --- changing -----------------------------------------------------------------------

    @_guarded
    def ingest(
        self,
        paths: str | Path | Sequence[str | Path],
        *,
        force: bool = False,
        replace: bool = False,
        metadata: str | Path | Mapping[str, Mapping[str, Any]] | None = None,
        workers: int = 1,
        follow_links: bool = False,
        progress: Callable[[ProgressEvent], None] | None = None,
    ) -> IngestReport:
        """Ingest files and folders (PDF, HTML, EDGAR .txt, Markdown). A bad file is reported
        in the result and the batch goes on; each document is stored in one transaction.
        `metadata`: a CSV/JSONL file (or rows by file name) whose fields override the
        extracted ones; `workers`: processes dividing the batch; `progress`: called with
        each event (the batch's size, a file begun, a file done)."""
        from .index.overrides import load_overrides

        given = [paths] if isinstance(paths, str | Path) else list(paths)
        overrides = (
            load_overrides(Path(metadata))
            if isinstance(metadata, str | Path)
            else {k: dict(v) for k, v in (metadata or {}).items()}
        )
        from .llm.openai_compatible import chat_for

        with chat_for(self._mode, self._settings, self._db) as chat:
            return self._ingest(
                [Path(p).expanduser() for p in given],
                force=force,
                replace=replace,
                overrides=overrides or None,
                workers=workers,
                follow_links=follow_links,
                progress=progress,
                chat=chat,
            )

    def _ingest(
        self, paths: list[Path], *, workers: int, chat: Any, **options: Any
    ) -> IngestReport:
        if workers > 1:
            from .index.workers import ingest_with_workers

            return ingest_with_workers(
                db=self._db, paths=paths, workers=workers, llm=chat is not None, **options
            )
        from .index.pipeline import ingest_paths

        return ingest_paths(db=self._db, paths=paths, chat=chat, **options)

    @_guarded
    def remove(self, name: str) -> Removed:
        """Remove a document with its pages, tree and chunks; a linked copy's name removes
        the link alone (`copy_of` names the document that stays)."""
        with self._session() as session:
            return catalog.remove_document(session=session, name=name)
