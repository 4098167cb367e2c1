"""`pi docs`: browse what is stored."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from .. import catalog
from ..db import session_scope
from .common import DocName, JsonFlag, handle_errors, print_json

app = typer.Typer(
    rich_markup_mode=None,
    help="Browse stored documents: list, show, tree, page, rm.",
    no_args_is_help=True,
)


@app.command("list")
@handle_errors
def list_cmd(as_json: JsonFlag = False) -> None:
    """List stored documents with their metadata."""
    with session_scope() as session:
        rows = [listed.to_dict() for listed in catalog.list_documents(session=session)]
    if as_json:
        print_json(rows)
        return
    if not rows:
        typer.echo("No documents yet. Add some with `pi ingest PATH`.")
        return
    from rich.console import Console
    from rich.table import Table

    table = Table("name", "company", "type", "year", "period", "pages", "nodes")
    for r in rows:
        also = "".join(f"\n  = {copy}" for copy in r["copies"])  # the same content, linked
        # another document claiming the same filing (CIK, form, period)
        also += "".join(f"\n  ≠ also claimed by {rival}" for rival in r["rivals"])
        table.add_row(
            r["name"] + also,
            r["company"] or "",
            r["doc_type"] or "",
            str(r["fiscal_year"] or ""),
            r["fiscal_period"] or "",
            str(r["page_count"]),
            str(r["nodes"]),
        )
    Console(width=160).print(table)


@app.command()
@handle_errors
def show(name: DocName, as_json: JsonFlag = False) -> None:
    """Show one document's metadata, sizes and warnings."""
    with session_scope() as session:
        info = catalog.show_document(session=session, name=name).to_dict()
    if as_json:
        print_json(info)
        return
    for key, value in info.items():
        if key == "warnings":
            value = "; ".join(value) if value else "none"
        elif key == "usage":
            value = _usage(value)
        elif isinstance(value, list):
            value = ", ".join(map(str, value))
        typer.echo(f"{key + ':':<17}{'' if value is None else value}")


def _usage(usage: dict[str, Any]) -> str:
    """LLM use while indexing, in words ("none" for a local-mode document)."""
    if not usage:
        return "none (indexed in local mode)"
    text = (
        f"{usage.get('calls', 0)} LLM calls ({usage.get('cached', 0)} from cache), "
        f"{usage.get('prompt_tokens', 0):,} prompt + "
        f"{usage.get('completion_tokens', 0):,} completion tokens"
    )
    if usage.get("cost_usd"):
        text += f", ${usage['cost_usd']:.4f}"
    if usage.get("failures"):
        text += f", {usage['failures']} failed"
    return text


def _print_tree(nodes: list[dict[str, Any]], depth: int = 0) -> None:
    for n in nodes:
        pages = (
            f"p. {n['start_page']}"
            if n["start_page"] == n["end_page"]
            else f"pp. {n['start_page']}-{n['end_page']}"
        )
        typer.echo(f"{'  ' * depth}[{n['node_id']}] {n['title']}  ({pages})")
        _print_tree(n["nodes"], depth + 1)


@app.command()
@handle_errors
def tree(name: DocName, as_json: JsonFlag = False) -> None:
    """Print a document's tree: an indented outline with page ranges."""
    with session_scope() as session:
        data = catalog.document_tree(session=session, name=name).to_dict()
    if as_json:
        print_json(data)
        return
    typer.echo(f"{data['name']} ({data['page_count']} pages)")
    _print_tree(data["nodes"], 1)


@app.command()
@handle_errors
def page(
    name: DocName,
    number: Annotated[int, typer.Argument(metavar="PAGE", help="1-based page, as cited.")],
    as_json: JsonFlag = False,
) -> None:
    """Print one page's text as stored, to check a citation without opening the file."""
    with session_scope() as session:
        info = catalog.document_page(session=session, name=name, page=number).to_dict()
    if as_json:
        print_json(info)
        return
    section = f" · {info['section']}" if info["section"] else ""
    typer.echo(f"{info['name']} · p. {info['page']} of {info['page_count']}{section}\n")
    typer.echo(info["text"])


@app.command()
@handle_errors
def rm(name: DocName, as_json: JsonFlag = False) -> None:
    """Remove a document with its pages, tree and chunks (a linked copy's name: the link alone)."""
    with session_scope() as session:
        copy_of = catalog.remove_document(session=session, name=name)
    if as_json:
        print_json({"name": name, "removed": True, "copy_of": copy_of})
    elif copy_of:
        typer.echo(f"unlinked {name} (same content as {copy_of}, which stays stored)")
    else:
        typer.echo(f"removed {name}")
