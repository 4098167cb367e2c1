"""An amount a filing schedules by the year it falls due: "As of December 31, 2020, how much in
operating lease payments did Acme have scheduled to fall due in 2021?" read from the table a
note introduces ("Maturity of lease liabilities ... as of December 31, 2020 are as follows (in
millions):") whose rows are years ("2021 $ 183 $ 13", "Fiscal 2025 10,000", "Remaining 2023")
and end with "Thereafter" or a total.

The table is the one whose words before its rows (its introduction and column header) say
half of what the question asks, its first word and a word of each kind of thing it names among
them (debt, leases, purchases ...), as of the date asked; a row of several columns is read only
where one column's header names what is asked. Nothing is stated where two tables say as much
and print different amounts, or where the table says no scale."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date

from ..db import queries
from ..db.queries import DocumentInfo
from ..db.sql import Session
from ..index.tables import cell_value
from ..patterns import deferred
from ..periods import written_dates
from .checks import page_check
from .figures import Figure
from .headline import Stated, row_stated
from .results import Check
from .terms import name_words, phrase_words

# an amount asked by the year it falls due: "scheduled to fall due in 2021", "due in fiscal
# 2024", "to be paid in 2026", "maturing in 2025", "come due in fiscal 2025"
_DUE_ASKED = deferred(
    r"\b(?:due|payable|paid|mature|maturing|matures|maturities|repay|repaid|amortized|amortization"
    r"|payments?)\b[^?.;]{0,60}?\bin\s+(?:the\s+)?(?:fiscal\s+(?:year\s+)?|fy\s?)?"
    r"(?P<year>(?:19|20)\d\d)\b",
    re.IGNORECASE,
)
# what a schedule is of, in kinds: of each kind the question names, the table's introduction
# names a word ("principal maturities" of debt; "rental payments" of leases)
_ANCHORS = (
    frozenset("debt borrowing note principal maturity".split()),
    frozenset("lease rental rent".split()),
    frozenset("purchase obligation commitment".split()),
    frozenset("amortization".split()),
    frozenset("pension benefit".split()),
    frozenset("interest".split()),
)
# a table of what the company will receive, not pay: "Leases where the Company is a lessor"
_RECEIVED = deferred(
    r"\b(?:is|as)\s+(?:a\s+)?lessor\b|\bto\s+be\s+received\b|\breceivable\b", re.IGNORECASE
)
_CONTEXT_LINES = 10  # the lines before a schedule that say whose payments it lists
_MONEY = deferred(r"\bhow\s+much\b|\bwhat\b", re.IGNORECASE)
_NOT_MONEY = deferred(r"%|\bpercent|\bratio\b|\bshare\s+of\b|\bhow\s+many\b", re.IGNORECASE)
# a schedule's row: a year (of a fiscal year, or the rest of the current one) and its cells
_ONE_CELL = r"\(?\d[\d,]*(?:\.\d+)?\)?|[—–-]"  # an amount, or a dash for none
_CELLS = rf"(?:\$?\s?(?:{_ONE_CELL})\s*)+"  # a row's amounts, each with its dollar sign or not
_ROW = deferred(
    r"^(?:(?:fiscal|fy)\s*(?:years?:?\s*)?|remaining\s+(?:fiscal\s+)?)?(?P<year>(?:19|20)\d\d)"
    rf"\s+(?P<cells>{_CELLS})$",
    re.IGNORECASE,
)
_CELL = deferred(_ONE_CELL)
# several years listed after the first one due: ", 2024 and 2025", " through fiscal 2020"
_YEARS_LISTED = deferred(
    r"(?:19|20)\d\d(?:\s*,\s*(?:fiscal\s+|fy\s?)?(?:19|20)\d\d)*\s*,?\s*"
    r"(?:and|(?P<through>through|to))\s+(?:fiscal\s+|fy\s?)?(?:19|20)\d\d",
    re.IGNORECASE,
)
# the years' amounts asked together, not each or compared
_TOGETHER = deferred(r"\b(?:combined|in\s+total|together|altogether|sum|aggregate)\b", re.I)
_AFTER = deferred(r"^(?:thereafter|total|later\s+years|\d{4}\s+and\s+thereafter)\b", re.I)
_SCALE = deferred(r"\bin\s+(millions|thousands|billions)\b", re.IGNORECASE)
_POWER = {"thousands": 3, "millions": 6, "billions": 9}
# words of a question that say nothing of what is scheduled
_NOT_THING = frozenset(
    "how much what was were is are did does do have has had in of the a an as at its their "
    "on for to be been will would scheduled schedule fall falls due payable paid come comes "
    "mature maturing matures repay repaid year years fiscal fy answer usd million millions billion "
    "billions dollar dollars total amount according per 10 k q form filing report annual "
    "quarterly end ended ending looking expect expected estimate estimated from by with under "
    "into per based using and combined together altogether sum aggregate".split()
)
_LEAD_LINES = 4  # the lines before a schedule's rows that introduce it
# a header whose columns are years, then what falls due later (and the total)
_YEAR_COLUMNS = deferred(
    r"(?P<columns>(?:total\s+)?(?:(?:fiscal\s+)?(?:19|20)\d\d\s+){3,}thereafter(?:\s+total)?)\s*$",
    re.IGNORECASE,
)
# a row of amounts under such a header: its label, then a cell for each column
_ACROSS_ROW = deferred(rf"^(?P<label>[A-Za-z][^$\d%]*?)\s+(?P<cells>{_CELLS})$")
_ACROSS_ROWS = 25  # the lines under such a header read as its rows, at most


@dataclass(frozen=True)
class _Schedule:
    page: int
    lead: str  # the introduction and the column header
    header: str  # the line just above the rows
    rows: dict[int, list[str]]  # year → its cells as printed
    power: int  # the table's scale: 6 for "(in millions)"
    text: str  # the page's
    received: bool  # what the company will receive ("Leases where the Company is a lessor")
    dated: str  # the sentence that introduces it, whose date is the schedule's
    label: str = ""  # its row's label, in a table whose columns are the years


def due_years(question: str, document: DocumentInfo) -> list[int]:
    """The years an amount is asked to fall due in, all after the document's own: one ("due in
    2021"), or several asked together ("in 2023, 2024 and 2025 combined", "in fiscal 2018
    through 2020, in total"); [] where none is."""
    first = due_later(question, document)
    due = _DUE_ASKED.search(question)
    if first is None or due is None:
        return []
    listed = _YEARS_LISTED.match(question, due.start("year"))
    if listed is None or not _TOGETHER.search(question):
        return [first]
    years = [int(y) for y in re.findall(r"(?:19|20)\d\d", listed[0])]
    if listed["through"]:  # "2018 through 2020": each year between
        years = list(range(years[0], years[-1] + 1))
    ordered = years == sorted(set(years)) and years[-1] - years[0] < 10
    return years if ordered else [first]


