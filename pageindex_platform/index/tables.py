"""Figures read from a filing's tables, PDF and HTML alike: each row's label and its values
by column, the period of each column (from the header lines above the rows), the table's
scale ("in millions", "(Thousands)"), negatives in parentheses and the page. A page's text
holds a table row as one line, label first and cells after it ("Purchases of property,
plant and equipment (PP&E) (1,577) (1,373) (1,420)"), as both readers write it.

The figures are stored beside the tagged (inline XBRL) facts, with their source `table` and
their label; their concept is `table:` and the label's key (`label_key`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date

from ..periods import fiscal_offset
from ..records import PageText, TaggedFact
from .one_date import ends_table, one_amount, one_date_header, single, under_heading
from .row_cells import (
    CELL,
    CELLS_INSIDE,
    DATED,
    MARKER,
    RUNS_ON,
    SAID_AMOUNT,
    label_begins,
    row_cells,
    section_heading,
)
from .table_headers import DATE, Header, header_at
from .text import phrase_words

_FOUR_DIGITS = re.compile(r"\d{4}")
# "(In millions, except per share amounts)", "(Millions)", "$ in thousands", "Dollars in billions"
_SCALE = re.compile(
    r"(?:\bin|\()\s*(?:u\.?s\.?\s*)?(?:\$|dollars)?\s*(?:in\s+)?(million|thousand|billion)s?\b",
    re.IGNORECASE,
)
_POWERS = {"thousand": 3, "million": 6, "billion": 9}
# what a scale line says is not in its scale ("(dollars in millions, except ARPA)", "except
# per package"): rows so named print their figures as they are
_EXCEPT = re.compile(r"\bexcept(?:\s+for)?\s+([^)]*)", re.IGNORECASE)
_EXCEPT_FILLER = frozenset(
    "amount data per share figure information item where noted otherwise indicated stated as "
    "the specified shown".split()
)
PERCENT_ROW = "table_percent"  # the source of a row of percentages
_PARENTHESES = re.compile(r"\([^()]*\)")
_NET_OF_AMOUNTS = re.compile(r",\s*(?:net\s+of|less)\b[^,]*\$\s?\d.*$", re.IGNORECASE)
_LEADERS = re.compile(r"(?:\s*\.){3,}")
_MAX_LABEL = 160
# a label says a word: two letters, or an abbreviation's ("U.S.", "U.K.")
_WORDED = re.compile(r"[A-Za-z]{2,}|\b(?:[A-Za-z]\.){2,}")


def label_key(label: str) -> str:
    """A row label or an analyst's name for a line item, as the two are matched: lower-case
    words (see `phrase_words`: plural `s` dropped, "&" is "and"), parentheses dropped and a
    leading "total" left out ("Total net sales" → "net sale", "Property, plant and
    equipment — net" → "property plant and equipment net"), and what the label says it is
    net of in amounts ("Additions to property and equipment, net of $35, $46 and $32,
    respectively, of non-cash capital expenditures" → "addition to property and equipment")."""
    label = _NET_OF_AMOUNTS.sub("", label)
    words = phrase_words(_PARENTHESES.sub(" ", label)).split()
    return " ".join(words[1:] if words[:1] == ["total"] else words)


def cell_value(cell: str) -> float:
    """A cell's number: "(1,577)" is -1577, "—" is 0."""
    body = cell.replace("$", "").replace(",", "").replace(" ", "")
    if body in ("—", "–", "-"):
        return 0.0
    negative = body.startswith("(") or body.startswith("-")
    number = float(body.strip("()-%"))
    return -number if negative else number


# a figure as a table prints it ("6,177", "9.5"), not a year or a note's number
_FIGURE = re.compile(r"\d{1,3}(?:,\d{3})+|\d\.\d")
# a group's heading over its rows: a few words, no figure, no colon (a section's "Net
# revenue:" over the groups is not one: an unlabelled line under it is a partial sum)
_GROUP = re.compile(r"[A-Za-z][^\d:]{0,58}")

# the sentence that introduces another table
_NEW_TABLE = re.compile(r"(?:the|a)\s+(?:following\s+table|table\s+below)\b", re.IGNORECASE)


def read_tables(
    pages: Sequence[PageText], *, period_end: str | None, fiscal_year: int | None = None
) -> list[TaggedFact]:
    """Every table row of the pages whose numbers pair with a header's periods, one figure
    per cell: its label, value (scale applied), unit, period and page. `period_end` and
    `fiscal_year`: the filing's own, which say when a bare fiscal year column ends."""
    year_end, offset, latest = (12, 31), 0, None
    if period_end:
        latest = date.fromisoformat(period_end)
        year_end = (latest.month, latest.day)
        offset = fiscal_offset(fiscal_year, period_end)
    figures: list[TaggedFact] = []
    for page in pages:
        figures.extend(_page_figures(page, (year_end, offset, latest)))
    return figures


def _page_figures(
    page: PageText, calendar: tuple[tuple[int, int], int, date | None]
) -> list[TaggedFact]:
    """A page's table figures; `calendar`: the filing's, as `header_at` takes it."""
    lines = [" ".join(x.split()) for x in page.text.splitlines()]
    header: Header | None = None
    power: int | None = None
    excepted: tuple[str, ...] = ()  # what the scale line says is not in its scale
    heading = wrapped = ""  # the line over the rows below it, and the one over it
    rows, totalled = 0, False  # the rows read since `heading`; whether one was its "Total"
    percents: bool | None = None  # whether the header's first row was of percentages
    out: list[TaggedFact] = []
    previous = ""
    for i, line in enumerate(lines):
        scale = _SCALE.search(line) or _scale_across(lines[i - 1] if i else "", line)
        if scale:
            power, excepted = _POWERS[scale.group(1).lower()], _excepted(line)
        begins, found = _header_begun(lines, i, power, calendar)
        if begins:
            header, percents = found, None
            previous = line if _NEW_TABLE.match(line) else ""
            continue
        if header is not None and single(header) and ends_table(line):
            header = None  # a paragraph after a one-date table
        if header is not None:
            # a heading wrapped over two lines ("Net income per share attributable to" over
            # "Acme Corp.:") says what the rows below it are
            above = f"{wrapped} {heading}" if wrapped else heading
            table = (power, percents, excepted)
            row = _row_figures(line, previous, above, header, page.page, table)
            grouped = rows and not totalled and _GROUP.fullmatch(heading)
            if not row and grouped and not re.search("[A-Za-z]", line):
                # a group's heading ("Data Center Group"), its rows, then their unlabelled
                # subtotal: the group's figure
                row = _row_figures(
                    f"{heading.rstrip(' :')} {line}",
                    "",
                    "",
                    header,
                    page.page,
                    (power, None, excepted),
                )
                heading, rows, totalled = "", 0, False
            elif (
                not row
                and heading == previous
                and _split_row(heading, line, header, lines[i - 2] if i > 1 else "")
            ):
                # a row whose cells the page prints on the line below its label ("Income tax
                # expense" over "(465) (419) (343)")
                row = _row_figures(f"{heading} {line}", "", wrapped, header, page.page, table)
                heading = wrapped if row else line
            elif not row and not label_begins(line, lines[i + 1] if i + 1 < len(lines) else ""):
                wrapped = heading if heading == previous and not rows else ""
                heading, rows, totalled = line, 0, False  # "Earnings per share:" over "Basic"
            rows += bool(row)
            percents = row[0].source == PERCENT_ROW if row and percents is None else percents
            totalled = totalled or any((f.label or "").lower().startswith("total") for f in row)
            out.extend(row)
        previous = line
    return out


def _header_begun(
    lines: list[str], i: int, power: int | None, calendar: tuple[tuple[int, int], int, date | None]
) -> tuple[bool, Header | None]:
    """Whether line `i` begins a table, and its header: a sentence introducing a table ("The
    following table shows ...": the old header is done; a date it names heads the new
    one), a header's dates, or a note's one date."""
    line = lines[i]
    if _NEW_TABLE.match(line):
        return True, one_date_header(lines, i, power, calendar)
    # every date holds four digits in a row: without two such runs, no header row
    if len(_FOUR_DIGITS.findall(line)) >= 2 and len(DATE.findall(line)) >= 2:
        found = header_at(lines, i, power, calendar)
        if found is not None:
            return True, found
    one = one_date_header(lines, i, power, calendar)
    return one is not None, one


# a rate as a table prints it below the first row's "%": "11.9", "(0.5)"
_RATE = re.compile(r"\(?-?\d{1,2}\.\d\d?\)?")
_IN_YEARS = re.compile(r"\b(?:in\s+)?years\b|\bterm\b", re.IGNORECASE)


def _percent_row(
    marked: list[re.Match[str]], header: Header, line: str, percents: bool | None
) -> bool:
    """Whether a row is of percentages ("Effective tax rate (1) 21.0 % 19.5 %"), stored apart
    (`PERCENT_ROW`): each of its cells (`marked`: less a footnote's marker) marked "%" — or,
    in a table whose first row was of percentages, each a rate without the mark, as tables
    print "%" (like "$") on the first row and the total only ("U.S. 10.3 % 3.7 %" over
    "International 11.9 13.0")."""
    if marked and all("%" in c.group(0) for c in marked):
        return True
    return bool(
        percents
        and not _IN_YEARS.search(line)  # "Expected life of options (in years) 5.7 6.0"
        and len(marked) == len(header.columns)
        and all(_RATE.fullmatch(c.group(0).strip()) for c in marked)
    )


def _split_row(label: str, line: str, header: Header, before: str) -> bool:
    """Whether `line` holds a row's cells alone, one per column, below `label` — a row label
    as tables print them (no figure in it, not a heading's colon, not a sentence running on
    to the next line) that follows a whole row, a heading or the header (`before`): not one
    of a block of labels the page prints apart from a block of their figures."""
    cells = CELL.findall(f" {line}")
    return (
        len(cells) == len(header.columns)
        and (
            not before
            or before.endswith(":")
            or bool(row_cells(before))
            or _header_line(before)
            or section_heading(before)
        )
        and not CELL.sub("", f" {line}").strip(" $")
        and not DATE.search(line)  # a year's line: a header's, or a sentence's end
        and bool(_WORDED.search(label))
        and not re.search(r"\d", DATED.sub("", SAID_AMOUNT.sub("", label)))
        and not re.search(r"[:;,.]$", label)
        and len(label) <= _MAX_LABEL
        and label.split()[-1].lower() not in RUNS_ON
    )


def _scale_across(above: str, line: str) -> re.Match[str] | None:
    """A scale said across two lines ("... December 31, 2020 (in" over "thousands):"), not
    one the line above says whole."""
    if _SCALE.search(above):
        return None  # "(dollars in millions and units in" over "thousands):": the dollars'
    tail = above[-16:]
    found = _SCALE.search(f"{tail} {line[:24]}")
    return found if found and found.start() < len(tail) < found.end() - 1 else None


def _header_line(line: str) -> bool:
    """Whether a line is a header's: two dates or years, or a scale."""
    return len(DATE.findall(line)) >= 2 or bool(_SCALE.search(line))


def _unmarked(cells: list[re.Match[str]], header: Header, line: str) -> list[re.Match[str]]:
    """The row's cells less a footnote's marker after its label ("EMEA (1) 2,618 2,464 ..."),
    where the cells after it are as many as the header's periods or more."""
    first = cells[0] if len(cells) > len(header.columns) else None
    if (
        first
        and MARKER.fullmatch(first[0].strip())
        and not line[: first.start()].rstrip().endswith("$")
    ):
        return cells[1:]
    return cells


def _period_cells(cells: list[re.Match[str]], header: Header) -> list[re.Match[str]]:
    """The cells of a row that are its periods' figures, one per column: all of them where
    they are as many; where the header names columns of change, those of its periods'
    places (or the first ones, when every change column follows the periods' and the row
    has no more than an amount and a ratio for each); otherwise the last ones (numbers
    before them are the label's); [] when there are too few, or the row fits no layout the
    header names (a "% of total" beside each period's amount)."""
    wanted, layout = len(header.columns), header.layout
    if len(cells) < wanted or (single(header) and len(cells) > 1):
        return []  # one date's table: a row of several amounts is of columns it does not name
    if len(cells) == wanted:
        return cells  # one per period: the changes' cells are words ("n/m", "**") or ratios
    if not layout:
        return cells[len(cells) - wanted :]
    if len(cells) == len(layout) and sum(layout) == wanted:
        return [cell for cell, period in zip(cells, layout, strict=True) if period]
    changes = len(layout) - sum(layout)
    if list(layout) == sorted(layout, reverse=True) and len(cells) <= wanted + 2 * changes:
        return cells[:wanted]  # the periods' columns first, then an amount and a % per change
    return []


def _row_figures(
    line: str,
    previous: str,
    heading: str,
    header: Header,
    page: int,
    table: tuple[int | None, bool | None, tuple[str, ...]],
) -> list[TaggedFact]:
    """A row's figures, one per column; `table`: its power of ten, whether its first row
    was of percentages (None before its first row), and what its scale line excepts."""
    cells = row_cells(line)
    power, percents, excepted = table
    marked = _unmarked(cells, header, line)
    percent = _percent_row(marked, header, line, percents)
    if percent:
        cells = marked
        if len(cells) != len(header.columns) and not header.layout:
            return []
    else:  # "$ 3,226,773 100.0% $ 2,729,388 100.0%": a ratio column beside each amount
        cells = _unmarked([c for c in cells if "%" not in c.group(0)], header, line)
    cells = _period_cells(cells, header)
    if not cells or (single(header) and not one_amount(line, cells[0], heading)):
        return []
    label = _LEADERS.sub(" ", line[: cells[0].start()]).strip(" $:")
    # a label wrapped over two lines: it goes on in lower case, or the line above breaks
    # off after "of", "and" ... ("INCOME ... BEFORE TAXES AND EQUITY IN EARNINGS OF" over
    # "AFFILIATES 488 ...")
    if label_begins(previous, line) and not row_cells(previous) and len(previous) < 140:
        label = f"{previous.rstrip(' :')} {label}"
    if (
        not _WORDED.search(label)
        or len(label) > _MAX_LABEL
        or CELLS_INSIDE.search(label)  # a wide table's row misread: other columns' cells
    ):
        return []
    if header.layout and _FIGURE.search(label):
        return []  # "Net income 6,177 n/m": a period's figure before a change's word
    label = re.sub(r"(?<=[A-Za-z)])\s*\(\d{1,2}\)$", "", label)  # a footnote's marker: "cost (1)"
    label = under_heading(label, heading) if single(header) else label
    texts = [c.group(0) for c in cells]
    key = label_key(label)
    if not key:
        return []
    values: list[tuple[float, int | None]]  # each cell's value and decimals
    if percent:  # as printed (21.0 for "21.0 %"), its places kept; apart from the amounts
        unit, source = "%", PERCENT_ROW
        values = [(cell_value(t), len(t.strip(" %)").partition(".")[2])) for t in texts]
    else:
        unit, scale = _unit(heading, label, texts, header, (power, excepted))
        source = "table"
        if single(header) and scale is None and unit == "iso4217:USD":
            return []  # one date's amounts in a scale the page does not say
        values = [(cell_value(t) * 10.0 ** (scale or 0), -scale if scale else None) for t in texts]
    return [
        TaggedFact(
            concept=f"table:{key}",
            value=value,
            unit=unit,
            decimals=decimals,
            period_start=column.start,
            period_end=column.end,
            dimensions=(),
            page=page,
            label=label,
            source=source,
        )
        for (value, decimals), column in zip(values, header.columns, strict=True)
    ]


def _unit(
    heading: str,
    label: str,
    texts: list[str],
    header: Header,
    scale: tuple[int | None, tuple[str, ...]],
) -> tuple[str, int | None]:
    """A row's unit and the power of ten its cells are in: per share (as printed), shares or
    dollars (in the table's scale; as printed where the scale line excepts the row: "except
    ARPA")."""
    power, excepted = scale
    small = all("." in t and abs(cell_value(t)) < 1000 for t in texts)  # "3.56", not "2,729"
    lower = f"{heading} {label}".lower() if small else label.lower()
    if "per share" in lower or "per common share" in lower or "per diluted" in lower:
        return "iso4217:USD/xbrli:shares", None
    unit = "xbrli:shares" if re.search(r"\bshares\b", lower) else "iso4217:USD"
    if small and excepted:  # a row the scale line excepts: its label says the words
        said = set(phrase_words(label).split())
        if any(set(e.split()) <= said for e in excepted):
            return unit, 0
    return unit, power if power is not None else header.power


def _excepted(line: str) -> tuple[str, ...]:
    """The names a scale line says are not in its scale, as `phrase_words` writes them
    ("(dollars in millions, except ARPA)": "arpa"; "except per package and percentages":
    "package", "percentage"); none for "except per share amounts" (read apart)."""
    found = _EXCEPT.search(line)
    if found is None:
        return ()
    said = (phrase_words(p).split() for p in re.split(r",|\band\b|\bor\b", found[1]))
    kept = (" ".join(w for w in words if w not in _EXCEPT_FILLER) for words in said)
    return tuple(k for k in kept if k)
