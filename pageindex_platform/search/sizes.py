"""The sign and size a figure of its kind has: revenue, assets or debt are never negative nor
a dash; a table's amount in whole dollars with no scale read for it is not stated."""

from __future__ import annotations

from ..patterns import deferred
from .figures import Figure, LineItem
from .results import Check

# line items that are never negative (nor a dash) as a company reports them
_NEVER_NEGATIVE = deferred(
    r"^(?:revenue|total assets|total liabilities|total current (?:assets|liabilities)|long-term "
    r"debt|cash and cash equivalents|inventory|accounts (?:receivable|payable)|property plant "
    r"and equipment net|short-term investments|cost of sales|research and development|"
    r"capital expenditure|dividends paid|share repurchases|interest expense)$"
)


def sign_check(item: LineItem, figure: Figure) -> Check:
    if _NEVER_NEGATIVE.match(item.name) and figure.value <= 0:
        said = "a dash (zero)" if figure.value == 0 else "negative"
        return Check(
            "sign",
            False,
            f"{item.name} is never {'zero' if figure.value == 0 else 'negative'}; this row "
            f"({figure.label!r}) is {said}",
        )
    if _unscaled(figure):
        return Check("sign", False, f"{figure.shown} is a table's whole dollars; no scale is said")
    return Check("sign", True, "the sign and size a line of its kind has")


def _unscaled(figure: Figure) -> bool:
    """A table row's amount in whole dollars below $1,000 with no scale read for its table
    ("Defense, Space & Security 202", its note's "(Dollars in millions)" pages before): its
    scale is not known, and "$202" would be a guess."""
    return (
        figure.source == "table"
        and figure.unit == "iso4217:USD"
        and figure.decimals is None
        and abs(figure.value) < 1000
        and figure.value == int(figure.value)
    )