def due_later(question: str, document: DocumentInfo) -> int | None:
    """The year an amount asked falls due, where it is after the document's own year (no
    line of the filing's statements is that amount); None otherwise."""
    due = _DUE_ASKED.search(question)
    if due is None or not document.period_end or _NOT_MONEY.search(question):
        return None
    year = int(due["year"])
    return year if year > int(document.period_end[:4]) else None


def scheduled(*, session: Session, question: str, document: DocumentInfo) -> Stated:
    """The amount the question asks by the year it falls due (a year not before the
    document's own), read from the document's schedule, checked; the schedules' rows set
    aside (with why) where a check fails; empty where the question asks no such amount or
    no schedule says what it asks."""
    years = due_years(question, document)  # (a year the filing has seen is paid, not due)
    thing = _thing(question, name_words(document.company))
    if not years or not document.period_end or not _MONEY.search(question) or not thing:
        return Stated()
    own = date.fromisoformat(document.period_end)
    at = max((d for _, d in written_dates(question)), default=own)
    kinds = [kind for kind in _ANCHORS if kind & set(thing)]
    found: list[tuple[float, list[Figure], _Schedule]] = []
    for schedule in _schedules(session, document):
        said = phrase_words(schedule.lead)
        # a row's label that says more than is asked ("principal and interest") counts against
        unasked = set(_thing(schedule.label, set())) - set(thing)
        score = sum(f" {w} " in said for w in thing) - len(unasked) / 2
        # half of what is asked, its first word among them ("power purchase commitments" are
        # not "other commitments ... land leases")
        if 2 * score < len(thing) or f" {thing[0]} " not in said:
            continue
        if any(year not in schedule.rows for year in years):
            continue
        named = all(any(f" {w} " in said for w in kind) for kind in kinds)
        if not named or schedule.received:
            continue  # a table of another thing, or of what the company will receive
        if any(d != at for _, d in written_dates(schedule.dated)):
            continue  # a table as of another date (the year before's, beside it)
        cells = [_column(schedule, year, thing) for year in years]
        if any(cell is None for cell in cells):
            continue
        figures = [
            _figure(document, schedule, y, c) for y, c in zip(years, cells, strict=True) if c
        ]
        found.append((score, figures, schedule))
    if not found:
        return Stated()
    best = max(score for score, _, _ in found)
    top = [(figures, schedule) for score, figures, schedule in found if score == best]
    figures, schedule = top[0]
    checks = [
        Check("label", True, f"the schedule says {' '.join(schedule.lead.split()[-12:])!r}"),
        *(page_check(figure, schedule.text) for figure in figures),
        Check(
            "agreement",
            len({sum(f.value for f in fs) for fs, _ in top}) == 1,
            "the schedules that say as much give one amount",
        ),
    ]
    if len(figures) > 1:
        return _summed(years, figures, checks, [f for fs, _ in top for f in fs])
    return row_stated(figures[0], checks, [fs[0] for fs, _ in top], "the amount asked")


