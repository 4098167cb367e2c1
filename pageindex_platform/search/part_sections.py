"""A part's figure from a table of its own section: a filing that gives each segment or region
its own section prints the part's lines under the whole line's labels ("Total revenues",
"Earnings before interest and taxes"), the part named only by the heading over the table
("GREATER CHINA", "Health Care Benefits Segment") or the sentence that introduces it ("The
following table summarizes the Health Care Benefits segment's performance")."""

from __future__ import annotations

import re

from ..db import queries
from ..db.queries import StoredNode
from ..patterns import deferred
from .checks import CheckedBook
from .figures import Figure, LineItem
from .items_named import items_in
from .narrowing import ADJUSTED
from .parts_asked import GENERAL
from .printed import dates_in, header_at, page_lines, row_at, row_headings
from .terms import phrase_words

# lines above a table's header within which the heading that names its part is sought
_ABOVE = 10
# pages before a table's within which the section that names its part may begin
_PAGES_BACK = 2
# an amount on a line that is no year: a row of another table stands between
_AMOUNT = deferred(r"(?<![\w.,])(?!(?:19|20)\d\d\b)\d[\d,]*(?:\.\d+)?(?![\w])")
# words a section's heading or a table's introducing sentence says besides the part's name
_HEADING_WORDS = frozenset(
    "segment segments reportable operating business unit units division group sbu region "
    "geography geographic results of operations the following table tables summarizes "
    "summarize shows show presents present sets forth provides financial performance "
    "information for and in our its respective periods years year ended dollars millions "
    "selected data a an as".split()
)

# the words of a column header's lines over a part's table ("% CHANGE EXCLUDING CURRENCY
# CHANGES", "In millions, except percentages and basis points")
_COLUMN_WORDS = frozenset(
    "change changes excluding including currency percent percentage percentages except vs "
    "versus basis points bps fiscal months weeks quarter quarters ended ending thousands "
    "billions unaudited total".split()
)


def row_names(item: LineItem, sub: str = "") -> list[str]:
    """The labels a row of the line item may print, or of `sub`, a part of the line
    ("Apparel", "Apparel revenues")."""
    lines = [n.removesuffix(" *") for n in item.names]
    return sorted([sub, *(f"{sub} {n}" for n in lines)] if sub else lines)


def headed_by_part(
    *,
    book: CheckedBook,
    item: LineItem,
    names: list[str],
    year: int | None,
    whole: Figure | None,
    sub: str = "",
    adjusted: bool = False,
) -> tuple[Figure | None, list[Figure], str]:
    """The line item's row of the period (or the row of `sub`, a part of the line, under a
    heading that names the line: "Apparel" under "Revenues by:") in a table whose own heading
    names the part (by one of `names`) and nothing else, with the heading; a row whose figure
    is the whole company's is not the part's. A table with no heading of its own is the
    part's where the section of the tree it lies in is, and its page names the part."""
    rows = book.rows(row_names(item, sub), year)
    if not rows:
        return None, [], ""
    book.load_pages([r.page for r in rows])  # the book's own pages: read once per question
    figures = [Figure.of(book.document.name, row) for row in sorted(rows, key=lambda r: r.page)]
    nodes: list[StoredNode] = []  # the tree, read where a table has no heading of its own
    for figure in figures:
        if whole is not None and figure.value == whole.value:
            continue  # the whole company's line, whatever heads its page
        if adjusted != bool(ADJUSTED.search(figure.label)):
            continue  # "Adjusted operating income" asked: not the reported row, nor the reverse
        text = book.page_text(figure.page)
        if sub and not _of_the_line(figure, text, item):
            continue  # "Apparel" of a table of earnings, not of revenues
        lines = page_lines(text)
        heading = _part_heading(figure, lines, names, item)
        if heading is None and _says_any(text, names):  # the section the table lies in
            nodes = nodes or list(queries.tree(book.session, book.document).nodes)
            heading = _section_of_part(nodes, figure, lines, names, item)
        if heading:
            peers = [f for f in figures if f.page == figure.page]
            return figure, peers, heading
    return None, [], ""


def _of_the_line(figure: Figure, text: str, item: LineItem) -> bool:
    """Whether the row's label or its nearest heading in its table names the line item
    ("Revenues by:" over "Apparel")."""
    headings = row_headings(figure, text)[:1]
    return any(items_in(said, [item]) for said in (figure.label, *headings))


def _part_heading(figure: Figure, lines: list[str], names: list[str], item: LineItem) -> str | None:
    """The nearest line above the figure's table header that names the part and nothing
    besides words a heading says ("Results of Operations", "segment"), with only headings and
    column headers between; "" where a row of another table or a heading of something else
    comes first, or the table groups its rows under headings of their own; None where prose
    or the page's top comes first (the page's section may still be the part's)."""
    if not lines:
        return ""
    header = header_at(figure, lines)
    at = row_at(figure, lines)
    if header >= at or any(_other_heading(line) for line in lines[header + 1 : at]):
        return ""  # "North America" over its "Operating income": a table of every part
    for line in reversed(_unwrapped(lines[max(0, header - _ABOVE) : header])):
        if len(_AMOUNT.findall(line)) >= 2:
            return ""  # another table's row: no heading of this table
        if dates_in(line):
            continue  # the header's line above ("Year Ended December 31, 2021 vs. 2020")
        if not _heading_like(line):
            return None  # prose: no heading of the table's own
        said = _names_part(line, names)
        if said is not None:
            return line if said else ""
        if _passed_over(line, item):
            continue  # "Earnings From Operations": a heading of the line within a section
        if _other_heading(line):
            return ""  # "ASIA PACIFIC & LATIN AMERICA": the table is another part's
    return None if header <= _ABOVE else ""


