"""A part's share of the whole company's line, asked as "what share of Acme's total revenues
came from the EMEA region": the part's row over the whole line of the same period, each read
and checked as the figure it is, both cited in the working; and a part's change from the year
before ("how fast did Acme's natural gas revenues grow"): its row for the period asked against
the same row a year before."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING

from ..db.queries import DocumentInfo
from ..patterns import deferred
from .figures import Figure, FigureBook
from .headline import Stated, candidate, figure_headline, input_check, not_sure
from .line_shares import change_asked
from .printed import row_headings
from .results import Check, Headline

if TYPE_CHECKING:
    from .checks import CheckedBook


def share_stated(part: Figure, whole: Figure, checks: list[Check], label: str) -> Stated:
    """The share `part` is of `whole` in percent; where the two are not of one period, or the
    whole is no larger than the part, no headline: the part's figure a candidate set aside."""
    said = f"{label} as a percentage of {whole.label}"
    if (part.period_start, part.period_end) != (whole.period_start, whole.period_end):
        why = f"the whole line {whole.shown} is of {whole.period}; the part is of {part.period}"
    elif not 0 < part.value < whole.value:
        why = f"{part.shown} is no part of {whole.shown}"
    else:
        value = part.value / whole.value * 100
        inputs = [input_check(part), input_check(whole)]
        headline = figure_headline(part, [*checks, *inputs], kind="metric", label=said)
        headline = replace(headline, value=value, shown=f"{value:.2f}%", unit="%")
        first = f"{value:.2f}% — {said} ({part.shown} / {whole.shown}), {part.period}"
        return _worked(first, headline, part, whole)
    aside = [candidate(part, why, checks)]
    return Stated(not_sure(said, aside), candidates=aside)


def _worked(first: str, headline: Headline, *inputs: Figure) -> Stated:
    """A figure computed from `inputs`, stated: `first`, then each input where it was read."""
    working = [f"- {x.label}: {x.shown} — {x.cited}" for x in inputs]
    return Stated("\n".join([first, "Working:", *working]), list(inputs), headline=headline)


def change_stated(
    book: CheckedBook,
    part: Figure,
    before: Figure | None,
    checks: list[Check],
    *,
    label: str,
    percent: bool,
) -> Stated:
    """The change of `part` from `before`, the same row a year before (in percent, or as an
    amount); where no such row is read, it spans another length of time or ends other than a
    year before, or the row is itself a change (under "Changes in operating assets and
    liabilities:"), no headline: the part's figure a candidate set aside."""
    said = f"change in {label}" + (" (%)" if percent else "")
    headings = row_headings(part, book.page_text(part.page))
    if any(_A_CHANGE.search(h) for h in [part.label, *headings]):
        why = "the row is itself a change over the period, not a level that changed"
    elif before is None:
        why = f"no row {part.label!r} of the year before {part.period} was read"
    elif not _a_year_before(before, part) or before.label != part.label:
        why = f"{before.label} {before.shown} ({before.period}) is no year before of it"
    elif percent and before.value <= 0:
        why = f"a change in percent from {before.shown} says nothing"
    else:
        inputs = [input_check(part), input_check(before)]
        if percent:
            value = (part.value / before.value - 1) * 100
            headline = figure_headline(part, [*checks, *inputs], kind="metric", label=said)
            headline = replace(headline, value=value, shown=f"{value:.2f}%", unit="%")
        else:
            changed = replace(part, value=part.value - before.value)
            headline = figure_headline(changed, [*checks, *inputs], kind="metric", label=said)
        formula = (
            f"{part.shown} / {before.shown} - 1" if percent else f"{part.shown} - {before.shown}"
        )
        first = f"{headline.shown} — {said} ({formula}), {part.period} against {before.period}"
        return _worked(first, headline, part, before)
    aside = [candidate(part, why, checks)]
    return Stated(not_sure(said, aside), candidates=aside)


def row_change(row: Stated, book: CheckedBook, year: int | None, question: str) -> Stated:
    """`row` (a row the question names, stated) where no change of it is asked; else its
    change from the same row a year before (the rows `row` set aside kept with it)."""
    change = change_asked(question)
    before = year_before(year, book.document)
    if row.headline is None or change is None or not row.figures or before is None:
        return row
    found = row.figures[0]
    prior = same_row(book, found, before, None)
    checks = row.headline.checks
    changed = change_stated(book, found, prior, checks, label=found.label, percent=change[1])
    changed.candidates += row.candidates
    return changed


def year_before(year: int | None, document: DocumentInfo) -> int | None:
    """The year before the one asked (else the filing's own year), where one is known."""
    known = year or document.fiscal_year
    return known - 1 if known else None


def same_row(
    book: FigureBook, found: Figure, year: int, again: Callable[[], Figure | None] | None
) -> Figure | None:
    """The row printed as `found` on its page, for `year`: the only one so printed there, or
    the one the part's rows are read as again (`again`, asked only then) where several are."""
    name = book.document.name
    rows = [Figure.of(name, r) for r in book.rows([found.label], year) if r.page == found.page]
    if len(rows) == 1:
        return rows[0]
    read = again() if again is not None else None
    return read if read is not None and read.page == found.page else None


# a row that is a change over its period: "Changes in operating assets and liabilities:" over
# it, "(Increase) decrease in ...", "Net change in ..."
_A_CHANGE = deferred(
    r"\bchanges?\s+in\b|\(\s*(?:increase|decrease)\s*\)|\b(?:increase|decrease)\s*\(\s*"
    r"(?:increase|decrease)\s*\)",
    re.IGNORECASE,
)


def _a_year_before(before: Figure, after: Figure) -> bool:
    """Whether `before` spans as long as `after` and ends about a year before it."""
    ends = date.fromisoformat(after.period_end) - date.fromisoformat(before.period_end)
    if not 350 <= ends.days <= 380:
        return False
    if before.period_start is None or after.period_start is None:
        return before.period_start == after.period_start
    spans = [
        (date.fromisoformat(f.period_end) - date.fromisoformat(str(f.period_start))).days
        for f in (before, after)
    ]
    return abs(spans[0] - spans[1]) <= 10
