"""The line items a question names: each by the longest of its names the question writes
(with its owner said: "repurchases of its common stock"), less those named only in parentheses
beside another, and less the balance of cash where cash is what a figure was paid with."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from .figures import LineItem
from .terms import phrase_words


def items_in(text: str, items: Sequence[LineItem]) -> list[tuple[LineItem, int, int]]:
    """The line items `text` names, the longest name first: (item, where, length)."""
    words = phrase_words(text)
    found = []
    for item in items:
        spans = [
            (words.find(w), len(w))
            for w in _owned(phrase_words(n.removesuffix(" *")) for n in item.names)
            if w in words
        ]
        if spans:
            at, length = max(spans, key=lambda s: s[1])
            found.append((item, at, length))
    found.sort(key=lambda x: -x[2])
    return found


def _owned(names: Iterable[str]) -> Iterator[str]:
    """Each name, and the name with its owner said ("repurchases of its common stock")."""
    for name in names:
        yield name
        if " of " in name:
            yield from (name.replace(" of ", f" of {owner} ", 1) for owner in ("its", "their"))


# cash as what a figure was paid with: "How much cash did Acme pay for repurchases ..."
_CASH_PAID = re.compile(
    r"\bhow\s+much\s+cash\s+(?:did|does|do|was|were|has|have|will)\b[^?]*?\b(?:pay|paid|spen[dt]|"
    r"used?|return(?:ed)?|receiv(?:e|ed)|generat(?:e|ed)|invest(?:ed)?|distribut(?:e|ed))\b",
    re.IGNORECASE,
)


def items_asked(question: str, items: Sequence[LineItem]) -> list[tuple[LineItem, int, int]]:
    """The line items a question names (`items_in`), less those it names only in parentheses
    where it names another outside them: "diluted earnings per share (net income attributable
    to Acme common stockholders)" asks the per-share line, the parentheses say which."""
    found = items_in(question, items)
    if _CASH_PAID.search(question):  # the balance of cash is not what was paid with it
        found = [x for x in found if x[2] > len(" cash ")]
    outside = phrase_words(re.sub(r"\([^()]*\)", " ", question))
    kept = [
        x for x in found if any(phrase_words(n.removesuffix(" *")) in outside for n in x[0].names)
    ]
    return kept or found
