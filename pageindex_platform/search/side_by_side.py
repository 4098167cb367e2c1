"""Side-by-side tables: one row gives a figure per heading for each period ("Total Assets |
Capital Expenditures" over "2016 2015 2014 2016 2015 2014"); the figure of a line item is the
one under the heading that names it, and none where the headings do not say which."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .figures import Figure, LineItem
from .items_named import items_in
from .printed import printed_forms, row_line, table_context

_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_SPAN = re.compile(r"\b(?:months|weeks|years?|quarters?|periods?)\s+ended\b", re.IGNORECASE)


def grouped(
    figure: Figure, figures: list[Figure], text: str, item: LineItem, items: Sequence[LineItem]
) -> Figure | None:
    """In side-by-side tables whose row gives one figure per heading for each period ("Net
    Sales | Operating Income" over "2019 2018 2017 2019 2018 2017"), the figure under the
    heading that names the line item; None when the row gives one figure for the period,
    or the headings do not say which is the item's."""
    row = row_line(figure, text)
    same = [f for f in figures if _same_row(f, figure) and _at(f, row) >= 0]
    if len(same) < 2:
        return None
    same.sort(key=lambda f: _at(f, row))
    for line in reversed(table_context(figure, text).splitlines()[:-2]):
        named = _headings(line, items)
        if len(named) == len(same) and item in named:
            return same[named.index(item)]
    return None


def repeated(figure: Figure, figures: list[Figure], text: str) -> bool:
    """Whether the row gives another figure for the same period on its page under a header
    that names a year more often than it names spans: side-by-side tables ("Total Assets |
    Capital Expenditures" under one "Year Ended" over "2016 2015 2014 2016 2015 2014")."""
    context = table_context(figure, text)
    repeats = max(
        (line.count(y) for line in context.splitlines() for y in _YEAR.findall(line)), default=0
    )
    # "Three Months Ended | Six Months Ended" over "2023 2022 2023 2022": spans, not headings
    return repeats > max(1, len(_SPAN.findall(context))) and any(
        _same_row(f, figure) and f.value != figure.value for f in figures
    )


def _same_row(one: Figure, other: Figure) -> bool:
    """Whether two figures are of one row's label on one page, for one period."""
    return (one.page, one.label, one.period_start, one.period_end) == (
        other.page,
        other.label,
        other.period_start,
        other.period_end,
    )


def _headings(line: str, items: Sequence[LineItem]) -> list[LineItem]:
    """The line items a heading line names, left to right, none inside a longer one."""
    found = sorted(items_in(line, items), key=lambda x: -x[2])
    kept: list[tuple[LineItem, int, int]] = []
    for item, at, length in found:
        if all(at + length - 1 <= a or a + n - 1 <= at for _, a, n in kept):  # space-padded
            kept.append((item, at, length))
    return [item for item, _, _ in sorted(kept, key=lambda x: x[1])]


def _at(figure: Figure, row: str) -> int:
    """Where the figure is printed on its row line (-1: not on it)."""
    found = [row.find(f" {form}") for form in printed_forms(figure)]
    return min((x for x in found if x >= 0), default=-1)
