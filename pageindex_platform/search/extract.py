"""Local-mode answers: the lines (table rows included) of the cited pages that best match
the question, each with its document and page, labelled as extracted text."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..db.queries import PageInfo
from ..index.row_cells import CELL
from ..index.table_headers import column_periods
from ..patterns import deferred
from .results import EvidenceLine
from .terms import keywords

__all__ = ["column_periods", "extract_lines", "extractive_answer", "with_periods"]

_NUMBER = deferred(r"\d[\d,.]*")
_DIGITS = deferred(r"\d+")


@dataclass(frozen=True)
class Extract:
    document: str
    page: int
    line: str
    score: float


def extract_lines(question: str, pages: Sequence[PageInfo], *, limit: int = 6) -> list[Extract]:
    """Best lines of the pages for the question, leaving out running
    headers and footers (a page's first or last line found on several pages with only its
    number changed: "Apple Inc. | Q3 2025 Form 10-Q | 6"), which name the company and
    period of every question about that filing."""
    terms = set(keywords(question))
    running = _running_lines(pages)
    found: list[Extract] = []
    for rank, (document, page, body) in enumerate((p.document, p.page, p.text) for p in pages):
        lines = body.splitlines()
        for i, line in enumerate(lines):
            words = set(keywords(line))
            overlap = len(terms & words)
            if not overlap or len(line) < 8 or _DIGITS.sub("#", line.strip()) in running:
                continue
            score = overlap + 0.5 * bool(_NUMBER.search(line)) - 0.1 * rank
            shown = with_periods(" ".join(line.split()), lines[max(0, i - 30) : i])
            found.append(Extract(document, page, shown[:400], score))
    found.sort(key=lambda e: -e.score)
    seen: set[str] = set()
    out = []
    for e in found:
        if e.line not in seen:
            seen.add(e.line)
            out.append(e)
        if len(out) == limit:
            break
    return out


def with_periods(line: str, above: Sequence[str]) -> str:
    """A table row with each number followed by its column's period; the row as it is when
    its numbers and the header's periods do not pair up."""
    cells = list(CELL.finditer(line))
    if len(cells) < 2 or re.search(r"[A-Za-z]", CELL.sub("", line[cells[0].start() :])):
        return line  # not a table row: words among the numbers
    periods = column_periods(above)
    if len(periods) != len(cells):
        return line
    label = line[: cells[0].start()].strip(" $:") or "value"
    values = [" ".join(c.group(0).replace("$", "").split()) for c in cells]
    money = "$" in line
    shown = [
        f"{'$' if money and v[:1].isdigit() else ''}{v} ({p})"
        for v, p in zip(values, periods, strict=True)
    ]
    return f"{label}: " + "; ".join(shown)


def _running_lines(pages: Sequence[PageInfo]) -> set[str]:
    """Shapes (digits as #) of the lines heading or closing several pages with different
    numbers (page headers and footers; a table row repeated on several pages is not one)."""
    seen: dict[str, set[str]] = {}
    for page in pages:
        lines = [x for x in page.text.splitlines() if x.strip()]
        for line in lines[:2] + lines[-2:]:
            line = line.strip()
            if _DIGITS.search(line):
                seen.setdefault(_DIGITS.sub("#", line), set()).add(line)
    return {shape for shape, lines in seen.items() if len(lines) > 1}


def extractive_answer(extracts: Sequence[EvidenceLine]) -> str:
    if not extracts:
        return "No matching text found in the selected documents."
    lines = [f"- {e.text}  [{e.document}, p. {e.page}]" for e in extracts]
    return "Extracted text (no language model used):\n" + "\n".join(lines)
