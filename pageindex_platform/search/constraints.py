"""Constraints a question puts on the documents: companies, fiscal years, quarters, filing types.

Companies are linked against the stored metadata (names, aliases, tickers and the document
names' company part), exactly first and by pg_trgm word similarity for misspellings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sqlalchemy import text
from sqlalchemy.orm import Session

from ..index.metadata import SYMBOL, name_hint, short_company
from ..index.text import normalize

_FY = re.compile(r"\bFY\s?'?(\d{4}|\d{2})\b", re.IGNORECASE)
_FISCAL = re.compile(r"\bfiscal(?:\s+year)?\s+(\d{4})\b", re.IGNORECASE)
_YEAR = re.compile(r"(?<![\d$.,])(19[89]\d|20[0-4]\d)(?![\d%])")
# A quarter as analysts write it, with the year when it is written onto the quarter:
# Q2, Q22023, Q2'23, 2Q23, 2Q 2023, 3QFY23, 2021Q1, 2023-Q2, second (fiscal) quarter.
_APOSTROPHE = "['\u2019]"
_QUARTER = re.compile(
    rf"\bQ(?P<q1>[1-4])(?:(?P<y1>\d{{4}})|\s*{_APOSTROPHE}\s*(?P<y2>\d{{4}}|\d{{2}}))?\b"
    rf"|\b(?P<q2>[1-4])Q(?:\s*(?:FY\s?)?{_APOSTROPHE}?(?P<y3>\d{{4}}|\d{{2}})|\s+(?P<y4>\d{{4}}))?\b"
    r"|\b(?P<y5>(?:19|20)\d{2})\s*-?\s*Q(?P<q3>[1-4])\b"
    r"|\b(?P<word>first|second|third|fourth)[\s-]+(?:fiscal[\s-]+)?quarter\b",
    re.IGNORECASE,
)
_QUARTERS = {"first": "Q1", "second": "Q2", "third": "Q3", "fourth": "Q4"}
# The first half of a fiscal year is reported with the second quarter (six months ended), the
# first nine months with the third.
_FIRST_HALF = re.compile(r"\bH1\b|\bfirst[\s-]half\b|\bsix months\b", re.IGNORECASE)
_NINE_MONTHS = re.compile(r"\bnine months\b|\b9M\b", re.IGNORECASE)
_DOC_TYPES = (
    (re.compile(r"\b10-?K\b|\bannual report\b", re.I), "10-K"),
    (re.compile(r"\b10-?Q\b|\bquarterly report\b", re.I), "10-Q"),
    (re.compile(r"\b8-?K\b|\bcurrent report\b", re.I), "8-K"),
    (re.compile(r"\bearnings (?:release|report|call)\b|\bpress release\b", re.I),
     "earnings release"),
)  # fmt: skip
FUZZY_SIMILARITY = 0.75
_CAPITALS = re.compile(rf"(?<![\w.]){SYMBOL.pattern}(?![\w])")  # symbols as written


@dataclass
class Constraints:
    companies: list[str] = field(default_factory=list)  # stored company names
    years: list[int] = field(default_factory=list)
    periods: list[str] = field(default_factory=list)
    doc_types: list[str] = field(default_factory=list)
    fiscal_year_mentioned: bool = False  # "FY2022", "fiscal 2022", "fiscal year", "annual"

    def __bool__(self) -> bool:
        return bool(self.companies or self.years or self.periods or self.doc_types)

    def describe(self) -> str:
        parts = []
        for label, values in (("company", self.companies), ("year", self.years),
                              ("period", self.periods), ("type", self.doc_types)):  # fmt: skip
            if values:
                parts.append(f"{label}={'|'.join(map(str, values))}")
        return ", ".join(parts) or "none"


def parse_years(question: str) -> list[int]:
    years: set[int] = set()
    for m in _FY.finditer(question):
        y = int(m.group(1))
        years.add(y + 2000 if y < 100 else y)
    years.update(int(y) for y in _FISCAL.findall(question))
    years.update(int(y) for y in _YEAR.findall(question))
    years.update(y for _, y in _quarters(question) if y is not None)
    return sorted(years)


def _quarters(question: str) -> list[tuple[str, int | None]]:
    """(quarter, the year written onto it or None) for each quarter the question names."""
    out: list[tuple[str, int | None]] = []
    for m in _QUARTER.finditer(question):
        if m.group("word"):
            out.append((_QUARTERS[m.group("word").lower()], None))
            continue
        number = m.group("q1") or m.group("q2") or m.group("q3")
        year = next((y for y in m.group("y1", "y2", "y3", "y4", "y5") if y), None)
        out.append((f"Q{number}", None if year is None else
                    int(year) + 2000 if len(year) == 2 else int(year)))  # fmt: skip
    return out


def parse_periods(question: str) -> list[str]:
    out = {quarter for quarter, _ in _quarters(question)}
    if _FIRST_HALF.search(question):
        out.add("Q2")
    if _NINE_MONTHS.search(question):
        out.add("Q3")
    return sorted(out)


def parse_doc_types(question: str) -> list[str]:
    return [kind for pattern, kind in _DOC_TYPES if pattern.search(question)]


def _forms(company: str, aliases: list[str], doc_name: str) -> set[str]:
    forms = {company, short_company(company), *aliases}
    hint, _, _ = name_hint(doc_name)
    if hint:
        forms.add(hint)
    return {f for f in forms if f}


def _word_ends(name: str) -> tuple[str, set[int]]:
    """The name's letters and digits, and the offsets where its words end."""
    letters, ends = "", set()
    for word in normalize(name).split():
        letters += word
        ends.add(len(letters))
    return letters, ends


