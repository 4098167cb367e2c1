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
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from types import TracebackType
from typing import Any

from . import catalog
from .db.engine import Database
from .db.sql import PlainSession
from .errors import CorpusClosedError
from .guard import guarded
from .results import *  # noqa: F403 - the API's types, re-exported
from .results import (
    Answer,
    DocumentList,
    Filters,
    IngestReport,
    Mode,
    Page,
    PageRange,
    PageSheet,
    ProgressEvent,
    Refreshed,
    Removed,
    Route,
    SearchResult,
    Shown,
    Tree,
)
from .results import __all__ as _types
from .settings import Settings, load_settings

__all__ = ["MAX_PAGE_CHARS", "Corpus", *_types]

logger = logging.getLogger(__name__)

MAX_PAGE_CHARS = 20_000  # the default cap of `pages`: about 5,000 tokens


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
        """The corpus at `home` (its embedded database, whatever PI_DATABASE_URL says) or at
        `database_url`; neither: the environment's PI_HOME and PI_DATABASE_URL, as `pi` reads
        them. The other settings come from the environment. `mode`: "local" or "llm" for
        questions (None: llm when PI_LLM_MODEL is set). The database is started and migrated
        on first use."""
        if home is not None and database_url is None:
            database_url = ""  # the home's embedded database, not the environment's URL
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
    def _session(self) -> Iterator[PlainSession]:
        """A reading session (plain psycopg: no SQLAlchemy imported to read)."""
        with self._db.reader() as session:
            yield session

    def _chat(self, mode: Mode | None) -> AbstractContextManager[Any]:
        """The chat model of llm mode (None in local mode, whose questions never import the
        model's client)."""
        if (mode or self._settings.default_mode) != Mode.LLM:
            return nullcontext(None)
        from .llm.openai_compatible import chat_for

        return chat_for(Mode.LLM, self._settings, self._db)

    def _vocab(self) -> Any:
        from .search.vocabulary import Vocabulary

        if self._vocabulary is None:
            self._vocabulary = Vocabulary.load(self._settings.home)
        return self._vocabulary

    # --- reading ------------------------------------------------------------------------

    @guarded
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

    @guarded
    def document(self, name: str) -> Shown:
        """One document's metadata, sizes, tree source and warnings."""
        with self._session() as session:
            return catalog.show_document(session=session, name=name)

    @guarded
    def tree(self, name: str, *, depth: int | None = None) -> Tree:
        """A document's tree (node ids, titles, page ranges); `depth` levels at most."""
        with self._session() as session:
            return catalog.document_tree(
                session=session, name=name, depth=None if depth is None else max(1, depth)
            )

    @guarded
    def page(self, name: str, number: int) -> Page:
        """One page's stored text (1-based, as cited) and the section holding it."""
        with self._session() as session:
            return catalog.document_page(session=session, name=name, page=number)

    @guarded
    def pages(
        self, name: str, first: int, last: int | None = None, *, max_chars: int = MAX_PAGE_CHARS
    ) -> PageRange:
        """Pages `first` to `last` (inclusive), until `max_chars` characters: a page that
        would pass it is cut, the rest left out, and `note` says where to go on."""
        with self._session() as session:
            return catalog.page_range(
                session=session,
                name=name,
                first=first,
                last=first if last is None else last,
                max_chars=max_chars,
            )

    # --- questions ----------------------------------------------------------------------

    @guarded
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
        from .search.pipeline import ask

        filters = Filters.of(
            documents=documents, company=company, year=year, doc_type=doc_type, period=period
        )
        chosen = Mode(mode) if mode is not None else self._mode
        with self._chat(chosen) as chat, self._session() as session:
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

    @guarded
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

    @guarded
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
        from .index.batch import ingest_batch

        given = [paths] if isinstance(paths, str | Path) else list(paths)
        with self._chat(self._mode) as chat:
            return ingest_batch(
                db=self._db,
                paths=[Path(p).expanduser() for p in given],
                chat=chat,
                metadata=metadata,
                workers=workers,
                progress=progress,
                force=force,
                replace=replace,
                follow_links=follow_links,
            )

    @guarded
    def set_metadata(
        self,
        name: str,
        *,
        company: str | None = None,
        year: int | None = None,
        doc_type: str | None = None,
        period: str | None = None,
    ) -> Shown:
        """Correct a stored document's metadata by its name: the values given win over what
        its pages say and over a `--metadata` row, and apply again when the same content is
        ingested again. The document as now stored is returned."""
        from .index.corrections import checked_fields
        from .index.rederive import correct, describer

        fields = checked_fields(company=company, year=year, doc_type=doc_type, period=period)
        done = correct(db=self._db, name=name, fields=fields, describe=describer(self._settings))
        return self.document(done.name)

    @guarded
    def refresh(self, names: str | Sequence[str] | None = None) -> Refreshed:
        """Derive the stored documents' metadata again from their stored pages (those named,
        else all), with the corpus's evidence and users' corrections: after an upgrade of
        the extractor, without parsing or embedding the files again."""
        from .index.rederive import describer, rederive

        wanted = [names] if isinstance(names, str) else names
        done = rederive(db=self._db, names=wanted, describe=describer(self._settings))
        return Refreshed(done, sum(bool(d.changed) for d in done))

    @guarded
    def remove(self, name: str) -> Removed:
        """Remove a document with its pages, tree and chunks; a linked copy's name removes
        the link alone (`copy_of` names the document that stays)."""
        with self._session() as session:
            return catalog.remove_document(session=session, name=name)

    # --- pages as printed ---------------------------------------------------------------

    @guarded
    def page_sheet(self, name: str, number: int, lines: Sequence[str] = ()) -> PageSheet:
        """Page `number` as the filing prints it: for a PDF still as ingested, its size and
        boxes (PDF points) over the printed lines holding each of `lines` (evidence lines,
        as in `Answer.evidence`), its image from `page_image`; otherwise its stored text with
        those lines marked, and `notice` saying why there is no image."""
        from .sheets import page_sheet

        return page_sheet(**self._printed(name, number), lines=lines)

    @guarded
    def page_image(self, name: str, number: int) -> bytes:
        """Page `number` of a PDF filing rendered as PNG (at most `sheets.MAX_PIXELS`
        pixels), from the ingested bytes only: an UnreadableFileError when the filing is not
        a PDF, its file is gone, or it changed since it was ingested."""
        from .sheets import page_image

        return page_image(**self._printed(name, number))

    def _printed(self, name: str, number: int) -> dict[str, Any]:
        with self._session() as session:
            page = catalog.document_page(session=session, name=name, page=number)
            shown = catalog.show_document(session=session, name=name)
        return {"page": page, "source": shown.source_path, "sha256": shown.sha256}
