"""`pi search`: the filings and pages a question selects, each with a snippet; no answer."""

from __future__ import annotations

from typing import Annotated

import typer

from .common import (
    CompanyFilter,
    DocFilter,
    JsonFlag,
    PeriodFilter,
    TypeFilter,
    YearFilter,
    handle_errors,
    open_corpus,
    print_json,
)


@handle_errors
def search(
    question: Annotated[str, typer.Argument(help='The question, e.g. "Nike FY2023 inventory".')],
    as_json: JsonFlag = False,
    limit: Annotated[int, typer.Option(min=1, max=50, help="Pages at most.")] = 10,
    doc: DocFilter = None,
    company: CompanyFilter = None,
    year: YearFilter = None,
    doc_type: TypeFilter = None,
    period: PeriodFilter = None,
) -> None:
    """Rank the filings and pages a question selects, best first, each page with its section
    and the line that shares most words with the question. Nothing is answered: use
    `pi ask` for that. The filters are those of `pi ask`."""
    with open_corpus() as corpus:
        result = corpus.search(
            question,
            documents=doc or (),
            company=company,
            year=year,
            doc_type=doc_type,
            period=period,
            limit=limit,
        )
    if as_json:
        print_json(result.to_dict())
        return
    for warning in result.warnings:
        typer.echo(f"warning: {warning}", err=True)
    typer.echo("documents: " + ", ".join(f"{d.name} ({d.score:.4f})" for d in result.documents))
    for hit in result.pages:
        section = f" · {hit.section}" if hit.section else ""
        typer.echo(f"\n{hit.document} · p. {hit.page}{section}\n  {hit.snippet}")
    typer.echo(f"\nroute: {result.route} ({result.route_reason})")
