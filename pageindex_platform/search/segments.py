"""A segment's figure, as a question that names a segment asks it: the row labelled as the
segment in a table of the line item, checked as any figure is and named as the segment's;
where none is found, the whole company's figure is a candidate set aside — never stated as
the segment's."""

from __future__ import annotations

from sqlalchemy.orm import Session

from ..db import queries
from .checks import CheckedBook
from .figures import Figure, LineItem, items_in
from .headline import Stated, candidate, figure_headline, not_sure


def segment_stated(
    *,
    session: Session,
    book: CheckedBook,
    item: LineItem,
    name: str,
    year: int | None,
    whole: Figure | None,
    when: str,
) -> Stated:
    """The segment `name`'s figure of `item` (name "": the question names no segment)."""
    document = book.document
    found = _segment_figure(session, book, item, name, year) if name else None
    label = f"{name} segment {item.name}"
    if found is not None:
        book.segment_asked = True
        checks = book.check(item, found, year)
        book.segment_asked = False
        failed = next((c for c in checks if not c.passed), None)
        if failed is None:
            text = (
                f"{found.shown} — {found.cited}: the row {found.label!r} of a table of {item.name}"
            )
            headline = figure_headline(found, checks, kind="segment", label=label)
            return Stated(text, [found], headline=headline)
        aside = [candidate(found, failed.detail, checks)]
        return Stated(not_sure(f"{label}{when}", aside), candidates=aside)
    asked = name or "the segment asked"
    text = f"No {item.name} of {asked}{when} was found in {document.name}'s tables"
    if whole is None:
        return Stated(f"{text}.")
    aside = [candidate(whole, "the whole company's figure, not the segment's")]
    return Stated(
        f"{text}; the whole company's {item.name} is {whole.shown} — {whole.cited} — "
        "not the segment's.",
        [whole],
        candidates=aside,
    )


def _segment_figure(
    session: Session, book: CheckedBook, item: LineItem, segment: str, year: int | None
) -> Figure | None:
    """The row labelled as the segment in a table on a page that names the line item."""
    rows = book.rows(segment, year)
    if not rows:
        return None
    name = book.document.name
    pages = {p.page: p.text for p in queries.page_texts(session, [(name, r.page) for r in rows])}
    for row in sorted(rows, key=lambda r: r.page):
        if any(i is item for i, _, _ in items_in(pages.get(row.page, ""), [item])):
            return Figure.of(name, row)
    return None
