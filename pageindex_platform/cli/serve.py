"""`pi serve`: the local web page for analysts."""

from __future__ import annotations

from typing import Annotated

import typer

from .common import handle_errors


@handle_errors
def serve(
    port: Annotated[int, typer.Option(min=1, max=65535, help="The port to listen on.")] = 8750,
    host: Annotated[
        str,
        typer.Option(
            help="The interface (127.0.0.1 unless given; another one needs PI_WEB_TOKEN, "
            "and a browser then opens the page once with ?token=...)."
        ),
    ] = "127.0.0.1",
) -> None:
    """Serve a local web page: ask a question, read the answer with its figure and working,
    and open each cited page as the filing shows it, the lines used highlighted. Read-only."""
    from ..web import serve as run

    typer.echo(f"serving http://{host}:{port}/ (Ctrl-C stops)", err=True)
    run(host=host, port=port)
