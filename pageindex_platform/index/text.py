"""Small text helpers shared by the TOC parser, heading detector and metadata extractor."""

from __future__ import annotations

import re

_NON_ALNUM = re.compile(r"[^0-9a-z]+")
_ITEM = re.compile(r"^item\s*(\d{1,2}[a-c]?)\b", re.IGNORECASE)
_PART = re.compile(r"^part\s+([ivx]{1,4})\b", re.IGNORECASE)


def normalize(text: str) -> str:
    """Lowercase words and digits only: 'Item 1A. Risk Factors' -> 'item 1a risk factors'."""
    text = text.lower().replace("’", "'").replace("&", " and ")
    return " ".join(_NON_ALNUM.sub(" ", text).split())


def item_label(text: str) -> str | None:
    """'ITEM 1A. Risk Factors' -> '1a'; None when the text is not an Item heading."""
    m = _ITEM.match(text.strip())
    return m.group(1).lower() if m else None


def part_label(text: str) -> str | None:
    m = _PART.match(text.strip())
    return m.group(1).lower() if m else None


def title_matches(title: str, row_text: str) -> bool:
    """Does a page row start with this section title? Items compare by their number."""
    item = item_label(title)
    if item is not None:
        return item_label(row_text) == item
    part = part_label(title)
    if part is not None:
        return part_label(row_text) == part
    want = normalize(title)[:40]
    if len(want) < 4:
        return False
    return normalize(row_text).startswith(want)
