"""A segment's figure, as a question that names a part of the company asks it (a segment,
division, group, SBU or business, or a sub-row such as "Services net sales"): the row
labelled as the part in a table of the line item, checked as any figure is and named as the
part's; where none is found, the whole company's figure is a candidate set aside — never
stated as the part's."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial

from ..db import queries
from ..db.queries import DocumentInfo
from ..db.sql import Session
from ..index.tables import label_key
from ..patterns import deferred
from .checks import CheckedBook
from .figures import Figure, LineItem
from .headline import (
    WHOLE_NOT_PART,
    Stated,
    candidate,
    figure_headline,
    not_sure,
    scale_missed,
)
from .items_named import items_in
from .line_shares import change_asked
from .narrowing import ADJUSTED
from .part_said import names_besides
from .part_sections import headed_by_part, no_prose, of_another_measure, row_names
from .part_shares import change_stated, same_row, share_stated, year_before
from .parts_asked import GENERAL, PART_NOUN, Part
from .printed import page_lines, row_at, row_headings, table_context
from .results import Check
from .sentence_numbers import SHARE_ASKED
from .side_by_side import grouped, repeated
from .terms import phrase_words


def segment_stated(
    *,
    session: Session,
    book: CheckedBook,
    item: LineItem,
    part: Part,
    year: int | None,
    whole: Figure | None,
    when: str,
    items: Sequence[LineItem],
    question: str = "",
) -> Stated:
    """The part's figure of `item` (or its share of the whole's, where the question asks a
    share); the whole company's a candidate set aside."""
    document = book.document
    name = part.name
    found, peers, where = _part_figure(session, book, item, part, year, items, whole, question)
    sub = part.sub_line
    line = f"{sub} {item.name}" if sub else item.name  # "premiums revenue"
    label = f"{part.said} {line}"
    if found is not None:
        checks = book.check(item, found, year, peers, part=True)
        if not peers:  # side-by-side tables: the column under the item's own heading
            said = f"the column under the heading that names {item.name}"
            checks = [replace(c, detail=said) if c.name == "column" else c for c in checks]
        if whole is not None and scale_missed(found.value, whole.value):
            why = f"{found.shown} is too small a share of the whole's {whole.shown}: a scale missed"
            checks.append(Check("sign", False, why))  # "$202" read where millions are printed
        printed = f"{found.label} {where}"  # "Medicare premium revenues": not the "Premiums" row
        if sub and (besides := names_besides(question, part, printed, document)):
            why = f"the question names {besides!r}; the row {found.label!r} prints none of it"
            checks.append(Check("label", False, why))
        failed = next((c for c in checks if not c.passed), None)
        if failed is None and whole is not None and SHARE_ASKED.search(question):
            return share_stated(found, whole, checks, label)  # "what share ... came from EMEA"
        change = change_asked(question) if failed is None else None
        if change is not None and (before := year_before(year, document)) is not None:
            read = partial(_part_figure, session, book, item, part, before, items, None, question)
            prior = same_row(book, found, before, lambda: read()[0])  # "how fast did EMEA's ..."
            return change_stated(book, found, prior, checks, label=label, percent=change[1])
        if failed is None:
            text = f"{found.shown} — {found.cited}: the row {found.label!r} {where}"
            headline = figure_headline(found, checks, kind="segment", label=label)
            return Stated(text, [found], headline=headline)
        aside = [candidate(found, failed.detail, checks)]
        return Stated(not_sure(f"{label}{when}", aside), candidates=aside)
    asked = name or "the segment asked"
    part_of = (
        f"{name}'s"
        if part.place
        else "the segment's"
        if part.segment or not name
        else f"the {part.said}'s"
    )
    text = f"No {line} of {asked}{when} was found in {document.name}'s tables"
    if whole is None:
        return Stated(f"{text}.", part=name)
    aside = [candidate(whole, f"{WHOLE_NOT_PART} {part.said}'s")]
    return Stated(
        f"{text}; the whole company's {item.name} is {whole.shown} — {whole.cited} — "
        f"not {part_of}.",
        [whole],
        candidates=aside,
        part=name,
    )


