"""Evidence of what a filing is and which period it covers, from its first pages: the form on
the cover ("FORM 10-Q", "QUARTERLY REPORT PURSUANT TO SECTION ..."), a release's "reports
... results", an annual report's title; the period ended on the cover, an 8-K's date of
report, the dates the statements' columns end on; the fiscal year as the filing names it
("fiscal 2023", "Q2 FY24", "2023 Second-Quarter") and the quarter it closes."""

from __future__ import annotations

import re
from collections import Counter
from datetime import date

from ..periods import (
    MONTH_NAMES,
    FiscalYearEnd,
    months_after,
    parse_written_date,
    quarter_of,
    written_dates,
)
from ..records import DocType
from .signals import Signal, Source

_DATE = rf"(?:{MONTH_NAMES})\s+\d{{1,2}}\s*,?\s*\d{{4}}"
_COVER_END = re.compile(
    rf"for\s+the\s+(?:fiscal\s+year|quarterly\s+period|transition\s+period|year|quarter)"
    rf"\s+ended\s*:?\s*,?\s*({_DATE})",
    re.IGNORECASE,
)
_PERIOD_END = re.compile(
    rf"(?:year|period|quarter|weeks?|months)(?:\s*\([^)]{{0,30}}\))?\s+ended\s*:?\s*,?\s*({_DATE})",
    re.IGNORECASE,
)
_REPORT_DATE = re.compile(
    rf"({_DATE})\s*\n?\s*\(?date of report|date of report[^\n:]{{0,120}}:?\s*\n?\s*({_DATE})",
    re.IGNORECASE,
)
_FISCAL_YEAR_END = re.compile(
    rf"fiscal\s+year\s+end(?:ed|ing|s)?\s*(?:on\s+)?({MONTH_NAMES})\s+(\d{{1,2}})", re.IGNORECASE
)
_MONTH_NUMBER = {m.lower(): i for i, m in enumerate(MONTH_NAMES.split("|"), 1)}
_FISCAL_YEAR = re.compile(r"\bfiscal\s+(?:year\s+)?(20\d\d|19\d\d)\b", re.IGNORECASE)
# the filing's own short labels: "Q2 FY24", "FY2023", "fiscal '24"
_FY_LABEL = re.compile(r"\bFY\s?'?(\d{4}|\d{2})\b")
_QUARTER_WORD = re.compile(
    r"\b(first|second|third|fourth)[\s-]+(?:fiscal[\s-]+)?quarter\b", re.IGNORECASE
)
_QUARTER_LABEL = re.compile(r"\bQ([1-4])\s?(?:FY\s?'?\d{2,4}|'?\d{2}|\d{4})?\b")
_QUARTER_NUMBER = {"first": "Q1", "second": "Q2", "third": "Q3", "fourth": "Q4"}
# "2023 Second-Quarter", "Second Quarter 2023", "fourth quarter and fiscal 2022 results",
# "Fourth-Quarter and Full-Year 2022 Financial Results"
_YEAR_BY_QUARTER = re.compile(
    r"\b(20\d\d)[\s-]+(?:first|second|third|fourth)[\s-]+quarter"
    r"|\b(?:first|second|third|fourth)[\s-]+quarter"
    r"(?:\s+and\s+(?:full|fiscal)[\s-]+year)?(?:\s+(?:of\s+)?(?:fiscal\s+)?)?(20\d\d)\b",
    re.IGNORECASE,
)
_RESULTS = re.compile(
    r"\b(reports?|reported|announces?|announced)\b.{0,120}\b(results|earnings)\b",
    re.IGNORECASE | re.DOTALL,
)
_ANNUAL_TITLE = re.compile(r"^\s*(?:\d{4}\s+)?annual\s+report(?:\s+\d{4})?\s*$", re.I | re.M)
_FORMS = (
    (r"10-?K", r"ANNUAL REPORT PURSUANT TO SECTION", DocType.FORM_10K),
    (r"10-?Q", r"QUARTERLY REPORT PURSUANT TO SECTION", DocType.FORM_10Q),
    (r"8-?K", r"^\s*CURRENT REPORT\s*$", DocType.FORM_8K),
)


