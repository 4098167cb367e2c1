"""Document selection: one `Route` enum, dispatched in one place (`select_documents`).

- metadata:    the question's constraints as a filter on the documents table, ranked inside
               by semantic DocScore;
- semantic:    DocScore over the whole corpus (hybrid chunk search);
- description: similarity between the question and each document's description;
- auto:        metadata when constraints select documents, else semantic; the decision and
               its reason are recorded.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from typing import Any

import numpy as np
from sqlalchemy import Engine, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from ..embeddings import Embedder
from ..errors import LLMError, PageIndexError
from ..llm import StructuredChat, Usage
from .constraints import Constraints, entity_groups
from .description import pick_by_description
from .semantic import DocumentHit, rank_documents, vector_literal


class Route(StrEnum):
    AUTO = "auto"
    METADATA = "metadata"
    SEMANTIC = "semantic"
    DESCRIPTION = "description"


@dataclass
class RouteDecision:
    route: Route
    reason: str
    documents: list[DocumentHit]
    sql: str | None = None
    constraints: Constraints = field(default_factory=Constraints)
    warnings: list[str] = field(default_factory=list)  # model steps that fell back


def filter_documents(*, session: Session, constraints: Constraints) -> tuple[list[int], str]:
    """Document ids matching the constraints, relaxing the ones that match nothing, for each
    company named on its own ("Amazon vs Apple 2019" keeps Apple's filings when only Amazon's
    2019 one is stored). A calendar date the question names ("the 8-K dated July 1, 2022",
    "the quarter ended December 31, 2022") selects the filings of that date when there are
    any. A year with no filing of its own falls back to the next year's, which reports it as a
    comparative, then to the nearest earlier year's, which looks ahead to it, then to any
    year. Returns the ids and what was applied."""
    if not constraints.companies:
        return [], "no company named"
    ids: list[int] = []
    said: list[str] = []
    for group in entity_groups(constraints.companies):
        found, applied = _filter_one(session, group, constraints)
        ids.extend(found)
        said.append(applied)
    return ids, " | ".join(said)


def _filter_one(
    session: Session, companies: list[str], constraints: Constraints
) -> tuple[list[int], str]:
    rows = session.execute(
        text(
            "SELECT id, fiscal_year, fiscal_period, doc_type, period_end FROM documents "
            "WHERE company = ANY(:c) AND status = 'ready'"
        ),
        {"c": companies},
    ).all()
    applied = [f"company in {companies}"]
    dated = of_dates(rows, constraints.dates)
    if dated:
        rows = dated
        applied.append(f"period_end near {constraints.dates}")
    elif constraints.years:
        stated = set(constraints.years)
        # The filing of the latest year named reports up to two earlier years as comparatives,
        # so "FY2021 vs FY2022" is answered from the FY2022 filing alone; a wider span needs
        # the filings of each year.
        latest = {max(stated)} if max(stated) - min(stated) <= COMPARATIVE_YEARS else stated
        before = {y for r in rows for y in years_of(r.fiscal_year, r.period_end) if y < min(latest)}
        choices = (
            (latest, "fiscal_year in"),
            (stated, "fiscal_year in"),
            ({y + 1 for y in latest}, "next year"),
            ({max(before)} if before else set(), "nearest earlier year"),
        )
        for years, label in choices:
            kept = [r for r in rows if years_of(r.fiscal_year, r.period_end) & years]
            if kept:
                rows = kept
                applied.append(f"{label} {sorted(years)}")
                break
        else:
            applied.append("years relaxed (no matching filing)")
    elif not constraints.periods:
        # No period named: the question is about the company as it is now, which its latest
        # periodic filings describe (8-Ks report events of their own and all stay).
        rows = _latest_periodic(rows)
        applied.append("latest filing of each periodic type (no period named)")
    for column, wanted in (
        ("doc_type", constraints.doc_types),
        ("fiscal_period", constraints.periods),
    ):
        kept = [r for r in rows if getattr(r, column) in wanted]
        if wanted and kept:
            rows = kept
            applied.append(f"{column} in {wanted}")
    return [r.id for r in rows], "; ".join(applied)


DATE_SLACK_DAYS = 7  # an 8-K is filed within four business days of its event's date


def of_dates(rows: Sequence[Any], dates: Sequence[str]) -> list[Any]:
    """The rows whose period_end (a periodic filing's period, an 8-K's event) is nearest the
    latest of `dates` that any is within DATE_SLACK_DAYS of; [] when none is."""
    ends = {id(r): _day(r.period_end) for r in rows}
    for wanted in sorted(dates, reverse=True):
        day = date.fromisoformat(wanted)
        apart = {key: abs((end - day).days) for key, end in ends.items() if end is not None}
        closest = min(apart.values(), default=DATE_SLACK_DAYS + 1)
        if closest <= DATE_SLACK_DAYS:
            return [r for r in rows if apart.get(id(r)) == closest]
    return []


def _day(value: str | None) -> date | None:
    try:
        return date.fromisoformat(value) if value else None
    except ValueError:  # a hand-edited metadata override
        return None


def _latest_periodic(rows: Sequence[Any]) -> list[Any]:
    def when(r: Any) -> tuple[str, int]:
        return (r.period_end or "", r.fiscal_year or 0)

    latest: dict[str, Any] = {}
    for r in rows:
        if r.doc_type != "8-K" and (r.doc_type not in latest or when(r) > when(latest[r.doc_type])):
            latest[r.doc_type] = r
    return [r for r in rows if r.doc_type == "8-K" or latest.get(r.doc_type) is r]


PRIOR = 1.3  # weight of a document that matches the question's period exactly
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
        "earnings release",
    ),
    (
        re.compile(
            r"\b(?:vote[sd]?|voting|shareholders?'? meeting|stockholders?'? meeting|annual "
            r"meeting|elected|resign(?:ed|ation)|appointed|departure)\b",
            re.I,
        ),
        "8-K",
    ),
)


def cue_type(question: str) -> str | None:
    """The filing type that alone carries what the question asks about, if any."""
    return next((kind for pattern, kind in _TYPE_CUES if pattern.search(question)), None)


def preferred_type(question: str, constraints: Constraints) -> str | None:
    """The filing type best placed to answer when the question names none."""
    if constraints.doc_types:
        return None
    cued = cue_type(question)
    if cued:
        return cued
    # the annual report also describes the business when no period is named
    return "10-Q" if constraints.periods else "10-K"


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


COMPARATIVE_YEARS = 2  # a 10-K's income statement shows three years


def _ranked_within(
    session: Session,
    question: str,
    vector: np.ndarray,
    ids: Sequence[int],
    constraints: Constraints,
    rescorer: Embedder | None,
) -> list[DocumentHit]:
    """DocScore inside the filtered documents, with priors from the question's period: the
    filing of the latest year named reports the earlier ones as comparatives (with no year
    named, the latest filing), and a question about a fiscal year ("FY2022") is best answered
    by an annual document."""
    ranked = rank_documents(
        session=session, question=question, vector=vector, document_ids=ids, rescorer=rescorer
    )
    info = {
        name: (years_of(year, end), period, kind)
        for name, year, period, kind, end in session.execute(
            text(
                "SELECT name, fiscal_year, fiscal_period, doc_type, period_end FROM documents "
                "WHERE id = ANY(:ids)"
            ),
            {"ids": list(ids)},
        )
    }
    kind_wanted = preferred_type(question, constraints)
    # Without a year, the most recent filing (of the type wanted) describes the company as
    # it is now.
    known = [max(y) for y, _, kind in info.values() if y and kind == kind_wanted] or [
        max(y) for y, _, _ in info.values() if y
    ]
    latest = max(constraints.years) if constraints.years else max(known, default=None)
    annual = bool(constraints.fiscal_year_mentioned) and not constraints.periods

    def prior(name: str) -> float:
        years, period, kind = info.get(name, (set(), None, None))
        weight = PRIOR if latest in years else 1.0
        weight *= PRIOR if kind_wanted is not None and kind == kind_wanted else 1.0
        # a fourth-quarter release reports the full year too
        covers_year = period == "FY" or (period == "Q4" and kind == "earnings release")
        return weight * (PRIOR if annual and covers_year else 1.0)

    ranked = sorted(
        (DocumentHit(h.name, h.score * prior(h.name)) for h in ranked), key=lambda h: -h.score
    )
    names = {h.name for h in ranked}
    rest = session.execute(
        text("SELECT name FROM documents WHERE id = ANY(:ids) ORDER BY name"), {"ids": list(ids)}
    ).scalars()
    return ranked + [DocumentHit(n, 0.0) for n in rest if n not in names]


def by_description(session: Session, vector: np.ndarray, limit: int = 10) -> list[DocumentHit]:
    rows = session.execute(
        text(
            "SELECT name, 1 - (description_embedding <=> CAST(:v AS vector)) FROM documents "
            "WHERE description_embedding IS NOT NULL "
            "ORDER BY description_embedding <=> CAST(:v AS vector) LIMIT :n"
        ),
        {"v": vector_literal(vector), "n": limit},
    )
    return [DocumentHit(name, float(score)) for name, score in rows]


def _by_sql(
    session: Session, question: str, chat: StructuredChat, usage: Usage, warned: list[str]
) -> tuple[str | None, list[int], str]:
    """Query-to-SQL: (sql, document ids, reason); ids are [] when it failed or selected
    nothing, and a failure is also added to `warned`."""
    from .query_sql import query_to_sql  # llm mode only: keeps pglast out of local start-up

    sql: str | None = None
    try:
        engine = session.get_bind()
        assert isinstance(engine, Engine)
        sql, names = query_to_sql(engine=engine, chat=chat, question=question, usage=usage)
    except (PageIndexError, SQLAlchemyError) as exc:
        problem = str(getattr(exc, "orig", None) or exc).splitlines()[0][:200]
        why = f"Query-to-SQL failed ({type(exc).__name__}: {problem})"
        warned.append(f"llm {why}; local entity linking instead")
        return sql, [], why
    ids = (
        session.execute(text("SELECT id FROM documents WHERE name = ANY(:n)"), {"n": names})
        .scalars()
        .all()
    )
    if not ids:
        return sql, [], "Query-to-SQL selected no document"
    return sql, list(ids), f"Query-to-SQL selected {len(ids)} document(s)"


def select_documents(
    *,
    session: Session,
    question: str,
    vector: np.ndarray,
    constraints: Constraints,
    route: Route = Route.AUTO,
    chat: StructuredChat | None = None,
    usage: Usage | None = None,
    rescorer: Embedder | None = None,
) -> RouteDecision:
    """Dispatch on the route. With `chat` (llm mode) the metadata route is Query-to-SQL,
    falling back to local entity linking when anything about it fails. `rescorer`: the
    transformer that some stored chunk vectors approximate (see `rank_documents`)."""
    warned: list[str] = []
    if route == Route.DESCRIPTION:
        if chat is not None:
            try:
                names, _ = pick_by_description(
                    session=session, chat=chat, question=question, usage=usage or Usage()
                )
                if names:
                    docs = [DocumentHit(n, 1.0 / (i + 1)) for i, n in enumerate(names)]
                    return RouteDecision(
                        route,
                        "the model chose from document descriptions",
                        docs,
                        constraints=constraints,
                    )
                why = "the model chose no document"
            except LLMError as exc:
                why = f"description choice failed ({exc})"
                warned.append(f"llm {why}; embedding similarity to descriptions instead")
            docs = by_description(session, vector)
            return RouteDecision(
                route,
                f"{why}; embedding similarity to descriptions",
                docs,
                constraints=constraints,
                warnings=warned,
            )
        docs = by_description(session, vector)
        return RouteDecision(
            route, "question vs document descriptions", docs, constraints=constraints
        )
    if route in (Route.AUTO, Route.METADATA):
        sql: str | None = None
        if chat is not None:
            sql, ids, why = _by_sql(session, question, chat, usage or Usage(), warned)
            if ids:
                docs = _ranked_within(session, question, vector, ids, constraints, rescorer)
                return RouteDecision(Route.METADATA, why, docs, sql=sql, constraints=constraints)
            sql = None  # not used: local entity linking decides
        ids, applied = filter_documents(session=session, constraints=constraints)
        if chat is not None:
            applied = f"{why}; local entity linking: {applied}"
        if ids:
            docs = _ranked_within(session, question, vector, ids, constraints, rescorer)
            reason = f"constraints {constraints.describe()} → {len(ids)} document(s) ({applied})"
            return RouteDecision(
                Route.METADATA, reason, docs, sql=sql, constraints=constraints, warnings=warned
            )
        if route == Route.METADATA:
            return RouteDecision(
                route,
                f"no document matches constraints ({constraints.describe()}; {applied})",
                [],
                constraints=constraints,
                warnings=warned,
            )
        reason = f"no metadata match ({applied}); semantic search over the whole corpus"
    else:
        reason, sql = "semantic search over the whole corpus (requested)", None
    docs = rank_documents(session=session, question=question, vector=vector, rescorer=rescorer)
    docs = _weighted(session, docs, constraints, cue_type(question))
    return RouteDecision(
        Route.SEMANTIC, reason, docs, sql=sql, constraints=constraints, warnings=warned
    )


def documents_by_name(session: Session, names: Sequence[str]) -> dict[str, Any]:
    """The named documents' ids, periods and types, by name (one query)."""
    rows = session.execute(
        text(
            "SELECT name, id, fiscal_year, fiscal_period, doc_type, period_end "
            "FROM documents WHERE name = ANY(:n)"
        ),
        {"n": list(names)},
    )
    return {row.name: row for row in rows}