def _part_figure(
    session: Session,
    book: CheckedBook,
    item: LineItem,
    part: Part,
    year: int | None,
    items: Sequence[LineItem],
    whole: Figure | None,
    question: str,
) -> tuple[Figure | None, list[Figure], str]:
    """The part's figure, the rows beside it and where it was found: its row in a table of
    the line, its block's row under its heading, or a row of the table its own section's
    heading heads ("GREATER CHINA" over "Total revenues")."""
    name, adjusted = part.name, bool(ADJUSTED.search(question))
    sub, place = part.within
    if not name:
        return None, [], ""
    # a part of the segment's line asked ("premiums revenue" of a segment): not its whole row
    sub_line = part.sub_line
    found, peers = (
        (None, [])
        if sub_line
        else _segment_figure(session, book, item, part, year, items, whole, adjusted)
    )
    if found is not None or part.against:
        return found, peers, f"of a table of {item.name}"
    if part.segment:
        labels = row_names(item, sub_line)
        found, peers, heading = _under_part(session, book, labels, name, year, bool(sub_line))
        if found is not None:
            return found, peers, f"under the heading {heading!r}"
    names = [place] if place else [name, *_short_names(name, book.document)]
    found, peers, heading = headed_by_part(
        book=book,
        item=item,
        names=names,
        year=year,
        whole=whole,
        sub=sub,
        adjusted=adjusted,
    )
    return found, peers, f"of a table headed {heading!r}"


def _segment_figure(
    session: Session,
    book: CheckedBook,
    item: LineItem,
    part: Part,
    year: int | None,
    items: Sequence[LineItem],
    whole: Figure | None = None,
    adjusted: bool = False,
) -> tuple[Figure | None, list[Figure]]:
    """The row labelled as the part in a table on a page that names the line item, and the
    part's other rows of the period ([] where side-by-side tables' headings chose its
    column). A sub-line that is no segment ("casino revenue") is read from the primary
    statements only: a segment's table has rows of the same name."""
    segment = part.name
    if part.place:  # "Asia Pacific", "EMEA (1)", "Japan"; "Total international revenue"
        names = part.labels or (segment, f"{segment} region")
        labels = [*names, *(f"{p} {n.removesuffix(' *')}" for p in names for n in item.names)]
    elif part.segment:  # "Freight" printed "Acme Freight segment", "Andes" "Andes SBU"
        short = (segment, *_short_names(segment, book.document))  # "AWS", "Global Services"
        labels = [*short, *(f"{x} {noun}" for x in short for noun in _PART_LABELS)]
        owners = book.document.company_aliases  # the company's short names
        labels += [f"{owner} {label}" for owner in owners for label in labels]
    else:  # "wireless equipment" printed "Wireless equipment revenues"
        short = (segment, *_short_names(segment, book.document))
        labels = [*short, *(f"{x} {n.removesuffix(' *')}" for x in short for n in item.names)]
    found = book.rows(labels, year)
    rows = [r for r in found if part.segment or r.page in book.statement_pages]
    # a sub-line by a proper name the statements do not print ("Americas revenues", "iPhone
    # net sales"): its row under a heading of the whole line ("Net sales by category:")
    headed = not rows and not part.segment and part.name[:1].isupper()
    rows = found if headed else rows
    if not rows:
        return None, []
    name = book.document.name
    pages = {p.page: p.text for p in queries.page_texts(session, [(name, r.page) for r in rows])}
    figures = [Figure.of(name, row) for row in sorted(rows, key=lambda r: r.page)]
    of_a_part = _part_heading(item, segment, items)
    for figure in figures:
        # the row's own table names the line item (not a table of sales beside it)
        context = no_prose(table_context(figure, pages.get(figure.page, "")))
        if of_a_part(context):
            continue  # "Fios revenues for our two reportable segments": a part's revenue
        headings = row_headings(figure, pages.get(figure.page, ""))
        if adjusted and not ADJUSTED.search(" ".join([context, *headings])):
            continue  # an adjusted measure asked: not a table of the reported one
        if any(_CHANGE.search(h) for h in headings):
            continue  # "Year-over-Year Changes": the row gives a change, not the figure
        section = _section(headings, items)
        if not section and of_another_measure(headings, context, item):
            continue  # "GMV :" over "Marketplace": a table of another measure
        if section and item not in section:
            continue  # the part's row under "Operating income (loss):" is not its revenue
        of_whole = _of_the_whole(headings, item)
        if of_whole is False or (headed and not of_whole):
            continue  # "Cloud and License Revenues:", "Company-operated sales:": a kind's rows
        if part.against and not _complemented(book, figure, part, item, year, whole):
            continue  # "Rest of world" beside "U.K." and "Germany": one region of several
        if (part.place or headed) and not part.against and not _beside_whole(book, figure, whole):
            continue  # a "U.S." row of a table of income before taxes, not of net sales
        if section or any(i is item for i, _, _ in items_in(context, [item])):
            text = pages.get(figure.page, "")
            under = grouped(figure, figures, text, item, items)
            if under is None and repeated(figure, figures, text):
                continue  # side-by-side tables whose headings do not say which is the item's
            return (under, []) if under is not None else (figure, figures)
    return None, figures


