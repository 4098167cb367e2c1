"""Stored documents and their metadata (no page text, no vectors): `DocumentInfo` and the
reads that list, count and find documents."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..sql import Session, text


@dataclass(frozen=True)
class DocumentInfo:
    """A stored document's metadata (no page text, no vectors)."""

    id: int
    name: str
    status: str
    page_count: int
    company: str | None
    company_aliases: tuple[str, ...]
    doc_type: str | None
    fiscal_year: int | None
    fiscal_period: str | None
    period_end: str | None  # ISO date: a periodic filing's period, an 8-K's event
    cik: str | None
    title: str | None
    description: str | None
    source_path: str
    sha256: str
    tree_source: str
    embedder: str
    warnings: tuple[str, ...]
    usage: dict[str, Any]
    created_at: str | None  # ISO timestamp
    copies: tuple[str, ...] = ()  # names of other files with the same content, linked here
    # each metadata field's source and confidence: {"company": {"source", "confidence"}}
    sources: dict[str, Any] = field(default_factory=dict)


_DOCUMENT_COLUMNS = (
    "d.id, d.name, d.status, d.page_count, d.company, d.company_aliases, d.doc_type, "
    "d.fiscal_year, d.fiscal_period, d.period_end, d.cik, d.title, d.description, "
    "d.source_path, d.sha256, d.tree_source, d.embedder, d.warnings, d.usage, d.created_at, "
    "d.copies, d.metadata_sources"
)


def _document(row: Any) -> DocumentInfo:
    return DocumentInfo(
        id=int(row.id),
        name=row.name,
        status=row.status,
        page_count=int(row.page_count),
        company=row.company,
        company_aliases=tuple(row.company_aliases or ()),
        doc_type=row.doc_type,
        fiscal_year=row.fiscal_year,
        fiscal_period=row.fiscal_period,
        period_end=row.period_end,
        cik=row.cik,
        title=row.title,
        description=row.description,
        source_path=row.source_path,
        sha256=row.sha256,
        tree_source=row.tree_source,
        embedder=row.embedder,
        warnings=tuple(row.warnings or ()),
        usage=dict(row.usage or {}),
        created_at=row.created_at.isoformat() if row.created_at else None,
        copies=tuple(row.copies or ()),
        sources=dict(row.metadata_sources or {}),
    )


def documents(
    session: Session,
    *,
    names: Sequence[str] | None = None,
    ids: Sequence[int] | None = None,
    companies: Sequence[str] | None = None,
    ready: bool = False,
    by_id: bool = False,
) -> list[DocumentInfo]:
    """Stored documents by name (the database's collation), or in the order they were
    stored (`by_id`); all of them or those matching every filter given: names, ids,
    companies (stored names), ready ones only."""
    where = ["TRUE"]
    params: dict[str, Any] = {}
    for column, values, key in (
        ("name", names, "n"),
        ("id", ids, "i"),
        ("company", companies, "c"),
    ):
        if values is not None:
            where.append(f"d.{column} = ANY(:{key})")
            params[key] = list(values)
    if ready:
        where.append("d.status = 'ready'")
    rows = session.execute(
        text(
            f"SELECT {_DOCUMENT_COLUMNS} FROM documents d WHERE {' AND '.join(where)} "
            f"ORDER BY d.{'id' if by_id else 'name'}"
        ),
        params,
    )
    return [_document(row) for row in rows]


def documents_by_name(session: Session, names: Sequence[str]) -> dict[str, DocumentInfo]:
    """The named documents that are stored, by name."""
    return {d.name: d for d in documents(session, names=names)}


def document_named(session: Session, name: str) -> DocumentInfo | None:
    """The document of that name, or the one a copy of that name is linked to."""
    found = documents(session, names=[name])
    if found:
        return found[0]
    row = session.execute(
        text(f"SELECT {_DOCUMENT_COLUMNS} FROM documents d WHERE CAST(:n AS text) = ANY(d.copies)"),
        {"n": name},
    ).first()
    return _document(row) if row else None


def has_ready_documents(session: Session) -> bool:
    return (
        session.execute(text("SELECT 1 FROM documents WHERE status = 'ready' LIMIT 1")).first()
        is not None
    )


def document_count(session: Session) -> int:
    return int(session.execute(text("SELECT count(*) FROM documents")).scalar() or 0)


def document_sizes(session: Session, document_id: int) -> tuple[int, int]:
    """(nodes, chunks) of a document."""
    row = session.execute(
        text(
            "SELECT (SELECT count(*) FROM nodes WHERE document_id = :d), "
            "(SELECT count(*) FROM chunks WHERE document_id = :d)"
        ),
        {"d": document_id},
    ).one()
    return int(row[0]), int(row[1])


def node_counts(session: Session) -> dict[int, int]:
    """How many tree nodes each document has, by document id."""
    rows = session.execute(text("SELECT document_id, count(*) FROM nodes GROUP BY document_id"))
    return {int(document): int(count) for document, count in rows}


def most_common_embedder(session: Session) -> str | None:
    """The embedder (its `name`) most stored documents were embedded with."""
    found = session.execute(
        text("SELECT embedder FROM documents GROUP BY embedder ORDER BY count(*) DESC LIMIT 1")
    ).scalar()
    return str(found) if found else None


def descriptions(session: Session) -> list[tuple[str, str]]:
    """(name, description, else title, else name) of every ready document, by name."""
    rows = session.execute(
        text(
            "SELECT name, coalesce(description, title, name) FROM documents "
            "WHERE status = 'ready' ORDER BY name"
        )
    )
    return [(str(name), str(description)) for name, description in rows]


def stored_sha256(session: Session, name: str) -> str | None:
    found = session.execute(text("SELECT sha256 FROM documents WHERE name = :n"), {"n": name})
    value = found.scalar()
    return str(value) if value is not None else None
