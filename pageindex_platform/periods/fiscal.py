"""A period placed on a company's own calendar: which years a filing may be called by, where
a fiscal year or quarter named in a question ends (from a filing's own period: its fiscal
year, quarter and end), the spans a filing reports (its own period and its comparative
columns), and how a reading is said ('read "FY23" as fiscal 2023, the year ended
September 30, 2023')."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Protocol, TypeVar

from ..records import DocType
from .dates import fiscal_offset, months_after, months_between
from .grammar import PeriodAsk, PeriodKind

COMPARATIVE_YEARS = 2  # a 10-K's income statement shows three years
DATE_SLACK_DAYS = 7  # an 8-K is filed within four business days of its event's date
SLACK_DAYS = 10  # a 52/53-week year ends within a week of its nominal day
_MONTH_WORDS = {3: "three", 6: "six", 9: "nine", 12: "twelve"}
_ORDINAL = {1: "first", 2: "second", 3: "third", 4: "fourth"}


class Filing(Protocol):
    """What the calendar reads of a stored filing (`DocumentInfo` is one)."""

    @property
    def doc_type(self) -> str | None: ...
    @property
    def fiscal_year(self) -> int | None: ...
    @property
    def fiscal_period(self) -> str | None: ...
    @property
    def period_end(self) -> str | None: ...


F = TypeVar("F", bound=Filing)


def day(value: str | None) -> date | None:
    try:
        return date.fromisoformat(value) if value else None
    except ValueError:  # a hand-edited metadata override
        return None


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


def filing_years(filing: Filing) -> set[int]:
    return years_of(filing.fiscal_year, filing.period_end)


def year_named(filing: Filing, period_end: str) -> int:
    """The fiscal year a column ending on `period_end` is named, as the filing names its own:
    its end's year, less one where the filing's fiscal year ends early in the next calendar
    year (a year ending January 1, 2022 is fiscal 2021 when the filing says so)."""
    return int(period_end[:4]) - fiscal_offset(filing.fiscal_year, filing.period_end)


def own_years(years: Sequence[int], filing: Filing, name: str) -> tuple[int, str]:
    """How far the years asked are from the filing's own names, and the reading said. A
    fiscal year ending early in the next calendar year (Ulta's fiscal 2022 ended January 28,
    2023) is also called by the year it ends in; when the question names that year and not
    the filing's own, it means the filing's year. (0, "") when the years are its own."""
    own, end = filing.fiscal_year, filing.period_end
    if own is None or end is None or not years or own in years:
        return 0, ""
    shift = int(end[:4]) - own
    if shift <= 0 or own + shift not in years:
        return 0, ""
    shifted = [y - shift for y in years]
    many = len(shifted) > 1
    return shift, (
        f"{', '.join(f'FY{y}' for y in years)} read as the fiscal year{'s' if many else ''} "
        f"ending in {'those years' if many else 'that year'}: "
        f"{', '.join(f'fiscal {y}' for y in shifted)} ({name} covers fiscal {own}, ended {end})."
    )


def year_ended_before(filing: Filing) -> int | None:
    """The last fiscal year ended before a filing of a quarter's (fiscal 2022 for a
    first-quarter 2023 10-Q); None for a filing of a year, or without a fiscal year."""
    if filing.fiscal_period in ("Q1", "Q2", "Q3") and filing.fiscal_year:
        return filing.fiscal_year - 1
    return None


def covers_year(filing: Filing) -> bool:
    """Whether the filing reports a whole fiscal year: an annual report, or a fourth-quarter
    release (which gives the full year's figures too)."""
    return filing.fiscal_period == "FY" or (
        filing.fiscal_period == "Q4" and filing.doc_type == DocType.EARNINGS
    )


def of_dates(filings: Sequence[F], dates: Sequence[str]) -> list[F]:
    """The filings whose period_end (a periodic filing's period, an 8-K's event) is nearest
    the latest of `dates` that any is within DATE_SLACK_DAYS of; [] when none is."""
    ends = {id(d): day(d.period_end) for d in filings}
    for wanted in sorted(dates, reverse=True):
        when = date.fromisoformat(wanted)
        apart = {key: abs((end - when).days) for key, end in ends.items() if end is not None}
        closest = min(apart.values(), default=DATE_SLACK_DAYS + 1)
        if closest <= DATE_SLACK_DAYS:
            return [d for d in filings if apart.get(id(d)) == closest]
    return []


def latest_periodic(filings: Sequence[F]) -> list[F]:
    """The latest filing of each periodic type, and every 8-K (each reports an event of its
    own)."""

    def when(d: Filing) -> tuple[str, int]:
        return (d.period_end or "", d.fiscal_year or 0)

    latest: dict[str | None, F] = {}
    for d in filings:
        if d.doc_type != DocType.FORM_8K and (
            d.doc_type not in latest or when(d) > when(latest[d.doc_type])
        ):
            latest[d.doc_type] = d
    return [d for d in filings if d.doc_type == DocType.FORM_8K or latest.get(d.doc_type) is d]


@dataclass(frozen=True)
class Span:
    """A period on a company's calendar: where it ends, how many months it spans (0: a
    balance at its end), and its fiscal year and the quarter it closes (4: the year's end)."""

    end: date
    months: int
    fiscal_year: int | None = None
    quarter: int | None = None

    def shifted(self, years: int) -> Span:
        year = self.fiscal_year + years if self.fiscal_year is not None else None
        return replace(self, end=months_after(self.end, 12 * years), fiscal_year=year)

    def ends_at(self, end: date) -> bool:
        return abs((end - self.end).days) <= SLACK_DAYS

    def holds(self, start: str | None, end: str) -> bool:
        """Whether a figure of `start`..`end` (no start: a balance, or a column headed by its
        date alone) is of this period: the same end, and a duration of the same months."""
        if not self.ends_at(date.fromisoformat(end)):
            return False
        if start is None or self.months == 0:
            return True
        return months_between(date.fromisoformat(start), date.fromisoformat(end)) == self.months

    @property
    def words(self) -> str:
        """ "the year ended September 28, 2024", "the three months ended ...", "September 28,
        2024" (a balance)."""
        when = f"{self.end:%B} {self.end.day}, {self.end.year}"
        if self.months == 0:
            return when
        if self.months == 12:
            return f"the year ended {when}"
        return f"the {_MONTH_WORDS.get(self.months, str(self.months))} months ended {when}"

    @property
    def fiscal_name(self) -> str:
        """ "fiscal 2023", "the second quarter of fiscal 2023", "the first half of fiscal
        2025", "the end of fiscal 2023"; "" when its fiscal year is not known."""
        if self.fiscal_year is None:
            return ""
        year = f"fiscal {self.fiscal_year}"
        if self.months == 0:
            if self.quarter in (None, 4):
                return f"the end of {year}"
            return f"the end of the {_ORDINAL[self.quarter]} quarter of {year}"
        if self.months == 12:
            return year
        if self.months == 3 and self.quarter:
            return f"the {_ORDINAL[self.quarter]} quarter of {year}"
        if self.months == 6:
            return f"the first half of {year}"
        return f"the first {_MONTH_WORDS.get(self.months, str(self.months))} months of {year}"

    @property
    def label(self) -> str:
        """Short: "FY2023", "Q2 FY2024", "H1 FY2025", "9M FY2025"."""
        if self.fiscal_year is None:
            return self.words
        if self.months in (0, 12) or not self.quarter:
            return f"FY{self.fiscal_year}"
        prefix = {3: f"Q{self.quarter}", 6: "H1", 9: "9M"}.get(self.months, f"{self.months}M")
        return f"{prefix} FY{self.fiscal_year}"


def span_words(start: str | None, end: str) -> str:
    """A figure's period in words: "year ended September 28, 2024", "three months ended
    June 28, 2025", "as of June 28, 2025" (no start: a balance)."""
    last = date.fromisoformat(end)
    when = f"{last:%B} {last.day}, {last.year}"
    if start is None:
        return f"as of {when}"
    months = months_between(date.fromisoformat(start), last)
    if months == 12:
        return f"year ended {when}"
    return f"{_MONTH_WORDS.get(months, str(months))} months ended {when}"


def _own(filing: Filing) -> tuple[int, int, date] | None:
    """The filing's own fiscal year, the quarter its period closes (4: a year) and its end."""
    end = day(filing.period_end)
    if filing.fiscal_year is None or end is None:
        return None
    period = filing.fiscal_period
    if period in ("Q1", "Q2", "Q3", "Q4"):
        return filing.fiscal_year, int(period[1]), end
    if period == "FY" or filing.doc_type == DocType.FORM_10K:
        return filing.fiscal_year, 4, end
    return None


def quarter_end(filing: Filing, year: int, quarter: int) -> date | None:
    """Where the company's fiscal `year`'s `quarter` (4: the year) ends, from the filing's
    own period; None when the filing has no place on a calendar (an 8-K)."""
    own = _own(filing)
    if own is None:
        return None
    fy, q, end = own
    return months_after(end, (year - fy) * 12 + (quarter - q) * 3)


def fiscal_of(filing: Filing, end: date) -> tuple[int, int] | None:
    """The (fiscal year, quarter) that closes on `end` in the filing's calendar; None when
    `end` is no quarter's end of it."""
    own = _own(filing)
    if own is None:
        return None
    fy, q, own_end = own
    steps = round((end - own_end).days / 91.31)
    index = fy * 4 + (q - 1) + steps
    year, quarter = index // 4, index % 4 + 1
    closes = quarter_end(filing, year, quarter)
    if closes is None or abs((closes - end).days) > SLACK_DAYS:
        return None
    return year, quarter


def own_span(filing: Filing) -> Span | None:
    """The filing's own period: its year (an annual report) or its quarter."""
    own = _own(filing)
    if own is None:
        return None
    fy, q, end = own
    months = 12 if (q == 4 and covers_year(filing)) or filing.fiscal_period == "FY" else 3
    return Span(end, months, fy, q)


def span_for(ask: PeriodAsk, filing: Filing, year: int | None = None) -> Span | None:
    """The period `ask` names, on the filing's calendar, for fiscal `year` (None: the year
    the ask names, else the filing's own). A question naming no period asks the filing's
    own (its year, or its quarter: never its year to date)."""
    if ask.end is not None:
        return _dated_span(ask, filing, ask.end, year)
    own = _own(filing)
    if own is None:
        return None
    fy = own[0]
    if year is None:
        year = ask.years[-1] if ask.years else fy
    months = ask.months
    if (
        ask.kind in (PeriodKind.QUARTER, PeriodKind.YEAR_TO_DATE, PeriodKind.INSTANT)
        and ask.quarter
    ):
        quarter = ask.quarter
    elif ask.kind in (None, PeriodKind.LATEST_QUARTER):
        span = own_span(filing)
        if span is None or ask.kind is None or span.months == 3:
            return span if span is None else span.shifted(year - fy)
        return None  # the newest quarter, asked of a year's filing
    else:
        quarter = 4
    end = quarter_end(filing, year, quarter)
    if end is None:
        return None
    return Span(end, 12 if months is None else months, year, quarter)


def _dated_span(ask: PeriodAsk, filing: Filing, end: date, year: int | None) -> Span:
    named = fiscal_of(filing, end)
    months = ask.months if ask.months is not None else 12
    span = Span(end, months, *(named or (None, None)))
    if year is not None and named is not None and year != named[0]:
        return span.shifted(year - named[0])
    return span


def asked_years(ask: PeriodAsk, filing: Filing) -> list[int]:
    """The fiscal years a figure is asked for, on the filing's calendar: a written date's
    fiscal year, "the last five years" up to the filing's own year, else those named (none:
    the filing's own period)."""
    own = _own(filing)
    if ask.end is not None:
        named = fiscal_of(filing, ask.end)
        return [named[0]] if named else []
    if ask.count and own is not None:
        return list(range(own[0] - ask.count + 1, own[0] + 1))
    return list(ask.years)


def reported(filing: Filing) -> list[Span]:
    """The periods a filing reports: its own, and the comparative columns beside it (a 10-K:
    the two years before, the balance a year before; a 10-Q: the quarter a year before, the
    year to date and the year before's, the balance at the last year end)."""
    own = own_span(filing)
    if own is None:
        return []
    spans = [own, replace(own, months=0)]
    fy, quarter = own.fiscal_year or 0, own.quarter or 4
    if own.months == 12:
        spans += [own.shifted(-k) for k in range(1, COMPARATIVE_YEARS + 1)]
        spans.append(replace(own.shifted(-1), months=0))
    else:
        spans.append(own.shifted(-1))
        if quarter > 1:
            to_date = replace(own, months=3 * quarter)
            spans += [to_date, to_date.shifted(-1)]
        last = quarter_end(filing, fy - 1, 4)
        if last is not None:
            spans.append(Span(last, 0, fy - 1, 4))
        if covers_year(filing):
            spans += [replace(own, months=12), replace(own.shifted(-1), months=12)]
    return spans


def reports(filing: Filing, span: Span) -> str | None:
    """ "own" when `span` is the filing's own period (or its balance or year to date),
    "comparative" when the filing reports it beside its own, else None."""
    for i, candidate in enumerate(reported(filing)):
        if candidate.ends_at(span.end) and (candidate.months == span.months or span.months == 0):
            own = filing.period_end is not None and candidate.ends_at(
                date.fromisoformat(filing.period_end)
            )
            return "own" if own or i == 0 else "comparative"
    return None


def reading(ask: PeriodAsk, span: Span) -> str:
    """How the question's words for a period were read: 'read "FY23" as fiscal 2023, the
    year ended September 30, 2023'."""
    if not ask.written:
        return ""
    named = span.fiscal_name
    if ask.end is not None:  # the words say the dates: say what the company calls it
        return f'read "{ask.written}" as {named}' if named else ""
    return f'read "{ask.written}" as {", ".join(x for x in (named, span.words) if x)}'
