"""A line item's amount that a filing states only in a sentence of its notes, not in a table
("Advertising costs were $763 million in 2020 ($832 million in 2019 and $1.2 billion in
2018)", "Advertising expense totaled $1.2 billion, $1.1 billion and $1.1 billion for the years
ended December 31, 2022, 2021 and 2020, respectively"): the sentence that names the line
before its amounts, and the amount it says of the year asked — never an amount whose year
the sentence does not say."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence

from ..db import queries
from ..db.queries import DocumentInfo
from ..db.sql import Session
from ..patterns import deferred
from ..periods.dates import first_day
from ..periods.fiscal import Span
from .checks import CheckedBook, Vetted
from .figures import Figure, LineItem
from .headline import Stated
from .results import Check, Headline
from .sentence_numbers import RESPECTIVELY, SCALES, YEAR, sentence_label, sentences_of

AMOUNT = deferred(
    r"\$\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\s*(million|billion|thousand)\b)?",
    re.IGNORECASE,
)
# what may stand before the line's name at a sentence's start: "In 2020, ", "Our total "
_LEAD = deferred(r"^(?:\s*(?:in\s+(?:fiscal\s+)?\d{4},?|our|total|the|its)\s+)*\s*$", re.IGNORECASE)
# the year said right after an amount ("$763 million in 2020")
_YEAR_AFTER = deferred(
    r"\s*(?:in|for|during)\s+(?:fiscal\s+(?:year\s+)?|fy\s?)?((?:19|20)\d\d)\b", re.IGNORECASE
)
# the verb between the line's name and its amount: "were", "totaled", "amounted to"
# (or the years listed before it: "for the years ended December 31, 2018, 2017, and 2016 were")
_LINK = deferred(
    r"\s+(?:(?:for|in|during)\s+(?:fiscal\s+)?\d{4},?\s+|for\s+(?:the\s+)?(?:fiscal\s+)?years\s+"
    r"ended\s+[A-Za-z]+\s+\d{1,2}\s*,?\s+(?:(?:19|20)\d\d\s*,?\s+(?:and\s+)?){2,4})?(?:were|was|are|is|totaled|totalled|"
    r"amounted\s+to|came\s+to)\s+(?:approximately\s+|about\s+|nearly\s+)?",
    re.IGNORECASE,
)


def amount_stated(
    *, session: Session, document: DocumentInfo, item: LineItem, year: int, span: Span | None
) -> Stated:
    """The amount of `item` for fiscal `year` that a sentence of the document states; empty
    when none says it of that year. Only a year's amount (a sentence's "in 2020")."""
    if span is not None and span.months != 12:
        return Stated()
    names = sorted({n.removesuffix(" *") for n in item.names}, key=len, reverse=True)
    for page in queries.pages_mentioning(session, document, names):
        for sentence in sentences_of(page.text):
            flat = " ".join(sentence.split())
            found = _of_year(flat, names, year)
            if found is None:
                continue
            value = float(found[1].replace(",", "")) * SCALES.get((found[2] or "").lower(), 1)
            label = sentence_label(flat)
            checks = [
                Check("kind", True, f"a sentence that names {item.name}"),
                Check("period", True, f"the sentence gives this amount for {year}"),
                Check("page", True, f"{found[0]} is printed on p. {page.page}"),
            ]
            headline = Headline(
                value=value,
                shown=found[0],
                unit="USD",
                label=label,
                period=span.label if span is not None else f"FY{year}",
                period_start=None,
                period_end=span.end.isoformat() if span is not None else None,
                document=document.name,
                page=page.page,
                checks=checks,
                kind="text",
            )
            text = f"{found[0]} — “{label}” [{document.name}, p. {page.page}]"
            return Stated(text, headline=headline)
    return Stated()


def _named(sentence: str, name: str) -> re.Match[str] | None:
    """Where the sentence names the line by `name` ("advertising costs"), a plural's "s"
    as it comes."""
    words = r"\s+".join(re.escape(w) for w in name.split())
    return re.search(rf"\b{words}s?\b", sentence, re.IGNORECASE)


def _of_year(sentence: str, names: Sequence[str], year: int) -> re.Match[str] | None:
    """The amount the sentence says of `year`, where it names the line before its amounts:
    the amounts listed "respectively" with as many years, in their order; else the amount
    followed by the year ("$763 million in 2020")."""
    amounts = list(AMOUNT.finditer(sentence))
    named = next(filter(None, (_named(sentence, n) for n in names)), None)
    if named is None or not amounts:
        return None
    # the line is the sentence's subject ("Advertising costs were ..."), not a narrower
    # one ("Cooperative advertising costs", "... costs related to our cloud products were")
    if re.search(r"[A-Za-z]", _LEAD.sub("", sentence[: named.start()])):
        return None
    if not _LINK.fullmatch(sentence[named.end() : amounts[0].start()]):
        return None  # "Advertising costs increased $50 million in 2020": a change
    if RESPECTIVELY.search(sentence):
        after = sentence[amounts[-1].end() :]
        years = [int(y) for y in YEAR.findall(after)]
        if not years:  # the years listed before the amounts, in the same order
            years = [int(y) for y in YEAR.findall(sentence, named.end(), amounts[0].start())]
        if len(years) == len(amounts) and year in years:
            return amounts[years.index(year)]
        return None
    for amount in amounts:
        said = _YEAR_AFTER.match(sentence, amount.end())
        if said and int(said[1]) == year:
            return amount
    return None


def with_sentences(book: CheckedBook) -> Callable[[LineItem, int | None], Figure | None]:
    """`book.get`, and where the book holds no candidate at all for a line item's year, the
    amount a sentence states of that year — an input of a metric the filing says only in
    prose ("How much did advertising costs rise in 2018?"). A year whose candidates were
    all set aside gets no sentence's amount in their place."""

    def get(item: LineItem, year: int | None) -> Figure | None:
        figure = book.get(item, year)
        if figure is not None or year is None or book.vetted[item.name, year].set_aside:
            return figure
        if item.per_share:
            return None  # a sentence's amount is the company's dollars, not a share's
        span = book.span(year)
        said = amount_stated(
            session=book.session, document=book.document, item=item, year=year, span=span
        )
        if said.headline is None or span is None:
            return None
        figure = sentence_figure(said.headline, span)
        book.vetted[item.name, year] = Vetted(item, year, figure, said.headline.checks)
        return figure

    return get


def sentence_figure(said: Headline, span: Span) -> Figure:
    """A sentence's amount as a figure of `span` ("$101.9 million": its places kept)."""
    written = AMOUNT.search(said.shown)
    places = len(written[1].partition(".")[2]) if written else 0
    scale = (written[2] or "").lower() if written else ""
    power = round(math.log10(SCALES[scale])) if scale else None
    start = first_day(span.end, span.months)
    return Figure(
        document=said.document,
        label=said.label,
        value=said.value,
        unit="iso4217:USD",
        decimals=places - power if power else None,
        period_start=start.isoformat(),
        period_end=span.end.isoformat(),
        page=said.page,
        source="text",
        concept=None,
    )
