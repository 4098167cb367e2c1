"""A balance sheet's row named by its section: "current non-recourse debt", "noncurrent
recourse debt", "operating lease liabilities, non-current" — the row printed as the name alone
(or as the name, then what it includes: "Non-recourse debt, including $273 ... related to
variable interest entities") under the current or the noncurrent block of the balance sheet
(below "Total current liabilities", or under a "Noncurrent liabilities" heading)."""

from __future__ import annotations

import re
from collections.abc import Callable

from ..index.tables import label_key
from ..patterns import deferred
from .figures import Figure, FigureBook
from .printed import page_lines, row_at
from .statements import Statement

# the section a term names before or after the row's name
_SECTION_NAMED = deferred(
    r"^(?P<which>current|non-?current|long-term)\s+(?P<name>.+)$|"
    r"^(?P<name2>.+?),?\s+(?P<which2>current|non-?current|long-term)(?:\s+portion)?$",
    re.IGNORECASE,
)
# the lines that say which block a row is in, read upwards from it: the current block's total
# or a noncurrent heading (the noncurrent block), a current heading (the current block)
_BELOW_CURRENT = deferred(
    r"^\s*(?:total\s+current\s+(?:liabilities|assets)|non-?current\s+(?:liabilities|assets)|"
    r"long-term\s+liabilities)\b",
    re.IGNORECASE,
)
_CURRENT = deferred(r"^\s*current\s+(?:liabilities|assets)\s*:?\s*$", re.IGNORECASE)
_ROWS_UP = 40  # lines above a row read for its block at most


def section_row(
    book: FigureBook, term: str, year: int | None, page_text: Callable[[int], str]
) -> Figure | None:
    """The balance sheet's row a term names by its section and the row's name, for the period
    asked (`page_text`: a page's text by its number); None where the term names no section,
    or the rows of that block so named give no one figure."""
    said = _SECTION_NAMED.match(term.strip())
    if said is None:
        return None
    which = (said["which"] or said["which2"]).lower()
    name = said["name"] or said["name2"]
    key = label_key(name)
    facts = book.rows([name], year, prefixes=[f"{key} including%"])
    kept = [
        figure
        for figure in (Figure.of(book.document.name, f) for f in facts)
        if book.statement_pages.get(figure.page) == Statement.BALANCE
        and _noncurrent(figure, page_text(figure.page)) == (which != "current")
    ]
    return kept[0] if kept and len({f.value for f in kept}) == 1 else None


def _noncurrent(figure: Figure, text: str) -> bool | None:
    """Whether the row stands in the noncurrent block of its balance sheet (None: unknown)."""
    lines = page_lines(text)
    at = row_at(figure, lines)
    for line in reversed(lines[max(0, at - _ROWS_UP) : max(0, at)]):
        if _BELOW_CURRENT.match(line):
            return True
        if _CURRENT.match(line):
            return False
    return None
