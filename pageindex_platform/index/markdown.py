"""Markdown → pages and sections. Each header section is one "page" (long ones are split),
so that citations point at a section of the file; headers inside code fences are ignored."""

from __future__ import annotations

import re

from ..records import PageText
from ..tokens import count_tokens
from .toc import FlatEntry

_FENCE = re.compile(r"^\s*(```|~~~)")
PAGE_TOKENS = 800
THIN_TOKENS = 40  # a section whose subtree is smaller is merged into the one before it


def parse_markdown(text: str) -> tuple[list[PageText], list[FlatEntry]]:
    text = text.replace("\x00", "")  # PostgreSQL text cannot hold NUL
    sections: list[tuple[int, str, list[str]]] = [(0, "", [])]  # (level, title, lines)
    fence: str | None = None
    for line in text.splitlines():
        m = _FENCE.match(line)
        if m:
            fence = None if fence == m.group(1) else (fence or m.group(1))
        header = _header(line) if fence is None else None
        if header:
            sections.append((*header, [line]))
        else:
            sections[-1][2].append(line)
    if not "\n".join(sections[0][2]).strip():
        sections.pop(0)
    sections = _thin(sections)
    pages: list[PageText] = []
    entries: list[FlatEntry] = []
    for level, title, lines in sections:
        start = len(pages) + 1
        for piece in _split(lines):
            pages.append(PageText(len(pages) + 1, piece))
        if level:
            entries.append(FlatEntry(level, title, start))
    return pages, entries


def _header(line: str) -> tuple[int, str] | None:
    """An ATX header's level and title: `## Title`, `## Title ##`. Read by hand, not by a
    regular expression, so that a line of spaces or hashes costs time linear in its length."""
    title = line.lstrip("#")
    level = len(line) - len(title)
    if not 1 <= level <= 6 or not title[:1].isspace():
        return None
    title = title.strip()
    unclosed = title.rstrip("#")
    if unclosed != title and (not unclosed or unclosed[-1].isspace()):
        title = unclosed.rstrip()  # a closing sequence of hashes
    return (level, title) if title else None


def _thin(sections: list[tuple[int, str, list[str]]]) -> list[tuple[int, str, list[str]]]:
    """Merge a section whose whole subtree is tiny into the section before it (the
    tree-thinning of small nodes); a short header with real subsections is kept."""
    out: list[tuple[int, str, list[str]]] = []
    i = 0
    while i < len(sections):
        level, title, lines = sections[i]
        j = i + 1
        while j < len(sections) and sections[j][0] > level:
            j += 1
        subtree = [line for s in sections[i:j] for line in s[2]]
        if out and level > 0 and count_tokens("\n".join(subtree)) < THIN_TOKENS:
            out[-1][2].extend(subtree)
            i = j
            continue
        out.append((level, title, list(lines)))
        i += 1
    return out


def _split(lines: list[str]) -> list[str]:
    pieces: list[str] = []
    buffer: list[str] = []
    size = 0
    for line in lines:
        tokens = count_tokens(line) + 1
        if buffer and size + tokens > PAGE_TOKENS:
            pieces.append("\n".join(buffer))
            buffer, size = [], 0
        buffer.append(line)
        size += tokens
    if buffer or not pieces:
        pieces.append("\n".join(buffer))
    return pieces
