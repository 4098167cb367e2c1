"""How a stated figure's period is named: the period asked read on the filing's calendar
("read "FY23" as fiscal 2023, the year ended September 30, 2023"), the years asked as the
filing's own fiscal years, and a fiscal year's label for the period asked ("Q2 FY2024")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date

from ..db.queries import DocumentInfo
from ..periods import PeriodAsk
from ..periods.fiscal import own_years, reading
from .figures import Figure, FigureBook
from .headline import Stated
from .metric_questions import Asked


def read_period(period: PeriodAsk, book: FigureBook, ask: Asked, figures: list[Figure]) -> str:
    """How the period asked was read on the filing's calendar ('read "FY23" as fiscal
    2023, the year ended September 30, 2023'), ending where the figure stated ends; "" when
    no period is named."""
    if not period.written:
        return ""
    span = book.span(ask.years[-1] if ask.years else None)
    if span is None:
        return ""
    ends = [f.period_end for f in figures if span.ends_at(date.fromisoformat(f.period_end))]
    if ends:
        span = replace(span, end=date.fromisoformat(ends[0]))
    return reading(period, span)


def fiscal_years_of(
    ask: Asked, period: PeriodAsk, document: DocumentInfo
) -> tuple[Asked, PeriodAsk, str]:
    """The years asked, as fiscal years of `document` (`periods.fiscal.own_years`)."""
    shift, said = own_years(ask.years, document, document.name)
    if not shift:
        return ask, period, ""
    years = [y - shift for y in ask.years]
    return (
        replace(ask, years=years),
        replace(period, years=tuple(y - shift for y in period.years)),
        said,
    )


def with_reading(stated: Stated, read_as: str) -> Stated:
    if read_as:
        stated.readings.append(read_as)
    return stated


def year_labels(book: FigureBook) -> Callable[[int], str]:
    """A fiscal year's label for the period asked: "FY2023", "Q2 FY2024", "H1 FY2025"."""

    def label(year: int) -> str:
        span = book.span(year)
        if span is not None and span.fiscal_year is not None:
            return span.label
        ask = book.ask  # a filing of no known calendar: the period as the question asks it
        months = ask.months or 12
        prefix = {3: f"Q{ask.quarter} ", 6: "H1 ", 9: "9M "}.get(months, "") if ask.quarter else ""
        return f"{prefix}FY{year}"

    return label
