"""Dates as filings write them ("July 29, 2023", "January 28, 2024"), spans of months, and a
company's fiscal calendar: where its year ends, how its years are named, which quarter a
period end closes."""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from ..patterns import deferred

MONTH_NAMES = (
    "January|February|March|April|May|June|July|August|September|October|November|December"
)
# a month as a table's header prints it: "April", "Apr", "Apr.", "Sept." (an earnings
# release's "Apr 1, 2023")
MONTH_WORDS = rf"(?:{MONTH_NAMES}|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\b\.?"
_WRITTEN = deferred(rf"\b({MONTH_NAMES})\s+(\d{{1,2}})\s*,?\s*(\d{{4}})\b", re.IGNORECASE)


def month_number(word: str) -> int:
    """The month a written month ("April", "Apr.", "Sept") is, 1-12."""
    return _QUESTION_MONTHS[word[:3].lower()]


def parse_written_date(text: str) -> date | None:
    """ "July 29, 2023" (commas and spaces as they come) → a date; None when it is none."""
    cleaned = " ".join(text.replace(",", " ").split())
    try:
        return datetime.strptime(cleaned, "%B %d %Y").date()
    except ValueError:
        return None


def written_dates(text: str) -> Iterator[tuple[int, date]]:
    """Each date written out in `text` ("July 29, 2023"), with its offset."""
    for m in _WRITTEN.finditer(text):
        found = parse_written_date(f"{m.group(1)} {m.group(2)} {m.group(3)}")
        if found is not None:
            yield m.start(), found


def day_in_month(year: int, month: int, day: int) -> date:
    """The day, or the month's last where the month is shorter."""
    return date(year, month, min(day, calendar.monthrange(year, month)[1]))


def months_before(end: date, months: int) -> date:
    """The same day `months` months earlier (the month's last day where it is shorter)."""
    month = end.month - months
    year = end.year + (month - 1) // 12
    month = (month - 1) % 12 + 1
    return day_in_month(year, month, end.day)


def months_after(start: date, months: int) -> date:
    """The same day `months` months later (the month's last day where it is shorter)."""
    return months_before(start, -months)


def first_day(end: date, months: int) -> date:
    """The first day of the period of `months` months that ends on `end`."""
    return months_before(end, months) + timedelta(days=1)


def months_between(start: date, end: date) -> int:
    """The whole months a period from `start` to `end` (inclusive) spans: 3 for a quarter,
    12 for a year, whatever its weeks (a 13-week quarter, a 53-week year)."""
    return round(((end - start).days + 1) / 30.44)


def fiscal_offset(fiscal_year: int | None, period_end: str | None) -> int:
    """Years from a fiscal year's name to the year it ends in: 1 where fiscal 2023 ends in
    January to March 2024, else 0 (a year ending later is named by the year it ends in)."""
    if fiscal_year is None or period_end is None or int(period_end[5:7]) > 3:
        return 0
    return max(0, min(1, int(period_end[:4]) - fiscal_year))


@dataclass(frozen=True)
class FiscalYearEnd:
    """Where a company's fiscal year ends (a month, and the day: the last Saturday or a
    fixed date falls within a week of it)."""

    month: int
    day: int

    @classmethod
    def of(cls, end: date) -> FiscalYearEnd:
        return cls(end.month, end.day)

    def months_after(self, end: date, *, slack_days: int = 10) -> int | None:
        """Months from the fiscal year's end to `end` (0-11), where `end` falls within
        `slack_days` of that month's year-end day (a 52/53-week calendar ends on a weekday
        near it: "July 1, 2023" closes the half of a year ending "December 31"); None when
        it falls between."""
        for k in range(12):
            month = (self.month - 1 + k) % 12 + 1
            for year in (end.year - 1, end.year, end.year + 1):
                candidate = day_in_month(year, month, self.day)
                if abs((end - candidate).days) <= slack_days:
                    return k
        return None


def quarter_of(end: date, year_end: FiscalYearEnd) -> str | None:
    """The fiscal quarter a period ending on `end` closes ("Q1"-"Q4"), None when `end` is
    not a quarter's end of that calendar."""
    months = year_end.months_after(end)
    if months is not None and months in (3, 6, 9, 0):
        return f"Q{months // 3 or 4}"
    return None


_QUESTION_MONTHS = {m[:3].lower(): i for i, m in enumerate(MONTH_NAMES.split("|"), 1)}
_MONTH = r"(?P<{}>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_DAY = r"(?P<{}>[0-3]?\d)(?:st|nd|rd|th)?"
# A calendar date as written in questions: "July 1, 2022", "1st July 2022", "1 Jul. 2022",
# "2022-07-01", "7/1/2022" (month first, as in SEC filings).
_QUESTION_DATE = deferred(
    rf"\b{_MONTH.format('m1')}\s+{_DAY.format('d1')},?\s+(?P<y1>(?:19|20)\d\d)\b"
    rf"|\b{_DAY.format('d2')}\s+(?:of\s+)?{_MONTH.format('m2')},?\s+(?P<y2>(?:19|20)\d\d)\b"
    r"|\b(?P<y3>(?:19|20)\d\d)-(?P<m3>[01]?\d)-(?P<d3>[0-3]?\d)\b"
    r"|\b(?P<m4>[01]?\d)/(?P<d4>[0-3]?\d)/(?P<y4>(?:19|20)\d\d)\b",
    re.IGNORECASE,
)


def parse_question_dates(text: str) -> list[tuple[date, int, int]]:
    """Each calendar date a question writes, with where it starts and stops; impossible
    dates ("30 Feb 2022") are not dates."""
    found = []
    for m in _QUESTION_DATE.finditer(text):
        n = next(i for i in "1234" if m.group(f"y{i}"))
        month = m.group(f"m{n}")
        number = int(month) if month.isdigit() else _QUESTION_MONTHS[month[:3].lower()]
        try:
            day = date(int(m.group(f"y{n}")), number, int(m.group(f"d{n}")))
        except ValueError:
            continue
        found.append((day, m.start(), m.end()))
    return found


def parse_dates(text: str) -> list[str]:
    """The calendar dates a question names, as ISO strings, sorted ("the 8-K dated 1st July
    2022", "the quarter ended December 31, 2022")."""
    return sorted({d.isoformat() for d, _, _ in parse_question_dates(text)})


# The months a table column's heading spans: "Three Months Ended", "13 Weeks Ended",
# "Fifty-two weeks ended", "Years Ended", "Quarter Ended".
SPAN_MONTHS = {
    "three": 3, "thirteen": 3, "13": 3, "six": 6, "twenty-six": 6, "26": 6, "nine": 9,
    "thirty-nine": 9, "39": 9, "twelve": 12, "fifty-two": 12, "fifty-three": 12, "52": 12,
    "53": 12, "year": 12, "quarter": 3,
}  # fmt: skip


def cut_spans(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` less the words at `spans` (start, end), each cut where it is written."""
    for start, end in sorted(spans, reverse=True):
        text = f"{text[:start]} {text[end:]}"
    return text
