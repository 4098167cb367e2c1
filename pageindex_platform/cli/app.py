"""The `pi` application: one sub-app per command group (`main.py` starts it)."""

from __future__ import annotations

from typing import Annotated

import typer

from ..logs import level_for, log_to_stderr
from . import db, docs, evaluate
from .ask import ask
from .ingest import ingest
from .main import version_line
from .mcp import mcp
from .search import search
from .serve import serve

app = typer.Typer(
    name="pi",
    help="pageindex-platform: ask questions across folders of long financial filings.\n\n"
    "Start with `pi ingest FOLDER`, then `pi ask QUESTION`, `pi search QUESTION`, `pi docs list`,\n"
    "`pi docs tree NAME`;\n"
    "`pi mcp` serves the corpus to agents; `pi serve` a local web page;\n"
    "`pi eval financebench` measures retrieval against baselines.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: flags shown as flags
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _show_version(value: bool) -> None:
    if value:
        typer.echo(version_line())
        raise typer.Exit()


@app.callback()
def _options(
    _version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_show_version, is_eager=True, help="Show the version and exit."
        ),
    ] = False,
    verbose: Annotated[
        int,
        typer.Option(
            "--verbose",
            "-v",
            count=True,
            help="Say on stderr which paths the work takes (route, fallbacks, embedder); "
            "-vv for more detail.",
        ),
    ] = 0,
) -> None:
    """pageindex-platform: ask questions across folders of long financial filings."""
    log_to_stderr(level_for(verbose))


app.command(name="ingest", short_help="Turn PDF/Markdown files and folders into stored trees.")(
    ingest
)
app.command(name="ask", short_help="Answer a question across the corpus with page citations.")(ask)
app.command(name="search", short_help="Rank the filings and pages a question selects.")(search)
app.command(name="mcp", short_help="Serve the corpus to agents over MCP (stdio or HTTP).")(mcp)
app.command(name="serve", short_help="A local web page: ask, read, see the cited page.")(serve)
app.add_typer(docs.app, name="docs")
app.add_typer(db.app, name="db")
app.add_typer(evaluate.app, name="eval")
