"""Filters a caller puts on a question beside what it says: named documents, a company, a
fiscal year, a filing type, a period. They restrict which filings can be chosen (the same
in the CLI, the Python API and the MCP server); what the question says still narrows the
choice inside them. A selection that leaves nothing is one clear error."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..db import queries
from ..db.queries import DocumentInfo
from ..db.sql import Session
from ..errors import DocumentNotFoundError, EmptySelectionError
from ..records import DocType
from .constraints import parse_constraints

DOC_TYPES = tuple(str(kind) for kind in DocType)
PERIODS = ("FY", "Q1", "Q2", "Q3", "Q4")


@dataclass(frozen=True)
class Filters:
    """What a question may be answered from. Empty: the whole corpus."""

    documents: tuple[str, ...] = ()
    company: str | None = None
    year: int | None = None
    doc_type: str | None = None
    period: str | None = None

    @classmethod
    def of(
        cls,
        *,
        documents: str | Sequence[str] = (),
        company: str | None = None,
        year: int | None = None,
        doc_type: str | None = None,
        period: str | None = None,
    ) -> Filters:
        """Filters checked as a caller writes them: a type or period spelled in any case
        ("10-k", "q2"); an unknown one is an EmptySelectionError naming the choices. One
        document's name may be given as a string."""
        if isinstance(documents, str):
            documents = (documents,)
        if doc_type is not None:
            doc_type = _choice(doc_type, DOC_TYPES, "type")
        if period is not None:
            period = _choice(period, PERIODS, "period")
        if year is not None and not 1900 <= year <= 2200:
            raise EmptySelectionError(f"year {year} is not a fiscal year")
        company = company.strip() if company and company.strip() else None
        names = tuple(dict.fromkeys(d.strip() for d in documents if d.strip()))
        return cls(names, company, year, doc_type, period)

    def __bool__(self) -> bool:
        return bool(self.documents or self.company or self.year or self.doc_type or self.period)

    def describe(self) -> str:
        parts = [f"document={'|'.join(self.documents)}"] if self.documents else []
        for label, value in (
            ("company", self.company),
            ("year", self.year),
            ("type", self.doc_type),
            ("period", self.period),
        ):
            if value is not None:
                parts.append(f"{label}={value}")
        return ", ".join(parts)


def _choice(value: str, choices: Sequence[str], what: str) -> str:
    found = next((c for c in choices if c.lower() == value.strip().lower()), None)
    if found is None:
        raise EmptySelectionError(f"unknown {what} {value!r} (one of: {', '.join(choices)})")
    return found


def select(
    *,
    session: Session,
    filters: Filters,
    aliases: Sequence[frozenset[str]] = (),
    strict: bool = True,
) -> list[DocumentInfo]:
    """The ready documents the filters allow, by name. A document name that is not stored
    is a DocumentNotFoundError; with `strict`, a company no stored filing names, or filters
    that together leave nothing, an EmptySelectionError (else an empty list)."""
    documents = queries.documents(session, ready=True)
    if filters.documents:
        named = []
        for name in filters.documents:
            document = queries.document_named(session, name)  # a linked copy's name too
            if document is None:
                raise DocumentNotFoundError(name)
            named.append(document.id)
        documents = [d for d in documents if d.id in named]
    if filters.company:
        companies = set(_companies(session, filters.company, aliases))
        if not companies and strict:
            raise EmptySelectionError(
                f"no stored filing is of a company named {filters.company!r} (see `pi docs list`)"
            )
        documents = [d for d in documents if d.company in companies]
    if filters.year is not None:
        documents = [d for d in documents if d.fiscal_year == filters.year]
    if filters.doc_type is not None:
        documents = [d for d in documents if d.doc_type == filters.doc_type]
    if filters.period is not None:
        documents = [d for d in documents if d.fiscal_period == filters.period]
    if not documents and strict:
        raise EmptySelectionError(f"no stored filing matches the filters ({filters.describe()})")
    return documents


def _companies(session: Session, name: str, aliases: Sequence[frozenset[str]]) -> list[str]:
    """The stored company names `name` goes by: linked as a question's company is ("NIKE",
    "Nike", "NKE"), else the stored names that contain it, any case."""
    linked = parse_constraints(name, session=session, aliases=aliases).companies
    if linked:
        return linked
    wanted = name.lower()
    return [
        c.company
        for c in queries.company_names(session)
        if any(wanted in n.lower() for n in (c.company, *c.aliases))
    ]