def column_by_name(session: Session, column: str, names: Sequence[str]) -> dict[str, str]:
    """One metadata column ("company", "doc_type") of the named documents."""
    if column not in ("company", "doc_type"):
        raise ValueError(column)
    rows = session.execute(
        text(f"SELECT name, {column} FROM documents WHERE name = ANY(:n)"), {"n": list(names)}
    )
    return {name: value or "" for name, value in rows}


def _weighted(
    session: Session, docs: list[DocumentHit], constraints: Constraints, cued: str | None
) -> list[DocumentHit]:
    """A whole-corpus ranking weighted towards what the question names though it names no
    company: the filing type ("how did shareholders vote" is an 8-K's subject), the latest
    fiscal year, the quarter, the date."""
    types = constraints.doc_types or [t for t in (cued,) if t]
    if not (types or constraints.years or constraints.periods or constraints.dates) or not docs:
        return docs
    rows = documents_by_name(session, [d.name for d in docs])
    latest = max(constraints.years, default=None)

    def prior(row: Any) -> float:
        if row is None:
            return 1.0
        cues = (
            row.doc_type in types,
            latest in years_of(row.fiscal_year, row.period_end),
            row.fiscal_period in constraints.periods,
            bool(of_dates([row], constraints.dates)),
        )
        return float(PRIOR ** sum(cues))

    weighted = [DocumentHit(d.name, d.score * prior(rows.get(d.name))) for d in docs]
    return sorted(weighted, key=lambda d: -d.score)