def type_signals(first: str) -> list[Signal]:
    """What the filing is: the form named on a line of its own or the cover's "ANNUAL /
    QUARTERLY REPORT PURSUANT ..." (a "Form 10-Q for the quarter ended ..." inside a
    sentence is a reference to another filing), a release's "reports ... results", an
    annual report's title."""
    head = first[:6000]
    found: list[Signal] = []
    for form, cover, kind in _FORMS:
        if re.search(rf"^\s*FORM\s+{form}\b.{{0,20}}$", head, re.M | re.I):
            found.append(Signal("doc_type", str(kind), Source.COVER, 0.9, f"FORM {kind}"))
        if re.search(cover, head, re.M | re.I):
            found.append(Signal("doc_type", str(kind), Source.COVER, 0.85, cover.strip("^$\\s*")))
    if re.search(r"for\s+the\s+quarterly\s+period\s+ended", head, re.I):
        found.append(
            Signal("doc_type", str(DocType.FORM_10Q), Source.COVER, 0.6, "quarterly period ended")
        )
    if _RESULTS.search(head[:1500]):
        found.append(Signal("doc_type", str(DocType.EARNINGS), Source.TEXT, 0.6, "reports results"))
    if _ANNUAL_TITLE.search(head[:400]):
        found.append(
            Signal("doc_type", str(DocType.FORM_10K), Source.TEXT, 0.55, "an annual report")
        )
    if not found:
        found.append(Signal("doc_type", str(DocType.OTHER), Source.TEXT, 0.2, "no form or release"))
    return found


def end_signals(first: str, opening: str, doc_type: str) -> list[Signal]:
    """The period the filing covers: the cover's "for the fiscal year / quarterly period
    ended", an 8-K's date of report, the first "... ended <date>", and the date the
    statements' columns end on most often."""
    found: list[Signal] = []

    def add(text: str | None, source: Source, weight: float, why: str) -> None:
        day = parse_written_date(text) if text else None
        if day is not None:
            found.append(Signal("period_end", day.isoformat(), source, weight, why))

    if doc_type == DocType.FORM_8K:  # an 8-K's period is its event's date
        m = _REPORT_DATE.search(first)
        if m:
            add(m.group(1) or m.group(2), Source.COVER, 0.9, "the date of report")
            return found
    m = _COVER_END.search(first)
    if m:
        add(m.group(1), Source.COVER, 0.85, "the cover's period ended")
    m = _PERIOD_END.search(first)
    if m:
        lead = m.start() < 1500  # a release's lead paragraph: "results for the quarter ended"
        add(m.group(1), Source.TEXT, 0.6 if lead else 0.45, "the first period ended")
    ends = Counter(m.group(1) for m in _PERIOD_END.finditer(opening))
    if ends:
        text, count = max(ends.items(), key=lambda x: (x[1], -opening.find(x[0])))
        add(text, Source.TEXT, min(0.5, 0.1 * count), f"ended {count} times")
    return found


def fiscal_year_end(opening: str, period_end: date | None, doc_type: str) -> FiscalYearEnd | None:
    """Where the company's fiscal year ends: a 10-K's own period; else "fiscal year
    ends/ending <Month> <day>" in the first pages."""
    if doc_type == DocType.FORM_10K and period_end is not None:
        return FiscalYearEnd.of(period_end)
    m = _FISCAL_YEAR_END.search(opening)
    if m:
        return FiscalYearEnd(_MONTH_NUMBER[m.group(1).lower()], int(m.group(2)))
    return None


def year_end_after(end: date, quarter: str) -> FiscalYearEnd | None:
    """Where the fiscal year of a quarter ending on `end` ends: `quarter` "Q2" ends six
    months before it."""
    if quarter not in ("Q1", "Q2", "Q3", "Q4"):
        return None
    return FiscalYearEnd.of(months_after(end, 3 * (4 - int(quarter[1]))))


def year_signals(
    first: str, opening: str, doc_type: str, end: date | None, year_end: FiscalYearEnd | None
) -> list[Signal]:
    """The fiscal year as the filing names it ("fiscal 2023", "Q2 FY24", "2023 Second-
    Quarter"), near its headline first; else the year its period ends in, by its calendar."""
    found: list[Signal] = []
    # the headline names the filing's own year first, then the years it is compared with
    # (or an outlook's: "Expects FY24 ...")
    headline = first[:700] if doc_type != DocType.FORM_10K else ""  # a cover, no headline
    for rank, year in enumerate(_named_years(headline)):
        weight = 0.7 if rank == 0 else 0.35
        found.append(Signal("fiscal_year", year, Source.TEXT, weight, "headline"))
    by_end = _year_by_end(first, end) if end is not None else None
    if by_end is not None:
        found.append(Signal("fiscal_year", by_end, Source.TEXT, 0.85, "named with its end"))
    # the first pages name the filing's own year most; a release's comparisons name the
    # year before nearly as often, so only a clear lead counts
    mentions = _named_years(first)
    if mentions:
        top = mentions.most_common(2)
        year, count = top[0]
        second = top[1][1] if len(top) > 1 else 0
        weight = min(0.45, 0.08 * count) * max(0.0, 1 - second / count)
        found.append(Signal("fiscal_year", year, Source.TEXT, weight, f"named {count} times"))
    if end is not None:
        found.append(_by_calendar(end, doc_type, year_end))
    return [s for s in found if end is None or abs(int(s.value) - end.year) <= 1]


