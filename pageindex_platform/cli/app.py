"""The `pi` application: one sub-app per command group (`main.py` starts it). `app` has
every command; `app_for(name)` has the one a command line names, so that running it imports
that command's module alone."""

from __future__ import annotations

import importlib
from typing import Annotated

import typer

from ..logs import level_for, log_to_stderr
from .version import version_line

# command → (its module, the function, its line in `pi --help`)
COMMANDS = {
    "ingest": (".ingest", "ingest", "Turn PDF/Markdown files and folders into stored trees."),
    "ask": (".ask", "ask", "Answer a question across the corpus with page citations."),
    "search": (".search", "search", "Rank the filings and pages a question selects."),
    "mcp": (".mcp", "mcp", "Serve the corpus to agents over MCP (stdio or HTTP)."),
    "serve": (".serve", "serve", "A local web page: ask, read, see the cited page."),
}
GROUPS = {"docs": ".docs", "db": ".db", "eval": ".evaluate"}  # command group → its module


def _new_app() -> typer.Typer:
    app = typer.Typer(
        name="pi",
        help="pageindex-platform: ask questions across folders of long financial filings.\n\n"
        "Start with `pi ingest FOLDER`, then `pi ask QUESTION`, `pi search QUESTION`, "
        "`pi docs list`,\n"
        "`pi docs tree NAME`;\n"
        "`pi mcp` serves the corpus to agents; `pi serve` a local web page;\n"
        "`pi eval financebench` measures retrieval against baselines.",
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,  # plain help: flags shown as flags
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    app.callback()(_options)
    return app


def _show_version(value: bool) -> None:
    if value:
        typer.echo(version_line())
        raise typer.Exit()


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


def app_for(name: str | None) -> typer.Typer:
    """The application with the command or group `name` alone (every one for None or a name
    that is none of them)."""
    app = _new_app()
    every = name not in COMMANDS | GROUPS
    for command, (module, function, short_help) in COMMANDS.items():
        if every or name == command:
            found = getattr(importlib.import_module(module, __package__), function)
            app.command(name=command, short_help=short_help)(found)
    for group, module in GROUPS.items():
        if every or name == group:
            app.add_typer(importlib.import_module(module, __package__).app, name=group)
    return app


def __getattr__(name: str) -> typer.Typer:
    if name == "app":  # every command: `pi --help`, completion, tests
        return app_for(None)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
