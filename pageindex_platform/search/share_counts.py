"""A count that no sentence of a filing states, read from the table row that names it
("Number of shares repurchased" under "2022 2021 2020", "Employees (in thousands)"), checked
as a sentence's count is."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ..db import queries
from ..db.queries import DocumentInfo, FactInfo
from ..db.sql import Session
from ..patterns import deferred
from ..periods.fiscal import year_named
from .figures import SCALE_WORDS, Figure, FigureBook
from .headline import Stated, figure_headline
from .printed import printed_form, row_line
from .results import Check

# the words a question asks a repurchase by
_REPURCHASE_ASKED = frozenset({"repurchase", "repurchased", "buy", "bought", "purchased"})
# a row that counts the shares repurchased in a period ("Number of shares repurchased",
# "Shares of common stock repurchased", "Total number of shares purchased"), not those still
# authorized, a weighted average or a price
_REPURCHASED_ROW = deferred(
    r"^(?:total\s+)?(?:number\s+of\s+)?(?:common\s+)?shares?\s+(?:of\s+common\s+stock\s+)?"
    r"(?:re)?purchased$",
    re.IGNORECASE,
)


def count_row(
    session: Session, document: DocumentInfo, noun: str, words: Sequence[str], year: int | None
) -> Stated | None:
    """The number of shares repurchased that no sentence states, from the table row that
    counts them ("Number of shares repurchased 15.8 3.4 4.3" under "2022 2021 2020"), of
    the year asked; None when no such row gives one figure for it. `noun`: the noun counted;
    `words`: the question's act and words."""
    if not _REPURCHASE_ASKED.intersection(words) or not noun.startswith("share"):
        return None
    patterns = ["%share%purchased%"]
    book = FigureBook(session, document)
    facts = [
        f
        for f in queries.stated_figures(session, document.id, names=[], prefixes=patterns)
        if f.source == "table"
        and _REPURCHASED_ROW.match(" ".join((f.label or "").split()))
        and f.unit == "xbrli:shares"
        and f.value > 0
        and book.of_year(f, year)
    ]
    return _counted(session, document, facts, "shares", "the shares repurchased", {})


def noun_row(
    session: Session, document: DocumentInfo, noun: str, year: int | None
) -> Stated | None:
    """A count a table row names by the noun asked alone ("Employees (in thousands) 131.9",
    "Number of stores 1,008"), of the year asked; None when no such row gives one figure."""
    stem = re.escape(noun.rstrip("s")[: max(4, len(noun) - 2)]) if noun else ""
    if len(stem) < 4:
        return None
    named = re.compile(
        rf"^(?:total\s+)?(?:number\s+of\s+)?{stem}\w*(?:\s*\((?:in\s+)?(thousands|millions)\))?$",
        re.IGNORECASE,
    )
    book = FigureBook(session, document)
    facts = []
    for fact in queries.stated_figures(session, document.id, names=[], prefixes=[f"%{stem}%"]):
        found = named.match(" ".join((fact.label or "").split()))
        if fact.source != "table" or not found or fact.value <= 0 or not book.of_year(fact, year):
            continue
        # a count in its own scale ("(in thousands)"), never the money scale of its table
        power = {"thousands": 3, "millions": 6}.get((found[1] or "").lower(), 0)
        printed = fact.value / 10.0 ** -(fact.decimals or 0)
        facts.append(replace(fact, value=printed * 10.0**power, decimals=-power or None))
    pages = {
        p.page: p.text
        for p in queries.page_texts(session, [(document.name, f.page) for f in facts])
    }
    # a row of money ("Stores $ 2,500") counts nothing
    facts = [
        f for f in facts if "$" not in row_line(Figure.of(document.name, f), pages.get(f.page, ""))
    ]
    plural = noun if noun.endswith("s") else f"{noun}s"
    return _counted(session, document, facts, plural, f"the {plural}", pages)


def _counted(
    session: Session,
    document: DocumentInfo,
    facts: Sequence[FactInfo],
    noun: str,
    what: str,
    pages: dict[int, str],
) -> Stated | None:
    """The count the rows `facts` agree on, checked as printed on its page (from `pages`
    where the caller read it already); None when they give none or several."""
    if len({f.value for f in facts}) != 1:
        return None
    fact = min(facts, key=lambda f: f.page)
    text = pages.get(fact.page)
    if text is None:
        text = next((p.text for p in queries.page_texts(session, [(document.name, fact.page)])), "")
    figure = Figure.of(document.name, fact)
    printed = printed_form(figure, text)
    if not printed:
        return None
    scale = SCALE_WORDS.get(-(fact.decimals or 0))
    shown = f"{printed} {scale} {noun}" if scale else f"{printed} {noun}"
    checks = [
        Check("page", True, f"{printed} is printed on p. {fact.page}"),
        Check("period", True, f"the column of fiscal {year_named(document, fact.period_end)}"),
        Check("label", True, f"the row {fact.label!r} counts {what}"),
    ]
    headline = replace(
        figure_headline(figure, checks, kind="text", label=fact.label), shown=shown, unit=noun
    )
    return Stated(f"{shown} — {figure.cited}", [figure], headline=headline)
