"""The MCP door: the corpus served to agents over the Model Context Protocol, built on the
official SDK (`mcp.server.mcpserver.MCPServer`), stdio or streamable HTTP. Each tool is a
thin layer over `Corpus` (the Python API the CLI shares): the same typed results, the same
one-line errors — returned as tool errors, never ending the server.

Tools are named as PageIndex's server names them, so prompts written for it work. The read
tools are always served: browse_documents, get_document, get_document_structure,
get_page_content, search, ask. The tools that change the corpus are served only when asked
for: `ingest` with `pi mcp --allow-ingest DIR` (paths under those folders only), and
remove_document with `--allow-writes`. Without them a client can read, never change."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

from .. import __version__
from ..api import Corpus
from .http import parse_listen, serve_http, with_token
from .ingesting import IngestFolders
from .tools import ADDS, CORRECTS, READ, REMOVES, Tools, plain_text

__all__ = ["build_server", "parse_listen", "serve", "with_token"]

INSTRUCTIONS = (
    "A corpus of financial filings (10-K, 10-Q, 8-K, earnings releases). Find filings with "
    "browse_documents; answer a question with ask (the figure, its period and page, and "
    "citations) or rank filings and pages with search; read a filing's table of contents "
    "with get_document_structure and its pages with get_page_content. Pages are 1-based, "
    "as cited."
)
READ_TOOLS = (
    "browse_documents",
    "get_document",
    "get_document_structure",
    "get_page_content",
    "search",
    "ask",
)
# The tools that change stored documents, served only with --allow-writes.
WRITE_TOOLS: tuple[tuple[str, ToolAnnotations], ...] = (
    ("set_document_metadata", CORRECTS),
    ("remove_document", REMOVES),
)


def build_server(
    corpus: Corpus, *, ingest_folders: Sequence[str | Path] = (), allow_writes: bool = False
) -> MCPServer:
    """The server and its tools over `corpus`: the read tools; `ingest` when
    `ingest_folders` are given (it reads only under them); the write tools with
    `allow_writes`."""
    folders = IngestFolders.of(ingest_folders)
    tools = Tools(corpus, folders)
    server: MCPServer = MCPServer(
        "pageindex-platform", version=__version__, instructions=INSTRUCTIONS
    )
    for name in READ_TOOLS:
        server.add_tool(plain_text(getattr(tools, name)), annotations=READ)
    if folders:
        where = (
            f"\n\nOnly paths under these folders are read (a relative path from the first): "
            f"{folders}."
        )
        described = (tools.ingest.__doc__ or "") + where
        server.add_tool(plain_text(tools.ingest), annotations=ADDS, description=described)
    if allow_writes:
        for name, annotations in WRITE_TOOLS:
            server.add_tool(plain_text(getattr(tools, name)), annotations=annotations)
    return server


def serve(
    *,
    http: str | None = None,
    allow_ingest: Sequence[str | Path] = (),
    allow_writes: bool = False,
) -> None:
    """Serve the environment's corpus over stdio, or over streamable HTTP at `http`
    ("[HOST:]PORT"; a host other than loopback needs PI_MCP_TOKEN). The corpus is closed
    when the server ends."""
    with Corpus.open() as corpus:
        server = build_server(corpus, ingest_folders=allow_ingest, allow_writes=allow_writes)
        if http is None:
            server.run("stdio")
        else:
            serve_http(server, http, token=corpus.settings.mcp_token)
