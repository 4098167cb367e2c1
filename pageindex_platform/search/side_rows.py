"""A balance asked by its side of the balance sheet alone ("What was Acme's current
non-recourse debt at December 31, 2021?"): the row of that name in the balance sheet's current
or noncurrent block, checked as a named row is."""

from __future__ import annotations

from .checks import CheckedBook, page_check
from .headline import Stated, row_stated
from .results import Check
from .section_rows import section_row, side_asked


def side_row(question: str, book: CheckedBook, year: int | None) -> Stated | None:
    """The balance sheet's row of the side and name asked, stated where it passes its
    checks; None where the question asks no side or no such row is found."""
    term = side_asked(question)
    figure = section_row(book, term, year, book.page_text) if term else None
    if figure is None:
        return None
    checks = [
        Check("label", True, f"the row {figure.label!r} of the block {term!r} names"),
        book.duration_check(figure, year),
        page_check(figure, book.page_text(figure.page)),
    ]
    return row_stated(figure, checks, [figure], "the figure asked")
