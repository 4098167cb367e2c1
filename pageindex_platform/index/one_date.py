"""A table headed by one date: a note's table of single amounts at one balance date or for one
period. Filings introduce such a table with a sentence that names its date ("... our
operating lease liabilities at December 31, 2019, are as follows (amounts in millions):"),
head it with a line that begins with the date ("At December 31, 2019", "As of June 30, 2023
Balance Sheet Classification"), or print the year alone under its span ("Year Ended December
31," over "2019"). Its rows are read only where each holds one amount (`single`): a row of
several is of columns the date does not name (operating and finance leases, gross and net)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, timedelta

from ..patterns import deferred
from ..periods import MONTH_WORDS
from .row_cells import MARKER, row_cells
from .table_headers import DATE, Header, column_dates

_FULL_DATE = rf"(?:{MONTH_WORDS})\s+\d{{1,2}},\s*\d{{4}}"
# a sentence that says a table follows it: "... were as follows (amounts in millions):"
_INTRODUCES = deferred(r"\b(?:follows|following|below)\b[^.:]*:$", re.IGNORECASE)
# the span just before the date: "for the year ended December 31, 2019"
_SPAN = deferred(
    r"\b((?:three|six|nine|twelve)\s+months|(?:fiscal\s+)?years?|quarter)\s+ended\s*$",
    re.IGNORECASE,
)
# a header line that begins with its date, its column's name after it
_LEADS = deferred(
    rf"(?:(?:at|as\s+of)\s+)?({_FULL_DATE})(?:\s+[A-Za-z][A-Za-z ,&/()'-]*)?", re.IGNORECASE
)
# a span line over a year alone: "Year Ended December 31," "Fiscal Year Ended"
_SPAN_LINE = deferred(
    rf"((?:fiscal\s+)?years?|(?:three|six|nine|twelve)\s+months|quarter)\s+ended"
    rf"(?:\s+((?:{MONTH_WORDS})\s+\d{{1,2}}))?,?",
    re.IGNORECASE,
)
# a statement of flows the sentence names ("summarized statement of income information")
_FLOWS = deferred(
    r"\bstatements?\s+of\s+(?:comprehensive\s+)?(?:income|operations|earnings|cash\s+flows?)\b"
    r"|\bincome\s+statement",
    re.IGNORECASE,
)
_SENTENCE_END = deferred(r"(?<=[a-z0-9)]\.)\s+(?=[A-Z])")
# how long before the filing's own period a one-date table's date may be (its prior year's)
_LONG_AGO = timedelta(days=800)
# words of a row label named with the heading over it
_SHORT_LABEL = 2
# what a table of part of the company is of: a group of subsidiaries, what is held for sale,
# what an acquisition brought, an investee's
_PART = deferred(
    r"\b(?:guarantors?|issuers?|held\s+for\s+sale|discontinued|acquired|acquisition|purchase\s+price|"
    r"subsidiar(?:y|ies)|parent|investees?|joint\s+ventures?|equity\s+method|summarized)\b",
    re.IGNORECASE,
)
# a line of prose: many words and no amount at its end (a paragraph after the table)
_PROSE_WORDS = 12


def one_date_header(
    lines: Sequence[str],
    at: int,
    power: int | None,
    calendar: tuple[tuple[int, int], int, date | None],
) -> Header | None:
    """The one-column header whose line is `at` (see the module's note), or None. A date
    after the filing's own period heads no amounts of it (a schedule's years to come), nor
    one years before it (a contract's or an acquisition's of long ago)."""
    line = lines[at]
    if not re.search(r"\d{4}", line):
        return None
    label = _introduced(lines, at) or _led(lines, at) or _under_span(lines, at)
    if not label:
        return None
    year_end, offset, latest = calendar
    column = column_dates(label, year_end=year_end, offset=offset)
    end = date.fromisoformat(column.end)
    if latest is not None and not latest - _LONG_AGO <= end <= latest:
        return None
    return Header([column], power, [label])


def single(header: Header) -> bool:
    """Whether `header` is one date's, whose rows are read only where they hold one amount."""
    return len(header.columns) == 1


# footnote markers after a label: "Equity securities (1)(3)"
_MARKERS = deferred(rf"(?:{MARKER.pattern})+")


# a heading over rows of years or rates, not amounts
_OTHER_UNIT = deferred(r"\((?:in\s+)?(?:years?|%|percent)\)|\b(?:term|rate)\b", re.IGNORECASE)