def _summed(
    years: list[int], figures: list[Figure], checks: list[Check], rows: list[Figure]
) -> Stated:
    """The amounts a schedule lists for `years` (`figures`, one a year), summed where every
    check passes (each year's cell printed on its page), with each year's cell as the working;
    else each set aside with the check that failed."""
    total = replace(
        figures[0],
        label=f"{years[0]}–{figures[-1].label}",  # "2023–2025 — Total consolidated debt"
        value=sum(f.value for f in figures),
    )
    stated = row_stated(total, checks, rows, "the amount asked")
    if stated.headline is None:
        return stated
    stated.headline = replace(stated.headline, kind="metric")
    stated.text = "\n".join(
        [
            f"{total.shown} — the sum of {len(figures)} years' amounts: {total.cited}",
            "Working:",
            *(
                f"- {year}: {f.shown} [{f.document}, p. {f.page}]"
                for year, f in zip(years, figures, strict=True)
            ),
        ]
    )
    stated.figures = figures
    return stated


def _thing(question: str, company_words: set[str]) -> list[str]:
    """The words naming what is scheduled: "operating lease payments", "term debt principal"."""
    plain = re.sub(r"\([^()]*\)|\b(?:19|20)\d\d\b|\b\w+\s+\d{1,2},", " ", question)
    words = phrase_words(plain).split()
    return list(
        dict.fromkeys(
            w
            for w in words
            if w not in _NOT_THING and w not in company_words and w.isalpha() and len(w) > 2
        )
    )


