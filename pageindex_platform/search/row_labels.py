"""Whether a table row's label is the line item asked: not a row misread into a date, not
the line with a qualifier it does not ask ("Interest expense (after-tax)"), and a row named
"Diluted" or by what it is per share of ("Net income attributable to Acme") under a heading
that names the figure per share of the kind asked."""

from __future__ import annotations

import re

from ..index.row_cells import CELLS_INSIDE
from ..index.tables import label_key
from ..patterns import deferred
from ..periods import MONTH_WORDS
from .figures import BARE_PER_SHARE, PER_SHARE, Figure, LineItem, of_income
from .printed import row_headings
from .results import Check

# a label that ends in a month's name: the row's first cells are that date's day and year
_INTO_A_DATE = deferred(rf"\b(?:{MONTH_WORDS})\.?\s*$", re.IGNORECASE)
# a qualifier a row's label holds in parentheses, which its key leaves out
_QUALIFIER = deferred(
    r"\(\s*(after[\s-]tax|pre[\s-]?tax|before\s+tax\w*|net\s+of\b[^)]*|excluding\b[^)]*|"
    r"non-gaap|adjusted)\s*\)",
    re.IGNORECASE,
)
# a heading over figures the company does not report as its results
_NOT_REPORTED = deferred(
    r"\b(?:adjusted|non-gaap|pro\s+forma|core|underlying|organic|excluding)\b", re.IGNORECASE
)


def heading_check(item: LineItem, figure: Figure, text: str) -> Check:
    """A row labelled only "Diluted" or "Basic" is the per-share line asked where a heading
    of its table above it names a figure per share ("Net income (loss) per share
    attributable to ...:"), not a count of shares ("Weighted-average shares:")."""
    if _INTO_A_DATE.search(figure.label):  # "... as of May 31, 2020 and May" + "31, 2019"
        return Check("label", False, f"the row {figure.label!r} runs into a date: misread")
    if CELLS_INSIDE.search(figure.label):
        return Check("label", False, f"the row {figure.label!r} holds other cells: misread")
    qualified = _QUALIFIER.search(figure.label)
    if qualified and not any(qualified.group(1).lower() in n for n in item.names):
        # "Interest expense (after-tax)": the line after tax, not the line
        return Check("label", False, f"the row {figure.label!r} is {item.name} {qualified[0]}")
    key = label_key(figure.label)
    # a per-share row named by what it is of ("Net income attributable to Acme — basic", or
    # alone under "DILUTED EARNINGS PER SHARE:"): of the kind asked (diluted, basic)
    kind = next((w for w in BARE_PER_SHARE if w in item.name), "")
    kind = kind if item.per_share and of_income(key) else ""
    said = set(BARE_PER_SHARE) & set(key.split())
    if kind and said:
        return Check("label", kind in said, f"the row {figure.label!r} is {' and '.join(said)}")
    if key not in BARE_PER_SHARE and not (kind and not PER_SHARE.search(figure.label)):
        return Check("label", True, f"the row {figure.label!r} names {item.name}")
    for heading in row_headings(figure, text):
        if re.search(r"\bshares\b", heading, re.IGNORECASE):
            break  # "Weighted-average shares (used in computing net income per share):"
        if PER_SHARE.search(heading):
            if kind not in heading.lower():  # "BASIC EARNINGS PER SHARE:" for a diluted one
                return Check("label", False, f"the row {figure.label!r} under {heading!r}")
            # not "Adjusted net income per share:": a figure the company does not report
            reported = not _NOT_REPORTED.search(heading)
            return Check("label", reported, f"the row {figure.label!r} under {heading!r}")
    return Check("label", False, f"the row {figure.label!r} stands under no heading per share")
