"""Fiscal-calendar rules: which years a filing may be called by, which filing a calendar date
names, and which of a company's filings are its latest."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from ..db.queries import DocumentInfo
from ..records import DocType

COMPARATIVE_YEARS = 2  # a 10-K's income statement shows three years
DATE_SLACK_DAYS = 7  # an 8-K is filed within four business days of its event's date


def years_of(fiscal_year: int | None, period_end: str | None) -> set[int]:
    """The years a filing may be called by: its fiscal year as the company names it, and,
    for a fiscal year ending in January to March, the calendar year it ends in (Ulta's
    "fiscal 2022" ended on January 28, 2023: analysts also call it FY2023)."""
    years = {fiscal_year} if fiscal_year is not None else set()
    if period_end and fiscal_year is not None:
        end_year, end_month = int(period_end[:4]), int(period_end[5:7])
        if end_month <= 3:
            years.add(end_year)
    return years


def filing_years(document: DocumentInfo) -> set[int]:
    return years_of(document.fiscal_year, document.period_end)


def covers_year(document: DocumentInfo) -> bool:
    """Whether the filing reports a whole fiscal year: an annual report, or a fourth-quarter
    release (which gives the full year's figures too)."""
    return document.fiscal_period == "FY" or (
        document.fiscal_period == "Q4" and document.doc_type == DocType.EARNINGS
    )


def of_dates(documents: Sequence[DocumentInfo], dates: Sequence[str]) -> list[DocumentInfo]:
    """The documents whose period_end (a periodic filing's period, an 8-K's event) is nearest
    the latest of `dates` that any is within DATE_SLACK_DAYS of; [] when none is."""
    ends = {id(d): _day(d.period_end) for d in documents}
    for wanted in sorted(dates, reverse=True):
        day = date.fromisoformat(wanted)
        apart = {key: abs((end - day).days) for key, end in ends.items() if end is not None}
        closest = min(apart.values(), default=DATE_SLACK_DAYS + 1)
        if closest <= DATE_SLACK_DAYS:
            return [d for d in documents if apart.get(id(d)) == closest]
    return []


def _day(value: str | None) -> date | None:
    try:
        return date.fromisoformat(value) if value else None
    except ValueError:  # a hand-edited metadata override
        return None


def latest_periodic(documents: Sequence[DocumentInfo]) -> list[DocumentInfo]:
    """The latest filing of each periodic type, and every 8-K (each reports an event of its
    own)."""

    def when(d: DocumentInfo) -> tuple[str, int]:
        return (d.period_end or "", d.fiscal_year or 0)

    latest: dict[str | None, DocumentInfo] = {}
    for d in documents:
        if d.doc_type != DocType.FORM_8K and (
            d.doc_type not in latest or when(d) > when(latest[d.doc_type])
        ):
            latest[d.doc_type] = d
    return [d for d in documents if d.doc_type == DocType.FORM_8K or latest.get(d.doc_type) is d]
