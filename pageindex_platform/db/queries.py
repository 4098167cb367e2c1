"""Typed reads of the stored corpus: dataclasses, not rows, one reader per question asked of
the database. The ask pipeline and its stages, the catalog behind `pi docs` and the ingest's
checks read through these; the hybrid chunk search (`search/semantic.py`) keeps its own SQL.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Row, text
from sqlalchemy.orm import Session

logger = logging.getLogger(__name__)


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


def _document(row: Row[Any]) -> DocumentInfo:
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


@dataclass(frozen=True)
class CompanyNames:
    """A stored company name, the other names its filings go by (symbols included), and the
    span of its filings' periods (ISO dates; None when no filing has one)."""

    company: str
    aliases: tuple[str, ...]
    first: str | None = None
    last: str | None = None


def company_names(session: Session) -> list[CompanyNames]:
    """Each stored company name once, with every alias its filings give it."""
    rows = session.execute(
        text(
            "SELECT d.company, array_remove(array_agg(DISTINCT a.alias), NULL), "
            "min(d.period_end), max(d.period_end) FROM documents d "
            "LEFT JOIN LATERAL unnest(d.company_aliases) AS a(alias) ON TRUE "
            "WHERE d.company IS NOT NULL GROUP BY d.company ORDER BY d.company"
        )
    )
    return [
        CompanyNames(company, tuple(sorted(aliases or ())), first, last)
        for company, aliases, first, last in rows
    ]


def common_words(session: Session, phrase: str, share: float = 0.5) -> bool:
    """Whether every word of `phrase` (its periods and numbers aside) is an English stop word
    ("IT", "ON", "ALL") or in more than `share` of the stored documents: a term of the trade
    ("GAAP", "EBITDA"), not a name."""
    words = [w for w in re.findall(r"[A-Za-z]+", phrase) if not re.fullmatch(r"(?i)fy|[qh]", w)]
    if not words:
        return True
    counts = ", ".join(
        f"count(*) FILTER (WHERE numnode(plainto_tsquery('english', :w{i})) = 0 "
        f"OR lexemes @@ plainto_tsquery('english', :w{i}))"
        for i in range(len(words))
    )
    row = session.execute(
        text(f"SELECT count(*), {counts} FROM documents"),
        {f"w{i}": w for i, w in enumerate(words)},
    ).one()
    total, found = row[0], row[1:]
    return bool(total) and all(n > share * total for n in found)


def companies_resembling(session: Session, question: str, similarity: float) -> list[str]:
    """Stored companies one of whose names (of 4 letters or more) is like a run of the
    question's words (pg_trgm word_similarity at least `similarity`)."""
    rows = session.execute(
        text(
            "SELECT DISTINCT d.company FROM documents d "
            "CROSS JOIN LATERAL unnest(array_append(d.company_aliases, d.company)) AS f(form) "
            "WHERE length(f.form) >= 4 AND word_similarity(lower(f.form), lower(:q)) >= :s"
        ),
        {"q": question, "s": similarity},
    ).scalars()
    return [str(company) for company in rows if company]


def stored_companies(session: Session) -> list[str]:
    """The distinct company names stored (one company is stored under one spelling)."""
    rows = session.execute(text("SELECT DISTINCT company FROM documents WHERE company IS NOT NULL"))
    return [str(company) for company in rows.scalars()]


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


@dataclass(frozen=True)
class StoredNode:
    """A section of a stored tree. Pages are 1-based, physical and inclusive."""

    node_id: str
    parent_id: str | None
    title: str
    start_page: int
    end_page: int
    depth: int
    summary: str
    path: str  # titles from the root down, for matching


