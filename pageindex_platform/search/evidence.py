"""What an answer stands on: the searched documents' pages merged into citations, the figure
or metric the best document states (its pages cited first), and what the question asked for
that no selected filing is."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from ..db.queries import DocumentInfo
from ..db.sql import Session
from ..periods import PeriodAsk
from ..periods.fiscal import asked_years, filing_years, of_dates, own_span, reports, span_for
from .constraints import Constraints
from .document_search import Found, Selected
from .headline import Stated
from .one_figure import said_as_change, whole_for_part
from .query import Query
from .results import Citation
from .stated import state
from .tree_search import PageHit
from .two_figures import difference, two_asked
from .verdicts import agreed, compared

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Evidence:
    citations: list[Citation]  # best first
    stated: Stated  # the figure or metric the best document states for the question


def gather(
    *,
    session: Session,
    query: Query,
    selected: Selected,
    found: Sequence[Found],
    companies: Sequence[str],
    max_citations: int,
    period: PeriodAsk | None = None,
) -> Evidence:
    """Pages of every searched document, each weighted by its document's route score
    relative to the best (or, comparing companies, each company's in turn), as citations;
    the figure or metric the best document states for the question, its pages cited first —
    only where the best document is of a company the question names (`companies`, as
    stored): a figure of another company is never stated as the one asked."""
    pages: list[tuple[PageHit, float]] = []
    for doc in found:
        if selected.interleaved:  # every company named gets its first pages cited
            pages.extend((p, 1.0 / (rank + 1)) for rank, p in enumerate(doc.pages))
            continue
        weight = doc.score / selected.top if selected.top > 0 else 1.0
        pages.extend((p, p.score * weight) for p in doc.pages)
    pages.sort(key=lambda x: -x[1])
    citations = [Citation(p.document, p.page, p.node_id) for p, _ in pages[:max_citations]]
    if not found:
        return Evidence(citations, Stated())
    named = list(dict.fromkeys(c for c in companies if c))
    if len(named) > 1 and len({d.document.company for d in found} & set(named)) > 1:
        stated = compared(session=session, query=query, found=found, named=named, period=period)
    elif found[0].document.company not in companies:
        return Evidence(citations, Stated())
    else:
        stated, first = stated_of_period(session, query, found, period)
        rivals = [
            d.document
            for d in found[1:]
            if d.document.name in selected.rivals or _same_filing(d.document, first)
        ]
        stated = agreed(
            session=session,
            query=query,
            stated=stated,
            document=first,
            rivals=rivals,
            period=period,
        )
    if stated.text:
        logger.info("stated: %s", stated.text.splitlines()[0])
    trees = {doc.document.name: doc.tree for doc in found}
    shown = [
        Citation(document, page, trees[document].leaf_of(page))
        for document, page in stated.pages
        if document in trees
    ]
    at = {(c.document, c.page) for c in shown}
    others = [c for c in citations if (c.document, c.page) not in at]
    return Evidence([*shown, *others[: max(0, max_citations - len(shown))]], stated)


def stated_of_period(
    session: Session, query: Query, found: Sequence[Found], period: PeriodAsk | None
) -> tuple[Stated, DocumentInfo]:
    """What the best document states for the question, and that document; where it states
    nothing, the line or metric another filing of the same company and period states (the
    10-Q beside the quarter's earnings release, which prints no gross profit), with the first
    one's candidates kept."""
    first = found[0].document

    def of(document: DocumentInfo, question: str = query.question) -> Stated:
        asked = period if question == query.question else None
        return state(
            session=session,
            question=question,
            catalogue=query.catalogue,
            document=document,
            period=asked,
        )

    sides: dict[str, Stated] = {}  # each side's question asked once

    def side(question: str) -> Stated:
        if question not in sides:
            sides[question] = of(first, question)
        return sides[question]

    two = two_asked(query.question)
    stated = of(first) if two is not None and two.percent else None
    if stated is not None and said_as_change(stated):
        return stated, first  # a change in percent a sentence says ("increased 94%")
    if two is not None:  # "how much higher were A than B": each asked of the same filing
        said = difference(two, side, _company_words(first))
        if said is not None:
            return said, first
    stated = stated or of(first)
    if two is not None and two.percent:  # no side found: not the whole's change for a part's
        stated = whole_for_part(stated, side(two.first))
    if stated.headline is not None or stated.working is not None:
        return stated, first
    for other in (f.document for f in found[1:]):
        if other.doc_type == first.doc_type or not _same_period(other, first):
            continue
        again = of(other)
        if again.headline is not None and again.headline.kind != "text":
            again.candidates = [*again.candidates, *stated.candidates]
            return again, other
    return stated, first


def _same_period(a: DocumentInfo, b: DocumentInfo) -> bool:
    """Whether two filings are of one company's same period."""
    return (
        a.company is not None
        and a.period_end is not None
        and (a.company, a.fiscal_year, a.fiscal_period, a.period_end)
        == (b.company, b.fiscal_year, b.fiscal_period, b.period_end)
    )


def _same_filing(a: DocumentInfo, b: DocumentInfo) -> bool:
    """Whether two documents say they are one periodic filing where no CIK tells them apart
    (a 10-K and the annual report that prints it): the same company, form, fiscal year,
    period and end, and no two different CIKs."""
    return (
        _same_period(a, b)
        and a.fiscal_period is not None
        and a.doc_type == b.doc_type
        and (a.cik is None or b.cik is None or a.cik == b.cik)
    )


def missing_notice(
    constraints: Constraints, documents: Sequence[DocumentInfo]
) -> tuple[str | None, bool]:
    """How a symbol alone was read, and what the question asked for that no selected filing
    is — a company it compares, its filing type, quarter or fiscal year — said first ("No
    Apple Inc. filing for Q3 fiscal 2023 is stored; nearest: ..."), or None when the selected
    filings (best first) are what was asked for. A question over every company is said to be
    answered from one filing. Second: whether the period asked is not stored, so that the
    nearest filing answers."""
    if constraints.not_stored:
        return not_stored_notice(constraints), False
    said = [*constraints.notes] + [
        f"No filing of {name} is stored: the comparison covers the stored companies only."
        for name in constraints.unknown
    ]
    if constraints.across_companies and documents:
        said.append(
            "This question compares companies, which local mode does not rank across the "
            f"corpus: the passages below are from {', '.join(d.name for d in documents)}, not "
            "a ranking of the stored companies."
        )
    period = _period_notice(constraints, documents)
    return " ".join([*said, period] if period else said) or None, period is not None


def not_stored_notice(constraints: Constraints) -> str:
    """The notice for a question about companies no stored filing is of."""
    names = " or ".join(constraints.unknown)
    return " ".join([*constraints.notes, f"No filing of {names} is stored."])


def _period_notice(constraints: Constraints, documents: Sequence[DocumentInfo]) -> str | None:
    """What the question asks for that no selected filing is or reports: its filing type,
    or its period — given only when no selected filing covers it (a prior year is in the
    next 10-K's comparative columns, a prior-year quarter in the 10-Q's)."""
    if not documents or of_dates(documents, constraints.dates):  # the filing of the date named
        return None
    wrong_type = constraints.doc_types and not any(
        d.doc_type in constraints.doc_types for d in documents
    )
    if not wrong_type and (not _period_named(constraints) or _covered(constraints, documents)):
        return None
    kind = " or ".join(constraints.doc_types) or "filing"
    years = "/".join(str(y) for y in sorted(constraints.years))
    when = " ".join(x for x in ("/".join(constraints.periods), years and f"fiscal {years}") if x)
    company = f"{constraints.companies[0]} " if constraints.companies else ""
    nearest = ", ".join(_label(d) for d in documents)
    return f"No {company}{kind}{f' for {when}' if when else ''} is stored; nearest: {nearest}."


def _period_named(constraints: Constraints) -> bool:
    return bool(constraints.periods or constraints.years or constraints.period.end)


def _covered(constraints: Constraints, documents: Sequence[DocumentInfo]) -> bool:
    """Whether a selected filing is, or reports, the period asked: by its own period and
    comparative columns, else (a filing with no place on a calendar) by its metadata."""
    ask = constraints.period
    for document in documents:
        years: list[int | None] = [*asked_years(ask, document)] or [None]
        for year in years:
            span = span_for(ask, document, year)
            if span is not None and reports(document, span):
                return True
    by_metadata = [
        d
        for d in documents
        if not _filed_before(d, constraints.dates)
        and (not constraints.periods or d.fiscal_period in constraints.periods)
        and (not constraints.years or filing_years(d) & set(constraints.years))
    ]
    return bool(by_metadata)


# the longest a periodic report is filed after its period ends: a date named later than that
# is after the filing was made, and no figure of the filing is as of it
_FILED_WITHIN = timedelta(days=120)


def _filed_before(document: DocumentInfo, dates: Sequence[str]) -> bool:
    """Whether a date the question names falls after `document` was filed: "as of December
    31, 2023" is in no 10-Q for the quarter ended June 30, 2023 (a cover page's date, weeks
    after the year's end, is in the 10-K)."""
    if document.period_end is None or not dates:
        return False
    end = date.fromisoformat(document.period_end)
    return any(date.fromisoformat(d) > end + _FILED_WITHIN for d in dates)


def period_source(constraints: Constraints, document: DocumentInfo) -> str | None:
    """Where the period asked is read from when the answering filing reports it beside its
    own ("fiscal 2023 is read from aapl-10-k-2024-11-01, which reports it beside fiscal
    2024"); None when it is the filing's own period, or none is named."""
    ask = constraints.period
    if not ask.named:
        return None
    years: list[int | None] = [*asked_years(ask, document)] or [None]
    span = span_for(ask, document, years[-1])
    own = own_span(document)
    if span is None or own is None or reports(document, span) != "comparative":
        return None
    return (
        f"{span.fiscal_name or span.words} is read from {document.name}, which reports it "
        f"beside its own period ({own.fiscal_name or own.words})."
    )


def _label(document: DocumentInfo) -> str:
    period = " ".join(str(x) for x in (document.fiscal_period, document.fiscal_year) if x)
    kinds = ", ".join(x for x in (document.doc_type, period) if x)
    return f"{document.name} ({kinds or 'no metadata'})"


def _company_words(document: DocumentInfo) -> frozenset[str]:
    """The lower-case words of the company's names (a side's label need not repeat them)."""
    names = (document.company or "", *document.company_aliases)
    return frozenset(w.lower() for n in names for w in re.findall(r"[\w&-]+", n))
