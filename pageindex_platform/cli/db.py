"""`pi db`: the database behind the corpus (the one door that reaches the database's
lifecycle: its status, the embedded server's stop, the schema's upgrade)."""

from __future__ import annotations

import typer

from ..db import Database, stop_embedded
from ..settings import load_settings
from .common import JsonFlag, handle_errors, print_json

app = typer.Typer(
    rich_markup_mode=None,
    help="Manage the database (embedded PostgreSQL unless PI_DATABASE_URL is set).",
    no_args_is_help=True,
)


@app.command()
@handle_errors
def status(as_json: JsonFlag = False) -> None:
    """Show which database is used, whether it runs, its schema revision, document count and
    shared buffers."""
    s = Database(load_settings()).status()
    if as_json:
        print_json(s.__dict__)
        return
    kind = "embedded PostgreSQL" if s.embedded else "external PostgreSQL (PI_DATABASE_URL)"
    typer.echo(f"database:  {kind}")
    if s.data_dir:
        typer.echo(f"data dir:  {s.data_dir}")
    typer.echo(f"running:   {'yes' if s.running else 'no'}")
    if s.running:
        typer.echo(f"url:       {s.url}")
        typer.echo(f"schema:    {s.revision or 'not created yet (run `pi db upgrade`)'}")
        typer.echo(f"documents: {s.documents if s.documents is not None else '-'}")
        typer.echo(f"buffers:   {s.shared_buffers} (shared_buffers)")


@app.command()
@handle_errors
def stop() -> None:
    """Stop the embedded PostgreSQL server (it restarts on the next command)."""
    settings = load_settings()
    if settings.database_url:
        typer.echo("PI_DATABASE_URL is set: the external database is not ours to stop.")
        return
    stopped = stop_embedded(settings.pgdata)
    typer.echo("stopped" if stopped else "not running")


@app.command("upgrade")
@handle_errors
def upgrade_cmd() -> None:
    """Create or upgrade the schema to the latest migration."""
    db = Database(load_settings())
    typer.echo(f"schema at {db.upgrade()}")
    db.dispose()
