"""Whether a table row is the one a question names, and how fully: its label's words (with
its heading's or its table's title's where the label alone says too little), not a part of
another line, its table titled by the part the question names where the label does not name
it ("GREATER CHINA" over "Earnings before interest and taxes"), and half of what is asked said
at least."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..db.queries import FactInfo
from ..patterns import deferred
from .checks import CheckedBook
from .figures import Figure, LineItem
from .items_named import items_in
from .parts_asked import besides_place
from .printed import row_headings, table_context
from .sentence_numbers import MONTHS, PERIOD_WORDS
from .table_named import FILLER as _FILLER
from .table_named import LEAST as _LEAST
from .terms import glossed, phrase_words

# a row of a rate per unit ("Net plant investment per customer", "Revenue per package"): a
# measure of its own, printed as it is whatever the table's scale of its amounts
PER_UNIT_ROW = deferred(r"\beps\b|\bper\s+(?!cent\b)[a-z]").search
# a rate per unit asked ("revenue per package"), not per share (whose rows may say only
# "Diluted" under their heading)
_PER_UNIT_ASKED = deferred(r"\bper\s+(?!cent\b|share\b|diluted\b|basic\b)[a-z]", re.I)

# words of a question that name no row: its verbs, its period, how to answer
_NOT_SAID = (
    _FILLER
    | PERIOD_WORDS
    | frozenset(
        "did does do was were is are has have had its their it as with during end fiscal year "
        "quarter answer round usd dollar million billion thousand approximately about as of "
        "company be been will would could should generate generated report reported record "
        "recorded alone per form first second third fourth half full".split()
    )
)


@dataclass(frozen=True)
class Told:
    """What a question says of the row it names: as written and plain, its words, the words
    of what it asks (`core`), the names it gives, whether it asks a share of a whole, and the
    catalogue lines it names (their ids), the words of every catalogue line's names and the
    company's own words."""

    question: str
    plain: str
    asked: set[str]
    core: set[str]
    names: set[str]
    share_of: bool
    wanted: set[int]
    line_words: frozenset[str]
    own: frozenset[str]


def scored(
    fact: FactInfo, name: set[str], told: Told, book: CheckedBook, items: Sequence[LineItem]
) -> tuple[int, Figure, bool] | None:
    """How many of the row's words (`name`) the question says, the row as named (with the
    title of its table where that names the part asked) and whether it is a part's row; None
    where it is not the row asked."""
    figure = Figure.of(book.document.name, fact)
    text = book.page_text(figure.page)
    headings, context = row_headings(figure, text), table_context(figure, text)
    if _measures_another(headings, told.question, items) and not PER_UNIT_ROW(fact.concept):
        return None  # "Coast Group" under "Operating income (loss):" for its net revenue
    if len(name) < _LEAST:  # "International": named only with its heading
        name |= _heading_words(headings, told.asked)
    if len(name) < _LEAST and told.share_of:  # "Skincare 20%" of "percentage of net sales by
        name |= _context_words(context, told.asked)  # category"
    table = " ".join([figure.label, *headings, context])  # its words and its table's
    if told.wanted and not _of_line(figure.label, table, book, (told.plain, told.wanted), items):
        return None  # "U.S." of income before taxes, for "U.S. net sales"
    # a name the row does not say is its table's: "GREATER CHINA" over the region's table
    missing = told.names - name
    title = _titled(context, missing)
    if title is None or len(name) < _LEAST or (title and _qualified(figure.label, title, told)):
        return None
    if _PER_UNIT_ASKED.search(told.plain) and not PER_UNIT_ROW(fact.concept):
        return None  # "revenue per package": not the row of the revenue
    # the title stands for the names it says, not for the measure
    said = name | glossed(figure.label, told.plain) | missing
    # the row's name says half of what is asked at least (not "Operating leases" for
    # "operating lease payments scheduled to fall due in 2021")
    if 2 * len(said & told.core) < len(told.core):
        return None
    # a part's row: its table titled by the part, or its label a name the question gives that
    # names no line ("MGM China", not "Total Revenue")
    part = bool(title) or bool(name & told.names - told.line_words)
    named = _name_span(title, missing | told.own)
    return len(name), replace(figure, label=f"{named} {figure.label}".strip()), part


