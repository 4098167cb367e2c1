"""A percentage metric the filing prints itself: a row of percentages named as the metric
("Effective tax rate 15.4 %", "EFFECTIVE INCOME TAX RATE 18.2 %", "Gross margin 45.2 %"), of
the period asked, in a table about the company (not its segments). A metric computed from the
filing's lines is checked against it: where they agree within the printed places the check is
said; where they differ, the filing's own figure is stated, and the computed one said beside
it — computed from other lines than those the filing took, it is not what the filing reports.
Where the rows so named differ among themselves, none is taken."""

from __future__ import annotations

from ..db import queries
from .checks import CheckedBook, column_check, page_check
from .figures import Figure
from .headline import Stated, as_candidate, row_stated
from .results import Check
from .terms import phrase_words
from .working import Working

# words a filing may add to a rate's name without making it another rate
_QUALIFIERS = frozenset(
    phrase_words("income worldwide consolidated overall total reported").split()
)


def against_printed(stated: Stated, working: Working, book: CheckedBook) -> Stated:
    """`stated` (a percentage metric) with the filing's own printed figure as its check, or
    that figure in its place where the two differ."""
    headline = stated.headline
    if headline is None or not working.percent or working.change or len(working.years) != 1:
        return stated  # not one period's percentage (an average of years is no printed row)
    rows = _printed(book, working.metric, working.years[-1])
    if not rows:
        return stated
    precise = max(rows, key=lambda f: f.decimals or 0)
    if not all(_agree(f.value, precise.value, f.decimals) for f in rows):
        return stated  # rows so named that differ: a segment's, another registrant's
    said = f"the filing prints {precise.shown} ({precise.label}, p. {precise.page})"
    if _agree(headline.value, precise.value, precise.decimals):
        headline.checks.append(Check("agreement", True, said))
        return stated
    text = book.page_text(precise.page)
    checks = [
        Check("label", True, f"the row {precise.label!r} names the {working.metric} asked"),
        book.duration_check(precise, working.years[-1]),
        page_check(precise, text),
        column_check(precise, rows, text),
    ]
    printed = row_stated(precise, checks, rows, working.metric)
    if printed.headline is None:
        return stated  # the printed row failed a check of its own: the computed one stands
    computed = f"{headline.shown} computed as {working.formula}"
    printed.text += f"\nNote: {computed} differs; {said}."
    printed.headline.notes.append(f"{computed} differs from the figure the filing prints")
    reason = f"computed from other lines than the filing's: {said}"
    printed.candidates = [*stated.candidates, as_candidate(headline, reason)]
    return printed


def _printed(book: CheckedBook, metric: str, year: int) -> list[Figure]:
    """The rows of percentages named as `metric` for fiscal `year`, printed on their page in
    a table about the company."""
    wanted = set(phrase_words(metric).split())
    facts = [
        f
        for f in queries.percent_rows(book.session, book.document.id)
        if wanted <= (words := set(phrase_words(f.label or "").split()))
        and words - wanted <= _QUALIFIERS
    ]
    figures = [Figure.of(book.document.name, f) for f in book.of_period(facts, year)]
    book.load_pages([f.page for f in figures])
    return [
        f
        for f in figures
        if book.statement_check(f, book.page_text(f.page)).passed
        and page_check(f, book.page_text(f.page)).passed
    ]


def _agree(one: float, other: float, decimals: int | None) -> bool:
    """Whether two percentages are one figure at the printed places (22.9 and "23 %")."""
    return abs(one - other) <= 0.5 * 10.0 ** -(decimals or 0) + 0.05