@dataclass(frozen=True)
class TreeInfo:
    """A stored document's tree: its nodes in stored order (a parent before its children)."""

    document: str
    page_count: int
    nodes: tuple[StoredNode, ...]

    def leaf_of(self, page: int) -> str:
        """The narrowest node holding a page ("" when none does)."""
        holding = [n for n in self.nodes if n.start_page <= page <= n.end_page]
        best = min(holding, key=lambda n: n.end_page - n.start_page, default=None)
        return best.node_id if best else ""

    def nested(self) -> list[dict[str, Any]]:
        """The roots with their children, as `pi docs tree --json` shows them."""
        by_id: dict[str, dict[str, Any]] = {}
        roots: list[dict[str, Any]] = []
        for n in self.nodes:
            item = {
                "node_id": n.node_id,
                "title": n.title,
                "start_page": n.start_page,
                "end_page": n.end_page,
                "summary": n.summary,
                "nodes": [],
            }
            by_id[n.node_id] = item
            parent = by_id.get(n.parent_id) if n.parent_id else None
            (parent["nodes"] if parent is not None else roots).append(item)
        return roots


def tree(session: Session, document: DocumentInfo) -> TreeInfo:
    rows = session.execute(
        text(
            "SELECT node_id, parent_node_id, title, start_page, end_page, depth, summary "
            "FROM nodes WHERE document_id = :d ORDER BY id"
        ),
        {"d": document.id},
    )
    paths: dict[str, str] = {}
    nodes = []
    for node_id, parent, title, start, end, depth, summary in rows:
        path = f"{paths.get(parent, '')} / {title}" if parent else title
        paths[node_id] = path
        nodes.append(StoredNode(node_id, parent, title, start, end, depth, summary or "", path))
    return TreeInfo(document.name, document.page_count, tuple(nodes))


def section_title(session: Session, document_id: int, page: int) -> str | None:
    """The title of the narrowest (then deepest) section holding a page."""
    found = session.execute(
        text(
            "SELECT title FROM nodes WHERE document_id = :d AND start_page <= :p "
            "AND end_page >= :p ORDER BY end_page - start_page, depth DESC, id LIMIT 1"
        ),
        {"d": document_id, "p": page},
    ).scalar()
    return str(found) if found is not None else None


@dataclass(frozen=True)
class PageInfo:
    document: str
    page: int
    text: str


def page(session: Session, document: DocumentInfo, number: int) -> PageInfo | None:
    body = session.execute(
        text("SELECT text FROM pages WHERE document_id = :d AND page = :p"),
        {"d": document.id, "p": number},
    ).scalar()
    return PageInfo(document.name, number, body) if body is not None else None


def page_texts(session: Session, wanted: Sequence[tuple[str, int]]) -> list[PageInfo]:
    """The (document name, page) pages in the order asked, leaving out missing or empty ones."""
    if not wanted:
        return []
    rows = session.execute(
        text(
            "SELECT d.name, p.page, p.text FROM pages p JOIN documents d ON d.id = p.document_id "
            "JOIN unnest(CAST(:names AS text[]), CAST(:pages AS int[])) AS w(name, page) "
            "ON w.name = d.name AND w.page = p.page"
        ),
        {"names": [name for name, _ in wanted], "pages": [number for _, number in wanted]},
    )
    found = {(name, number): body for name, number, body in rows}
    return [
        PageInfo(name, number, found[name, number])
        for name, number in wanted
        if found.get((name, number))
    ]


def pages_opening_with(
    session: Session, document_id: int, pattern: str, chars: int = 600
) -> list[PageInfo]:
    """A document's pages whose first `chars` characters, lower-cased and reduced to letters,
    match the regular expression `pattern` (in page order)."""
    rows = session.execute(
        text(
            "SELECT d.name, p.page, p.text FROM pages p JOIN documents d ON d.id = p.document_id "
            "WHERE p.document_id = :d "
            "AND regexp_replace(lower(left(p.text, :chars)), '[^a-z]', '', 'g') ~ :pattern "
            "ORDER BY p.page"
        ),
        {"d": document_id, "pattern": pattern, "chars": chars},
    )
    return [PageInfo(name, number, body) for name, number, body in rows]


@dataclass(frozen=True)
class FactInfo:
    """A numeric fact shown on a page: tagged (inline XBRL) or read from a table row."""

    concept: str  # "us-gaap:Revenues"; "table:" and the row label's key for a table row
    value: float
    unit: str
    decimals: int | None
    period_start: str | None
    period_end: str
    page: int
    label: str | None
    source: str  # "tagged" or "table"