def _schedules(session: Session, document: DocumentInfo) -> list[_Schedule]:
    """The document's tables of amounts by the year they fall due."""
    found = []
    for page in queries.pages_mentioning(session, document, ["thereafter"], limit=60):
        lines = [" ".join(x.split()) for x in page.text.splitlines()]
        at = 0
        while at < len(lines):
            rows: dict[int, list[str]] = {}
            end = at
            while end < len(lines) and (row := _ROW.match(lines[end])):
                rows[int(row["year"])] = _CELL.findall(row["cells"])
                end += 1
            if len(rows) >= 3 and end < len(lines) and _AFTER.match(lines[end]):
                raw = " ".join(lines[max(0, at - _LEAD_LINES) : at])
                scale = _SCALE.search(raw)
                # the introduction, less what it refers to ("(see Note 10 for leases)")
                lead = re.sub(r"\([^()]*\)", " ", raw)
                dated = _introduction(lines[max(0, at - _LEAD_LINES) : at])
                if scale and len({len(c) for c in rows.values()}) == 1:
                    header = lines[at - 1] if at else ""
                    power = _POWER[scale[1].lower()]
                    context = " ".join(lines[max(0, at - _CONTEXT_LINES) : at])
                    received = bool(_RECEIVED.search(context))
                    found.append(
                        _Schedule(page.page, lead, header, rows, power, page.text, received, dated)
                    )
            at = max(end, at + 1)
        found.extend(_across(page.page, page.text, lines))
    return found


def _across(page: int, text: str, lines: list[str]) -> list[_Schedule]:
    """The schedules of a table whose columns are the years ("(in millions) 2023 2024 2025
    2026 2027 Thereafter Total"): one for each row of amounts under that header, its label
    ("Total consolidated debt") read with the table's introduction."""
    found = []
    for at, line in enumerate(lines):
        head = _YEAR_COLUMNS.search(line)
        raw = " ".join(lines[max(0, at - _LEAD_LINES) : at + 1]) if head else ""
        scale = _SCALE.search(raw)
        if head is None or scale is None:
            continue
        power = _POWER[scale[1].lower()]
        columns = [w.lower() for w in head["columns"].split() if w.lower() != "fiscal"]
        intro = re.sub(r"\([^()]*\)", " ", raw)
        dated = _introduction(lines[max(0, at - _LEAD_LINES) : at])
        received = bool(_RECEIVED.search(" ".join(lines[max(0, at - _CONTEXT_LINES) : at])))
        for below in lines[at + 1 : at + 1 + _ACROSS_ROWS]:
            row = _ACROSS_ROW.match(below)
            cells = _CELL.findall(row["cells"]) if row else []
            if row is None or len(cells) != len(columns):
                continue
            years = {int(c): [cell] for c, cell in zip(columns, cells, strict=True) if c.isdigit()}
            label = row["label"]
            lead = f"{intro} {label}"
            found.append(_Schedule(page, lead, line, years, power, text, received, dated, label))
    return found


def _introduction(lines: list[str]) -> str:
    """The lines before a schedule's rows from the sentence that introduces it ("... were as
    follows (in millions):"), not the prose's before it and the dates it says; all of them
    where the introduction itself ends in a full stop."""
    ends = [i for i, line in enumerate(lines) if line.endswith(".")]
    after = lines[ends[-1] + 1 :] if ends else lines
    return " ".join(after if len(" ".join(after).split()) >= 6 else lines)


def _column(schedule: _Schedule, year: int, thing: list[str]) -> str | None:
    """The cell of the year's row for what is asked: its only cell, or the one under the
    only column whose header word the question says, where the header names each column by
    one word ("Operating Finance"); None otherwise."""
    cells = schedule.rows[year]
    if len(cells) == 1:
        return cells[0]
    names = re.split(r"[,:]", schedule.header)[-1].split()
    if len(names) != len(cells) or not all(re.fullmatch(r"[A-Z][a-z]+", n) for n in names):
        return None
    said = [i for i, name in enumerate(names) if phrase_words(name).strip() in thing]
    return cells[said[0]] if len(said) == 1 else None


def _figure(document: DocumentInfo, schedule: _Schedule, year: int, cell: str) -> Figure:
    # a row of a table whose columns are the years says what it is ("Total consolidated
    # debt"); a table whose rows are the years, its introduction's last words
    said = schedule.label or " ".join(schedule.lead.split()[-14:])
    label = f"{year} — {said}"
    return Figure(
        document.name,
        label,
        abs(cell_value(cell)) * 10.0**schedule.power,
        "iso4217:USD",
        -schedule.power,
        None,
        document.period_end or "",
        schedule.page,
        "table",
    )
