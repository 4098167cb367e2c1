"""Constraints a question puts on the documents: the companies it names (resolved by
`companies.resolve_companies`), the period it asks about (read by `periods.parse_period`,
the one grammar of periods), the filing types it names, and whether it asks about the
company as it is now or compares companies."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..db import queries
from ..db.queries import CompanyNames
from ..db.sql import Session
from ..patterns import deferred
from ..periods import PeriodAsk, PeriodKind
from ..periods.dates import parse_dates
from ..periods.filing_words import ANNUAL_FILING_YEAR
from ..periods.grammar import quarter_labels
from .companies import common_in, link, resolve_companies
from .entities import entity_groups
from .metric_questions import period_asked

_DOC_TYPES = (
    (re.compile(r"\b10-?K\b|\bannual report\b", re.I), "10-K"),
    (re.compile(r"\b10-?Q\b|\bquarterly report\b", re.I), "10-Q"),
    (re.compile(r"\b8-?K\b|\bcurrent report\b", re.I), "8-K"),
    (
        re.compile(r"\bearnings (?:release|report|call)\b|\bpress release\b", re.I),
        "earnings release",
    ),
)


@dataclass
class Constraints:
    companies: list[str] = field(default_factory=list)  # stored company names
    years: list[int] = field(default_factory=list)  # every year written
    periods: list[str] = field(default_factory=list)  # quarters: "Q2"
    doc_types: list[str] = field(default_factory=list)
    dates: list[str] = field(default_factory=list)  # ISO calendar dates: "2022-07-01"
    fiscal_year_mentioned: bool = False  # "FY2022", "fiscal 2022", "fiscal year", "annual"
    # the question asks about the company as it is now ("latest", "last quarter", "current",
    # the status of a case): with no period named, the newest period stored answers
    newest: bool = False
    quarterly: bool = False  # ... and it asks for a quarter's figures ("last quarter")
    # names the question writes as a company's that no stored company goes by ("Compare
    # Apple and Microsoft" with no Microsoft filing stored; "Tesla FY2023 revenue")
    unknown: list[str] = field(default_factory=list)
    across_companies: bool = False  # "which company had the highest revenue"
    notes: list[str] = field(default_factory=list)  # what was read with doubt, said first
    readings: list[str] = field(default_factory=list)  # how names were read (a misspelling)
    # `companies` grouped by the company they name (a renamed company's names together);
    # empty: grouped by their spelling alone (`entity_groups`)
    entities: list[list[str]] = field(default_factory=list)
    period: PeriodAsk = field(default_factory=PeriodAsk)  # the period asked, as one value
    # the fiscal years of the annual filings the question names ("its 2021 Form 10-K"): the
    # filing read, whatever date it asks a figure of
    filing_years: list[int] = field(default_factory=list)

    def groups(self) -> list[list[str]]:
        """The companies named, one list of stored names per company."""
        return self.entities or entity_groups(self.companies)

    def __bool__(self) -> bool:
        return bool(self.companies or self.years or self.periods or self.doc_types or self.dates)

    @property
    def not_stored(self) -> bool:
        """Whether the question names only companies no stored filing is of."""
        return bool(self.unknown) and not self.companies and not self.across_companies

    def describe(self) -> str:
        parts = []
        for label, values in (
            ("company", self.companies),
            ("year", self.years),
            ("period", self.periods),
            ("type", self.doc_types),
            ("date", self.dates),
        ):
            if values:
                parts.append(f"{label}={'|'.join(map(str, values))}")
        return ", ".join(parts) or "none"


def parse_doc_types(question: str) -> list[str]:
    return [kind for pattern, kind in _DOC_TYPES if pattern.search(question)]


# What asks for the newest period stored: the company as it is now, or where a matter stands.
_NEWEST = deferred(
    r"\b(?:latest|most\s+recent(?:ly)?|last|currently|now|today|to\s+date|as\s+of|still|"
    r"current(?!\s+(?:assets?|liabilit|portion|ratio|maturit|income\s+tax))|"
    r"status|pending|ongoing|outstanding\s+(?:case|lawsuit|litigation)s?)\b",
    re.IGNORECASE,
)
# Names a question compares: "Compare Apple and Microsoft", "between AAPL and MSFT",
# "Apple vs. Microsoft" (a name: up to four capitalized words).
# a name's words: not past a sentence's full stop ("between FY2014 and FY2015. Round ...")
_NAME = r"[A-Z][\w&.'’-]*(?:(?<![a-z0-9]{2}\.)\s+[A-Z][\w&.'’-]*){0,3}"
_COMPARED = deferred(
    rf"\b(?:[Cc]ompar(?:e|ing)|[Bb]etween)\s+(?P<a>{_NAME})\s+(?:and|with|to|vs\.?|versus)\s+"
    rf"(?P<b>{_NAME})|(?P<c>{_NAME})\s+(?:vs\.?|versus)\s+(?P<d>{_NAME})"
)
_ACROSS = deferred(
    r"\bwhich\s+(?:company|companies|firm|issuer)\b|\b(?:among|across|of)\s+(?:all\s+)?"
    r"(?:the\s+)?(?:stored\s+)?companies\b",
    re.IGNORECASE,
)


def _compared_names(question: str) -> list[str]:
    """The names on either side of a comparison, possessives dropped."""
    names = []
    for m in _COMPARED.finditer(question):
        names += [re.sub(r"['’]s$", "", n) for n in m.group("a", "b", "c", "d") if n]
    return names


def _compared_unknown(
    question: str,
    session: Session,
    stored: Sequence[CompanyNames],
    aliases: Sequence[frozenset[str]],
) -> list[str]:
    """Names the question compares that name no stored company and are not words most
    filings use ("GAAP", "Q2", "FY2023")."""
    common = common_in(session)
    return [
        n
        for n in _compared_names(question)
        if not link(n, stored, aliases, common)[0] and not common(n)
    ]


_QUARTERLY = deferred(r"\bquarter(?:ly)?\b", re.IGNORECASE)
_ANNUAL = deferred(r"\bFY\s?'?\d{2,4}\b|\bfiscal\b|\bannual\b|\bfull[\s-]year\b", re.I)


def parse_constraints(
    question: str, *, session: Session, aliases: Sequence[frozenset[str]] = ()
) -> Constraints:
    """What the question restricts: the companies it names (and the user's `aliases`),
    grouped by company, the period it asks about, filing types, and whether it names a
    fiscal year, asks about the newest period or compares companies."""
    resolved = resolve_companies(question, session=session, aliases=aliases)
    period = period_asked(question)
    unknown = list(resolved.unknown)
    if resolved.companies:
        stored = queries.company_names(session)
        unknown = _compared_unknown(question, session, stored, aliases)
    return Constraints(
        companies=resolved.companies,
        years=list(period.mentioned),
        periods=quarter_labels(question),
        doc_types=parse_doc_types(question),
        dates=parse_dates(question),
        fiscal_year_mentioned=bool(_ANNUAL.search(question)),
        newest=bool(_NEWEST.search(question)) and period.kind != PeriodKind.LATEST_YEAR,
        quarterly=bool(_QUARTERLY.search(question)),
        entities=resolved.entities,
        unknown=unknown,
        notes=resolved.notes,
        readings=resolved.readings,
        across_companies=bool(_ACROSS.search(question)) and len(resolved.entities) < 2,
        period=period,
        filing_years=sorted({int(m[1] or m[2]) for m in ANNUAL_FILING_YEAR.finditer(question)}),
    )
