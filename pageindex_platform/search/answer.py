"""Local-mode answers: the lines (table rows included) of the cited pages that best match
the question, each with its document and page, labelled as extracted text."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .semantic import keywords

_NUMBER = re.compile(r"\d[\d,.]*")
_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True)
class Extract:
    document: str
    page: int
    line: str
    score: float


def extract_lines(
    question: str, pages: Sequence[tuple[str, int, str]], *, limit: int = 6
) -> list[Extract]:
    """Best lines of (document, page, text) pages for the question, leaving out running
    headers and footers (a line found on several pages with only its number changed:
    "Apple Inc. | Q3 2025 Form 10-Q | 6"), which name the company and period of every
    question about that filing."""
    terms = set(keywords(question))
    running = _running_lines(pages)
    found: list[Extract] = []
    for rank, (document, page, body) in enumerate(pages):
        for line in body.splitlines():
            words = set(keywords(line))
            overlap = len(terms & words)
            if not overlap or len(line) < 8 or _DIGITS.sub("#", line.strip()) in running:
                continue
            score = overlap + 0.5 * bool(_NUMBER.search(line)) - 0.1 * rank
            found.append(Extract(document, page, " ".join(line.split())[:300], score))
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


def _running_lines(pages: Sequence[tuple[str, int, str]]) -> set[str]:
    """Shapes (digits as #) of lines that stand on several pages with different numbers."""
    seen: dict[str, set[str]] = {}
    for _, _, body in pages:
        for line in body.splitlines():
            line = line.strip()
            if _DIGITS.search(line):
                seen.setdefault(_DIGITS.sub("#", line), set()).add(line)
    return {shape for shape, lines in seen.items() if len(lines) > 1}


def extractive_answer(extracts: Sequence[Extract]) -> str:
    if not extracts:
        return "No matching text found in the selected documents."
    lines = [f"- {e.line}  [{e.document}, p. {e.page}]" for e in extracts]
    return "Extracted text (no language model used):\n" + "\n".join(lines)
