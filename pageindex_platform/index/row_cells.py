"""A table row's cells as a page's text prints them (the numbers after its label's last word,
not those of a date or an amount its label says), and where a row's label begins."""

from __future__ import annotations

import re
from functools import lru_cache

from ..periods import MONTH_WORDS

# a table cell holding a number: "$ 8,890", "(6.3)%", "23.1 %", "(1,577)", "—"
CELL = re.compile(r"\(?-?\$?\s?\d[\d,]*(?:\.\d+)?\)?\s?%?|(?<=\s)[—–-](?=\s|$)")
# a date inside a row's label ("net of allowances of $409 and $371 as of May 31, 2020 and
# May 31, 2019"), and an amount it says: the label's words, not the row's cells
DATED = re.compile(rf"\b(?:{MONTH_WORDS})\s+\d{{1,2}},?\s*\d{{4}}\b", re.IGNORECASE)
SAID_AMOUNT = re.compile(r"\$\s?\d[\d,.]*")


# a label holding other columns' cells ("Repurchase of common stock (86) (504) (2,988) —"): a
# row of a wide table misread
_CELL = r"(?:\(\$?\d[\d,.]*\)|\$?\d{1,3}(?:,\d{3})+|[—–])"
CELLS_INSIDE = re.compile(rf"(?:{_CELL}\s+){{2,}}{_CELL}")


# words a line of prose breaks after, that no row label ends with
RUNS_ON = frozenset("in of and or the a an to for by with as at on from since than under".split())


# words a row label's second line may start with, going on from the first
_GOES_ON = frozenset("and or of before after excluding including attributable".split())


@lru_cache(maxsize=4096)  # a line is asked of again and again while a page is read
def row_cells(line: str) -> list[re.Match[str]]:
    """The cells a row ends with: the numbers after its last word ("Property, plant and
    equipment — net 8,738 8,866" ends with two; "—" inside the label is not one)."""
    dates = [m.span() for m in DATED.finditer(line)]
    cells = [c for c in CELL.finditer(line) if not any(a <= c.start() < b for a, b in dates)]
    if not cells or re.search(r"[A-Za-z]", line[cells[-1].end() :]):
        return []  # words after the numbers: prose, not a row
    start = len(cells) - 1
    while start > 0 and not re.search(
        r"[A-Za-z]", line[cells[start - 1].end() : cells[start].start()]
    ):
        start -= 1
    first = cells[start] if len(cells) - start >= 2 else None
    if (
        first
        and MARKER.fullmatch(first[0].strip())
        and not line[: first.start()].rstrip().endswith("$")
        and cells[start + 1][0].startswith("$")
    ):
        start += 1  # "Total cost (1) $ 175 $ 190": a footnote's marker, then the cells
    return cells[start:]


# a footnote's marker after a row's label: "(1)", "(12)"
MARKER = re.compile(r"\(\d{1,2}\)")


def label_begins(line: str, after: str) -> bool:
    """Whether `line` is the first part of the label of the row below it, not a heading over
    the rows: the row goes on in lower case ("... The Acme Corporation common" over
    "stockholders, net of tax 0.33 ..."), it goes on with "and", "before" ... ("EARNINGS BEFORE
    INTEREST" over "AND TAXES 818"), or the line breaks off after "of", "and" ... — not after
    a heading's colon."""
    if not line.strip() or not after.strip() or not row_cells(after):
        return False
    if after[:1].islower():
        return True
    if line.rstrip().endswith(":"):
        return False  # "Operating expenses:" heads the rows below it
    goes_on = after.split()[0].lower() in _GOES_ON  # "EARNINGS BEFORE INTEREST" over "AND TAXES"
    return goes_on or line.split()[-1].lower() in RUNS_ON


def section_heading(line: str) -> bool:
    """Whether a line is a statement's section heading in capitals ("CURRENT ASSETS")."""
    return line.isupper() and not CELL.search(line) and len(line) <= 60
