"""`pi docs`: browse what is stored."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from .common import (
    CompanyFilter,
    DocFilter,
    DocName,
    JsonFlag,
    PeriodFilter,
    TypeFilter,
    YearFilter,
    handle_errors,
    open_corpus,
    print_json,
)

app = typer.Typer(
    rich_markup_mode=None,
    help="Browse stored documents: list, show, tree, page, rm.",
    no_args_is_help=True,
)


@app.command("list")
@handle_errors
def list_cmd(
    as_json: JsonFlag = False,
    doc: DocFilter = None,
    company: CompanyFilter = None,
    year: YearFilter = None,
    doc_type: TypeFilter = None,
    period: PeriodFilter = None,
) -> None:
    """List stored documents with their metadata; the filters keep those a question with
    the same filters could be answered from."""
    with open_corpus() as corpus:
        listed = corpus.documents(
            documents=doc or (), company=company, year=year, doc_type=doc_type, period=period
        )
    rows = [d.to_dict() for d in listed]
    if as_json:
        print_json(rows)
        return
    if not rows:
        filtered = doc or company or year or doc_type or period
        typer.echo(
            "No stored document matches the filters."
            if filtered
            else "No documents yet. Add some with `pi ingest PATH`."
        )
        return
    from rich.console import Console
    from rich.table import Table

    table = Table("name", "company", "type", "year", "period", "pages", "nodes")
    for r in rows:
        also = "".join(f"\n  = {copy}" for copy in r["copies"])  # the same content, linked
        # another document claiming the same filing (CIK, form, period)
        also += "".join(f"\n  ≠ also claimed by {rival}" for rival in r["rivals"])
        unsure = set(r["unsure"])

        def cell(field: str, value: object, unsure: set[str] = unsure) -> str:
            shown = "" if value is None else str(value)
            return f"{shown or '-'} ?" if field in unsure else shown

        table.add_row(
            r["name"] + also,
            cell("company", r["company"]),
            cell("doc_type", r["doc_type"]),
            cell("fiscal_year", r["fiscal_year"]),
            cell("fiscal_period", r["fiscal_period"]),
            str(r["page_count"]),
            str(r["nodes"]),
        )
    Console(width=160).print(table)
    if any(r["unsure"] for r in rows):
        typer.echo(
            "?: not sure (below the confidence a value is stored sure at; `pi docs show NAME` "
            "says where each came from); `pi docs set NAME --company ... --year ...` corrects"
        )


@app.command()
@handle_errors
def show(name: DocName, as_json: JsonFlag = False) -> None:
    """Show one document's metadata, sizes and warnings."""
    with open_corpus() as corpus:
        info = corpus.document(name).to_dict()
    if as_json:
        print_json(info)
        return
    for key, value in info.items():
        if key == "warnings":
            value = "; ".join(value) if value else "none"
        elif key == "sources":
            value = "; ".join(
                f"{field} from {v['source']} ({v['confidence']:.2f})" for field, v in value.items()
            )
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
    with open_corpus() as corpus:
        data = corpus.tree(name).to_dict()
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
    with open_corpus() as corpus:
        info = corpus.page(name, number).to_dict()
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
    with open_corpus() as corpus:
        removed = corpus.remove(name)
    if as_json:
        print_json(removed.to_dict())
    elif removed.copy_of:
        typer.echo(f"unlinked {name} (same content as {removed.copy_of}, which stays stored)")
    else:
        typer.echo(f"removed {name}")


@app.command("set")
@handle_errors
def set_cmd(
    name: DocName,
    company: Annotated[str | None, typer.Option(help="The company the filing is of.")] = None,
    year: Annotated[
        int | None, typer.Option(help="Its fiscal year, as the company names it.")
    ] = None,
    doc_type: Annotated[
        str | None,
        typer.Option("--type", help="Its filing type: 10-K, 10-Q, 8-K, earnings release, other."),
    ] = None,
    period: Annotated[str | None, typer.Option(help="Its fiscal period: FY, Q1-Q4.")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Correct a stored filing's metadata by its name. What you set wins over what its pages
    say and over `pi ingest --metadata`, and applies again when the same file is ingested
    again; the other fields are derived again around it."""
    with open_corpus() as corpus:
        shown = corpus.set_metadata(
            name, company=company, year=year, doc_type=doc_type, period=period
        )
    if as_json:
        print_json(shown.to_dict())
        return
    period_text = " ".join(str(x) for x in (shown.fiscal_period, shown.fiscal_year) if x)
    typer.echo(
        f"{shown.name}: {shown.company or '(no company)'}, {shown.doc_type}, {period_text or '-'}"
    )


@app.command()
@handle_errors
def refresh(
    names: Annotated[
        list[str] | None, typer.Argument(metavar="[NAME]...", help="Documents (default: all).")
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Read stored documents again from their stored pages — their metadata (company, type,
    fiscal year and period, with their sources) and their statement tables' figures —
    without parsing or embedding the files again: after upgrading pageindex-platform, or to
    apply what the corpus now knows."""
    with open_corpus() as corpus:
        done = corpus.refresh(names or None)
    if as_json:
        print_json(done.to_dict())
        return
    for doc in done.documents:
        for field, (before, after) in doc.changed.items():
            if field not in ("title", "description"):
                typer.echo(f"{doc.name}: {field} {before!r} → {after!r}")
    figures = sum(d.figures for d in done.documents)
    typer.echo(
        f"{len(done.documents)} document(s) read again: metadata of {done.changed} changed, "
        f"{figures:,} table figures"
    )
