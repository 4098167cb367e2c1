"""`pi ask`: a question across all stored filings, answered with page citations."""

from __future__ import annotations

import csv
import sys
from typing import Annotated

import typer

from ..api import Answer, Headline, Route
from .common import (
    CompanyFilter,
    DocFilter,
    JsonFlag,
    ModeFlag,
    PeriodFilter,
    TypeFilter,
    YearFilter,
    handle_errors,
    open_corpus,
    print_json,
)

RouteFlag = Annotated[
    Route,
    typer.Option(
        "--route",
        help="How documents are selected: auto (metadata filter when the question names a "
        "company, else semantic), metadata, semantic, description.",
    ),
]


@handle_errors
def ask(
    question: Annotated[str, typer.Argument(help='The question, e.g. "3M FY2018 capex".')],
    as_json: JsonFlag = False,
    route: RouteFlag = Route.AUTO,
    explain: Annotated[
        bool, typer.Option("--explain", help="Show the route, its reason and the nodes searched.")
    ] = False,
    hint: Annotated[
        str | None,
        typer.Option(
            "--hint",
            help='Expert knowledge added to the search, e.g. "capital '
            'expenditure: cash flow statement".',
        ),
    ] = None,
    mode: ModeFlag = None,
    doc: DocFilter = None,
    company: CompanyFilter = None,
    year: YearFilter = None,
    doc_type: TypeFilter = None,
    period: PeriodFilter = None,
    as_csv: Annotated[
        bool,
        typer.Option(
            "--csv",
            help="Print the series a series question gets (a line item across years or "
            "quarters, its growth and CAGR) as CSV, one row per value.",
        ),
    ] = False,
) -> None:
    """Select the right filings, search their trees, and answer with (document, page)
    citations. Local mode answers with the best-matching extracted lines; a figure question
    with the figure and a metric with its working. The filters restrict which filings may
    answer; what the question says narrows the choice inside them."""
    with open_corpus(mode, say_mode=True) as corpus:
        result = corpus.ask(
            question,
            route=route,
            hint=hint,
            documents=doc or (),
            company=company,
            year=year,
            doc_type=doc_type,
            period=period,
        )
    if as_json:
        print_json(result.to_dict())
        return
    if as_csv:
        _print_csv(result)
        return
    typer.echo(result.answer)
    _echo_headline(result)
    for warning in result.warnings:
        typer.echo(f"warning: {warning}", err=True)
    typer.echo("\nSources:")
    titles = {(n.document, n.node_id): n.title for n in result.nodes}
    for c in result.citations[:5]:
        title = titles.get((c.document, c.node_id), "")
        typer.echo(f"  {c.document} · p. {c.page}" + (f" · {title}" if title else ""))
    if explain:
        typer.echo(f"\nroute: {result.route} ({result.route_reason})")
        if result.sql:
            typer.echo(f"sql: {result.sql}")
        typer.echo(
            "documents: " + ", ".join(f"{d.name} ({d.score:.4f})" for d in result.documents[:5])
        )
        for n in result.nodes:
            typer.echo(
                f"  node {n.document} [{n.node_id}] {n.title} (pp. {n.start_page}-{n.end_page})"
            )
        typer.echo(
            "timings: " + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in result.timings.items())
        )


SERIES_COLUMNS = (
    "company", "line_item", "series", "unit", "scale", "basis", "fiscal_year", "fiscal_period",
    "value", "shown", "label", "period", "document", "page", "source", "checks",
    "confirmed_by", "restated", "inputs", "formula", "reason",
)  # fmt: skip


def _print_csv(result: Answer) -> None:
    """The answer's series as CSV, one row per value (a gap: no value, its reason)."""
    if not result.series:
        typer.echo(
            "Error: --csv: the answer is not a series (ask for a line item across years or "
            'quarters, e.g. "revenue FY2018–FY2022")',
            err=True,
        )
        raise typer.Exit(1)
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(SERIES_COLUMNS)
    for series in result.series:
        for v in series.values:
            cited = [
                "; ".join(f"{s.document} p. {s.page}: {s.shown}" for s in sources)
                for sources in (v.confirmed_by, v.restated, v.inputs)
            ]
            writer.writerow(
                [
                    series.company, series.line_item, series.kind, series.unit, series.scale,
                    series.basis, v.fiscal_year, v.fiscal_period or "",
                    "" if v.value is None else v.value, v.shown or "", v.label or "",
                    v.period or "", v.document or "", v.page or "", v.source or "",
                    " ".join(v.checks), *cited, v.formula or "", v.reason or "",
                ]
            )  # fmt: skip


def _headline_line(headline: Headline) -> str:
    checks = ", ".join(dict.fromkeys(c.name for c in headline.checks if c.passed))
    return (
        f"{headline.shown} — {headline.label}, {headline.period} "
        f"[{headline.document}, p. {headline.page}] (checked: {checks})"
    )


def _echo_headline(result: Answer) -> None:
    """The figure stated and its checks; for a comparison each company's; "not sure" with
    the candidates set aside when none passed."""
    if result.headline is not None:
        typer.echo(f"\nStated: {_headline_line(result.headline)}")
        return
    if result.compared:
        typer.echo("")
    for each in result.compared:
        said = _headline_line(each.headline) if each.headline else f"not sure — {each.why}"
        typer.echo(f"{each.company}: {said}")
    if result.compared or not result.candidates:
        return
    typer.echo("\nNot sure: no figure passed every check. Candidates set aside:")
    for c in result.candidates:
        typer.echo(
            f"  {c.shown} — {c.label}, {c.period} [{c.document}, p. {c.page}]: {c.set_aside}"
        )
