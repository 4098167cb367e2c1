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
from .formulas_told import ASKS_TERM
from .printed import page_lines, row_at
from .statements import Statement

# the section a term names before or after the row's name
_SECTION_NAMED = deferred(
    r"^(?P<which>current|non-?current|long-term)\s+(?P<name>.+)$|"
    r"^(?P<name2>.+?),?\s+(?P<which2>current|non-?current|long-term)(?:\s+portion)?$",
    re.IGNORECASE,
)
# the totals that close a block of a balance sheet: the current one's, the noncurrent one's,
# the whole side's (a line of figures after the words, not "... held for sale" rows)
_TOTAL_CURRENT = deferred(r"^\s*total\s+current\s+(liabilities|assets)\b", re.IGNORECASE)
_TOTAL_NONCURRENT = deferred(
    r"^\s*total\s+(?:non-?current|long-term)\s+(?:liabilities|assets)\b", re.IGNORECASE
)
_TOTAL_SIDE = deferred(r"^\s*total\s+(liabilities|assets)\b", re.IGNORECASE)
# a row's label that says what the row includes by an amount ("Non-recourse debt, including
# $273 ... related to variable interest entities"), not a part of it ("..., including current
# portion")
_INCLUDING_AMOUNT = r"\s*,?\s*\(?\s*including\s+\$?\s*\d"
# words that name a whole side or class, no row: "noncurrent liabilities" is a total's
_CLASS_WORDS = frozenset(("liabilities", "assets", "liability", "asset"))
_ROWS = 60  # lines above or below a row read for its block at most


def section_row(
    book: FigureBook, term: str, year: int | None, page_text: Callable[[int], str]
) -> Figure | None:
    """The balance sheet's row a term names by its section and the row's name, for the period
    asked (`page_text`: a page's text by its number); None where the term names no section or
    only a class ("noncurrent liabilities"), or the rows of that block so named give no one
    figure."""
    said = _SECTION_NAMED.match(term.strip())
    if said is None:
        return None
    which = (said["which"] or said["which2"]).lower()
    name = (said["name"] or said["name2"]).strip()
    key = label_key(name)
    if not key or key.split()[-1] in _CLASS_WORDS or name.lower() in _CLASS_WORDS:
        return None
    # the row that prints its side after its name ("Notes payable, non-current")
    sides = ["current"] if which == "current" else ["non-current", "noncurrent"]
    printed = [f for f in (book.row_named(f"{name}, {w}", year) for w in sides) if f]
    if printed and book.statement_pages.get(printed[0].page) == Statement.BALANCE:
        return printed[0]
    facts = book.rows([name], year, prefixes=[f"{key} including%"])
    named = re.compile(rf"^{re.escape(name)}(?:\s*$|{_INCLUDING_AMOUNT})", re.IGNORECASE)
    kept = [
        figure
        for figure in (Figure.of(book.document.name, f) for f in facts)
        if book.statement_pages.get(figure.page) == Statement.BALANCE
        and named.match(" ".join(figure.label.split()))
        and _noncurrent(figure, page_text(figure.page)) is (which != "current")
    ]
    return kept[0] if kept and len({f.value for f in kept}) == 1 else None


def names_a_block(term: str) -> bool:
    """Whether a term names a row by its block of the balance sheet ("long-term debt",
    "current non-recourse debt", "notes payable, non-current")."""
    return _SECTION_NAMED.match(term.strip()) is not None


def _noncurrent(figure: Figure, text: str) -> bool | None:
    """Whether the row stands in the noncurrent block of its balance sheet, by the totals
    around it: the current block's total below it (before the side's), a current one; the
    current block's total above it and the side's or the noncurrent block's below, a
    noncurrent one; None where its totals do not say."""
    lines = page_lines(text)
    at = row_at(figure, lines)
    for line in lines[at + 1 : at + 1 + _ROWS]:
        if _TOTAL_CURRENT.match(line):
            return False
        if _TOTAL_NONCURRENT.match(line):
            return True
        side = _TOTAL_SIDE.match(line)
        if side:  # the current block's total of the same side above it: "Total current assets"
            # never places a liability
            above = (_TOTAL_CURRENT.match(x) for x in lines[max(0, at - _ROWS) : at])
            return any(m is not None and m[1].lower() == side[1].lower() for m in above) or None
    return None


# the current side said ("current portion", "(current)", "current X"; not "the current
# year"), the noncurrent one ("noncurrent", "non-current"); a portion a line includes or
# leaves out ("including the current portion") says no side
_CURRENT = deferred(
    r"(?<![\w-])current\b(?!\s+(?:year|period|quarter|fiscal|month))", re.IGNORECASE
)
_NONCURRENT = deferred(r"\bnon-?current\b", re.IGNORECASE)
_PORTION_SAID = deferred(
    r"\b(?:including|excluding|net\s+of|less|except)\s+(?:the\s+|its\s+)?(?:non-?)?current\s+"
    r"(?:portions?|maturities)\b",
    re.IGNORECASE,
)


def other_side(label: str, question: str) -> bool:
    """Whether a row's label says the other side of the balance sheet than the question asks:
    "Non-recourse debt (noncurrent)" where "current non-recourse debt" is asked; no side where
    either says both or neither."""
    asked, said = _side(question), _side(label)
    return bool(asked and said and asked != said)


def _side(text: str) -> str:
    """ "current", "noncurrent" or "" (neither, or both: "current plus noncurrent")."""
    text = _PORTION_SAID.sub(" ", text)
    current, noncurrent = _CURRENT.search(text), _NONCURRENT.search(text)
    if bool(current) == bool(noncurrent):
        return ""
    return "current" if current else "noncurrent"


# a balance asked by its side alone: "What was Acme's current non-recourse debt at ..."
_SIDE_ASKED = deferred(
    rf"{ASKS_TERM}(?P<term>(?:current|non-?current)\s+[a-z][\w&'’ -]{{2,60}}?)"
    r"(?=\s+(?:on|at|as\s+of|in|for|reported|,)\b|\s*[?,])",
    re.IGNORECASE,
)


def side_asked(question: str) -> str:
    """The balance a question asks by its side of the balance sheet alone ("current
    non-recourse debt"), as the term `section_row` reads; "" where it asks none."""
    found = _SIDE_ASKED.match(question)
    return found["term"].strip() if found else ""
