"""Priors on a document ranking from what the question says of the period and of the kind of
filing: the filing of the latest year named (or the latest filing) reports the earlier years
as comparatives, a fiscal-year question is best answered by an annual document, and some
subjects are carried by one filing type alone."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..db.queries import DocumentInfo
from ..periods.fiscal import covers_year, filing_years, of_dates
from ..records import QUARTERLY, DocType
from .constraints import Constraints
from .semantic import DocumentHit

PRIOR = 1.3  # weight of a document that matches what the question names, for each match
# What only one filing type carries: a release has the guidance, the adjusted (non-GAAP)
# figures and the announcement; an 8-K the shareholder votes and officer changes. Anything
# else about a period's financials is answered by the periodic report: the 10-Q for a
# quarter, the 10-K for a year.
_TYPE_CUES = (
    (
        re.compile(
            r"\b(?:guidance|outlook|adjusted|non-gaap|ebitdar?|press release|"
            r"announce[sd]?|earnings (?:release|call))\b",
            re.I,
        ),
        DocType.EARNINGS,
    ),
    (
        re.compile(
            r"\b(?:vote[sd]?|voting|shareholders?'? meeting|stockholders?'? meeting|annual "
            r"meeting|elected|resign(?:ed|ation)|appointed|departure)\b",
            re.I,
        ),
        DocType.FORM_8K,
    ),
)


def cue_type(question: str) -> str | None:
    """The filing type that alone carries what the question asks about, if any."""
    return next((kind for pattern, kind in _TYPE_CUES if pattern.search(question)), None)


def named_or_cued_types(question: str, constraints: Constraints) -> list[str]:
    """The filing types the question names, else the one its subject cues (if any)."""
    return constraints.doc_types or [t for t in (cue_type(question),) if t]


def preferred_type(question: str, constraints: Constraints) -> str | None:
    """The filing type best placed to answer when the question names none."""
    if constraints.doc_types:
        return None
    cued = cue_type(question)
    if cued:
        return cued
    # the annual report also describes the business when no period is named
    return DocType.FORM_10Q if constraints.periods else DocType.FORM_10K


def within_filter(
    ranked: Sequence[DocumentHit],
    documents: Sequence[DocumentInfo],
    question: str,
    constraints: Constraints,
) -> list[DocumentHit]:
    """DocScore inside the filtered `documents` (by name), weighted by the question's period:
    the filing of the latest year named (with no year named, the latest filing of the type
    wanted) and, for a fiscal-year question ("FY2022"), an annual document. The filtered
    documents no chunk matched follow, by name, at 0."""
    if asks_newest(constraints):
        return _newest_first(ranked, documents, question, constraints)
    info = {d.name: (filing_years(d), covers_year(d), d.doc_type) for d in documents}
    kind_wanted = preferred_type(question, constraints)
    # Without a year, the most recent filing (of the type wanted) describes the company as
    # it is now.
    known = [max(y) for y, _, kind in info.values() if y and kind == kind_wanted] or [
        max(y) for y, _, _ in info.values() if y
    ]
    latest = max(constraints.years) if constraints.years else max(known, default=None)
    annual = bool(constraints.fiscal_year_mentioned) and not constraints.periods

    def prior(name: str) -> float:
        years, whole_year, kind = info.get(name, (set(), False, None))
        weight = PRIOR if latest in years else 1.0
        weight *= PRIOR if kind_wanted is not None and kind == kind_wanted else 1.0
        return weight * (PRIOR if annual and whole_year else 1.0)

    weighted = sorted(
        (DocumentHit(h.name, h.score * prior(h.name)) for h in ranked), key=lambda h: -h.score
    )
    names = {h.name for h in weighted}
    return weighted + [DocumentHit(d.name, 0.0) for d in documents if d.name not in names]


def asks_newest(constraints: Constraints) -> bool:
    """Whether the question asks for the newest period stored: it names no period, and asks
    about the latest, the current state or where a matter stands."""
    named = constraints.years or constraints.periods or constraints.dates
    return constraints.newest and not named


def _newest_first(
    ranked: Sequence[DocumentHit],
    documents: Sequence[DocumentInfo],
    question: str,
    constraints: Constraints,
) -> list[DocumentHit]:
    """The filing of the newest period stored that discusses the subject first, whatever its
    type (a quarter's 10-Q after the year's 10-K reports the newer figures), among the types
    the question asks for ("last quarter": the quarterly ones); the others follow by
    DocScore."""
    wanted = named_or_cued_types(question, constraints)
    if not wanted and constraints.quarterly:
        wanted = list(QUARTERLY)
    score = {h.name: h.score for h in ranked}
    # the filings that discuss the subject (some passage matched), of the periodic types
    periodic = [d for d in documents if d.period_end and d.doc_type != DocType.FORM_8K]
    periodic = [d for d in periodic if score.get(d.name, 0.0) > 0] or periodic
    pool = [d for d in periodic if d.doc_type in wanted] or periodic
    newest = max((d.period_end or "" for d in pool), default=None)
    first = {d.name for d in pool if d.period_end == newest}
    best = max(score.values(), default=0.0)
    score.update({name: best for name in first})  # ranked as the best match
    order = sorted(documents, key=lambda d: (d.name not in first, -score.get(d.name, 0.0), d.name))
    return [DocumentHit(d.name, score.get(d.name, 0.0)) for d in order]


def whole_corpus(
    ranked: Sequence[DocumentHit],
    documents: dict[str, DocumentInfo],
    question: str,
    constraints: Constraints,
) -> list[DocumentHit]:
    """A whole-corpus ranking weighted towards what the question names though it names no
    company: the filing type ("how did shareholders vote" is an 8-K's subject), the latest
    fiscal year, the quarter, the date (`documents`: the ranked ones, by name)."""
    types = named_or_cued_types(question, constraints)
    if not (types or constraints.years or constraints.periods or constraints.dates) or not ranked:
        return list(ranked)
    latest = max(constraints.years, default=None)

    def prior(document: DocumentInfo | None) -> float:
        if document is None:
            return 1.0
        cues = (
            document.doc_type in types,
            latest in filing_years(document),
            document.fiscal_period in constraints.periods,
            bool(of_dates([document], constraints.dates)),
        )
        return float(PRIOR ** sum(cues))

    weighted = [DocumentHit(d.name, d.score * prior(documents.get(d.name))) for d in ranked]
    return sorted(weighted, key=lambda d: -d.score)
