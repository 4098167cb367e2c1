"""What a period means, in one place: dates as filings and analysts write them, spans of
months, fiscal years and quarters named by each company's own calendar. Ingest (a filing's
own period), the tables (a column's period), routing, figures and metrics all use it."""

from .dates import (
    MONTH_NAMES,
    MONTH_WORDS,
    FiscalYearEnd,
    day_in_month,
    fiscal_offset,
    month_number,
    months_after,
    months_before,
    months_between,
    parse_written_date,
    quarter_of,
    written_dates,
)
from .grammar import PeriodAsk, PeriodKind, parse_period

__all__ = [
    "MONTH_NAMES",
    "MONTH_WORDS",
    "FiscalYearEnd",
    "PeriodAsk",
    "PeriodKind",
    "day_in_month",
    "fiscal_offset",
    "month_number",
    "months_after",
    "months_before",
    "months_between",
    "parse_period",
    "parse_written_date",
    "quarter_of",
    "written_dates",
]
