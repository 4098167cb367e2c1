"""The Python API: one corpus of filings, as the `pi` CLI and the MCP server use it.

    from pageindex_platform import Corpus

    with Corpus.open(home="~/filings-corpus") as corpus:
        corpus.ingest(["./filings"])
        answer = corpus.ask("Best Buy Q2 FY2024 comparable sales")
        print(answer.answer, answer.citations[0])

Every method returns a typed value whose `to_dict()` is the CLI's `--json` shape; errors are
the package's `PageIndexError`s, with the one-line message the CLI prints."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import TracebackType
from typing import Any

from sqlalchemy.orm import Session

from . import catalog
from .catalog import Listed, Page, Shown, Tree
from .errors import PageNotFoundError
from .index.report import IngestReport, ProgressEvent
from .search.results import Answer
from .search.router import Route
from .search.scope import Filters
from .settings import Mode

logger = logging.getLogger(__name__)

MAX_PAGE_CHARS = 20_000  # the default cap of `pages`: about 5,000 tokens
_WORD = re.compile(r"[a-z0-9]{3,}")


@dataclass(frozen=True)
class PageRange:
    """Pages' stored text, first to last, cut at `max_chars` (and said so)."""

    name: str
    page_count: int
    pages: list[Page]
    truncated: bool
    note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "page_count": self.page_count,
            "pages": [p.to_dict() for p in self.pages],
            "truncated": self.truncated,
            "note": self.note,
        }


@dataclass(frozen=True)
class SearchHit:
    document: str
    page: int
    section: str | None
    snippet: str


@dataclass(frozen=True)
class SearchResult:
    """A question's ranked filings and pages, with short snippets: no answer written."""

    question: str
    route: str
    route_reason: str
    documents: list[dict[str, Any]]
    pages: list[SearchHit] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "route": self.route,
            "route_reason": self.route_reason,
            "documents": self.documents,
            "pages": [
                {"document": h.document, "page": h.page, "section": h.section, "snippet": h.snippet}
                for h in self.pages
            ],
            "warnings": self.warnings,
        }


