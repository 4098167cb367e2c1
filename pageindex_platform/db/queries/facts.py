"""Stored figures (`FactInfo`): the numeric facts an inline-XBRL filing tags and the figures
read from its table rows, as a figure question looks them up."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..sql import Session, text


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
    source: str  # "tagged", "table", or "table_percent" (a row of percentages)


def stated_figures(
    session: Session, document_id: int, *, names: Sequence[str], prefixes: Sequence[str]
) -> list[FactInfo]:
    """The document's whole-company (no dimension) facts shown on a page whose concept's
    local name (a table row's label key) is one of `names` or is LIKE one of `prefixes`."""
    rows = session.execute(
        text(
            "SELECT concept, value, unit, decimals, period_start, period_end, page, label, "
            "source FROM facts WHERE document_id = :d AND page IS NOT NULL "
            "AND source <> 'table_percent' "
            "AND dimensions = '[]'::jsonb AND (split_part(concept, ':', 2) = ANY(:n) "
            "OR split_part(concept, ':', 2) LIKE ANY(:p))"
        ),
        {"d": document_id, "n": list(names), "p": list(prefixes)},
    )
    return [FactInfo(*row) for row in rows]


def table_keys(session: Session, document_id: int) -> list[str]:
    """The label keys of the document's table rows (whole-company), each once."""
    rows = session.execute(
        text(
            "SELECT DISTINCT split_part(concept, ':', 2) FROM facts WHERE document_id = :d "
            "AND source = 'table' AND page IS NOT NULL AND dimensions = '[]'::jsonb"
        ),
        {"d": document_id},
    )
    return [row[0] for row in rows]


def page_table_values(session: Session, document_id: int, page: int) -> list[FactInfo]:
    """The figures read from the table rows of one page of the document."""
    rows = session.execute(
        text(
            "SELECT concept, value, unit, decimals, period_start, period_end, page, label, "
            "source FROM facts WHERE document_id = :d AND page = :p AND source = 'table' "
            "AND dimensions = '[]'::jsonb"
        ),
        {"d": document_id, "p": page},
    )
    return [FactInfo(*row) for row in rows]


def percent_rows(session: Session, document_id: int) -> list[FactInfo]:
    """The document's rows of percentages ("Effective tax rate 21.0 %"), kept apart from its
    amounts: no line item's lookup reads them."""
    rows = session.execute(
        text(
            "SELECT concept, value, unit, decimals, period_start, period_end, page, label, "
            "source FROM facts WHERE document_id = :d AND source = 'table_percent' "
            "AND page IS NOT NULL AND dimensions = '[]'::jsonb"
        ),
        {"d": document_id},
    )
    return [FactInfo(*row) for row in rows]