# the nouns a table may print after a part's name in its row label
_PART_LABELS = ("segment", "group", "sbu", "division", "business", "business unit")
# a part noun in a heading over a part's block of rows ("Hardware business:")
PART_NOUNS = deferred(rf"\b(?:{PART_NOUN})\b", re.IGNORECASE)


def _under_part(
    session: Session,
    book: CheckedBook,
    labels: list[str],
    name: str,
    year: int | None,
    sub: bool,
) -> tuple[Figure | None, list[Figure], str]:
    """The line item's own row (one of `labels`) in the block of rows a table heads with the
    part's name ("Cloud and license:" over "Revenues", "Margin"), and the item's other rows
    of the period — a segment note that gives each part its own block; or, where a `sub`-line
    of the part is asked, its row under the part's name ("Client Computing" over "Notebook")."""
    rows = book.rows(labels, year)
    if not rows:
        return None, [], ""
    doc = book.document.name
    pages = {p.page: p.text for p in queries.page_texts(session, [(doc, r.page) for r in rows])}
    figures = [Figure.of(doc, row) for row in sorted(rows, key=lambda r: r.page)]
    wanted = _part_key(name)
    for figure in figures:
        text = pages.get(figure.page, "")
        headings = row_headings(figure, text)
        if (
            headings
            and _part_key(headings[0]) == wanted
            and (sub or _first_under(figure, headings[0], text))
        ):
            return figure, figures, headings[0]
    return None, [], ""


def _first_under(figure: Figure, heading: str, text: str) -> bool:
    """Whether the figure's row is the first of the heading's block that names its line:
    no "Total ..." row, and no other row between them ("Hardware revenues" stands between
    "Hardware:" and "Total revenues", whose figure is the whole's)."""
    if figure.label.lower().startswith("total"):
        return False
    lines = page_lines(text)
    at = row_at(figure, lines)
    top = max((i for i in range(at) if lines[i] == heading), default=-1)
    word = label_key(figure.label).split()[-1:]
    return top >= 0 and not any(
        label_key(re.sub(r"[\d$,.()%—-]+", " ", line)).split()[-1:] == word
        for line in lines[top + 1 : at]
        if re.search(r"\d", line)
    )


def _part_key(words: str) -> str:
    """A part's name as words to compare: lower case, no part noun, no "and" or "&"."""
    said = PART_NOUNS.sub(" ", words.lower())
    return " ".join(w for w in re.findall(r"[a-z0-9]+", said) if w != "and")


# a heading over rows that give a change, not a figure
_CHANGE = deferred(r"\b(?:changes?|increases?|decreases?|variances?)\b", re.IGNORECASE)


def _short_names(name: str, document: DocumentInfo) -> list[str]:
    """The shorter names a filing may print a part named after the company by: without the
    company's word where two words or more are left ("Boeing Global Services": "Global
    Services"), its initials where it has three words or more ("Amazon Web Services": "AWS")."""
    words = name.split()
    own = {
        w.lower() for n in (document.company or "", *document.company_aliases) for w in n.split()
    }
    rest = words[1:] if words and words[0].lower() in own else []
    short = [" ".join(rest)] if len(rest) >= 2 else []
    if len(words) >= 3 and all(w[:1].isupper() for w in words):
        short.append("".join(w[0] for w in words))
    return short


