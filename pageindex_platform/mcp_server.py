"""The MCP door: the corpus served to agents over the Model Context Protocol, built on the
official SDK (`mcp.server.mcpserver.MCPServer`), stdio or streamable HTTP. Each tool is a
thin layer over `Corpus` (the Python API the CLI shares): the same answers, the same
one-line errors — returned as tool errors, never ending the server.

Tools are named as PageIndex's server names them, so prompts written for it work:
browse_documents, get_document, get_document_structure, get_page_content, search, ask,
ingest, remove_document."""

from __future__ import annotations

import hmac
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Annotated, Any, TypeVar

import anyio
import anyio.from_thread
import anyio.to_thread
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from . import __version__
from .api import MAX_PAGE_CHARS, BatchStarted, Corpus, FileDone, ProgressEvent
from .errors import ConfigurationError, PageIndexError
from .serving import require_token_off_loopback

logger = logging.getLogger(__name__)
T = TypeVar("T")

READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
ADDS = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
REMOVES = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)
MAX_TEXT = 20_000  # a question or name longer than this is refused before any work

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

INSTRUCTIONS = (
    "A corpus of financial filings (10-K, 10-Q, 8-K, earnings releases). Find filings with "
    "browse_documents; answer a question with ask (the figure, its period and page, and "
    "citations) or rank filings and pages with search; read a filing's table of contents "
    "with get_document_structure and its pages with get_page_content. Pages are 1-based, "
    "as cited."
)


def _text(value: str, what: str) -> str:
    if len(value) > MAX_TEXT:
        raise ToolError(f"the {what} is {len(value):,} characters (at most {MAX_TEXT:,})")
    return value


async def _run(work: Callable[[], T]) -> T:
    """`work` in a worker thread (the server keeps answering other calls); the package's
    errors and the database's become tool errors with their one-line message."""
    try:
        return await anyio.to_thread.run_sync(work)
    except PageIndexError as exc:
        raise ToolError(str(exc)) from exc


def _scope(
    documents: list[str] | None,
    company: str | None,
    year: int | None,
    doc_type: str | None,
    period: str | None,
) -> dict[str, Any]:
    """A tool's filter arguments as the API's `ask` and `search` take them."""
    return {
        "documents": documents or (),
        "company": company,
        "year": year,
        "doc_type": doc_type,
        "period": period,
    }


