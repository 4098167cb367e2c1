"""The periods a series question asks for: a figure across fiscal years ("FY2015–FY2022",
"2018 to 2022", "the last five years", "by year") or across quarters ("quarterly revenue in
FY2023"), each a `SeriesPeriod` named by the company's own calendar, and placed on a
filing's calendar as the `PeriodAsk` a figure is looked up by."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..patterns import deferred
from .grammar import PeriodAsk, PeriodKind

_BY_YEAR = deferred(
    r"\b(?:by|each|every|per)\s+(?:fiscal\s+)?year\b|\byear[\s-]by[\s-]year\b|"
    r"\bover\s+(?:the\s+)?(?:years|time)\b|\bacross\s+(?:the\s+)?years\b|\bhistory\b|\btrend\b",
    re.IGNORECASE,
)
_QUARTERLY = deferred(
    r"\bquarterly\b(?!\s+(?:report|filing|statement|dividend))|\b(?:by|each|every|per)\s+"
    r"quarter\b|\bquarter[\s-](?:by|over)[\s-]quarter\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, order=True)
class SeriesPeriod:
    """A period of a series: a fiscal year, or one of its quarters (1-4); with `months`,
    the year to date that quarter closes (9: the first nine months)."""

    fiscal_year: int
    quarter: int | None = None
    months: int | None = None

    @property
    def label(self) -> str:
        """ "FY2023", "Q2 FY2023", "9M FY2023"."""
        year = f"FY{self.fiscal_year}"
        if self.months and self.months != 3:
            return f"{self.months}M {year}"
        return f"Q{self.quarter} {year}" if self.quarter else year

    @property
    def span_months(self) -> int:
        """The months a flow of the period spans: 12 a year, 3 a quarter, or to date."""
        return self.months or (3 if self.quarter else 12)

    @property
    def fiscal_period(self) -> str | None:
        """ "Q2" (a quarter), "9M" (the months to date), None (a year)."""
        if self.months and self.months != 3:
            return f"{self.months}M"
        return f"Q{self.quarter}" if self.quarter else None

    def ask(self, *, balance: bool = False) -> PeriodAsk:
        """The kind of period as a question would ask it, its fiscal year given with each
        look-up: a year, a quarter's three months (or its months to date), or a balance at
        the period's end. One ask serves every year of a series."""
        if self.quarter is None:
            if balance:
                return PeriodAsk(kind=PeriodKind.INSTANT, months=0)
            return PeriodAsk(kind=PeriodKind.YEAR, months=12)
        if balance:
            return PeriodAsk(kind=PeriodKind.INSTANT, quarter=self.quarter, months=0)
        span = self.span_months
        kind = PeriodKind.QUARTER if span == 3 else PeriodKind.YEAR_TO_DATE
        return PeriodAsk(kind=kind, quarter=self.quarter, months=span)

    def before(self) -> SeriesPeriod:
        """The same period a year before."""
        return SeriesPeriod(self.fiscal_year - 1, self.quarter, self.months)


@dataclass(frozen=True)
class SeriesAsk:
    """What a series question asks for: `years` (empty: every year the filings cover, or
    the last `count`), by quarter when `quarterly`, and the words that asked it."""

    years: tuple[int, ...] = ()
    count: int | None = None
    quarterly: bool = False
    written: str = ""

    def periods(self, covered: Iterable[int]) -> list[SeriesPeriod]:
        """The periods asked, where `covered` are the fiscal years the stored filings
        report: the years named, else the last `count` of those covered, else every year
        from the first covered to the last."""
        stored = sorted(set(covered))
        if self.years:
            years = list(self.years)
        elif self.count and stored:
            years = list(range(stored[-1] - self.count + 1, stored[-1] + 1))
        elif self.quarterly:
            years = stored[-1:]
        else:  # every year from the first stored to the last, those none covers named
            years = list(range(stored[0], stored[-1] + 1)) if stored else []
        if not self.quarterly:
            return [SeriesPeriod(y) for y in years]
        return [SeriesPeriod(y, q) for y in years for q in (1, 2, 3, 4)]


def series_asked(question: str, period: PeriodAsk) -> SeriesAsk | None:
    """The series `question` asks for, or None: a range of years ("FY2015–FY2022", "the
    last five years"), a figure "by year", or a figure "quarterly" (of the years named, else
    of the newest year stored)."""
    quarterly = _QUARTERLY.search(question)
    if quarterly:
        years = period.years if period.kind in (PeriodKind.YEAR, PeriodKind.RANGE) else ()
        return SeriesAsk(years, period.count, True, quarterly.group(0))
    if period.kind == PeriodKind.RANGE:
        return SeriesAsk(period.years, period.count, False, period.written)
    by_year = _BY_YEAR.search(question)
    if by_year and period.kind in (None, PeriodKind.YEAR):
        years = period.years if len(period.years) > 1 else ()
        return SeriesAsk(years, None, False, by_year.group(0))
    return None