def _of_line(
    label: str,
    table: str,
    book: CheckedBook,
    asked: tuple[str, set[int]],
    items: Sequence[LineItem],
) -> bool:
    """Whether the row's words and its table's (`table`: its label, its headings and the
    lines over its table) name a line the question names (`asked`: the question and the ids
    of its lines), and every word the question says of a part of it ("cloud services and
    license support revenues in the Americas": not a table of cloud and license revenues)."""
    question, wanted = asked
    named = [i for i, _, _ in items_in(table, items) if id(i) in wanted]
    said = set(phrase_words(table).split())
    names = [book.document.company or "", *book.document.company_aliases]
    return any(
        set(phrase_words(besides_place(question, i, label, names)).split()) <= said for i in named
    )


def _measures_another(headings: list[str], question: str, items: Sequence[LineItem]) -> bool:
    """Whether the row's nearest heading names a line item the question does not name: the
    row is a part of that line ("Operating income (loss):" over "Coast Group 50")."""
    named = {item.name for item, _, _ in items_in(headings[0], items)} if headings else set()
    return bool(named) and not named & {item.name for item, _, _ in items_in(question, items)}


def _heading_words(headings: list[str], asked: set[str]) -> set[str]:
    """The words of the row's nearest heading where the question says them all (two at
    least), else none: "Gross Merchandise Volume (3)" over "International"."""
    if not headings:
        return set()
    said = {
        w
        for w in phrase_words(re.sub(r"\([^)]*\)", " ", headings[0])).split()
        if word(w) and w not in _FILLER
    }
    return said if len(said) >= _LEAST and said <= asked else set()


def _qualified(label: str, title: str, told: Told) -> bool:
    """Whether the question says a word of its own right before the row's label ("VIP table
    games win", "main floor table games drop"): a narrower line than the row, which the table
    titled by the part does not print; not a filler word, a name or a word of the title."""
    said = phrase_words(told.plain).split()
    own = [w for w in phrase_words(label).split() if word(w)]
    known = set(phrase_words(title).split()) | told.names | set(own) | told.own | _ASKING
    return any(
        at > 0 and word(said[at - 1]) and len(said[at - 1]) > 1 and said[at - 1] not in known
        for at, w in enumerate(said)
        if own and w == own[0]
    )


_ASKING = frozenset(("what", "which", "who", "whose", "how"))


def _name_span(title: str, names: set[str]) -> str:
    """The words of a table's title from the first to the last that names the part asked
    ("Health Care Benefits" of "The following table summarizes the Health Care Benefits
    segment's performance"); the title where it says none."""
    words = title.split()
    at = [i for i, w in enumerate(words) if set(phrase_words(w).split()) & names]
    return " ".join(words[at[0] : at[-1] + 1]).strip(",:;") if at else title


def _titled(context: str, names: set[str]) -> str | None:
    """The line over the row's table (its title, above its column header; `context` as
    `table_context` gives it) that says every name the question gives and the row's label
    does not ("GREATER CHINA" over "Earnings before interest and taxes"): "" where the label
    says them all; None where no such line."""
    if not names:
        return ""
    lines = context.split("\n")[:-1]  # not the row's own line
    return next(
        (
            line.strip()
            for line in lines
            if names <= set(phrase_words(line).split()) and not re.search(r"\d", line)
        ),
        None,
    )


def _context_words(context: str, asked: set[str]) -> set[str]:
    """The words asked that the lines over a row's table say (its title, the sentence that
    introduces it, its header: `context` less its last line, the row's), two at least; else
    none."""
    above = context.rsplit("\n", 1)[0]
    said = {w for w in phrase_words(above).split() if word(w)} & asked
    return said if len(said) >= _LEAST else set()


def word(word: str) -> bool:
    """A word that may say what a row is: not a number, not a month, not a filler word."""
    return word.isalpha() and word not in MONTHS and word not in _NOT_SAID
