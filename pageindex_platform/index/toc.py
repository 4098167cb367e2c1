"""A table of contents printed in the first pages, parsed and mapped to physical pages.

Many SEC PDFs have no outline, but print a TOC with page numbers. We find TOC pages among
the first `max_pages`, parse rows that end in a page number, and map printed numbers to
physical pages: by the page numbers printed in page footers/headers where they exist, and by
an offset voted over titles found on their pages.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..records import FlatEntry
from .layout import PageLayout
from .text import item_label, normalize, part_label

# A contents row ends in its page number (or a range of pages): "Risk Factors ..... 12"
_PAGE_AT_END = re.compile(r"(?<!\d)(\d{1,4})(?:\s?[-–]\s?\d{1,4})?$")
_LEADER = " .·…_-"
_FOOTER_NUMBER = re.compile(
    r"^(?:page\s+)?[-–]?\s*(?P<n>\d{1,4})\s*[-–]?$|^(?P<n2>\d{1,4})\s*[|]|[|]\s*(?P<n3>\d{1,4})$",
    re.IGNORECASE,
)
_CONTENTS = re.compile(r"table of contents|^contents$|^index$|^index to", re.IGNORECASE)


@dataclass(frozen=True)
class TocEntry:
    level: int
    title: str
    printed_page: int | None
    x0: float


def _entries_on_page(layout: PageLayout, page_count: int) -> list[TocEntry]:
    out: list[TocEntry] = []
    wrapped: str | None = None  # an "Item 5. Market for ..." row whose page number is below
    for row in layout.rows:
        text = row.text.strip()
        entry = contents_row(text)
        if entry:
            title, page = entry
            if len(title) >= 3 and page <= page_count + 20 and not title.isdigit():
                if wrapped and not item_label(title) and not part_label(title):
                    title, x0 = f"{wrapped} {title}", out.pop().x0
                else:
                    x0 = row.x0
                out.append(TocEntry(0, title, page, x0))
                wrapped = None
                continue
        wrapped = None
        if part_label(text) is not None and len(text) < 60:
            out.append(TocEntry(0, text, None, row.x0))
        elif item_label(text) is not None and len(text) < 150:
            out.append(TocEntry(0, text, None, row.x0))
            wrapped = text
    return [e for e in out if e.printed_page is not None or part_label(e.title)]


def contents_row(text: str) -> tuple[str, int] | None:
    """(title, printed page) of a row that reads like a contents entry: a title with a letter,
    then a space, a leader of two or more dots or an ellipsis, then the page number. Found
    from the row's end, in time linear in its length (a row of 3,000 dots included)."""
    m = _PAGE_AT_END.search(text)
    if m is None:
        return None
    before = text[: m.start()]
    if not (before[-1:].isspace() or before.endswith(("..", "…"))):
        return None
    title = before.strip(_LEADER + "\t\u00a0")
    if not any("a" <= c.lower() <= "z" for c in title):
        return None
    return title, int(m.group(1))


def _is_toc_page(layout: PageLayout, entries: list[TocEntry]) -> bool:
    numbered = [e for e in entries if e.printed_page is not None]
    if len(numbered) < 5:
        return False
    items = sum(1 for e in numbered if item_label(e.title))
    titled = any(_CONTENTS.search(r.text.strip()) for r in layout.rows[:12])
    pages = [e.printed_page for e in numbered if e.printed_page is not None]
    ascending = sum(1 for a, b in itertools.pairwise(pages) if b >= a)
    mostly_ascending = ascending >= 0.7 * (len(pages) - 1)
    return mostly_ascending and (titled or items >= 3 or len(numbered) >= 10)


def find_toc(layouts: list[PageLayout], max_pages: int) -> tuple[list[TocEntry], list[int]]:
    """Entries of the first TOC found in the first `max_pages` pages, and the TOC's pages."""
    page_count = len(layouts)
    entries: list[TocEntry] = []
    toc_pages: list[int] = []
    for layout in layouts[:max_pages]:
        found = _entries_on_page(layout, page_count)
        if _is_toc_page(layout, found):
            if toc_pages and layout.page != toc_pages[-1] + 1:
                break  # a second, separate TOC (e.g. of the financial statements)
            entries.extend(found)
            toc_pages.append(layout.page)
        elif toc_pages:
            break
    return _assign_levels(entries), toc_pages


def _assign_levels(entries: list[TocEntry]) -> list[TocEntry]:
    has_parts = any(part_label(e.title) for e in entries)
    item_level = 2 if has_parts else 1
    out: list[TocEntry] = []
    last_item_x: float | None = None
    for e in entries:
        if part_label(e.title):
            level, last_item_x = 1, None
        elif item_label(e.title):
            level, last_item_x = item_level, e.x0
        elif last_item_x is not None and e.x0 > last_item_x + 8:
            level = item_level + 1
        else:
            level, last_item_x = item_level, None
        out.append(TocEntry(level, e.title, e.printed_page, e.x0))
    return out