def stated_figures(
    session: Session, document_id: int, *, names: Sequence[str], prefixes: Sequence[str]
) -> list[FactInfo]:
    """The document's whole-company (no dimension) facts shown on a page whose concept's
    local name (a table row's label key) is one of `names` or is LIKE one of `prefixes`."""
    rows = session.execute(
        text(
            "SELECT concept, value, unit, decimals, period_start, period_end, page, label, "
            "source FROM facts WHERE document_id = :d AND page IS NOT NULL "
            "AND dimensions = '[]'::jsonb AND (split_part(concept, ':', 2) = ANY(:n) "
            "OR split_part(concept, ':', 2) LIKE ANY(:p))"
        ),
        {"d": document_id, "n": list(names), "p": list(prefixes)},
    )
    return [FactInfo(*row) for row in rows]


def link_copy(session: Session, *, name: str, of: str) -> None:
    """Record `name` as another file's name for the stored document `of` (same content)."""
    session.execute(
        text(
            "UPDATE documents SET copies = array_append(copies, CAST(:n AS text)) "
            "WHERE name = :of AND NOT (CAST(:n AS text) = ANY(copies))"
        ),
        {"n": name, "of": of},
    )


def unlink_copy(session: Session, *, name: str) -> None:
    """A copy's name no longer linked to its document."""
    session.execute(
        text(
            "UPDATE documents SET copies = array_remove(copies, CAST(:n AS text)) "
            "WHERE CAST(:n AS text) = ANY(copies)"
        ),
        {"n": name},
    )


def copies_of(session: Session) -> dict[str, str]:
    """Each linked copy's name → the stored document's name."""
    rows = session.execute(text("SELECT c.name, d.name FROM documents d, unnest(d.copies) c(name)"))
    return {copy: name for copy, name in rows}


def stored_sha256(session: Session, name: str) -> str | None:
    found = session.execute(text("SELECT sha256 FROM documents WHERE name = :n"), {"n": name})
    value = found.scalar()
    return str(value) if value is not None else None


# Two stored documents "claim one filing" when they state the same registrant (CIK), form and
# fiscal period: one of them is a copy (an amendment, another format, or a tampered file).
_RIVALS = """
SELECT d.id, array_agg(o.name ORDER BY o.id) AS names
FROM documents d JOIN documents o
  ON o.id <> d.id AND o.cik = d.cik AND o.doc_type = d.doc_type
 AND o.fiscal_year = d.fiscal_year AND o.fiscal_period = d.fiscal_period
 AND (o.period_end IS NULL OR d.period_end IS NULL OR o.period_end = d.period_end)
WHERE d.cik IS NOT NULL AND d.doc_type IN ('10-K', '10-Q') {where}
GROUP BY d.id
"""


def rivals(session: Session, ids: Sequence[int] | None = None) -> dict[int, tuple[str, ...]]:
    """For each stored document (or each of `ids`) that claims the same filing as others (CIK,
    form, fiscal year and period), the names of those others, oldest first."""
    where = "" if ids is None else "AND d.id = ANY(:ids)"
    rows = session.execute(text(_RIVALS.format(where=where)), {"ids": list(ids or ())})
    return {int(row.id): tuple(row.names) for row in rows}


def symbol_holders(
    session: Session, symbols: Sequence[str], company: str, document_id: int
) -> dict[str, list[str]]:
    """For each of `symbols`, the other company names stored with it as an alias (another
    document than `document_id`, under a name other than `company`)."""
    rows = session.execute(
        text(
            "SELECT DISTINCT s.symbol, d.company FROM documents d, "
            "unnest(d.company_aliases) AS s(symbol) WHERE s.symbol = ANY(:symbols) "
            "AND d.id <> :id AND d.company IS NOT NULL AND d.company <> :company "
            "ORDER BY d.company"
        ),
        {"symbols": list(symbols), "id": document_id, "company": company},
    )
    holders: dict[str, list[str]] = {}
    for row in rows:
        holders.setdefault(row.symbol, []).append(row.company)
    return holders
