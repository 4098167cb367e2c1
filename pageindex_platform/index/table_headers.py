"""A table's header: the period of each of its columns, read from the header lines above its
rows ("Three Months Ended | Six Months Ended" over "July 29, 2023 July 30, 2022 ...", "Years
ended December 31" over "(Millions) 2018 2017 2016", "FISCAL 2023 FISCAL 2022"), and the
places of the columns of change it names beside the periods' ("2023 2022 Change",
"Increase/(decrease)" over years repeated)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from ..periods import MONTH_WORDS, day_in_month, month_number, months_before
from ..periods.dates import SPAN_MONTHS
from .row_cells import row_cells

DATE = re.compile(rf"(?:{MONTH_WORDS})\s+\d{{1,2}},\s*\d{{4}}|(?<![\d,.$])(?:19|20)\d\d(?![\d,.%])")
_SPAN = re.compile(
    r"(?:(?:three|six|nine|twelve|thirteen|twenty-six|thirty-nine|fifty-two|fifty-three|"
    r"\d{1,2})[\s-]+(?:months|weeks)|years?|quarters?|fiscal years?)\s+ended"
    r"(?:\s+(?:" + MONTH_WORDS + r")\s+\d{1,2}\b(?!,?\s*\d{4}))?",
    re.IGNORECASE,
)
# a header line that says its columns are fiscal years, with no "ended": "Fiscal Year"
_FISCAL_YEARS = re.compile(r"fiscal\s+years?", re.IGNORECASE)
_FISCAL_YEAR = re.compile(r"\bfiscal\s+(?:year\s+)?(?:19|20)\d\d\b", re.IGNORECASE)
# a month and day without its year: "January 28," over the year "2023"
_DAY = re.compile(rf"\b(?:{MONTH_WORDS})\s+\d{{1,2}}\b(?!,?\s*\d{{4}})", re.IGNORECASE)
# words of a header line beside its dates ("In millions, except per share amounts 2018 2017")
_HEADER_WORDS = frozenset(
    "in millions thousands billions except per share shares amounts amount data dollars and "
    "fiscal year years ended unaudited change changes excluding currency".split()
)
_PARENTHESES = re.compile(r"\([^()]*\)")


def column_periods(above: Sequence[str]) -> list[str]:
    """The period of each numeric column of a table, from its header lines above a row:
    "Three Months Ended | Six Months Ended" over "July 29, 2023 July 30, 2022 ...", or
    "Years ended December 31" over "(Millions) 2018 2017 2016"; [] when none is found."""
    for back in range(len(above) - 1, -1, -1):
        dates = DATE.findall(above[back])
        rest = _PARENTHESES.sub("", DATE.sub("", above[back]))  # "(In millions, except ...)"
        words = [w for w in re.findall(r"[a-z]{3,}", rest.lower()) if w not in _HEADER_WORDS]
        if len(dates) < 2 or len(words) > 3:
            continue
        spans: list[str] = []
        for header in reversed(above[max(0, back - 2) : back + 1]):
            spans = _SPAN.findall(header)
            if not spans and _FISCAL_YEARS.fullmatch(header.strip()):
                spans = ["years ended"]  # "Fiscal Year" over "In Millions 2022 2021 2020"
            if not spans and len(_FISCAL_YEAR.findall(above[back])) == len(dates):
                spans = ["years ended"]  # "FISCAL 2023 FISCAL 2022": each a fiscal year
            if spans:
                break
        days: list[str] = []  # "January 28, January 29," over "2023 2022": one date each
        if back > 0 and not _SPAN.search(above[back - 1]):
            days = _DAY.findall(above[back - 1])
        if all(re.fullmatch(r"\d{4}", d) for d in dates) and len(days) in (1, len(dates)):
            dates = [f"{days[i % len(days)]}, {d}" for i, d in enumerate(dates)]
        labels = []
        for i, when in enumerate(re.sub(r",\s*", ", ", d) for d in dates):
            span = spans[i * len(spans) // len(dates)] if spans else ""
            day = re.search(rf"(?:{MONTH_WORDS})\s+\d{{1,2}}$", span, re.IGNORECASE)
            if day and re.fullmatch(r"\d{4}", when):  # "Years ended December 31" over years
                span, when = span[: day.start()].strip(), f"{day.group(0)}, {when}"
            span = re.sub(r"^(year|quarter)s\b", r"\1", span.lower())  # "years ended" → one
            labels.append(" ".join(f"{span} {when}".split()) if span else when)
        return labels
    return []


@dataclass(frozen=True)
class Column:
    """A column's period: its end, and its start for a span (None: a balance at the end)."""

    start: str | None
    end: str


