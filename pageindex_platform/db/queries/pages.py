"""Stored page text (`PageInfo`): one page, pages asked for by document and number, and the
pages of a document that open with given words."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..sql import Session, text
from .metadata import DocumentInfo


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


def pages_mentioning(
    session: Session,
    document: DocumentInfo,
    words: Sequence[str],
    *,
    limit: int = 40,
    ranked: bool = False,
) -> list[PageInfo]:
    """The document's pages whose text holds any of `words` (case-insensitive), at most
    `limit`: in page order, or (`ranked`) those holding most of the words first."""
    if not words:
        return []
    held = "(SELECT count(*) FROM unnest(:w) AS p(w) WHERE text ILIKE p.w) DESC, "
    rows = session.execute(
        text(
            "SELECT page, text FROM pages WHERE document_id = :d AND text ILIKE ANY(:w) "
            f"ORDER BY {held if ranked else ''}page LIMIT :n"
        ),
        {"d": document.id, "w": [f"%{w}%" for w in words], "n": limit},
    )
    return [PageInfo(document.name, int(row.page), row.text) for row in rows]
