"""Where a figure is printed on its page: the forms its digits take, the line of its row,
the header of its table and the lines above it that say what the table is about, and
whether its columns are headed by dates (a balance's) rather than years or spans."""

from __future__ import annotations

import re

from ..index.table_headers import column_periods
from ..patterns import deferred
from ..periods import MONTH_WORDS
from .figures import Figure
from .terms import phrase_words

_MONTH = deferred(rf"\b{MONTH_WORDS}", re.IGNORECASE)
_DATES = deferred(rf"{_MONTH.pattern}\s+\d{{1,2}},?\s*\d{{4}}|(?<![\d,.$])(?:19|20)\d\d\b")
_ROW_WINDOW = 25  # lines above a row within which its table's header is sought
_HEADER_LINES = 4  # lines above a table's header that say what it is about


def printed_forms(figure: Figure) -> list[str]:
    """The ways a filing may print the figure: in its own scale and the usual others, with
    and without thousands separators."""
    value = abs(figure.value)
    if figure.unit == "%":  # a row of percentages ("21.0 %"): its places as printed
        return [f"{value:,.{figure.decimals or 0}f}"]
    if "/" in figure.unit or value < 1:  # per share, or a row's figure below one ("0.50")
        return [f"{value:.2f}", f"{value:.2f}".rstrip("0").rstrip(".")]
    forms: list[str] = []
    for exponent in dict.fromkeys((figure.exponent, 6, 3, 0, 9)):
        scaled = value / 10.0**exponent
        if scaled < 1:
            continue
        if abs(scaled - round(scaled)) < 1e-6:
            forms.extend((f"{round(scaled):,}", f"{round(scaled)}"))
        else:
            forms.extend(f"{scaled:,.{p}f}" for p in (1, 2))
    return list(dict.fromkeys(forms))


def printed_form(figure: Figure, text: str) -> str:
    """The form the figure's digits take on the page (`printed_forms`), as a whole number
    ("3.4", not the start of "3.45"; "800", not the end of "2,800"); "" when none is printed
    there."""
    flat = " ".join(text.split())
    return next((form for form in printed_forms(figure) if _holds(flat, form)), "")


def _holds(text: str, form: str) -> bool:
    """Whether `text` prints `form` as a whole number ("800", not the end of "2,800" nor the
    start of "800.5"; "11,297" printed "11,297.0")."""
    return bool(re.search(rf"(?<![\d.])(?<!\d,){re.escape(form)}(?!\d|,\d|\.0*[1-9])", text))


def page_lines(text: str) -> list[str]:
    """A page's lines, each with its spaces squeezed, as rows and headings are compared."""
    return [" ".join(x.split()) for x in text.splitlines()]


def row_line(figure: Figure, text: str) -> str:
    """The line of the page that holds the figure's row ("" when the page is empty)."""
    lines = page_lines(text)
    return lines[row_at(figure, lines)] if lines else ""


def dated_columns(figure: Figure, text: str) -> bool:
    """Whether the figure's table heads its columns with dates ("December 31, 2020") rather
    than years or spans ("2020", "Year ended December 31, 2020"): a balance's columns."""
    lines = page_lines(text)
    at = row_at(figure, lines)
    for back in range(at, max(-1, at - _ROW_WINDOW * 2), -1):
        if len(_DATES.findall(lines[back])) >= 2:
            labels = column_periods(lines[max(0, back - 3) : back + 1])
            if labels:
                return all(_MONTH.search(x) and "ended" not in x for x in labels)
    return False


def table_context(figure: Figure, text: str) -> str:
    """The lines that say what the figure's table is about: its row, its column header and
    the few lines above that header."""
    lines = page_lines(text)
    at = row_at(figure, lines)
    header = header_at(figure, lines)
    start = max(0, header - _HEADER_LINES)
    # not a row of the table above ("Total Revenue $ 15,007 ..." over "Adjusted PTC")
    above = [i for i in range(start, header) if _A_ROW.search(lines[i]) and dates_in(lines[i]) < 2]
    start = max([start, *(i + 1 for i in above)])
    return "\n".join([*lines[start : header + 1], lines[at] if lines else ""])


_A_ROW = deferred(r"\d[\d,.]*\)?\s+\$?\s*\(?\d")  # two figures side by side: a table's row


def dates_in(line: str) -> int:
    """How many dates or years a line names (a table header's line names one or more)."""
    return len(_DATES.findall(line))


