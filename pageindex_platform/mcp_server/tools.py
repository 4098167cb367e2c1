"""The MCP tools over one corpus. Each validates its arguments, calls ONE `Corpus` method in a
worker thread (the server keeps answering other calls) and returns that method's typed result:
the return annotations are the API's result types, so each tool's output schema is made from
the same dataclass as the CLI's `--json`, and a field added to a result appears here unasked."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from functools import wraps
from typing import Annotated, ParamSpec, TypeVar

import anyio.to_thread
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from ..api import (
    MAX_PAGE_CHARS,
    Answer,
    Corpus,
    DocumentList,
    IngestSummary,
    PageRange,
    Removed,
    SearchResult,
    Shown,
    Tree,
)
from ..errors import PageIndexError
from .ingesting import ClientGone, IngestFolders, ProgressToClient

logger = logging.getLogger(__name__)
P = ParamSpec("P")
T = TypeVar("T")

READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
ADDS = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
REMOVES = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)
# a correction replaces stored values, and setting them again gives the same document
CORRECTS = ToolAnnotations(
    read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False
)
MAX_TEXT = 20_000  # a text argument longer than this is refused before any work

Name = Annotated[str, Field(description="A stored document's name (see browse_documents).")]
Question = Annotated[str, Field(description="The question, as an analyst writes it.")]
Documents = Annotated[
    list[str] | None, Field(description="Answer from these documents only (names).")
]
Company = Annotated[str | None, Field(description='Only filings of this company ("Nike", "NKE").')]
Year = Annotated[int | None, Field(description="Only filings of this fiscal year.")]
DocType = Annotated[
    str | None, Field(description="Only this filing type: 10-K, 10-Q, 8-K, earnings release.")
]
Period = Annotated[str | None, Field(description="Only this fiscal period: FY, Q1, Q2, Q3, Q4.")]
Depth = Annotated[int | None, Field(ge=1, le=20, description="Levels of the tree (all when null).")]
FirstPage = Annotated[int, Field(description="The first page, 1-based as cited.")]
LastPage = Annotated[int | None, Field(description="The last page of a range (inclusive).")]
MaxChars = Annotated[
    int, Field(ge=100, le=200_000, description="Characters at most; `truncated` says a cut.")
]
Paths = Annotated[
    list[str],
    Field(min_length=1, max_length=1000, description="Files or folders on the server's machine."),
]
Force = Annotated[bool, Field(description="Rebuild documents already stored.")]


def plain_text(tool: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    """`tool` refusing, before any work, a text argument (or an item of a list of texts)
    that holds a NUL character or is longer than MAX_TEXT: one line naming the argument."""

    @wraps(tool)
    async def checked(*args: P.args, **kwargs: P.kwargs) -> T:
        for key, value in kwargs.items():
            texts: list[object] = list(value) if isinstance(value, list) else [value]
            what = f"an item of {key}" if isinstance(value, list) else f"the {key}"
            for text in texts:
                if not isinstance(text, str):
                    continue
                if "\x00" in text:
                    raise ToolError(f"{what} contains a NUL character (\\x00)")
                if len(text) > MAX_TEXT:
                    raise ToolError(
                        f"{what} is {len(text):,} characters long (at most {MAX_TEXT:,})"
                    )
        return await tool(*args, **kwargs)

    return checked


async def _run(work: Callable[[], T]) -> T:
    """`work` in a worker thread; the package's errors (a database failure is one) become
    tool errors with their one-line message."""
    try:
        return await anyio.to_thread.run_sync(work)
    except PageIndexError as exc:
        raise ToolError(str(exc)) from exc


def _documents(names: Sequence[str] | None) -> Sequence[str]:
    return names or ()


class Tools:
    """The tools, as methods over one corpus (and the folders `ingest` may read)."""

    def __init__(self, corpus: Corpus, folders: IngestFolders) -> None:
        self.corpus = corpus
        self.folders = folders

    async def browse_documents(
        self,
        company: Company = None,
        year: Year = None,
        doc_type: DocType = None,
        period: Period = None,
        limit: Annotated[int, Field(ge=1, le=500, description="Documents per page.")] = 50,
        offset: Annotated[int, Field(ge=0, description="Documents to skip.")] = 0,
    ) -> DocumentList:
        """List the stored filings (name, company, type, fiscal year and period, pages),
        by name, filtered and paged. `next_offset` is null on the last page."""
        return await _run(
            lambda: self.corpus.documents(
                company=company,
                year=year,
                doc_type=doc_type,
                period=period,
                limit=limit,
                offset=offset,
            )
        )

    async def get_document(self, name: Name) -> Shown:
        """One filing's metadata (company, type, period, CIK), where its tree came from
        (tree_source), its sizes and the warnings of its reading."""
        return await _run(lambda: self.corpus.document(name))

    async def get_document_structure(self, name: Name, depth: Depth = None) -> Tree:
        """A filing's tree, as its table of contents: node ids, titles, page ranges and
        short summaries, nested."""
        return await _run(lambda: self.corpus.tree(name, depth=depth))

    async def get_page_content(
        self,
        name: Name,
        page: FirstPage,
        last_page: LastPage = None,
        max_chars: MaxChars = MAX_PAGE_CHARS,
    ) -> PageRange:
        """The stored text of a page or a range of pages, with each page's section. A range
        longer than `max_chars` is cut, `truncated` is true and `note` says where to go on."""
        return await _run(lambda: self.corpus.pages(name, page, last_page, max_chars=max_chars))

    async def search(
        self,
        question: Question,
        documents: Documents = None,
        company: Company = None,
        year: Year = None,
        doc_type: DocType = None,
        period: Period = None,
        limit: Annotated[int, Field(ge=1, le=50, description="Pages at most.")] = 10,
    ) -> SearchResult:
        """The filings and pages a question selects, best first, each page with a short
        snippet; no answer is written (use ask for that)."""
        return await _run(
            lambda: self.corpus.search(
                question,
                documents=_documents(documents),
                company=company,
                year=year,
                doc_type=doc_type,
                period=period,
                limit=limit,
            )
        )

    async def ask(
        self,
        question: Question,
        documents: Documents = None,
        company: Company = None,
        year: Year = None,
        doc_type: DocType = None,
        period: Period = None,
    ) -> Answer:
        """Answer a question as `pi ask --json` does: the answer (a figure question states
        the figure with its period and page; a metric its working), `figures`, `working`,
        `evidence` (the lines it stands on), `citations` (document, page) best first,
        `warnings`, and the route that chose the filings."""
        return await _run(
            lambda: self.corpus.ask(
                question,
                documents=_documents(documents),
                company=company,
                year=year,
                doc_type=doc_type,
                period=period,
            )
        )

    async def ingest(self, paths: Paths, ctx: Context, force: Force = False) -> IngestSummary:
        """Ingest files and folders (PDF, HTML, EDGAR .txt, Markdown) on the server's
        machine, with a progress notification per file. A bad file is reported in `files`
        (status "failed", error) and the rest go on; links in a folder that lead outside it
        are listed in `not_followed`."""
        chosen = [self.folders.check(path) for path in paths]
        progress = ProgressToClient(ctx)
        try:
            report = await _run(
                lambda: self.corpus.ingest(
                    chosen, force=force, follow_links=False, progress=progress
                )
            )
        except ClientGone as gone:
            logger.warning("%s", gone)
            raise ToolError(str(gone)) from None
        return report.summary()

    async def set_document_metadata(
        self,
        name: Name,
        company: Annotated[str | None, Field(description="The company the filing is of.")] = None,
        year: Annotated[int | None, Field(description="Its fiscal year, as named.")] = None,
        doc_type: Annotated[
            str | None, Field(description="10-K, 10-Q, 8-K, earnings release or other.")
        ] = None,
        period: Annotated[str | None, Field(description="FY, Q1, Q2, Q3 or Q4.")] = None,
    ) -> Shown:
        """Correct a stored filing's metadata by its name (`pi docs set`): the values given
        win over what its pages say and survive a re-ingest of the same file."""
        return await _run(
            lambda: self.corpus.set_metadata(
                name, company=company, year=year, doc_type=doc_type, period=period
            )
        )

    async def remove_document(self, name: Name) -> Removed:
        """Remove a filing with its pages, tree and chunks (a linked copy's name removes
        the link alone; `copy_of` names the document that stays)."""
        return await _run(lambda: self.corpus.remove(name))
