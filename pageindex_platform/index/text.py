"""Small text helpers shared by the TOC parser, heading detector and metadata extractor."""

from __future__ import annotations

import re
from collections.abc import Iterable

_NON_ALNUM = re.compile(r"[^0-9a-z]+")
_ITEM = re.compile(r"^item\s*(\d{1,2}[a-c]?)\b", re.IGNORECASE)
_PART = re.compile(r"^part\s+([ivx]{1,4})\b", re.IGNORECASE)


def normalize(text: str) -> str:
    """Lowercase words and digits only: 'Item 1A. Risk Factors' -> 'item 1a risk factors'."""
    text = text.lower().replace("’", "'").replace("&", " and ")
    return " ".join(_NON_ALNUM.sub(" ", text).split())


def phrase_words(value: str) -> str:
    """Lower-case words with a plural `s` dropped, space-padded for phrase matching ("Capital
    Expenditures" is " capital expenditure ", found in " fy2018 capital expenditure "); an
    "&" between words is "and" ("Cash & cash equivalents")."""
    words = [
        "and" if w == "&" else w for w in re.findall(r"[a-z0-9&]+", value.lower().replace("-", " "))
    ]
    return " " + " ".join(w[:-1] if len(w) > 3 and w.endswith("s") else w for w in words) + " "


def item_label(text: str) -> str | None:
    """'ITEM 1A. Risk Factors' -> '1a'; None when the text is not an Item heading."""
    m = _ITEM.match(text.strip())
    return m.group(1).lower() if m else None


def part_label(text: str) -> str | None:
    m = _PART.match(text.strip())
    return m.group(1).lower() if m else None


def squeezed(texts: Iterable[str]) -> str:
    """The texts' non-blank lines, each with its runs of whitespace made one space: what the
    metadata patterns read, so that no run of spaces or blank lines makes them backtrack."""
    lines = (" ".join(line.split()) for text in texts for line in text.splitlines())
    return "\n".join(line for line in lines if line)