def one_amount(line: str, cell: re.Match[str], heading: str) -> bool:
    """Whether a one-date table's row `line` ends with an amount in `cell`: not a year
    ("Balance Sheet: 2018"), a footnote's marker ("Contractual Obligations (1)"; "(30)" is an
    amount), a day after its month ("For the years ending December 31,") or a page's number;
    its label holds no figure (a wider table's cells: "Interest rate swap contracts 1,003
    Other assets 27"), and the `heading` over it names no other unit ("Weighted-average
    remaining lease term (years)")."""
    text = cell.group(0).strip()
    if re.fullmatch(r"(?:19|20)\d\d|\([1-9]\)", text) or _OTHER_UNIT.search(heading):
        return False
    label = _MARKERS.sub("", line[: cell.start()]).split()
    return (
        bool(label)
        and not re.fullmatch(MONTH_WORDS, label[-1], re.IGNORECASE)
        and not any(re.search(r"\d", word) for word in label)  # other columns' cells
        and label != ["Page"]  # a page's number under a letter's date
        and label[-1] != "Level"  # a fair value hierarchy's level
    )


def under_heading(label: str, heading: str) -> str:
    """A row label of a word or two under a heading that ends with a colon, named with it:
    "Operating leases" under "Right-of-use assets obtained in exchange for new lease
    obligations:" is not the operating leases' cost or balance; a total, or a label of more
    words ("Finance lease cost" under "Finance lease cost:"), names itself."""
    words = label.split()
    if heading.endswith(":") and len(words) <= _SHORT_LABEL and words[0].lower() != "total":
        return f"{heading.rstrip(' :')}: {label}"
    return label


def ends_table(line: str) -> bool:
    """Whether `line` is prose that ends a one-date table: many words, no amount after them."""
    return len(line.split()) >= _PROSE_WORDS and not row_cells(line)


def _introduced(lines: Sequence[str], at: int) -> str:
    """The period a sentence names for the table it introduces: one date, a balance's ("at
    December 31, 2019") or a span's ("for the year ended December 31, 2019"), the sentence
    perhaps begun on the line above."""
    line = lines[at].strip()
    if not _INTRODUCES.search(line):
        return ""
    above = lines[at - 1].strip() if at else ""
    text = line if not above or above.endswith(".") else f"{above} {line}"
    sentence = _SENTENCE_END.split(text)[-1]
    dates = list(DATE.finditer(sentence))
    if len(dates) != 1 or not re.fullmatch(_FULL_DATE, dates[0].group(0), re.IGNORECASE):
        return ""
    if _PART.search(sentence):
        return ""  # a part of the company's table, beside the company's own lines
    span = _SPAN.search(sentence[: dates[0].start()])
    when = " ".join(dates[0].group(0).split())
    if span:
        return f"{_kind(span.group(1))} ended {when}"
    # "summarized statement of income information as of May 31, 2023": flows under a
    # balance's date, whose span the sentence does not say
    return "" if _FLOWS.search(sentence) else when


def _led(lines: Sequence[str], at: int) -> str:
    """The date a header line begins with ("At December 31, 2019 Balance Sheet
    Classification"), the line holding no other date and no amount; a span's where the line
    above says it ("Year Ended" over "December 31, 2019")."""
    found = _LEADS.fullmatch(lines[at].strip())
    if found is None or len(DATE.findall(lines[at])) != 1:
        return ""
    when = " ".join(found.group(1).split())
    span = _SPAN_LINE.fullmatch(lines[at - 1].strip()) if at else None
    return f"{_kind(span.group(1))} ended {when}" if span and not span.group(2) else when


def _under_span(lines: Sequence[str], at: int) -> str:
    """A year alone under its span line ("Year Ended December 31," over "2019")."""
    year = lines[at].strip()
    if not at or not re.fullmatch(r"(?:19|20)\d\d", year):
        return ""
    span = _SPAN_LINE.fullmatch(lines[at - 1].strip())
    if span is None:
        return ""
    kind = _kind(span.group(1))
    return f"{kind} ended {span.group(2)}, {year}" if span.group(2) else f"{kind} ended {year}"


def _kind(span: str) -> str:
    """A span's words as a column's label reads them: "Fiscal Years" is "year"."""
    return re.sub(r"^(?:fiscal\s+)?years?$", "year", " ".join(span.lower().split()))