def header_at(figure: Figure, lines: list[str]) -> int:
    """The line of the header over the figure's row: the nearest above it (or it) that
    names two periods; the row's own line where none does."""
    at = row_at(figure, lines)
    return next(
        (i for i in range(at, max(-1, at - _ROW_WINDOW * 2), -1) if dates_in(lines[i]) >= 2),
        at,
    )


def row_headings(figure: Figure, text: str) -> list[str]:
    """The headings the figure's row stands under inside its table, nearest first: the lines
    above the row, below the table's header, that hold no figure ("Operating Revenues" over
    "Electric" and "Natural gas"; "Internet of Things" and then "Operating income (loss):"
    over a segment's row), less those of blocks closed by their total above the row
    ("Finance lease cost:" heads "Total finance lease cost", not the "Net lease cost" after
    it; "Revenues:" still heads the rows after "Total cloud revenues")."""
    lines = page_lines(text)
    at = row_at(figure, lines)
    found: list[str] = []
    closed: set[str] = set()  # the names of blocks whose total is printed above the row
    for back in range(at - 1, max(-1, at - _ROW_WINDOW), -1):
        line = lines[back]
        if len(_DATES.findall(line)) >= 2 or _SENTENCE.match(line):
            break  # the table's header, or the sentence that introduces the table
        total = _TOTAL_ROW.match(line)
        if total:  # "Total finance lease cost" closes the block "Finance lease cost:" heads
            closed.add(phrase_words(total[1]))
        if line and not re.search(r"\d", line) and phrase_words(line) not in closed:
            found.append(line)
    return found


_TOTAL_ROW = deferred(r"total\s+([^\d$(]+?)\s*[\d$(]", re.IGNORECASE)
# a sentence that introduces a table ("The following table shows changes in revenue ... (in
# millions):"): eight words or more, ending in a colon or a full stop
_SENTENCE = deferred(r"(?:\S+\s+){7,}\S*[:.]\)?$")


def row_at(figure: Figure, lines: list[str]) -> int:
    """The line holding the figure's row: its label followed by its digits (else its label
    alone; a label wrapped over two lines, its second), else the page's last line."""
    label = " ".join(figure.label.split()).lower()
    rows = [i for i, line in enumerate(lines) if label and line.lower().startswith(label)]
    alone = {i for i in rows if _label_alone(lines[i], label)}  # its digits on the next line
    if not rows and label:  # a label printed over two lines: the row is its second
        rows = [
            i + 1
            for i in range(len(lines) - 1)
            if f"{lines[i]} {lines[i + 1]}".lower().startswith(label)
        ]
    forms = printed_forms(figure)
    for i in rows:
        # its digits on its line, or on the next where the label stands alone and the next
        # holds figures only ("Recourse debt" over "5,015 5,107")
        below = lines[i + 1] if i in alone and i + 1 < len(lines) else ""
        below = below if _FIGURES_ONLY.fullmatch(below) else ""
        if any(_holds(lines[i], f) or _holds(below, f) for f in forms):
            return i
    return rows[0] if rows else len(lines) - 1


_FIGURES_ONLY = deferred(r"[\s$\d,.()—–%-]+")


def _label_alone(line: str, label: str) -> bool:
    """Whether the line is the label alone (no figure after it)."""
    return not re.search(r"\d", line[len(label) :])


_CONTINUING = deferred(r"\bcontinuing\s+operations\b", re.IGNORECASE)
_CONTINUING_SAID = deferred(r"\bcontinuing\b", re.IGNORECASE)


def continuing_unsaid(question: str, figure: Figure, text: str) -> str | None:
    """Why a row's figure (on a page of `text`) is not the one asked where the question asks
    continuing operations' and neither the row, a heading above it nor a row of continuing
    operations with the same figure says so ("Net income per share - diluted" for EPS from
    continuing operations, where the total includes a discontinued business); None where it
    is not asked or is said."""
    if not _CONTINUING.search(question) or _CONTINUING_SAID.search(figure.label):
        return None
    if any(_CONTINUING_SAID.search(h) for h in row_headings(figure, text)):
        return None
    # the same figure on a row of continuing operations (nothing discontinued: "—")
    said = (line for line in text.splitlines() if _CONTINUING_SAID.search(line))
    if any(printed_form(figure, line) for line in said):
        return None
    return f"continuing operations are asked; {figure.label!r} does not say so"