def build_server(corpus: Corpus) -> MCPServer:
    """The server and its tools, over `corpus`."""
    server: MCPServer = MCPServer(
        "pageindex-platform", version=__version__, instructions=INSTRUCTIONS
    )

    @server.tool(annotations=READ)
    async def browse_documents(
        company: Company = None,
        year: Year = None,
        doc_type: DocType = None,
        period: Period = None,
        limit: Annotated[int, Field(ge=1, le=500, description="Documents per page.")] = 50,
        offset: Annotated[int, Field(ge=0, description="Documents to skip.")] = 0,
    ) -> dict[str, Any]:
        """List the stored filings (name, company, type, fiscal year and period, pages),
        by name, filtered and paged. `next_offset` is null on the last page."""

        return await _run(
            lambda: corpus.documents(
                company=company,
                year=year,
                doc_type=doc_type,
                period=period,
                limit=limit,
                offset=offset,
            ).to_dict()
        )

    @server.tool(annotations=READ)
    async def get_document(name: Name) -> dict[str, Any]:
        """One filing's metadata (company, type, period, CIK), where its tree came from
        (tree_source), its sizes and the warnings of its reading."""
        _text(name, "name")
        return await _run(lambda: corpus.document(name).to_dict())

    @server.tool(annotations=READ)
    async def get_document_structure(
        name: Name,
        depth: Annotated[
            int | None, Field(ge=1, le=20, description="Levels of the tree (all when null).")
        ] = None,
    ) -> dict[str, Any]:
        """A filing's tree, as its table of contents: node ids, titles, page ranges and
        short summaries, nested."""
        _text(name, "name")
        return await _run(lambda: corpus.tree(name, depth=depth).to_dict())

    @server.tool(annotations=READ)
    async def get_page_content(
        name: Name,
        page: Annotated[int, Field(description="The first page, 1-based as cited.")],
        last_page: Annotated[
            int | None, Field(description="The last page of a range (inclusive).")
        ] = None,
        max_chars: Annotated[
            int,
            Field(ge=100, le=200_000, description="Characters at most; `truncated` says a cut."),
        ] = MAX_PAGE_CHARS,
    ) -> dict[str, Any]:
        """The stored text of a page or a range of pages, with each page's section. A range
        longer than `max_chars` is cut, `truncated` is true and `note` says where to go on."""
        _text(name, "name")
        return await _run(
            lambda: corpus.pages(name, page, last_page, max_chars=max_chars).to_dict()
        )

    @server.tool(annotations=READ)
    async def search(
        question: Question,
        documents: Documents = None,
        company: Company = None,
        year: Year = None,
        doc_type: DocType = None,
        period: Period = None,
        limit: Annotated[int, Field(ge=1, le=50, description="Pages at most.")] = 10,
    ) -> dict[str, Any]:
        """The filings and pages a question selects, best first, each page with a short
        snippet; no answer is written (use ask for that)."""
        _text(question, "question")

        scope = _scope(documents, company, year, doc_type, period)
        return await _run(lambda: corpus.search(question, limit=limit, **scope).to_dict())

    @server.tool(annotations=READ)
    async def ask(
        question: Question,
        documents: Documents = None,
        company: Company = None,
        year: Year = None,
        doc_type: DocType = None,
        period: Period = None,
    ) -> dict[str, Any]:
        """Answer a question as `pi ask --json` does: the answer (a figure question states
        the figure with its period and page; a metric its working), `figures`, `working`,
        `citations` (document, page) best first, `warnings`, and the route that chose the
        filings."""
        _text(question, "question")

        scope = _scope(documents, company, year, doc_type, period)
        return await _run(lambda: corpus.ask(question, **scope).to_dict())

    @server.tool(annotations=ADDS)
    async def ingest(
        paths: Annotated[
            list[str],
            Field(min_length=1, description="Files or folders on the server's machine."),
        ],
        ctx: Context,
        force: Annotated[bool, Field(description="Rebuild documents already stored.")] = False,
    ) -> dict[str, Any]:
        """Ingest files and folders (PDF, HTML, EDGAR .txt, Markdown) on the server's
        machine, with a progress notification per file. A bad file is reported in `files`
        (status "failed", error) and the rest go on."""
        for path in paths:
            _text(path, "path")

        counts = {"total": 0, "done": 0}

        def progress(event: ProgressEvent) -> None:
            if isinstance(event, BatchStarted):
                counts["total"] = event.total
                anyio.from_thread.run(ctx.report_progress, 0, event.total, "started")
            elif isinstance(event, FileDone):
                counts["done"] += 1
                message = f"{event.result.name}: {event.result.status}"
                anyio.from_thread.run(ctx.report_progress, counts["done"], counts["total"], message)

        def run() -> dict[str, Any]:
            return corpus.ingest(paths, force=force, progress=progress).to_dict()

        return await _run(run)

    @server.tool(annotations=REMOVES)
    async def remove_document(name: Name) -> dict[str, Any]:
        """Remove a filing with its pages, tree and chunks (a linked copy's name removes
        the link alone; `copy_of` names the document that stays)."""
        _text(name, "name")
        return await _run(lambda: corpus.remove(name).to_dict())

    return server


# --- streamable HTTP: loopback, or another interface with a bearer token -------------------

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Any, Any], Awaitable[None]]


def parse_listen(value: str) -> tuple[str, int]:
    """ "[HOST:]PORT" → (host, port); the host is 127.0.0.1 when not given."""
    host, _, port = value.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ConfigurationError(f"--http {value!r}: expected [HOST:]PORT, e.g. 8765")
    return host, int(port)


def with_token(app: ASGIApp, token: str) -> ASGIApp:
    """`app` answering only requests that carry `Authorization: Bearer <token>` (401
    otherwise)."""
    expected = f"Bearer {token}".encode()

    async def guarded(scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, expected):
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"www-authenticate", b"Bearer"),
                        ],
                    }
                )
                body = b'{"error": "a bearer token (PI_MCP_TOKEN) is required"}'
                await send({"type": "http.response.body", "body": body})
                return
        await app(scope, receive, send)

    return guarded


def serve(*, http: str | None = None) -> None:
    """Serve the corpus over stdio, or over streamable HTTP at `http` ("[HOST:]PORT"). A
    host other than loopback needs PI_MCP_TOKEN; with a token, every HTTP request must
    carry it."""
    corpus = Corpus.open()
    server = build_server(corpus)
    if http is None:
        server.run("stdio")
        return
    host, port = parse_listen(http)
    token = corpus.settings.mcp_token
    require_token_off_loopback(host, token, what="a bearer token", variable="PI_MCP_TOKEN")
    import uvicorn

    app: ASGIApp = server.streamable_http_app(host=host)
    if token:
        app = with_token(app, token)
    logger.info("MCP over streamable HTTP at http://%s:%d/mcp", host, port)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning")
    anyio.run(uvicorn.Server(config).serve)
