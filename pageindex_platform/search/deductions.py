"""An expense printed as a deduction: a statement of operations that subtracts its expenses
prints them in parentheses ("Asset impairment expense (1,575)"); the expense asked is the
amount, not a negative one. Only the statement of operations is read so: a note's or a cash
flow statement's parentheses say a credit, a benefit or a change ("Accrued expenses (50)"),
and a row of gains, income or benefits keeps its sign (its parentheses say a loss)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from ..patterns import deferred
from .figures import Figure
from .statements import Statement

# a row that names an expense ("Asset impairment expense", "Restructuring charges")
_EXPENSE = deferred(
    r"\b(?:expenses?|costs?|charges?|impairments?|write-?(?:offs?|downs?)|provisions?\s+for)\b",
    re.IGNORECASE,
)
# a row whose parentheses say a loss, a reduction, a credit or a balance, not a deduction
_SIGNED = deferred(
    r"\b(?:gains?|income|benefits?|credits?|recover\w*|reversals?|revenues?|sales|net|"
    r"changes?|increases?|decreases?|adjustments?|profit|loss(?:es)?|accrued|prepaid|"
    r"deferred|capitali[sz]ed|excess|paid|payments?)\b",
    re.IGNORECASE,
)


def deducted(figure: Figure, statements: Mapping[int, Statement]) -> bool:
    """Whether a negative figure is an expense the statement of operations prints as a
    deduction."""
    return (
        figure.value < 0
        and figure.unit != "%"
        and statements.get(figure.page) == Statement.INCOME
        and bool(_EXPENSE.search(figure.label))
        and not _SIGNED.search(figure.label)
    )


def as_amounts(
    figures: Sequence[Figure], statements: Mapping[int, Statement]
) -> tuple[list[Figure], set[tuple[int, str]]]:
    """The figures with each expense printed as a deduction read as its amount, and the
    (page, label) of each so read."""
    read = {(f.page, f.label) for f in figures if deducted(f, statements)}
    return [f.positive() if (f.page, f.label) in read else f for f in figures], read
