"""One filing stored more than once: a file of the same content linked to the stored document
as a copy, and stored documents that claim the same filing (rivals)."""

from __future__ import annotations

from collections.abc import Sequence

from ...records import PERIODIC
from ..sql import Session, text


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


# Two stored documents "claim one filing" when they state the same registrant (CIK), form and
# fiscal period: one of them is a copy (an amendment, another format, or a tampered file).
# Only the periodic reports (`:forms`) are claimed so.
_RIVALS = """
SELECT d.id, array_agg(o.name ORDER BY o.id) AS names
FROM documents d JOIN documents o
  ON o.id <> d.id AND o.cik = d.cik AND o.doc_type = d.doc_type
 AND o.fiscal_year = d.fiscal_year AND o.fiscal_period = d.fiscal_period
 AND (o.period_end IS NULL OR d.period_end IS NULL OR o.period_end = d.period_end)
WHERE d.cik IS NOT NULL AND d.doc_type = ANY(:forms) {where}
GROUP BY d.id
"""


def rivals(session: Session, ids: Sequence[int] | None = None) -> dict[int, tuple[str, ...]]:
    """For each stored document (or each of `ids`) that claims the same filing as others (CIK,
    form, fiscal year and period), the names of those others, oldest first."""
    where = "" if ids is None else "AND d.id = ANY(:ids)"
    rows = session.execute(
        text(_RIVALS.format(where=where)),
        {"ids": list(ids or ()), "forms": [str(form) for form in PERIODIC]},
    )
    return {int(row.id): tuple(row.names) for row in rows}
