"""A series question's answer: which line item or metric it asks across which periods, of
which companies and on which basis; each company's series built from all its stored
filings (series.py, series_derived.py), with its growth and CAGR; the answer's text (a
table, series_text.py), its citations (the cited pages first) and evidence lines."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..db import queries
from ..db.queries import DocumentInfo
from ..db.sql import Session
from ..patterns import deferred
from ..periods.series import SeriesAsk, SeriesPeriod, series_asked
from .constraints import Constraints
from .evidence import Evidence
from .figures import LineItem
from .headline import Stated
from .items_named import items_in
from .line_shares import line_growth
from .metric_questions import asked, defined_metrics, metric_in
from .metrics import Metric
from .query import Query
from .results import Citation, Series, SeriesValue
from .series import AS_FILED, AS_RESTATED, History, Point, is_balance
from .series_derived import Builder, cagr, growth, metric_values
from .series_text import series_pages, series_text
from .two_figures import two_asked

_RESTATED = deferred(r"\b(?:as\s+(?:last\s+)?)?(?:restated|recast|revised)\b", re.IGNORECASE)
_NOT_A_NUMBER = deferred(r"^\W*(?:is|are|was|were|does|do|did|has|have|had|why|explain)\b", re.I)


@dataclass(frozen=True)
class SeriesQuestion:
    """What a series question asks: the periods, the line item or metric, the basis."""

    periods: SeriesAsk
    item: LineItem | None
    metric: Metric | None
    defined: dict[str, Metric]
    basis: str


def series_question(query: Query, constraints: Constraints) -> SeriesQuestion | None:
    """The series `query` asks for, or None: a line item or metric over a range of years,
    by year or by quarter. A metric whose own formula spans the years named (a growth rate
    over two years, an N-year average, a change) is one figure, not a series."""
    question = query.question
    periods = series_asked(question, constraints.period)
    if periods is None or _NOT_A_NUMBER.search(question):
        return None
    catalogue = query.catalogue
    defined = defined_metrics(question)
    metric = metric_in(question, catalogue, defined)
    items = items_in(question, catalogue.items)
    if metric is None and (not items or line_growth(question, catalogue)):
        return None  # "by what percentage did revenue change from FY2020 to FY2021": one figure
    two = two_asked(question)
    if two is not None and two.periods:
        return None  # "how much did Acme's Asia Pacific revenues increase from 2022 to 2023"
    said = asked(question)
    if said.span_average:
        return None
    if metric is not None:  # a growth over two years named is one figure
        over_time = any(f"{c}(" in metric.formula for c in ("previous", "change"))
        one = len(constraints.groups()) < 2
        count = len(periods.years) * (4 if periods.quarterly else 1)
        if (said.change and one) or (periods.years and count <= 1 + over_time):
            return None
    basis = AS_RESTATED if _RESTATED.search(question) else AS_FILED
    item = None if metric is not None else items[0][0]
    return SeriesQuestion(periods, item, metric, defined, basis)


def with_series(
    *,
    session: Session,
    query: Query,
    constraints: Constraints,
    allowed: Sequence[DocumentInfo] | None,
    evidence: Evidence,
    max_citations: int,
) -> Evidence:
    """The evidence of a series question: the series as the stated text and its pages cited
    first; `evidence` as it was for any other question, or when no company is named."""
    asked_for = series_question(query, constraints)
    if asked_for is None:
        return evidence
    groups = constraints.groups() or (
        [sorted({d.company for d in allowed if d.company})] if allowed else []
    )
    within = {d.id for d in allowed} if allowed is not None else None
    built: list[Series] = []
    readings: list[str] = []
    for group in (g for g in groups if g):
        filings = queries.documents(session, companies=group, ready=True)
        filings = [f for f in filings if within is None or f.id in within]
        history = History(session, filings, query.catalogue)
        series, reading = build(history, group[0], asked_for)
        built.extend(series)
        readings += [reading] if reading and reading not in readings else []
    if not built:
        return evidence
    stated = Stated(series_text(built), readings=readings, series=built)
    citations = _citations(session, built, evidence.citations, max_citations)
    return Evidence(citations, stated)


def build(history: History, company: str, asked_for: SeriesQuestion) -> tuple[list[Series], str]:
    """The company's series asked (a line item with its growth and CAGR, or a metric), and
    how the periods asked were read."""
    item, metric, basis = asked_for.item, asked_for.metric, asked_for.basis
    balance = item is not None and is_balance(item)
    quarterly = asked_for.periods.quarterly
    covered = history.covered(quarterly=quarterly, balance=balance)
    periods = asked_for.periods.periods(covered)
    if not periods:
        return [], ""
    builder = Builder(history, basis)
    if metric is not None:
        values = metric_values(builder, metric, asked_for.defined, periods)
        unit = "%" if metric.percent else "ratio"
        shaped = Series(company, metric.name, "metric", unit, 1, basis, values, metric.formula)
        return [shaped], _reading(asked_for.periods, periods, values)
    assert item is not None
    points = builder.points(item, periods)
    shown = [p.shown() for p in points]
    unit, scale = _unit(points)
    line = Series(company, item.name, "line item", unit, scale, basis, shown)
    rates = growth(builder, item, points)
    yearly = "value / value a year before − 1"
    found = [line, replace(line, kind="growth", unit="%", scale=1, values=rates, formula=yearly)]
    compound = None if quarterly else cagr(item, points)
    if compound is not None:
        found.append(
            Series(company, item.name, "cagr", "%", 1, basis, [compound], compound.formula)
        )
    return found, _reading(asked_for.periods, periods, shown)


def _unit(points: Sequence[Point]) -> tuple[str, int]:
    """The unit and scale most values are written in (USD, 10**6: millions)."""
    figures = [p.figure for p in points if p.figure is not None]
    if not figures:
        return "", 1
    scales = [10**f.exponent for f in figures]
    unit = " per ".join(
        part.split(":")[-1].removesuffix("s") for part in figures[-1].unit.split("/")
    )
    return unit, max(set(scales), key=scales.count)


def _reading(periods: SeriesAsk, chosen: Sequence[SeriesPeriod], values: list[SeriesValue]) -> str:
    """How the periods asked were read, on the company's calendar: 'read "the last five
    years" as fiscal 2018 to fiscal 2022 (FY2022: year ended December 31, 2022)'."""
    first, last = chosen[0], chosen[-1]
    years = f"fiscal {first.fiscal_year}"
    if last.fiscal_year != first.fiscal_year:
        years += f" to fiscal {last.fiscal_year}"
    what = f"the quarters of {years}" if periods.quarterly else years
    ends = next((v for v in reversed(values) if v.value is not None and v.period), None)
    said = f" ({_label(ends)}: {ends.period})" if ends is not None else ""
    return f'read "{periods.written or "the series"}" as {what}{said}'


def _label(value: SeriesValue) -> str:
    year = f"FY{value.fiscal_year}"
    return f"{value.fiscal_period} {year}" if value.fiscal_period else year


def _citations(
    session: Session, series: Sequence[Series], others: Sequence[Citation], limit: int
) -> list[Citation]:
    """The pages the series cites, first, each with its tree node; then the other pages."""
    pages = series_pages(series)[:limit]
    names = sorted({name for name, _ in pages})
    trees = {d.name: queries.tree(session, d) for d in queries.documents(session, names=names)}
    shown = [Citation(name, page, trees[name].leaf_of(page)) for name, page in pages]
    at = {(c.document, c.page) for c in shown}
    rest = [c for c in others if (c.document, c.page) not in at]
    return [*shown, *rest[: max(0, limit - len(shown))]]