def printed_page_numbers(layouts: list[PageLayout]) -> dict[int, int]:
    """Physical page -> the page number printed as its last or first rows, where found."""
    found: dict[int, int] = {}
    for layout in layouts:
        rows = layout.rows
        for row in [*reversed(rows[-2:]), *rows[:2]]:
            m = _FOOTER_NUMBER.search(row.text.strip())
            if m:
                found[layout.page] = int(m.group("n") or m.group("n2") or m.group("n3"))
                break
    return found


class HeadingIndex:
    """Where each title could start: item/part labels and normalized rows of every page."""

    def __init__(self, pages: Iterable[tuple[int, Sequence[str]]], rows_per_page: int = 40):
        """`pages`: (1-based page, its rows of text, top first)."""
        self.items: dict[str, list[int]] = {}
        self.parts: dict[str, list[int]] = {}
        self.rows: list[tuple[int, list[str]]] = []
        for page, rows in pages:
            norm: list[str] = []
            for row in rows[:rows_per_page]:
                item, part = item_label(row), part_label(row)
                if item:
                    self.items.setdefault(item, []).append(page)
                if part:
                    self.parts.setdefault(part, []).append(page)
                norm.append(normalize(row))
            self.rows.append((page, norm))

    def pages_for(self, title: str, after: int = 0) -> list[int]:
        item, part = item_label(title), part_label(title)
        if item is not None:
            pages = self.items.get(item, [])
        elif part is not None:
            pages = self.parts.get(part, [])
        else:
            want = normalize(title)[:40]
            if len(want) < 4:
                return []
            pages = [p for p, rows in self.rows if any(r.startswith(want) for r in rows)]
        return sorted({p for p in pages if p > after})


def map_to_physical(
    entries: list[TocEntry], layouts: list[PageLayout], toc_pages: list[int]
) -> list[FlatEntry]:
    """Physical start pages for TOC entries; entries that cannot be placed are dropped."""
    after = toc_pages[-1] if toc_pages else 0
    page_count = len(layouts)
    footers = printed_page_numbers(layouts)
    by_printed: dict[int, list[int]] = {}
    for phys, printed in footers.items():
        if phys > after:
            by_printed.setdefault(printed, []).append(phys)

    numbered = [e for e in entries if e.printed_page is not None]
    votes: Counter[int] = Counter()
    found_pages: dict[int, list[int]] = {}
    index_ = HeadingIndex((lay.page, [r.text for r in lay.rows]) for lay in layouts)
    for i, e in enumerate(numbered):
        pages = index_.pages_for(e.title, after)
        found_pages[i] = pages
        for p in pages:
            votes[p - (e.printed_page or 0)] += 1
    for phys, printed in footers.items():
        if phys > after:
            votes[phys - printed] += 1
    offset = votes.most_common(1)[0][0] if votes else 0  # the usual offset, until titles
    # found on their pages show another one (page numbering often restarts or drifts)

    placed: list[FlatEntry] = []
    pending_parts: list[TocEntry] = []
    previous = after + 1 if after else 1
    index = 0
    for e in entries:
        if e.printed_page is None:
            pending_parts.append(e)
            continue
        pages = found_pages[index]
        index += 1
        candidates = list(by_printed.get(e.printed_page, []))
        guess = e.printed_page + offset
        candidates.append(guess)
        near = [p for p in pages if any(abs(p - c) <= 2 for c in candidates) and p >= previous]
        if near:
            start = min(near, key=lambda p: min(abs(p - c) for c in candidates))
            offset = start - e.printed_page
        else:
            ok = [c for c in candidates if previous <= c <= page_count]
            if not ok:
                continue
            start = min(ok, key=lambda c: abs(c - guess))
        for part in pending_parts:
            placed.append(FlatEntry(part.level, part.title, start))
        pending_parts = []
        placed.append(FlatEntry(e.level, e.title, start))
        previous = start
    return placed


def toc_entries(layouts: list[PageLayout], max_pages: int) -> list[FlatEntry]:
    """Sections from a printed TOC, or [] when no usable TOC is found."""
    entries, toc_pages = find_toc(layouts, max_pages)
    if not entries:
        return []
    placed = map_to_physical(entries, layouts, toc_pages)
    numbered = sum(1 for e in entries if e.printed_page is not None)
    if len(placed) < 3 or len(placed) < 0.5 * numbered:
        return []
    return placed


def outline_entries(outline: list[tuple[int, str, int]], page_count: int) -> list[FlatEntry]:
    """Sections from PDF bookmarks, skipping those without a valid destination."""
    out: list[FlatEntry] = []
    previous = 1
    for level, title, page in outline:
        title = " ".join(title.split())
        if not title or page < 1 or page > page_count or page < previous:
            continue
        out.append(FlatEntry(max(1, level), title, page))
        previous = page
    return out if len(out) >= 3 else []


__all__ = ["FlatEntry", "normalize", "outline_entries", "toc_entries"]
