"""A balance a note's roll-forward closes with: "What was the balance of Acme's unrecognized tax
benefits at December 31, 2017?" read from the row that ends a reconciliation ("Balance at
December 31, $ 2,355 $ 1,902") whose table's own words (its heading and the sentence that
introduces it: "A reconciliation of the beginning and ending balance of unrecognized tax
benefits is as follows:") name every word of what is asked. The row's column is the balance at
its period's end, whatever span the table heads it with."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date

from ..db import queries
from ..patterns import deferred
from ..periods import MONTH_WORDS, month_number
from .checks import CheckedBook, page_check
from .figures import Figure
from .headline import Stated, row_stated
from .printed import table_context
from .results import Check
from .terms import name_words, phrase_words

# the row that closes a roll-forward: "Balance at December 31,", "Balance at end of year",
# "Ending balance", "Balance, end of period", "End of year balance"
_CLOSING = deferred(
    rf"^(?:(?:ending\s+)?balances?\b(?:,?\s+(?:at|as\s+of))?(?:,?\s+(?:the\s+)?(?:end|close)\b"
    rf"|\s+(?:{MONTH_WORDS})\s+\d{{1,2}},?\s*$|\s*$)|end\s+of\s+(?:the\s+)?(?:year|period)\b)",
    re.IGNORECASE,
)
# a balance asked: its word, or a date the figure is at
_ASKED = deferred(
    rf"\bbalances?\b|\b(?:at|as\s+of)\s+(?:{MONTH_WORDS})\s+\d{{1,2}},?\s+\d{{4}}|"
    r"\bat\s+(?:the\s+)?(?:end\s+of|year[-\s]end)\b",
    re.IGNORECASE,
)
_WHAT = deferred(r"\b(?:what|how\s+much)\b(?P<what>[^?]*)", re.IGNORECASE)
# words of the question that say nothing of what the balance is of
_NOT_OF = frozenset(
    "was were is are the a an of its their at as end ending year fiscal balance balances "
    "total amount company did does have had has in on for by to from reported december "
    "january february march april may june july august september october november".split()
)
_LEAST = 2  # words of what is asked the table's own words must name


def closing_balance(*, question: str, book: CheckedBook, year: int | None) -> Stated:
    """The balance the question asks, from the row that closes a roll-forward of it, checked;
    the rows so read set aside where two tables give different figures."""
    what = _WHAT.search(question)
    if what is None or not _ASKED.search(question) or "%" in question:
        return Stated()
    own = name_words(book.document.company)
    core = {
        w
        for w in phrase_words(re.sub(r"\([^)]*\)", " ", what["what"])).split()
        if w.isalpha() and len(w) > 1 and w not in _NOT_OF and w not in own
    }
    if len(core) < _LEAST:
        return Stated()
    session, document = book.session, book.document
    keys = [k for k in queries.table_keys(session, document.id) if _CLOSING.match(k)]
    if not keys:
        return Stated()
    facts = queries.stated_figures(session, document.id, names=keys, prefixes=[])
    # a closing balance is the balance at its column's end, whatever span heads the column
    at_end = [replace(f, period_start=None) for f in facts if f.source == "table"]
    found: list[tuple[Figure, str]] = []
    for fact in book.of_period(at_end, year):
        figure = Figure.of(document.name, fact)
        if not _on_its_end(figure):
            continue  # "Balance at January 1": the balance the year opened with
        lines = table_context(figure, book.page_text(figure.page)).splitlines()[:-1]
        if core <= set(phrase_words(" ".join(lines)).split()):
            found.append((figure, " ".join(lines[-3:])))
    if not found:
        return Stated()
    figure, table = found[0]
    checks = [
        Check("label", True, f"the row {figure.label!r} closes a table of {table!r}"),
        page_check(figure, book.page_text(figure.page)),
        Check(
            "agreement",
            len({f.value for f, _ in found}) == 1,
            "the tables that close such a balance give one figure",
        ),
    ]
    return row_stated(figure, checks, [f for f, _ in found], "the balance asked")


def _on_its_end(figure: Figure) -> bool:
    """Whether the row's label names no day, or the day its column ends on (a few days
    apart for a year of 52 or 53 weeks)."""
    said = re.search(rf"({MONTH_WORDS})\s+(\d{{1,2}})", figure.label, re.IGNORECASE)
    if said is None:
        return True
    named = date(date.fromisoformat(figure.period_end).year, month_number(said[1]), int(said[2]))
    return abs((named - date.fromisoformat(figure.period_end)).days) <= 7
