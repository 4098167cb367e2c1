"""A figure a table prints on a row the question names where no line item of the catalogue
names it: "How many active buyers did Acme have ...?" ("Active buyers 132"), "How much gross
merchandise volume ...?" ("Total Gross Merchandise Volume $ 18,214"), or a part of it under its
heading ("International" under "Gross Merchandise Volume"). Every word of the row's label
(with its heading's, for a label of one word) is in the question, two words at least; the row
prints the figure for the period asked, and no other row so named prints another."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from ..db import queries
from ..db.queries import DocumentInfo, FactInfo
from ..db.sql import Session
from ..patterns import deferred
from ..periods.filing_words import without_source
from .balances import closing_balance
from .checks import CheckedBook, column_check, page_check, statement_asked
from .deductions import as_amounts
from .figures import PER_SHARE, Figure, LineItem
from .headline import Stated, row_stated, scale_missed, unsure
from .items_named import items_in
from .line_shares import change_asked
from .narrowing import ADJUSTED, RATE_ASKED
from .part_shares import row_change
from .printed import table_context
from .results import Candidate, Check, Headline
from .row_scores import PER_UNIT_ROW, Told, scored, word
from .section_rows import other_side
from .sentence_numbers import MONTHS
from .side_rows import side_row
from .table_named import FILLER as _FILLER
from .table_named import of_table_named
from .terms import STATEMENT_NAMED, name_words, phrase_words

# a percentage asked: read from a row of percentages ("MBR ... 85.0 %"), never an amount's
_PERCENT = deferred(r"%|\bpercent|\bpercentage\b|\bshare\s+of\b|\bmargin\b|\bratio\b", re.I)
_SHARE_OF = deferred(r"\b(?:percent(?:age)?|share|portion|proportion)\s+of\b|%\s+of\b", re.I)
_AS_PERCENT = frozenset(phrase_words("percent percentage share proportion").split())
_MOST_PLACINGS = 1000  # the ways a row's words may be placed in a question, tried at most
# what is asked: the words after "how many", "how much" or "what"
_ASKED = deferred(r"\b(?:how\s+many|how\s+much|what)\b(?P<what>[^?]*)", re.IGNORECASE)
_PART_ASKED = deferred(r"\bsegments?\b|\bdivisions?\b|\bSBUs?\b|\bbusiness\s+units?\b", re.I)
_CAPITALISED_RUN = deferred(r"\b[A-Z][\w&.-]*['’]?s?(?:\s+[A-Z][\w&.-]*['’]?s?)*")
_NAME = deferred(r"(?<![.?!]\s)(?<!^)\b[A-Z][a-z]+\b")  # a capitalised word inside a sentence
_NOT_A_NAME = (
    frozenset(
        "what how in according per for as the during answer round give using based calculate "
        "compute form annual report quarterly fiscal united states international".split()
    )
    | MONTHS
)
_RULED_OUT = deferred(
    r"\b(?:excluding|not|other\s+than|except|less|net\s+of)\s+((?:the\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*)?)",
    re.IGNORECASE,
)
# a change the question asks of what it counts or sums: the row's balance is not it
_ACT = deferred(
    r"\b(open(?:ed)?|clos(?:e|ed)|add(?:ed)?|hir(?:e|ed)|acquir(?:e|ed)|sold|repurchas(?:e|ed)|"
    r"issu(?:e|ed)|impair(?:ed)?)\b",
    re.IGNORECASE,
)
# what a measure is, said of the one the question names: "Parent Company Liquidity (a non-GAAP
# measure)" — no adjustment of a reported line
_DESCRIBED = deferred(r"\(\s*an?\s+non-gaap\s+(?:financial\s+)?measure\s*\)", re.IGNORECASE)
# where the row is printed, not what it is: "as shown in its consolidated statement of income"
_SHOWN_IN = deferred(
    r"(?:,?\s*as\s+(?:shown|reported|presented|stated))?\s+(?:in|on|per)\s+(?:its|the|their)\s+"
    + STATEMENT_NAMED,
    re.IGNORECASE,
)
# a row whose name says it is per share ("Adjusted EPS"), whatever unit its cells were read in
_PER_SHARE_ROW = deferred(r"\beps\b|\bper\s+(?:diluted\s+|basic\s+)?share\b").search
_COUNTED = deferred(r"\bhow\s+many\s+([a-z]+)", re.IGNORECASE)  # the noun counted


def named_row(
    *,
    session: Session,
    question: str,
    document: DocumentInfo,
    book: CheckedBook,
    year: int | None,
    items: Sequence[LineItem] = (),
    missing_part: str = "",
) -> Stated:
    """The figure of the row the question names, for the period asked, checked; the rows so
    named set aside (with why) when none passes, or when two give different figures.
    `missing_part`: a part of the company asked whose rows were not found: where it is named
    after the company, a row whose label and table do not say its name is not the part's
    ("Total freight revenue" of Acme Express is not Acme Freight's package revenue)."""
    # a percentage or a rate asked: then only a row of percentages
    percent = _PERCENT.search(question) is not None or RATE_ASKED.search(question) is not None
    change = change_asked(question)  # a row's change: read from its amounts
    percent = percent and change is None
    percentages = queries.percent_rows(session, document.id) if percent else []
    own = name_words(document.company)
    plain = _DESCRIBED.sub(" ", _SHOWN_IN.sub(" ", without_source(question)))
    # the company's words where they name it ("MGM Resorts'"), not inside a part's name
    # ("Las Vegas Strip Resorts")
    asked = set(phrase_words(_without_company(plain, own)).split())
    what = _ASKED.search(plain)
    # the words of what is asked ("how many shares ... did Acme repurchase"), or that changed
    said = change[0] if change else what["what"] if what else plain
    core = {w for w in phrase_words(said).split() if word(w) and len(w) > 1} - own  # not "'s"
    core -= _AS_PERCENT if percent else set()  # "what percentage of net sales": "net sales"
    share_of = percent and _SHARE_OF.search(plain) is not None  # a row of a table of shares
    # a name the question gives ("Greater China", "Mobileye") is in the row's name
    names = {phrase_words(w).strip() for w in _NAME.findall(plain)} - own - _NOT_A_NAME
    names = {w for w in names if word(w)}  # as a row's words are read ("Company")
    # "(excluding the current portion)": a row that says it is not the one asked
    asked -= set(phrase_words(" ".join(_RULED_OUT.findall(plain))).split())
    missing_part = missing_part if _named_after(missing_part, own) else ""
    stored = {f.concept.split(":", 1)[1] for f in percentages} if percent else None
    found = stored if stored is not None else queries.table_keys(session, document.id)
    keys = _named_keys(found, question, plain, asked, own, items)
    if not keys:
        return Stated()
    if percent:  # not the whole the others are shares of ("Net sales 100.0 %")
        facts = [f for f in percentages if f.concept.split(":", 1)[1] in keys and f.value != 100]
    else:
        facts = _amount_rows(session, document, keys, question, plain)
    facts = [f for f in book.of_period(facts, year) if not other_side(f.label or "", plain)]
    book.load_pages([f.page for f in facts])
    wanted = {id(i) for i, _, _ in items_in(plain, items)}  # the line the question names
    lines = frozenset(w for i in items for n in i.names for w in phrase_words(n).split())
    told = Told(question, plain, asked, core, names, share_of, wanted, lines, frozenset(own))
    rows: list[tuple[int, Figure, bool]] = []
    for fact in facts:
        row = scored(fact, set(keys[fact.concept.split(":", 1)[1]]), told, book, items)
        if row is not None:
            rows.append(row)
    if not rows:
        return Stated()
    # a segment's table may then hold it; or a part's row: of the part the question names
    part = _PART_ASKED.search(question) is not None or any(of_part for _, _, of_part in rows)
    # a balance asked at a date: what a balance sheet holds, at the date the question says
    balance = book.ask.months == 0 and _BALANCE_NAMED.search(question) is not None
    named = [(words, figure) for words, figure, _ in rows]
    stated = _checked(named, book, year, question, part=part, balance=balance)
    if missing_part:
        _of_part_asked(stated, rows, missing_part, book, own)
    return stated


def _of_part_asked(
    stated: Stated,
    rows: list[tuple[int, Figure, bool]],
    part: str,
    book: CheckedBook,
    own: set[str],
) -> None:
    """The row stated set aside where it is not the part's asked: read neither under the
    part's heading ("Rooms" under "Regional Operations:") nor in a table that names it."""
    first = stated.figures[0] if stated.figures else None
    headed = first is not None and any(f is first and of_part for _, f, of_part in rows)
    if stated.headline and first and not headed and not _of_part(first, part, book, own):
        unsure(stated, f"{part} is asked; the row {first.label!r} is not its")


def _misread(aside: Candidate, said: Headline) -> bool:
    """Whether a figure set aside for its sign or scale is the row's (the same figure)."""
    same = (aside.value, aside.page) == (said.value, said.page)
    return same and any(c.name == "sign" and not c.passed for c in aside.checks)


def _named_after(part: str, own: set[str]) -> bool:
    """Whether a part is named after the company: its word first, then words of its own
    ("Acme Freight")."""
    words = phrase_words(part).split()
    return len(words) > 1 and words[0] in own and not set(words[1:]) <= own


def _of_part(figure: Figure, part: str, book: CheckedBook, own: set[str]) -> bool:
    """Whether the row's label or its table's title says the part's own name ("Freight" of
    "Acme Freight") and names no other part named after the company ("Acme Express")."""
    text = f"{figure.label} {table_context(figure, book.page_text(figure.page))}"
    words = phrase_words(part).split()
    mine = " ".join(w for w in words if w not in own)
    if f" {mine} " not in f" {phrase_words(text)} ":
        return False
    for found in re.finditer(r"\b([A-Za-z][\w&.-]*)\s+([A-Z][\w&-]*)", text):
        first, second = phrase_words(found[1]).strip(), phrase_words(found[2]).strip()
        if first in own and second not in own and second not in words:
            return False  # "Acme Express offers ...": another part's table
    return True


def _named_keys(
    keys: Iterable[str],
    question: str,
    plain: str,
    asked: set[str],
    own: set[str],
    items: Sequence[LineItem],
) -> dict[str, list[str]]:
    """The rows' keys (label keys) whose every word the question says, in its order, with
    those words: not a catalogue line's, not a row of another count or act, not the reported
    row where an adjusted measure is asked."""
    counted = _COUNTED.search(question)
    noun = phrase_words(counted[1]).strip() if counted else ""
    lines = {k for item in items for k in item.keys}  # the catalogue's rows: its lines'
    acts = [m[1].lower()[:4] for m in _ACT.finditer(plain)]
    # an adjusted measure asked ("Adjusted EPS"): only a row that says it is adjusted
    adjusted = ADJUSTED.search(plain) is not None
    sequence = [w for w in phrase_words(plain).split() if word(w) and w not in own]
    named = {}
    for key in keys:
        said = [w for w in key.split() if word(w) and w not in _FILLER]
        if key in lines or not said or (noun and noun not in said) or re.search(r"\d", key):
            continue  # a label holding figures is a row misread
        if acts and not all(any(w.startswith(a) for w in said) for a in acts):
            continue  # "stores did Acme open": a row of stores is the balance, not those opened
        if adjusted and not (ADJUSTED.search(key) or "adjust" in said):
            continue  # "Adjusted EPS": not the reported "Diluted EPS"
        if all(w in asked for w in said) and not _interrupted(said, sequence):
            named[key] = said
    return named


def _amount_rows(
    session: Session, document: DocumentInfo, keys: dict[str, list[str]], question: str, plain: str
) -> list[FactInfo]:
    """The table rows of amounts (or figures per share, where asked) so keyed."""
    per_share = bool(PER_SHARE.search(question) or _PER_SHARE_ROW(plain.lower()))
    return [
        _per_share_unscaled(f)
        for f in queries.stated_figures(session, document.id, names=list(keys), prefixes=[])
        if f.source == "table" and ("/" in f.unit or bool(_PER_SHARE_ROW(f.concept))) == per_share
    ]


def _per_share_unscaled(fact: FactInfo) -> FactInfo:
    """A row per share or per unit of a table "in millions, except per share amounts", read
    in the table's scale ("Adjusted EPS 1.52" as 1,520,000): its figure as printed."""
    scale = fact.decimals or 0
    if PER_UNIT_ROW(fact.concept) and "/" not in fact.unit and scale < 0:
        return replace(fact, value=fact.value * 10.0**scale, decimals=None)
    return fact


def _checked(
    scored: list[tuple[int, Figure]],
    book: CheckedBook,
    year: int | None,
    question: str,
    *,
    part: bool = False,
    balance: bool = False,
) -> Stated:
    """The figure of the rows the question names most fully, checked; set aside (with the
    others so named) where a check fails or another row so named gives another figure."""
    best = max(words for words, _ in scored)
    named = [figure for words, figure in scored if words == best]
    # the primary statements' rows before a note's (a discontinued business's "—")
    named = [f for f in named if f.page in book.statement_pages] or named
    named = of_table_named(named, book.page_text, question)  # "per the electricity statistics"
    named, deductions = as_amounts(named, book.statement_pages)  # "Impairment expense (75)"
    # the same digits read with and without the table's scale ("(in millions)" missed on one
    # page): one figure, stated in the scale read
    same = [f for f in named if _same_digits(f.value, named[0].value)]
    first = max(same, key=lambda f: abs(f.value))
    text, read = book.page_text(first.page), _SIGN_READ[(first.page, first.label) in deductions]
    checks = [
        Check("label", True, f"the row {first.label!r} is named by the question's words"),
        book.duration_check(first, year),
        book.statement_check(first, text, part=part),  # not about affiliates (or segments)
        page_check(first, text),
        column_check(first, named, text),
        Check("sign", first.value >= 0 or first.unit == "%", read),  # a percentage may fall
    ]
    # "segment assets as of May 31": a balance asked, not a year's flow, unless the row says
    # it is a balance ("Cash and equivalents, end of year" in a cash flow statement's column)
    if balance and first.period_start is not None and not _AT_END.search(first.label):
        checks.append(Check("kind", False, "a flow over a period; a balance at a date is asked"))
    elif (
        book.ask.months == 0  # a balance asked, at a date
        and not _AT_END.search(first.label)
        and book.cash_flow_row(first, table_context(first, text))
    ):
        # "deferred revenues" at a date: the cash flow statement's row is a year's change
        checks.append(Check("kind", False, "a change over a period; a balance at a date is asked"))
    statement = statement_asked(question)
    if statement is not None and book.statement_pages.get(first.page) != statement:
        checks.append(
            Check("statement", False, f"the {statement} is asked; p. {first.page} is not")
        )
    others = sorted({f.value for f in named if not _same_digits(f.value, first.value)})
    if others:
        given = ", ".join(f"{v:,.2f}" for v in [first.value, *others][:3])
        checks.append(Check("agreement", False, f"rows so named give different figures ({given})"))
    return row_stated(first, checks, named, "the figure asked")


_SIGN_READ = {
    True: "printed as a deduction: the expense's amount",
    False: "not printed negative (a deduction or an outflow)",
}
_BALANCE_NAMED = deferred(
    r"\b(?:assets?|liabilit(?:y|ies)|debt|equity|obligations?|borrowings?|deposits?)\b", re.I
)
_AT_END = deferred(r"\b(?:end|beginning|close)\s+of\b|\bbalance\b", re.IGNORECASE)


def _same_digits(one: float, other: float) -> bool:
    """Whether two figures differ by no more than a scale: equal, or a thousand, a million or
    a billion times the other."""
    small, large = sorted((abs(one), abs(other)))
    return (one >= 0) == (other >= 0) and any(
        math.isclose(small * 1000**power, large, rel_tol=1e-9) for power in range(4)
    )


def _without_company(question: str, own: set[str]) -> str:
    """The question less each run of capitalised words that are all the company's ("MGM
    Resorts'", "Best Buy's", "Acme")."""

    def named(run: re.Match[str]) -> str:
        words = phrase_words(run[0]).split()
        return " " if words and all(w in own for w in words) else run[0]

    return _CAPITALISED_RUN.sub(named, question)


def _interrupted(said: list[str], sequence: list[str]) -> bool:
    """Whether the question writes another word inside the row's name: "operating lease
    expense" is not the row "Total operating expenses"."""
    places = [[i for i, w in enumerate(sequence) if w == word] for word in said]
    places = [p for p in places if p]
    if len(places) < 2 or math.prod(len(p) for p in places) > _MOST_PLACINGS:
        return False
    # where a word is said twice ("deferred tax ... for amortizable tax basis"), the
    # placing of the row's words closest together
    at = min(itertools.product(*places), key=lambda spots: max(spots) - min(spots))
    return any(w not in said for w in sequence[min(at) : max(at) + 1])


def or_named_row(
    stated: Stated,
    *,
    session: Session,
    question: str,
    book: CheckedBook,
    year: int | None,
    items: Sequence[LineItem] = (),
) -> Stated:
    """`stated` where it states a figure or a metric; else the row the question names, if any."""
    if stated.headline is not None or stated.working is not None:
        return stated
    document = book.document
    row = named_row(
        session=session,
        question=question,
        document=document,
        book=book,
        year=year,
        items=items,
        missing_part=stated.part,
    )
    if row.headline is None and not row.candidates:  # a roll-forward's closing balance
        row = side_row(question, book, year) or closing_balance(
            question=question, book=book, year=year
        )
    if row.headline is None and (stated.text or not row.candidates):
        return stated  # what was said of the line asked stands
    said = row.headline
    if said and any(_misread(c, said) for c in stated.candidates):
        return stated  # a figure set aside as misread ("$202" of millions) is not restated
    whole = max((abs(c.value) for c in stated.candidates), default=0) if stated.part else 0
    if said and scale_missed(said.value, whole):
        unsure(row, f"{said.shown} is too small a share of the whole's: a scale missed")
    row.candidates += stated.candidates
    return row_change(row, book, year, question)  # "by how much did X fall in 2023"