def _beside_whole(book: CheckedBook, figure: Figure, whole: Figure | None) -> bool:
    """Whether the row's page prints the whole company's figure of the line for the same
    period in its table's scale, or two rows that add up to it ("United States" and "Total
    Non-U.S."): the part is a row of a table of the whole line."""
    if whole is None:
        return False
    span = (figure.period_start, figure.period_end)
    rows = queries.page_table_values(book.session, book.document.id, figure.page)
    values = sorted({r.value for r in rows if (r.period_start, r.period_end) == span})
    close = 0.005 * abs(whole.value)
    return any(
        abs(a - whole.value) <= close or abs(a + b - whole.value) <= close
        for a, b in itertools.combinations_with_replacement(values, 2)
        if a != figure.value or b != figure.value
    ) or _whole_printed(book, figure, whole)


def _whole_printed(book: CheckedBook, figure: Figure, whole: Figure) -> bool:
    """Whether the row's page prints the whole's figure in the row's scale, as an unlabelled
    total under the rows may ("$ 31,352" under "Americas", "Europe", "Asia Pacific")."""
    scale = 10**figure.exponent
    if scale == 1 or whole.value % scale:
        return False
    written = f"{abs(whole.value) / scale:,.0f}"
    pages = queries.page_texts(book.session, [(book.document.name, figure.page)])
    return len(written) >= 5 and any(  # "1,234" and more: no small number found by chance
        re.search(rf"(?<![\d,.]){re.escape(written)}(?![\d,]|\.\d)", p.text) for p in pages
    )


def _complemented(
    book: CheckedBook,
    figure: Figure,
    part: Part,
    item: LineItem,
    year: int | None,
    whole: Figure | None,
) -> bool:
    """Whether the row and a row of the rest of the world (`part.against`) of its table — the
    same page and period — add up to the whole company's line: the home country and the rest,
    not one region of several."""
    span = (figure.period_start, figure.period_end)
    if whole is None or (whole.period_start, whole.period_end) != span:
        return False
    lines = [n.removesuffix(" *") for n in item.names]
    names = [*part.against, *(f"{a} {n}" for a in part.against for n in lines)]
    return any(
        r.page == figure.page
        and (r.period_start, r.period_end) == span
        and abs(figure.value + r.value - whole.value) <= 0.005 * abs(whole.value)
        for r in book.rows(names, year)
    )


def _of_the_whole(headings: Sequence[str], item: LineItem) -> bool | None:
    """Whether the nearest heading that names the line item names the whole company's line
    ("Total Revenues by Geography:"), not a part's ("Cloud and License Revenues:"); None
    when no heading names it."""
    for heading in headings:
        named = [(at, length) for i, at, length in items_in(heading, [item])]
        if named:
            before = phrase_words(heading)[: named[0][0]].split()
            return set(before) <= GENERAL
    return None


def _section(headings: Sequence[str], items: Sequence[LineItem]) -> list[LineItem]:
    """The line items named by the nearest of a row's headings (`row_headings`) that names
    any ("Operating Revenues", "Operating income (loss):"), past a group's own heading
    ("Internet of Things"); [] when none names one."""
    for heading in headings:
        named = [i for i, _, _ in items_in(heading, items)]
        if named:
            return named
    return []


def _part_heading(item: LineItem, segment: str, items: Sequence[LineItem]) -> Callable[[str], bool]:
    """Whether a table's own words name the line item of a part by a proper name ("Fios
    revenues") that is neither the segment asked nor a word of a line item (side-by-side
    headings: "Net Sales Operating Income"): its rows give that part's figure per segment,
    not the segment's."""
    names = "|".join(re.escape(n.removesuffix(" *")) for n in sorted(item.names, key=len)[::-1])
    # ("Wireless service revenue for our reportable segments": a service's by segment)
    heading = re.compile(
        rf"\b([A-Z][\w&'’-]*)[ \t]+(?:(?i:{names})\b|[a-z][\w-]*[ \t]+(?i:{names})[ \t]+"
        r"(?:for|of|by)[ \t]+(?:our[ \t]+|each[ \t]+|the[ \t]+)?(?:reportable[ \t]+)?segments?\b)"
    )
    known = {w for i in items for n in i.names for w in n.lower().split()}
    known |= {w.lower() for w in segment.split()} | GENERAL
    return lambda context: any(m[1].lower() not in known for m in heading.finditer(context))
