"""`pi mcp`: the corpus served to agents over the Model Context Protocol."""

from __future__ import annotations

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
) -> None:
    """Serve the corpus over MCP (stdio by default): browse_documents, get_document,
    get_document_structure, get_page_content, search, ask, ingest, remove_document. The
    configuration an MCP client takes is in the README."""
    from ..mcp_server import serve

    serve(http=http)
