"""The metadata filter of the local route: the documents of the companies a question names,
narrowed by the date, years, quarters and filing types it names, each relaxed when it would
leave nothing."""

from __future__ import annotations

from dataclasses import dataclass

from ..db import queries
from ..db.queries import DocumentInfo
from ..db.sql import Session
from ..periods import PeriodAsk, PeriodKind
from ..periods.fiscal import (
    COMPARATIVE_YEARS,
    covers_year,
    filing_years,
    latest_periodic,
    of_dates,
    reports,
    span_for,
    year_ended_before,
)
from ..records import DocType
from .constraints import Constraints


@dataclass(frozen=True)
class MetadataMatch:
    """The documents a metadata selection kept, and what it applied, in words. `sql`: the
    model's query (llm mode), when it was what selected them."""

    ids: list[int]
    applied: str
    sql: str | None = None


def filter_documents(*, session: Session, constraints: Constraints) -> MetadataMatch:
    """Documents matching the constraints, relaxing the ones that match nothing, for each
    company named on its own ("Amazon vs Apple 2019" keeps Apple's filings when only Amazon's
    2019 one is stored). A calendar date the question names ("the 8-K dated July 1, 2022",
    "the quarter ended December 31, 2022") selects the filings of that date when there are
    any. A year with no filing of its own falls back to the next year's, which reports it as a
    comparative, then to the nearest earlier year's, which looks ahead to it, then to any
    year."""
    if not constraints.companies:
        return MetadataMatch([], "no company named")
    ids: list[int] = []
    said: list[str] = []
    for group in constraints.groups():
        found, applied = _filter_one(session, group, constraints)
        ids.extend(found)
        said.append(applied)
    return MetadataMatch(ids, " | ".join(said))


def _filter_one(
    session: Session, companies: list[str], constraints: Constraints
) -> tuple[list[int], str]:
    rows = queries.documents(session, companies=companies, ready=True, by_id=True)
    applied = [f"company in {companies}"]
    rows, said = _of_period(rows, constraints)
    applied.extend(said)
    for column, wanted in (
        ("doc_type", constraints.doc_types),
        ("fiscal_period", constraints.periods),
    ):
        kept = [r for r in rows if getattr(r, column) in wanted]
        if wanted and kept:
            rows = kept
            applied.append(f"{column} in {wanted}")
    return [r.id for r in rows], "; ".join(applied)


def _of_period(
    rows: list[DocumentInfo], constraints: Constraints
) -> tuple[list[DocumentInfo], list[str]]:
    """The filings of the period asked: the filing of the date named, else the filings that
    report the period (their own, else beside it as a comparative column); the newest
    fiscal year's; the years named (or the nearest that report them); with no period, the
    latest of each periodic type."""
    ask = constraints.period
    named = [r for r in rows if r.fiscal_year in constraints.filing_years and covers_year(r)]
    if named:  # "As presented in Acme's 2021 Form 10-K, what was goodwill at December 31, 2020?"
        return named, [f"the annual filings of fiscal {constraints.filing_years} named"]
    dated = of_dates(rows, constraints.dates)
    if dated:
        return dated, [f"period_end near {constraints.dates}"]
    reporting = (
        _reporting(rows, ask) if ask.end is not None or _quarter_without_own(rows, ask) else []
    )
    if reporting:
        span = span_for(ask, reporting[0])
        own = span is not None and reports(reporting[0], span) == "own"
        role = "own period" if own else "a comparative column"
        return reporting, [f"reports {ask.written or 'the period'} ({role})"]
    if ask.kind == PeriodKind.LATEST_YEAR or (ask.count and not ask.years):
        annual = [r for r in rows if covers_year(r)]
        newest = max((r.period_end or "" for r in annual), default=None)
        if newest:
            kept = [r for r in annual if r.period_end == newest]
            year = kept[0].fiscal_year or 0
            # the last year ended before the newest quarter's filing
            later = max(filter(None, map(year_ended_before, rows)), default=None)
            if ask.count or (later is not None and later > year):
                year = max(year, later or 0)  # a later quarter's filing: a year since ended
                first = year - (ask.count or 1) + 1
                return _years_of(rows, list(range(first, year + 1)), constraints)
            return kept, ["the newest fiscal year's filings"]
    if constraints.years:
        return _years_of(rows, constraints.years, constraints)
    if not constraints.periods:
        # No period named: the question is about the company as it is now, which its latest
        # periodic filings describe (8-Ks report events of their own and all stay).
        return latest_periodic(rows), ["latest filing of each periodic type (no period named)"]
    return rows, []


def _years_of(
    rows: list[DocumentInfo], years: list[int], constraints: Constraints
) -> tuple[list[DocumentInfo], list[str]]:
    rows, said = _of_years(rows, years)
    applied = [said]
    if constraints.fiscal_year_mentioned and not constraints.periods:
        # a fiscal year's own filings (its 10-K, its fourth-quarter release) answer for it;
        # its first three quarters' filings only when it has none
        annual = [r for r in rows if covers_year(r) or r.doc_type == DocType.FORM_8K]
        if any(covers_year(r) for r in annual) and len(annual) < len(rows):
            rows = annual
            applied.append("the year's own filings (no quarter named)")
    return rows, applied


def _quarter_without_own(rows: list[DocumentInfo], ask: PeriodAsk) -> bool:
    """Whether the question names a quarter of a year no stored filing has as its own."""
    if not ask.quarter or not ask.years:
        return False
    wanted = f"Q{ask.quarter}"
    return not any(r.fiscal_period == wanted and r.fiscal_year in ask.years for r in rows)


def _reporting(rows: list[DocumentInfo], ask: PeriodAsk) -> list[DocumentInfo]:
    """The filings that report the period asked as their own; else the first filings after
    it that report it beside their own (a 10-K's prior years, a 10-Q's prior-year quarter)."""
    roles = {}
    for row in rows:
        span = span_for(ask, row)
        role = reports(row, span) if span is not None else None
        if role:
            roles[row.id] = role
    own = [r for r in rows if roles.get(r.id) == "own"]
    if own:
        return own
    later = sorted((r for r in rows if r.id in roles), key=lambda r: r.period_end or "")
    return [r for r in later if r.period_end == later[0].period_end] if later else []


def _of_years(rows: list[DocumentInfo], named: list[int]) -> tuple[list[DocumentInfo], str]:
    """The filings of the years named, or of the nearest years that report them."""
    stated = set(named)
    # The filing of the latest year named reports up to two earlier years as comparatives,
    # so "FY2021 vs FY2022" is answered from the FY2022 filing alone; a wider span needs
    # the filings of each year.
    latest = {max(stated)} if max(stated) - min(stated) <= COMPARATIVE_YEARS else stated
    before = {y for r in rows for y in filing_years(r) if y < min(latest)}
    choices = (
        (latest, "fiscal_year in"),
        (stated, "fiscal_year in"),
        ({y + 1 for y in latest}, "next year"),
        ({max(before)} if before else set(), "nearest earlier year"),
    )
    for years, label in choices:
        kept = [r for r in rows if filing_years(r) & years]
        if kept:
            return kept, f"{label} {sorted(years)}"
    return rows, "years relaxed (no matching filing)"