def _year_by_end(first: str, end: date) -> int | None:
    """The fiscal year named beside the period's end where the filing states it: "quarter
    ended January 28, 2023 (“Q4 FY23”)", "fiscal 2023 ... ended"."""
    for at, day in written_dates(first[:3000]):
        if day == end:
            named = _named_years(first[max(0, at - 60) : at + 80])
            if named:
                return named.most_common(1)[0][0] if len(named) == 1 else _nearest(first, at)
    return None


def _nearest(first: str, at: int) -> int | None:
    """The year named nearest after the date at `at` (else before it)."""
    after = _named_years(first[at : at + 80])
    if after:
        return next(iter(after))
    before = _named_years(first[max(0, at - 60) : at])
    return next(reversed(list(before))) if before else None


def _named_years(text: str) -> Counter[int]:
    """The fiscal years `text` names, counted, in the order first named."""
    named: list[tuple[int, int]] = [
        (m.start(), int(m.group(1))) for m in _FISCAL_YEAR.finditer(text)
    ]
    for m in _FY_LABEL.finditer(text):
        y = m.group(1)
        named.append((m.start(), int(y) + 2000 if len(y) == 2 else int(y)))
    for m in _YEAR_BY_QUARTER.finditer(text):
        named.append((m.start(), int(m.group(1) or m.group(2))))
    return Counter(year for _, year in sorted(named))


def _by_calendar(end: date, doc_type: str, year_end: FiscalYearEnd | None) -> Signal:
    """A fiscal year ending from April to December is named by the calendar year it ends in
    (nearly always); one ending in January to March is named either way (the filing's own
    words decide); a 52/53-week year ending in the first days of January is the year
    before's; a quarter's year is the one its fiscal year ends in, where the calendar is
    known."""
    year, weight = end.year, 0.85 if end.month >= 4 else 0.3
    if doc_type == DocType.FORM_8K:
        weight = 0.55  # an event's year: an 8-K may be about the year before, and say so
    elif end.month == 1 and end.day <= 10 and doc_type == DocType.FORM_10K:
        year, weight = end.year - 1, 0.7
    elif doc_type != DocType.FORM_10K:
        months = year_end.months_after(end) if year_end is not None else None
        if months is None:
            weight = 0.4  # a quarter of an unknown calendar
        else:
            closes = end.month + (12 - months) % 12  # the month its fiscal year ends
            year += closes > 12
            weight = 0.85 if closes - 12 * (closes > 12) >= 4 else 0.3
    return Signal("fiscal_year", year, Source.TEXT, weight, "the calendar year its year ends in")


def period_signals(
    first: str, statements: str, doc_type: str, end: date | None, year_end: FiscalYearEnd | None
) -> list[Signal]:
    """The fiscal period: FY for an annual report; a 10-Q's year-to-date columns in its
    statements (`statements`: the first pages' text, lower-case; six months: Q2, nine: Q3);
    the quarter its end closes by the company's calendar; the quarter the headline names;
    none for an 8-K."""
    if doc_type in (DocType.FORM_8K, DocType.OTHER):
        return []  # an event's filing, a note: no fiscal period of their own
    if doc_type == DocType.FORM_10K:
        return [Signal("fiscal_period", "FY", Source.COVER, 0.9, "an annual report")]
    found: list[Signal] = []
    if doc_type == DocType.FORM_10Q:
        if re.search(r"\b(?:nine|thirty-nine|39)[\s-]+(?:months|weeks) ended", statements):
            found.append(Signal("fiscal_period", "Q3", Source.TEXT, 0.7, "nine months ended"))
        elif re.search(r"\b(?:six|twenty-six|26)[\s-]+(?:months|weeks) ended", statements):
            found.append(Signal("fiscal_period", "Q2", Source.TEXT, 0.7, "six months ended"))
        elif re.search(r"\b(?:three|thirteen|13)[\s-]+(?:months|weeks) ended", statements):
            found.append(Signal("fiscal_period", "Q1", Source.TEXT, 0.45, "three months only"))
    if end is not None and year_end is not None:
        quarter = quarter_of(end, year_end)
        if quarter:
            found.append(Signal("fiscal_period", quarter, Source.TEXT, 0.6, "its fiscal calendar"))
    for quarter in _named_quarters(first[:700]):
        found.append(Signal("fiscal_period", quarter, Source.TEXT, 0.55, "headline"))
    named = _named_quarters(first[:8000])
    if named:
        quarter, count = named.most_common(1)[0]
        found.append(Signal("fiscal_period", quarter, Source.TEXT, min(0.4, 0.1 * count), "named"))
    if not found and re.search(r"full[\s-]+year|fiscal (?:year )?\d{4} results", first, re.I):
        found.append(Signal("fiscal_period", "FY", Source.TEXT, 0.4, "full-year results"))
    return found


def _named_quarters(text: str) -> Counter[str]:
    quarters: Counter[str] = Counter(
        _QUARTER_NUMBER[q.lower()] for q in _QUARTER_WORD.findall(text)
    )
    quarters.update(f"Q{n}" for n in _QUARTER_LABEL.findall(text))
    return quarters