def same_entity(a: str, b: str) -> bool:
    """Whether two stored company names name one company: one is the other plus trailing
    words ("MGM Resorts" / "MGM Resorts International"), spacing aside ("MGM R Esorts I
    Nternational" from a letter-spaced PDF). "Block" and "Blockbuster" are not."""
    (short, _), (long, long_ends) = sorted((_word_ends(a), _word_ends(b)),
                                           key=lambda x: len(x[0]))  # fmt: skip
    if len(short) < 4 or not long.startswith(short):
        return False
    return len(short) == len(long) or len(short) in long_ends


def link_companies(question: str, *, session: Session) -> list[str]:
    """Stored company names the question mentions (exact forms first, then fuzzy)."""
    rows = session.execute(text("SELECT company, company_aliases, name FROM documents "
                                "WHERE company IS NOT NULL")).all()  # fmt: skip
    q_norm = f" {normalize(question)} "
    q_letters = re.sub(r"[^a-z0-9]", "", question.lower())
    q_symbols = set(_CAPITALS.findall(question))
    found: set[str] = set()
    for company, aliases, doc_name in rows:
        # A trading symbol is matched only as written, in capitals ("MMM", "GIS"), never as a
        # word ("gis", "ba", "all").
        symbols = {a for a in aliases or () if SYMBOL.fullmatch(a)}
        if symbols & q_symbols:
            found.add(company)
            continue
        for form in _forms(company, [a for a in aliases or () if a not in symbols], doc_name):
            norm = normalize(form)
            letters = norm.replace(" ", "")
            if (norm and f" {norm} " in q_norm) or (len(letters) >= 6 and letters in q_letters):
                found.add(company)
                break
    if found:
        stored = {company for company, _, _ in rows}
        return sorted(found | {c for c in stored if any(same_entity(c, f) for f in found)})
    fuzzy = session.execute(
        text(
            "SELECT DISTINCT d.company FROM documents d "
            "CROSS JOIN LATERAL unnest(array_append(d.company_aliases, d.company)) AS f(form) "
            "WHERE length(f.form) >= 4 AND word_similarity(lower(f.form), lower(:q)) >= :s"
        ),
        {"q": question, "s": FUZZY_SIMILARITY},
    ).scalars()
    return sorted(c for c in fuzzy if c)


_ANNUAL = re.compile(r"\bFY\s?'?\d{2,4}\b|\bfiscal\b|\bannual\b|\bfull[\s-]year\b", re.I)


def parse_constraints(question: str, *, session: Session) -> Constraints:
    return Constraints(
        companies=link_companies(question, session=session),
        years=parse_years(question),
        periods=parse_periods(question),
        doc_types=parse_doc_types(question),
        fiscal_year_mentioned=bool(_ANNUAL.search(question)),
    )
