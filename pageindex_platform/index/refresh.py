"""What the library reads from a stored document's pages, read again without the file: the
figures of its statement tables. A document stored before table figures were kept (schema
revision 0013), or by a table reader that has since improved, gets today's figures from the
pages it already has; `pi docs refresh` runs it. The tagged (inline XBRL) facts come from the
file alone and stay as they are."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from sqlalchemy import text
from sqlalchemy.orm import Session

from ..db import queries
from ..db.queries import DocumentInfo
from ..errors import DocumentNotFoundError
from ..records import PageText
from .bulk import copy_rows
from .store import FACT_COLUMNS, fact_row
from .tables import PERCENT_ROW, read_tables

logger = logging.getLogger(__name__)

# the sources of the figures read from table rows (index/tables.py): amounts, percentages
_TABLE = ("table", PERCENT_ROW)


def refresh_table_figures(*, session: Session, names: Sequence[str] | None = None) -> int:
    """Reads the table figures of the stored documents (all of them, or those `names`
    name: a linked copy's name stands for its document) from their stored pages again,
    with each document's stored period end and fiscal year, in place of the table figures
    it has, inside the caller's transaction. Returns how many figures are stored now.
    Raises DocumentNotFoundError for a name that is not stored."""
    stored = 0
    for document in _named(session, names):
        if not _lock(session, document):
            continue  # removed since it was listed
        session.execute(
            text("DELETE FROM facts WHERE document_id = :d AND source = ANY(:s)"),
            {"d": document.id, "s": list(_TABLE)},
        )
        rows = session.execute(
            text("SELECT page, text FROM pages WHERE document_id = :d ORDER BY page"),
            {"d": document.id},
        )
        pages = [PageText(number, body) for number, body in rows]
        figures = read_tables(
            pages, period_end=document.period_end, fiscal_year=document.fiscal_year
        )
        if figures:
            copy_rows(session, "facts", FACT_COLUMNS, (fact_row(document.id, f) for f in figures))
        logger.info(
            "%s: %d table figures read from %d pages", document.name, len(figures), len(pages)
        )
        stored += len(figures)
    return stored


def _named(session: Session, names: Sequence[str] | None) -> list[DocumentInfo]:
    """Every stored document (by name), or the documents of `names` in their order, once."""
    if names is None:
        return queries.documents(session)
    found: dict[int, DocumentInfo] = {}
    for name in names:
        document = queries.document_named(session, name)
        if document is None:
            raise DocumentNotFoundError(name)
        found.setdefault(document.id, document)
    return list(found.values())


def _lock(session: Session, document: DocumentInfo) -> bool:
    """Whether the document is still stored, held until the transaction ends (an ingest
    that replaces it meanwhile waits)."""
    held = session.execute(
        text("SELECT 1 FROM documents WHERE id = :d FOR UPDATE"), {"d": document.id}
    ).first()
    return held is not None