def _section_of_part(
    nodes: list[StoredNode], figure: Figure, lines: list[str], names: list[str], item: LineItem
) -> str:
    """The title of the part's section of the tree that the figure's table lies in: the one
    innermost section holding its page — or the section before it, where that one's title is
    printed below the table ("Earnings From Operations" under a table of "Global Services") —
    or an ancestor of it past sections named by the line or by general words; "" where
    sections meet on the page or the table's section is another's."""
    page = figure.page
    holding = [n for n in nodes if n.start_page <= page <= n.end_page]
    inner = [n for n in holding if not any(c.parent_id == n.node_id for c in holding)]
    if len(inner) != 1:
        return ""
    node: StoredNode | None = inner[0]
    if inner[0].start_page == page and not _printed_above(inner[0].title, lines, figure):
        at = nodes.index(inner[0])  # the section begins below the table: the one before's
        node = nodes[at - 1] if at > 0 else None
    by_id = {n.node_id: n for n in nodes}
    while node is not None and node.start_page >= page - _PAGES_BACK:
        said = _names_part(node.title, names)
        if said is not None:
            return node.title if said else ""
        if not _passed_over(node.title, item):
            return ""  # "Business Environment and Trends", "Item 7. ...": another's
        node = by_id.get(node.parent_id) if node.parent_id else None
    return ""


def _printed_above(title: str, lines: list[str], figure: Figure) -> bool:
    """Whether a section's title is printed as a line above the figure's table header."""
    wanted = " ".join(title.lower().split())
    header = header_at(figure, lines)
    return any(" ".join(x.lower().lstrip("# ").split()) == wanted for x in lines[:header])


def _says_any(text: str, names: list[str]) -> bool:
    """Whether a page names the part by one of its names ("BGS revenues increased")."""
    return any(re.search(rf"\b{re.escape(n)}\b", text, re.IGNORECASE) for n in names if n)


def _passed_over(title: str, item: LineItem) -> bool:
    """Whether a heading within a part's section may stand between its name and its table:
    the line's name ("Earnings From Operations") and general words ("Results of Operations")
    only."""
    words = phrase_words(title)
    for _, at, length in items_in(title, [item]):
        words = words[:at] + " " + words[at + length :]
    rest = words.split()
    return bool(re.search(r"[A-Za-z]", title)) and all(
        w in _HEADING_WORDS or f"{w}s" in _HEADING_WORDS for w in rest
    )


def _unwrapped(lines: list[str]) -> list[str]:
    """Lines with a sentence's wrapped lines (those starting in lower case) joined."""
    joined: list[str] = []
    for line in lines:
        if joined and line[:1].islower():
            joined[-1] = f"{joined[-1]} {line}"
        else:
            joined.append(line)
    return joined


def _heading_like(line: str) -> bool:
    """Whether a line may head a table: a short line with no full stop ("Health Care Benefits
    Segment"), or a sentence that introduces the table, ending in a colon."""
    return line.endswith(":") or (len(line.split()) <= 8 and not line.endswith("."))


def _other_heading(line: str) -> bool:
    """Whether a line is a short heading of its own (every word capitalised, no figure, no
    full stop) with a word that no heading or column header of a part's table says."""
    words = re.findall(r"[A-Za-z][\w&'’-]*", line)
    return (
        0 < len(words) <= 6
        and not re.search(r"\d|[.:;]$", line)
        and all(w[:1].isupper() for w in words)
        and any(w.lower() not in _HEADING_WORDS | _COLUMN_WORDS for w in words)
    )


def _names_part(line: str, names: list[str]) -> bool | None:
    """Whether a line is a heading of the part: True where it names one of `names` and no
    other capitalised words; False where it names the part among other names ("EUROPE,
    MIDDLE EAST & AFRICA" for "Europe"); None where it names none."""
    for name in names:
        words = [re.escape(w) for w in re.findall(r"[\w&]+", name) if w.lower() != "and"]
        if not words:
            continue
        found = re.search(r"\b" + r"(?:\W+and)?\W+".join(words) + r"\b", line, re.IGNORECASE)
        if found is None:
            continue
        rest = (line[: found.start()] + " " + line[found.end() :]).replace("’", "'")
        others = [
            w
            for w in re.findall(r"[A-Za-z][\w&'-]*", rest)
            if w.lower().removesuffix("'s").removesuffix("'") not in _HEADING_WORDS
            and (w[:1].isupper() or line.isupper())
        ]
        return not others
    return None


def no_prose(context: str) -> str:
    """A table's context less its lines of prose (a sentence's "the sale of the business"
    names no line of the table)."""
    lines = context.splitlines()
    return "\n".join(x for x in lines if not (x.endswith(".") and len(x.split()) > 8))


def of_another_measure(headings: list[str], context: str, item: LineItem) -> bool:
    """Whether a row's nearest heading names a measure of its own ("GMV :" over
    "Marketplace") — a heading with a colon whose words are not all a whole line's or a
    part's kind ("Reportable segments:") — where no short line of its table's header names
    the line item ("Total Revenue Long-Lived Assets" over "Non-U.S.:" and "Chile")."""
    if not headings or not headings[0].rstrip().endswith(":"):
        return False
    if all(w in GENERAL for w in phrase_words(headings[0]).split()):
        return False
    header = [x for x in context.splitlines()[:-1] if len(x.split()) <= 8]
    return not any(items_in(x, [item]) for x in header)
