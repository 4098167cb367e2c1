"""`pi serve`: the local web page for analysts."""

from __future__ import annotations

from typing import Annotated

import typer

from .common import handle_errors, open_corpus


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
    from ..serving import require_token_off_loopback
    from ..web import serve as run

    with open_corpus() as corpus:
        token = corpus.settings.web_token
        require_token_off_loopback(host, token, what="a token", variable="PI_WEB_TOKEN")
        typer.echo(f"serving http://{host}:{port}/ (Ctrl-C stops)", err=True)
        run(corpus, host=host, port=port)