def column_dates(label: str, *, year_end: tuple[int, int], offset: int = 0) -> Column:
    """The period of a column label from `column_periods` ("three months ended July 29,
    2023", "December 31, 2018", "2018"). A bare year is a fiscal year, as filings head their
    columns: it ends on the filing's own year-end day (`year_end`: month, day), `offset`
    years after it (1 where fiscal 2023 ends in February 2024)."""
    found = re.search(rf"({MONTH_WORDS})\s+(\d{{1,2}}),\s*(\d{{4}})", label, re.IGNORECASE)
    if found:
        month = month_number(found.group(1))
        end = day_in_month(int(found.group(3)), month, int(found.group(2)))
    else:
        end = day_in_month(int(re.findall(r"\d{4}", label)[-1]) + offset, *year_end)
    span = re.match(r"([\w-]+)(?:[\s-]+(?:months|weeks))?\s", label.lower())
    months = SPAN_MONTHS.get(span.group(1)) if span and "ended" in label.lower() else None
    if months is None:
        return Column(None, end.isoformat())
    first = months_before(end, months) + timedelta(days=1)
    return Column(first.isoformat(), end.isoformat())


@dataclass(frozen=True)
class Header:
    """A table's columns, each a period, its scale, and its change columns' places."""

    columns: list[Column]
    power: int | None  # the table's scale: 6 for "in millions"; None when not stated
    labels: list[str]
    # where the header names columns of change beside the periods ("2023 2022 Change",
    # "Amount Increase/(decrease) Amount ..."): True for a period's column, False for a
    # change's, in order; () when it names none
    layout: tuple[bool, ...] = ()


# a column of change beside a period's: "Change", "% Change", "Inc/(Dec)", "Increase/
# (decrease)", "Percent", "Variance"
_CHANGE = re.compile(
    r"\binc(?:rease)?\s*/\s*\(?\s*dec(?:rease)?\b\)?|\b(?:increase|decrease|change|variance|"
    r"percent(?:age)?)\b|%",
    re.IGNORECASE,
)


def _layout(lines: Sequence[str], at: int, periods: int) -> tuple[bool, ...]:
    """The order of a table's period and change columns, from its header line `at` ("2023
    2022 Change": each date a period's column) or the lines below it before the first row
    ("Amount (decrease) Amount (decrease) Amount": each "Amount" a period's); () when the
    header names no change column."""
    dated = sorted(
        [(m.start(), True) for m in DATE.finditer(lines[at])]
        + [(m.start(), False) for m in _CHANGE.finditer(lines[at])]
    )
    if not all(kind for _, kind in dated):
        return tuple(kind for _, kind in dated)
    for line in lines[at + 1 : at + 4]:
        if row_cells(line):
            break
        amounts = [
            (m.start(), m.group(0).lower() == "amount")
            for m in re.finditer(rf"\bamount\b|{_CHANGE.pattern}", line, re.IGNORECASE)
        ]
        if sum(kind for _, kind in amounts) == periods and not all(k for _, k in amounts):
            return tuple(kind for _, kind in amounts)
    return ()


def _columns(
    labels: Sequence[str], year_end: tuple[int, int], offset: int, latest: date | None
) -> list[Column]:
    """The columns' periods; bare years named as fiscal years only where that puts none of
    them after the filing's own period (a statement reports no period still to come)."""
    columns = [column_dates(x, year_end=year_end, offset=offset) for x in labels]
    if offset and latest is not None and any(date.fromisoformat(c.end) > latest for c in columns):
        columns = [column_dates(x, year_end=year_end) for x in labels]
    return columns


def _first_run(labels: list[str]) -> int:
    """How many of a header's column labels come before the first that repeats an earlier
    one ("2022 2021 2020 2022 2021" under "Increase/(decrease)": 3, the later columns give
    the years' changes); all of them where none repeats, or where the repeats are not of the
    earlier labels alone."""
    for at, label in enumerate(labels):
        if label in labels[:at]:
            rest = labels[at:]
            return at if set(rest) <= set(labels[:at]) and at >= 2 else len(labels)
    return len(labels)


def header_at(
    lines: Sequence[str],
    at: int,
    power: int | None,
    calendar: tuple[tuple[int, int], int, date | None],
) -> Header | None:
    """The header whose line is `at` (its periods from the lines above it too), in the
    table's scale `power`; `calendar`: the filing's year-end day, the years its fiscal year
    is named after the calendar's, and its own period's end. None where the line heads no
    periods."""
    year_end, offset, latest = calendar
    labels = column_periods(lines[max(0, at - 3) : at + 1])
    if not labels:
        return None
    # a column header's own line names the changes: not a sentence over the table
    changes = any(_CHANGE.search(x) and len(x.split()) <= 8 for x in lines[max(0, at - 3) : at])
    first = _first_run(labels) if changes else len(labels)
    if first < len(labels):  # "2022 2021 2020 2022 2021" under "Increase/(decrease)"
        columns = _columns(labels[:first], year_end, offset, latest)
        layout = (True,) * first + (False,) * (len(labels) - first)
        return Header(columns, power, labels[:first], layout)
    columns = _columns(labels, year_end, offset, latest)
    return Header(columns, power, labels, _layout(lines, at, len(columns)))
