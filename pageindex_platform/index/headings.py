"""Headings detected from the page layout, for PDFs with neither outline nor printed TOC.

Pattern headings ("PART II", "Item 7.", "NOTE 3") are taken in document order; other
headings are rows set in a larger or bold font than the body text, short and mostly words.
"""

from __future__ import annotations

import re
from collections import Counter

from .layout import PageLayout, Row
from .text import item_label, part_label
from .toc import FlatEntry

_NOTE = re.compile(r"^note\s+(\d{1,2})\b[.:\s—–-]", re.IGNORECASE)
_LISTED = re.compile(r"[A-Za-z)]\s*\.*\s+\d{1,3}$")  # "Note 6 - Income Taxes 74": a contents row
_ROMAN_ORDER = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5}
_MAX_HEADING_CHARS = 90


def body_font_size(layouts: list[PageLayout]) -> float:
    sizes: Counter[float] = Counter()
    for layout in layouts:
        for row in layout.rows:
            sizes[row.size] += len(row.text)
    return sizes.most_common(1)[0][0] if sizes else 10.0


def _is_wordy(row: Row) -> bool:
    text = row.text
    letters = sum(c.isalpha() for c in text)
    digits = sum(c.isdigit() for c in text)
    return (
        3 <= len(text) <= _MAX_HEADING_CHARS
        and letters >= 0.6 * len(text.replace(" ", ""))
        and digits <= 4
        and text[0].isalpha()
        and text[0].isupper()
        and not text.endswith((",", ";"))
    )


def _item_key(label: str) -> tuple[int, str]:
    digits = "".join(c for c in label if c.isdigit())
    return int(digits), label[len(digits) :]


def detect_headings(layouts: list[PageLayout], *, skip_pages: int = 0) -> list[FlatEntry]:
    """Section starts found in the layout, in page order."""
    body = body_font_size(layouts)
    entries: list[FlatEntry] = []
    last_part = 0
    last_item: tuple[int, str] = (0, "")
    last_note = 0
    for layout in layouts:
        if layout.page <= skip_pages:
            continue
        for row in layout.rows[:60]:
            text = row.text.strip()
            if len(text) > 150 or _LISTED.search(text):
                continue
            part, item, note = part_label(text), item_label(text), _NOTE.match(text)
            if part and _ROMAN_ORDER.get(part, 0) > last_part and len(text) < 80:
                last_part = _ROMAN_ORDER[part]
                entries.append(FlatEntry(1, text, layout.page))
            elif item and _item_key(item) > last_item:
                last_item = _item_key(item)
                entries.append(FlatEntry(2, text[:_MAX_HEADING_CHARS], layout.page))
            elif note and int(note.group(1)) == last_note + 1:
                last_note += 1
                entries.append(FlatEntry(3, text[:_MAX_HEADING_CHARS], layout.page))
    if len(entries) >= 3:
        return entries
    return _font_headings(layouts, body, skip_pages)


def _font_headings(layouts: list[PageLayout], body: float, skip_pages: int) -> list[FlatEntry]:
    """Headings by typography: sizes above the body become levels, biggest first."""
    candidates: list[tuple[int, Row]] = []
    for layout in layouts:
        if layout.page <= skip_pages:
            continue
        for row in layout.rows[:60]:
            bigger = row.size >= body + 1.5
            if (bigger or (row.bold and row.size >= body)) and _is_wordy(row):
                candidates.append((layout.page, row))
    if not candidates:
        return []
    # Repeated rows (running headers, table headings on every page) are not sections.
    counts = Counter(r.text.lower() for _, r in candidates)
    candidates = [(p, r) for p, r in candidates if counts[r.text.lower()] <= 2]
    sizes = sorted({r.size for _, r in candidates if r.size >= body + 1.5}, reverse=True)[:2]
    out: list[FlatEntry] = []
    for page, row in candidates:
        level = sizes.index(row.size) + 1 if row.size in sizes else len(sizes) + 1
        if out and out[-1].start_page == page and out[-1].level <= level:
            continue  # one section start per page and level is enough
        out.append(FlatEntry(level, row.text, page))
    max_sections = max(3, len(layouts) // 2)
    if len(out) > max_sections:  # keep the top levels only
        top = min(e.level for e in out)
        out = [e for e in out if e.level == top]
    return out if len(out) >= 2 else []
