"""`pi mcp`: the corpus served to agents over the Model Context Protocol."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .common import handle_errors


@handle_errors
def mcp(
    http: Annotated[
        str | None,
        typer.Option(
            "--http",
            metavar="[HOST:]PORT",
            help="Serve streamable HTTP at http://HOST:PORT/mcp instead of stdio (HOST: "
            "127.0.0.1 unless given; another interface needs PI_MCP_TOKEN, and every request "
            "must then carry 'Authorization: Bearer <token>').",
        ),
    ] = None,
    allow_ingest: Annotated[
        list[Path] | None,
        typer.Option(
            "--allow-ingest",
            metavar="DIR",
            exists=True,
            file_okay=False,
            dir_okay=True,
            help="Serve the ingest tool, reading files only under DIR (repeat for several); "
            "paths and links that lead outside are refused.",
        ),
    ] = None,
    allow_writes: Annotated[
        bool,
        typer.Option(
            "--allow-writes", help="Serve the tools that change stored documents (remove)."
        ),
    ] = False,
) -> None:
    """Serve the corpus over MCP (stdio by default): browse_documents, get_document,
    get_document_structure, get_page_content, search, ask; ingest with --allow-ingest DIR,
    remove_document with --allow-writes. The configuration an MCP client takes is in the
    README."""
    from ..mcp_server import serve

    serve(http=http, allow_ingest=allow_ingest or (), allow_writes=allow_writes)
