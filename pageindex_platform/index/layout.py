"""Rows of text with their position and font, the raw material for TOC and heading detection."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Row:
    """One visual line of a page: spans sharing a baseline, left to right."""

    text: str
    x0: float
    y0: float
    size: float
    bold: bool
    last_x0: float  # where the right-most span starts (page numbers in a TOC sit there)
    last_text: str


@dataclass(frozen=True)
class PageLayout:
    page: int  # 1-based
    width: float
    height: float
    rows: list[Row]

    @property
    def text(self) -> str:
        return "\n".join(r.text for r in self.rows)


_CONTROL = dict.fromkeys(c for c in range(32) if c not in (9, 10))  # NUL etc.: not text


_Span = tuple[float, float, float, str, float, bool]  # baseline, x0, x1, text, size, bold


def rows_from_dict(page_dict: Mapping[str, Any]) -> list[Row]:
    """Group the spans of `page.get_text("dict")` into rows by baseline (run on every page of
    every PDF: written for speed)."""
    spans: list[_Span] = []
    add = spans.append
    for block in page_dict.get("blocks", ()):
        for line in block.get("lines", ()):
            if line["dir"][1] != 0:  # skip rotated text
                continue
            for span in line["spans"]:
                text = span["text"]
                if not text.isprintable():
                    text = text.translate(_CONTROL)
                if not text or text.isspace():
                    continue
                x0, _, x1, y1 = span["bbox"]
                bold = bool(span["flags"] & 16) or "bold" in span["font"].lower()
                add((y1, x0, x1, text, float(span["size"]), bold))
    spans.sort(key=lambda s: (s[0], s[1]))
    rows: list[list[_Span]] = []
    for span in spans:
        if rows and abs(rows[-1][0][0] - span[0]) <= 2.5:
            rows[-1].append(span)
        else:
            rows.append([span])
    return [r for r in map(_row, rows) if r is not None]


def _row(spans: list[_Span]) -> Row | None:
    """One row from its spans: their text left to right, a space where a gap parts them."""
    spans.sort(key=lambda s: s[1])
    parts: list[str] = []
    prev_x1: float | None = None
    for _, x0, x1, text, _, _ in spans:
        if prev_x1 is not None and x0 - prev_x1 > 1.0 and not parts[-1].endswith(" "):
            parts.append(" ")
        parts.append(text)
        prev_x1 = x1
    text = " ".join("".join(parts).split())
    if not text:
        return None
    chars = bold_chars = 0
    size = 0.0
    for _, _, _, said, said_size, bold in spans:
        chars += len(said)
        bold_chars += len(said) if bold else 0
        size = max(size, said_size)
    return Row(
        text=text,
        x0=spans[0][1],
        y0=spans[0][0] - size,
        size=round(size, 1),
        bold=bold_chars * 2 > chars,
        last_x0=spans[-1][1],
        last_text=spans[-1][3].strip(),
    )