class Corpus:
    """A corpus: the embedded database in `home` (PI_HOME), or any PostgreSQL with pgvector
    at `database_url` (PI_DATABASE_URL). A process works on one corpus at a time: opening
    one points the package's settings at it."""

    def __init__(self) -> None:
        self._closed = False

    @classmethod
    def open(
        cls,
        *,
        home: str | Path | None = None,
        database_url: str | None = None,
        mode: Mode | str | None = None,
    ) -> Corpus:
        """The corpus at `home` / `database_url` (None: the environment's, as `pi` reads
        it); `mode`: "local" or "llm" for questions (None: llm when PI_LLM_MODEL is set).
        The database is started and migrated on first use."""
        from .db import dispose_engines
        from .settings import configure

        dispose_engines()
        configure(
            home=Path(home).expanduser() if home is not None else None,
            database_url=database_url,
        )
        corpus = cls()
        corpus._mode = Mode(mode) if mode is not None else None
        return corpus

    _mode: Mode | None = None

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
        """Close the database connections and give the settings back to the environment
        (an embedded server keeps running for the next process, as after `pi`; `pi db stop`
        stops it)."""
        from .db import dispose_engines
        from .settings import configure

        if not self._closed:
            dispose_engines()
            configure()
            self._closed = True

    @contextmanager
    def _session(self) -> Iterator[Session]:
        from .db import session_scope

        with session_scope() as session:
            yield session

    # --- reading ------------------------------------------------------------------------

    def documents(
        self,
        *,
        company: str | None = None,
        year: int | None = None,
        doc_type: str | None = None,
        period: str | None = None,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[Listed]:
        """Stored documents by name, those matching every filter given, `offset` onwards
        (at most `limit`)."""
        from .search.scope import select
        from .search.vocabulary import Vocabulary
        from .settings import get_settings

        filters = Filters.of(company=company, year=year, doc_type=doc_type, period=period)
        with self._session() as session:
            listed = catalog.list_documents(session=session)
            if filters:
                aliases = Vocabulary.load(get_settings().home).aliases
                kept = {
                    d.id
                    for d in select(session=session, filters=filters, aliases=aliases, strict=False)
                }
                listed = [item for item in listed if item.document.id in kept]
        end = None if limit is None else offset + max(0, limit)
        return listed[max(0, offset) : end]

    def document(self, name: str) -> Shown:
        """One document's metadata, sizes, tree source and warnings."""
        with self._session() as session:
            return catalog.show_document(session=session, name=name)

    def tree(self, name: str, *, depth: int | None = None) -> Tree:
        """A document's tree (node ids, titles, page ranges); `depth` levels at most."""
        with self._session() as session:
            found = catalog.document_tree(session=session, name=name)
        return found if depth is None else Tree(found.tree, depth=max(1, depth))

    def page(self, name: str, number: int) -> Page:
        """One page's stored text (1-based, as cited) and the section holding it."""
        with self._session() as session:
            return catalog.document_page(session=session, name=name, page=number)

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

    def ask(
        self,
        question: str,
        *,
        route: Route | str = Route.AUTO,
        hint: str | None = None,
        mode: Mode | str | None = None,
        documents: Sequence[str] = (),
        company: str | None = None,
        year: int | None = None,
        doc_type: str | None = None,
        period: str | None = None,
    ) -> Answer:
        """The `pi ask` answer: the stated figure or metric, the text, citations, warnings
        and route. The filters restrict which filings may answer."""
        from .llm.openai_compatible import chat_for
        from .search.pipeline import ask

        filters = Filters.of(
            documents=documents, company=company, year=year, doc_type=doc_type, period=period
        )
        chosen = Mode(mode) if mode is not None else self._mode
        with chat_for(chosen) as chat, self._session() as session:
            return ask(
                session=session,
                question=question,
                route=Route(route),
                hint=hint,
                chat=chat,
                filters=filters or None,
            )

    def search(
        self,
        question: str,
        *,
        documents: Sequence[str] = (),
        company: str | None = None,
        year: int | None = None,
        doc_type: str | None = None,
        period: str | None = None,
        limit: int = 10,
    ) -> SearchResult:
        """The filings and pages a question selects, best first, each with a short snippet
        (the page's line sharing most words with the question); no answer is written."""
        from .db import queries

        answer = self.ask(
            question,
            mode=Mode.LOCAL,
            documents=documents,
            company=company,
            year=year,
            doc_type=doc_type,
            period=period,
        )
        cited = answer.citations[: max(1, limit)]
        words = set(_WORD.findall(question.lower()))
        with self._session() as session:
            texts = {
                (p.document, p.page): p.text
                for p in queries.page_texts(session, [(c.document, c.page) for c in cited])
            }
        titles = {(n.document, n.node_id): n.title for n in answer.nodes}
        hits = [
            SearchHit(
                c.document,
                c.page,
                titles.get((c.document, c.node_id)),
                _snippet(texts.get((c.document, c.page), ""), words),
            )
            for c in cited
        ]
        return SearchResult(
            answer.question,
            answer.route,
            answer.route_reason,
            [{"name": d.name, "score": round(d.score, 6)} for d in answer.documents],
            hits,
            answer.warnings,
        )

    # --- changing -----------------------------------------------------------------------

    def ingest(
        self,
        paths: Sequence[str | Path],
        *,
        force: bool = False,
        replace: bool = False,
        progress: Callable[[ProgressEvent], None] | None = None,
    ) -> IngestReport:
        """Ingest files and folders (PDF, HTML, EDGAR .txt, Markdown). A bad file is reported
        in the result and the batch goes on; each document is stored in one transaction."""
        from .index.pipeline import ingest_paths
        from .llm.openai_compatible import chat_for

        with chat_for(self._mode) as chat:
            return ingest_paths(
                paths=[Path(p).expanduser() for p in paths],
                force=force,
                replace=replace,
                progress=progress,
                chat=chat,
            )

    def remove(self, name: str) -> str | None:
        """Remove a document with its pages, tree and chunks; a linked copy's name removes
        the link alone and returns the document's own name."""
        with self._session() as session:
            return catalog.remove_document(session=session, name=name)


def _snippet(text: str, words: set[str], size: int = 240) -> str:
    lines = [" ".join(line.split()) for line in text.splitlines() if line.strip()]
    if not lines:
        return ""
    best = max(lines, key=lambda line: len(words & set(_WORD.findall(line.lower()))))
    return best if len(best) <= size else best[: size - 1] + "…"
