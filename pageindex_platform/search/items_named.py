"""The line items a question names: each by the longest of its names the question writes
(with its owner said: "repurchases of its common stock"), less those named only in parentheses
beside another, and less the balance of cash where cash is what a figure was paid with."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from itertools import pairwise

from ..patterns import deferred
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
    """Each name, the name with its owner said ("repurchases of its common stock"), and an
    act's name said with its verb ("to repurchase common stock")."""
    for name in names:
        yield name
        if " of " in name:
            yield from (name.replace(" of ", f" of {owner} ", 1) for owner in ("its", "their"))
            if _ACT.match(name):
                yield name.replace(" of ", " ", 1)


# a name of an act done to something: "repurchases of common stock", "purchases of treasury"
_ACT = deferred(r" (?:re)?purchase of ")


# cash as what a figure was paid with: "How much cash did Acme pay for repurchases ..."
_CASH_PAID = deferred(
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


def joined_items(question: str, items: Sequence[LineItem], label: str) -> str:
    """The two line items the question asks together ("cash and equivalents and short-term
    investments", "accounts payable plus accrued liabilities") where the figure's `label`
    does not name both ("Cash, cash equivalents and marketable securities"), said; "" where
    it joins none."""
    words, said = phrase_words(question), set(phrase_words(label).split())
    found = sorted(items_in(question, items), key=lambda x: x[1])
    for (a, at_a, len_a), (b, at_b, len_b) in pairwise(found):
        if a is b or words[at_a + len_a : at_b].strip() not in ("and", "plus", "and its"):
            continue
        spans = (words[at_a : at_a + len_a], words[at_b : at_b + len_b])
        if not all(set(span.split()) - {"and", "of", "the"} <= said for span in spans):
            return f"{a.name} and {b.name}"
    # "capital expenditures and wireless license acquisitions combined": a line of its own
    # added to the first, which the label does not print
    other = _COMBINED.search(question)
    if found and other and not set(phrase_words(other[1]).split()) - _ARTICLES <= said:
        return f"{found[0][0].name} and {other[1]}"
    return ""


# the second of two things a question adds ("... and wireless license acquisitions combined")
_COMBINED = deferred(
    r"\b(?:and|plus)\s+((?:[\w&'’-]+\s+){0,5}?[\w&'’-]+)\s+(?:combined|together)\b", re.I
)
_ARTICLES = frozenset({"the", "its", "their", "our", "of", "and"})
