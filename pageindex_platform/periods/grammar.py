"""Periods as analysts write them, read into one typed value (`PeriodAsk`): a fiscal year
("FY23", "FY2023", "fiscal 2023", "fiscal year 2023", "the year ended September 30, 2023",
"2023"), a quarter ("Q2 FY23", "2Q23", "the second quarter of fiscal 2023", "the three
months ended June 28, 2025" — a quarter, never the year to date), the year to date ("the six
months ended ...", "the first half of fiscal 2025", "the first nine months"), a balance ("as
of" or "at" a date, "as of FY2022"), the newest quarter or fiscal year ("last quarter", "the
most recent fiscal year") and ranges ("FY2015–FY2022", "2018 to 2022", "the last five
years"). Years and quarters are the company's own names: they are placed on its calendar by
`periods.fiscal`, which knows the filing's year end."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date
from enum import StrEnum

from ..patterns import deferred
from .dates import cut_spans, months_before, parse_question_dates
from .filing_words import FILING_NAMED, FILING_YEAR, FULL_YEAR, ISSUED, PRIOR, filing_quarters

_FY = deferred(r"\bFY\s?'?(\d{4}|\d{2})\b", re.IGNORECASE)
_FISCAL = deferred(r"\bfiscal(?:\s+year)?\s+'?(\d{4}|\d{2}(?!\d))\b", re.IGNORECASE)
_YEAR = deferred(r"(?<![\d$.,])(19[89]\d|20[0-4]\d)(?![\d%])")
# a year that names when something falls due, not a period asked ("Senior Notes due 2033")
MATURITY = deferred(
    r"\b(?:due|matur\w*|expir\w*)(?:\s+in)?\s+(?:fiscal\s+)?(?:19|20)\d\d\b", re.IGNORECASE
)
_APOSTROPHE = "['\u2019]"
_ATTACHED_YEAR = (
    rf"(?:\s*(?:of\s+)?(?:(?:the\s+)?fiscal\s+(?:year\s+)?|FY\s?{_APOSTROPHE}?|{_APOSTROPHE})"
    r"(?P<{0}>\d{{4}}|\d{{2}})(?!\d)|\s*(?:of\s+)?(?P<{1}>(?:19|20)\d\d)(?!\d))?"
)
# A quarter as analysts write it, with the year written onto it: Q2, Q22023, Q2'23, Q2 FY23,
# Q2 of FY2023, 2Q23, 2Q 2023, 3QFY23, 2021Q1, 2023-Q2, the second (fiscal) quarter (of
# fiscal 2023).
_QUARTER = deferred(
    rf"\bQ(?P<q1>[1-4])(?:(?P<y0>\d{{4}})\b|{_ATTACHED_YEAR.format('y1', 'y2')})\b"
    rf"|\b(?P<q2>[1-4])Q(?:\s*(?:FY\s?)?{_APOSTROPHE}?(?P<y3>\d{{4}}|\d{{2}})|\s+(?P<y4>\d{{4}}))?\b"
    r"|\b(?P<y5>(?:19|20)\d{2})\s*-?\s*Q(?P<q3>[1-4])\b"
    rf"|\b(?P<word>first|second|third|fourth)[\s-]+(?:fiscal[\s-]+)?quarter\b"
    rf"{_ATTACHED_YEAR.format('y6', 'y7')}",
    re.IGNORECASE,
)
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4}
# The year to date: reported with the second quarter (six months) or the third (nine).
_FIRST_HALF = deferred(
    r"\bH1\b|\bfirst[\s-]half\b|\bsix[\s-]months?\b|\b6[\s-]months\b|\btwenty-six weeks\b",
    re.IGNORECASE,
)
_NINE_MONTHS = deferred(
    r"\bnine[\s-]months?\b|\b9[\s-]?M\b|\b9[\s-]months\b|\bthirty-nine weeks\b", re.IGNORECASE
)
# What a written date closes: "the three months ended", "the year ended", "as of", "at".
_SPAN_WORDS = {
    "three": 3, "3": 3, "thirteen": 3, "13": 3, "quarter": 3, "six": 6, "6": 6,
    "twenty-six": 6, "26": 6, "half": 6, "nine": 9, "9": 9, "thirty-nine": 9, "39": 9,
    "twelve": 12, "12": 12, "fifty-two": 12, "52": 12, "fifty-three": 12, "53": 12, "year": 12,
}  # fmt: skip
_BEFORE_DATE = deferred(
    r"\b(?:(?P<n>three|six|nine|twelve|\d{1,2})[\s-]+months?|(?P<w>thirteen|twenty-six|"
    r"thirty-nine|fifty-two|fifty-three|\d{2})[\s-]+weeks?|(?P<unit>quarter|half|(?:fiscal\s+|"
    r"financial\s+|calendar\s+)?year|period))\s+(?:that\s+)?(?:ended|ending|ends)\s+(?:on\s+)?$"
    r"|(?P<instant>\bas\s+of|\bat)\s+(?:the\s+end\s+of\s+)?$",
    re.IGNORECASE,
)
# A balance at a fiscal year's or quarter's end: "as of FY2022", "at the end of fiscal 2022".
_INSTANT = deferred(
    r"\b(?:as\s+of|at(?:\s+the)?\s+(?:end|close)\s+of|at)\s+(?:the\s+end\s+of\s+)?"
    r"(?:FY|fiscal|Q[1-4]|[1-4]Q|(?:19|20)\d\d\b)",
    re.IGNORECASE,
)
_RANGE = deferred(
    r"\b(?:FY\s?(?P<a>\d{4}|\d{2})|(?P<b>(?:19|20)\d\d))\s*(?:-|–|—|to|through|thru|until)\s*"
    r"(?:FY\s?(?P<c>\d{4}|\d{2})|(?P<d>(?:19|20)\d\d))\b",
    re.IGNORECASE,
)
_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "ten": 10}
_LAST_YEARS = deferred(
    r"\b(?:last|past|latest|most\s+recent|previous)\s+(?P<n>two|three|four|five|six|seven|ten|"
    r"\d{1,2})\s+(?:fiscal\s+|financial\s+)?years\b",
    re.IGNORECASE,
)
_LATEST_QUARTER = deferred(
    r"\b(?:last|latest|most\s+recent(?:ly)?(?:\s+reported)?|recent|current)\s+(?:fiscal\s+)?"
    r"quarter\b",
    re.IGNORECASE,
)
_LATEST_YEAR = deferred(
    r"\b(?:last|latest|most\s+recent(?:ly)?(?:\s+(?:reported|completed))?)\s+"
    r"(?:(?:full|complete|completed)\s+)?(?:fiscal\s+|financial\s+|reported\s+)?year\b",
    re.IGNORECASE,
)


class PeriodKind(StrEnum):
    """What kind of period a question asks a figure for."""

    YEAR = "year"
    QUARTER = "quarter"
    YEAR_TO_DATE = "year to date"
    INSTANT = "instant"
    RANGE = "range"
    LATEST_YEAR = "latest year"
    LATEST_QUARTER = "latest quarter"


@dataclass(frozen=True)
class PeriodAsk:
    """The period a question asks about, as the company names it (`periods.fiscal` places it
    on a filing's calendar).

    `years`: the fiscal years the figure is asked for, in order (a range: each year);
    `quarter`: 1-4; `months`: the span asked (12 a year, 3 a quarter, 6 or 9 the year to
    date, 0 a balance; None when not said); `end`: the date the period is said to end on;
    `count`: "the last five years"; `written`: the question's own words for it.
    `mentioned`, `quarters` and `dates`: every year, quarter and date the question writes."""

    kind: PeriodKind | None = None
    years: tuple[int, ...] = ()
    quarter: int | None = None
    months: int | None = None
    end: date | None = None
    count: int | None = None
    written: str = ""
    mentioned: tuple[int, ...] = ()
    quarters: tuple[int, ...] = ()
    dates: tuple[date, ...] = ()

    @property
    def named(self) -> bool:
        """Whether the question names a period of its own (not only "the latest")."""
        return bool(self.years or self.quarters or self.dates or self.end)


def _year(text: str) -> int:
    return int(text) + 2000 if len(text) == 2 else int(text)


def quarters_written(question: str) -> list[tuple[int, int | None, str]]:
    """(quarter, the year written onto it or None, the words) for each quarter named."""
    return [_quarter_of(m) for m in _QUARTER.finditer(question)]


def _quarter_of(m: re.Match[str]) -> tuple[int, int | None, str]:
    number = m.group("q1") or m.group("q2") or m.group("q3")
    quarter = _ORDINALS[m.group("word").lower()] if m.group("word") else int(number)
    year = next((y for y in m.group("y0", "y1", "y2", "y3", "y4", "y5", "y6", "y7") if y), None)
    return quarter, None if year is None else _year(year), m.group(0).strip()


def years_written(question: str) -> list[int]:
    """Every year the question writes: fiscal years ("FY23", "fiscal 2023"), calendar years
    (dates' included) and the years written onto quarters, sorted."""
    question = MATURITY.sub(" ", question)
    years = {_year(y) for y in _FY.findall(question)}
    years.update(_year(y) for y in _FISCAL.findall(question))
    years.update(int(y) for y in _YEAR.findall(question))
    years.update(y for _, y, _ in quarters_written(question) if y is not None)
    for a, b in _ranges(question):
        years.update(range(a, b + 1))
    return sorted(years)


def fiscal_years_written(question: str) -> list[int]:
    """The fiscal years a figure is asked for: those written as fiscal years ("FY2019",
    "fiscal 2019") and onto quarters, else the bare years; a range's years each — not a
    year that only names the filing read ("its 10-K for fiscal 2015, ... in 2014"), unless
    no other is written."""
    asked = _years_asked(FILING_YEAR.sub(" ", question))
    if len(asked) < 2 and (_COMPARING.search(question) or _DIFFERENCE.search(question)):
        # "its annual report for 2022 ... versus 2021": the filing's year is one compared
        return sorted(set(asked) | set(_years_asked(question)))
    return asked or _years_asked(question)


def _years_asked(question: str) -> list[int]:
    question = MATURITY.sub(" ", question)
    asked, filing = _quarters_asked(question)
    question = cut_spans(question, filing)  # "its Q4 2022 earnings release": not asked
    fiscal = {_year(y) for y in _FY.findall(question)}
    fiscal.update(_year(y) for y in _FISCAL.findall(question))
    fiscal.update(y for _, y, _ in asked if y is not None)
    years = fiscal or {int(y) for y in _YEAR.findall(question)}
    for a, b in _ranges(question):
        years.update(range(a, b + 1))
    return sorted(years)


# A question asking the difference between years ("the difference between ... 2023 and
# 2022", "between 2021 and 2022"): each year is asked.
_DIFFERENCE = deferred(
    r"\bdifference\b|\bbetween\s+(?:fy\s?|fiscal\s+(?:year\s+)?)?\d{4}\s+and\b", re.IGNORECASE
)
# A question comparing periods ("compared with the prior year", "how did it change"): its
# years are each asked, none names the filing alone.
_COMPARING = deferred(
    r"\bcompar(?:e|ed|es|ing|ison)\b|\bversus\b|\bvs\b\.?|"
    r"\b(?:from|than|over)\s+the\s+(?:prior|previous)\b|"
    r"\bchang\w*|\bgr[eo]w\w*|\bincreas\w*|\bdecreas\w*|\bdeclin\w*",
    re.IGNORECASE,
)


def figure_years(question: str, years: list[int]) -> list[int]:
    """The fiscal years a figure is asked for, where the question names the filing it is
    read from and compares nothing: "fiscal 2022, as shown in its fiscal 2023 10-K" asks
    2022 (a year written only as the filing's is not asked); "the prior year" of "its 2016
    10-K" asks 2015; of two years and "the prior-year quarter", the earlier. Other
    questions: `years` as written."""
    named = [int(m.group("y") or m.group("y2")) for m in FILING_YEAR.finditer(question)]
    if not named or _COMPARING.search(question):
        return years
    written = [int(y) for y in _YEAR.findall(question)]
    filing = {y for y in named if written.count(y) <= named.count(y)}  # the filing's only
    prior = PRIOR.search(question) is not None
    own = [y for y in years if y not in filing]
    if own:
        return own[:1] if prior and len(own) >= 2 else own
    if prior:
        return sorted({y - 1 for y in filing})
    return years


def figure_period(question: str, period: PeriodAsk) -> PeriodAsk:
    """`period` as the figure asks it (`figure_years`); a period said to end on a date,
    when the question names the filing and asks the period before it ("in its 10-Q for the
    quarter ended June 30, 2023, ... the prior-year quarter"), ends on the earlier date it
    writes, else a year before."""
    years = tuple(figure_years(question, list(period.years)))
    end = period.end
    filing = FILING_NAMED.search(question)
    if end is not None and filing and PRIOR.search(question) and not _COMPARING.search(question):
        earlier = [d for d in period.dates if d < end]
        end = max(earlier) if earlier else months_before(end, 12)
    if (years, end) == (period.years, period.end):
        return period
    return replace(period, years=years, end=end)


def _ranges(question: str) -> list[tuple[int, int]]:
    found = []
    for m in _RANGE.finditer(question):
        a, b = _year(m.group("a") or m.group("b")), _year(m.group("c") or m.group("d"))
        if a < b <= a + 30:
            found.append((a, b))
    return found


def quarter_labels(question: str) -> list[str]:
    """The quarters a question names ("Q2"), and the quarter whose filing reports the year
    to date it names (the first half: "Q2"; the first nine months: "Q3")."""
    out = {f"Q{q}" for q, _, _ in quarters_written(question)}
    if _FIRST_HALF.search(question):
        out.add("Q2")
    if _NINE_MONTHS.search(question):
        out.add("Q3")
    return sorted(out)


def _dated(question: str) -> tuple[date, int | None, str] | None:
    """The first date written with what it closes: (date, months, the words); months 0 for
    a balance ("as of", "at"), None for a date with no span said."""
    for day, start, stop in parse_question_dates(question):
        before = _BEFORE_DATE.search(question[max(0, start - 60) : start])
        if before is None:
            continue
        if before.group("instant"):
            months: int | None = 0
        else:
            word = (before.group("n") or before.group("w") or before.group("unit")).lower()
            months = _SPAN_WORDS.get(word.split()[-1])
        where = max(0, start - 60) + before.start()
        return day, months, question[where:stop].strip()
    return None


def parse_period(question: str) -> PeriodAsk:
    """The period `question` asks about (see the module's wordings); kind None when it
    names none."""
    dates = tuple(d for d, _, _ in parse_question_dates(question))
    quarters, _ = _quarters_asked(question)
    base = PeriodAsk(
        mentioned=tuple(years_written(question)),
        quarters=tuple(sorted({q for q, _, _ in quarters})),
        dates=dates,
    )
    # a date's year is no fiscal year asked ("the 8-K dated July 1, 2022")
    undated = question
    for _, start, stop in reversed(parse_question_dates(question)):
        undated = f"{undated[:start]} {undated[stop:]}"
    years = tuple(fiscal_years_written(undated))
    dated = _dated(question)
    if dated is not None and dated[1] is not None:
        return _of_date(base, *dated)
    if quarters:
        quarter, year, words = quarters[0]
        kept = (year,) if year is not None else years[-1:]
        kind = PeriodKind.INSTANT if _INSTANT.search(question) else PeriodKind.QUARTER
        months = 0 if kind == PeriodKind.INSTANT else 3
        return _with(base, kind, kept, words, quarter=quarter, months=months)
    return _without_date_or_quarter(question, base, years)


def _quarters_asked(
    question: str,
) -> tuple[list[tuple[int, int | None, str]], list[tuple[int, int]]]:
    """The quarters written, less one that only names the filing read ("Q4 2022 earnings
    release") beside a full year ("in 2021, based on its Q4 2022 earnings release"; a bare year
    where nothing is compared: "Q2 2023 results compared to 2022" asks the quarter) or another
    quarter ("in Q4 2021, per its Q4 2022 release"); and where those left out are written."""
    found = list(_QUARTER.finditer(question))  # one reading gives each quarter and its span
    quarters = [_quarter_of(m) for m in found]
    filing, beside = filing_quarters(question, [m.span() for m in found], [q[1] for q in quarters])
    # less its quarters' words and a release's date ("published on April 25, 2023")
    dated = [d[1:] for d in parse_question_dates(question) if ISSUED.search(question[: d[1]])]
    rest = cut_spans(question, [m.span() for m in found] + dated)
    year = FULL_YEAR.search(rest) or (_YEAR.search(rest) and not _COMPARING.search(question))
    if not (beside or year):
        return quarters, []
    kept = [q for q, named in zip(quarters, filing, strict=True) if not named]
    return kept, [m.span() for m, named in zip(found, filing, strict=True) if named]


def _of_date(base: PeriodAsk, day: date, months: int | None, words: str) -> PeriodAsk:
    kinds = {0: PeriodKind.INSTANT, 3: PeriodKind.QUARTER, 12: PeriodKind.YEAR}
    kind = kinds.get(months or 0, PeriodKind.YEAR_TO_DATE)
    return _with(base, kind, (), words, months=months, end=day)


def _without_date_or_quarter(question: str, base: PeriodAsk, years: tuple[int, ...]) -> PeriodAsk:
    half, nine = _FIRST_HALF.search(question), _NINE_MONTHS.search(question)
    if (half or nine) and years:
        found = half or nine
        assert found is not None
        months, quarter = (6, 2) if half else (9, 3)
        return _with(
            base,
            PeriodKind.YEAR_TO_DATE,
            years[-1:],
            found.group(0),
            quarter=quarter,
            months=months,
        )
    if years and _INSTANT.search(question):
        return _with(base, PeriodKind.INSTANT, years, _words(question, years), months=0)
    ranges = _ranges(question)
    if ranges:
        m = _RANGE.search(question)
        return _with(base, PeriodKind.RANGE, years, m.group(0) if m else "", months=12)
    if years:
        return _with(base, PeriodKind.YEAR, years, _words(question, years), months=12)
    last = _LAST_YEARS.search(question)
    if last:
        n = last.group("n").lower()
        count = int(n) if n.isdigit() else _COUNTS[n]
        return _with(base, PeriodKind.RANGE, (), last.group(0), months=12, count=count)
    for pattern, kind, months in (
        (_LATEST_QUARTER, PeriodKind.LATEST_QUARTER, 3),
        (_LATEST_YEAR, PeriodKind.LATEST_YEAR, 12),
    ):
        found = pattern.search(question)
        if found:
            return _with(base, kind, (), found.group(0), months=months)
    return base


def _words(question: str, years: tuple[int, ...]) -> str:
    """The question's words for the last fiscal year named ("FY23", "fiscal year 2023")."""
    best = ""
    for pattern in (_FY, _FISCAL, _YEAR):
        for m in pattern.finditer(question):
            if _year(m.group(1)) == years[-1]:
                best = best or m.group(0)
    return best or str(years[-1])


def _with(
    base: PeriodAsk,
    kind: PeriodKind,
    years: tuple[int, ...],
    words: str,
    *,
    quarter: int | None = None,
    months: int | None = None,
    end: date | None = None,
    count: int | None = None,
) -> PeriodAsk:
    return PeriodAsk(
        kind=kind,
        years=years,
        quarter=quarter,
        months=months,
        end=end,
        count=count,
        written=" ".join(words.split()),
        mentioned=base.mentioned,
        quarters=base.quarters,
        dates=base.dates,
    )
