"""What a question says that narrows the figure it asks below the line it names: a place
("generated internationally", "employees outside the United States"), another measure
after the line's name ("net revenue retention rate", "revenue per shipment"), or what is
left of an amount ("how much remained available for repurchases"). A figure whose own label
or sentence does not say the same is the whole line's, not the one asked: it is set aside,
never stated."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .results import Check, Headline
from .sentence_numbers import numbers, position

# places a question may narrow a figure to, by the side of the border they are on
_ABROAD = re.compile(
    r"\binternational(?:ly)?\b|\boutside\s+(?:of\s+)?(?:the\s+)?(?:u\.\s?s\.?|us|usa|united\s+"
    r"states|north\s+america)(?!\w)|\bnon-u\.?s\.?(?!\w)|\bforeign\b|\boverseas\b|\babroad\b",
    re.IGNORECASE,
)
_HOME = re.compile(
    r"\bdomestic(?:ally)?\b|\b(?:in|within|based\s+in)\s+the\s+(?:u\.\s?s\.?|us|united\s+states)"
    r"(?!\w)|\bu\.\s?s\.?-based\b",
    re.IGNORECASE,
)
# words right after a line item's name that make it another measure
_OTHER_AFTER = frozenset(
    "rate retention growth yield per mix multiple guidance outlook target forecast backlog "
    "run-rate run".split()
)
# what is left of an amount rather than the amount ("remained available", "still unused")
_REMAINING = re.compile(
    r"\bremain(?:s|ed|ing)?\s+(?:available|unused|authori[sz]ed|outstanding\s+under)\b|"
    r"\bstill\s+available\b|\bleft\s+(?:to|under)\b|\bremaining\s+(?:authori[sz]ation|capacity)\b",
    re.IGNORECASE,
)


def another_measure(words_after: str) -> bool:
    """Whether the word right after a line item's name ("retention" rate) makes it another
    measure than the line ("revenue of Target" does not)."""
    return bool(set(words_after.split()[:1]) & _OTHER_AFTER)


def narrowed(question: str, headline: Headline, names: Sequence[str] = ()) -> str | None:
    """Why `headline` is not the figure `question` asks, where the question narrows a line
    to a place or to what remains and the row's label does not say so; None when nothing
    narrows it, or its label says the same. `names`: the company's, which name no place
    ("MGM Resorts International"). (A sentence's figure: `place_check`.)"""
    if headline.kind == "text":
        return None
    said = headline.label
    for place, side in _places(question, names):
        return f"{side} is asked; {said!r} does not say so" if not place.search(said) else None
    remaining = _REMAINING.search(question)
    if remaining:
        return f"the line's amount; the question asks what {remaining.group(0)}"
    return None


def place_check(question: str, sentence: str, shown: str, names: Sequence[str] = ()) -> Check:
    """Whether a sentence says its figure `shown` is of the place the question asks: in the
    words from the figure to the next one ("95,000 were employed internationally"), before
    every figure (the sentence's subject), or after the last one of figures that share
    their noun ("46,000 full-time and 18,000 part-time employees domestically")."""
    for place, side in _places(question, names):
        other = _HOME if place is _ABROAD else _ABROAD
        at = position(sentence, shown)
        starts = [m.start() for m in numbers(sentence)]
        if at < 0 or not starts:
            break
        following = min((s for s in starts if s > at), default=len(sentence))
        own, last = sentence[at:following], max(starts)
        between = re.sub(r"\d[\d,.]*", " ", sentence[at:last])  # "46,000": no comma of parts
        shared = at < last and not _PARTED.search(between)
        if place.search(own) or (
            not other.search(own)
            and (
                place.search(sentence[: min(starts)]) or (shared and place.search(sentence[last:]))
            )
        ):
            return Check("place", True, f"{side}, as asked")
        return Check("place", False, f"{side} is asked; the sentence does not say it of {shown}")
    return Check("place", True, "no place asked")


# what parts the figures of a sentence: each then has its own words
_PARTED = re.compile(r"[,;:(]|\bof\s+(?:which|whom)\b|\bincluding\b", re.IGNORECASE)


def without_place(question: str) -> str:
    """The question with the place it narrows its figure to left out."""
    return _HOME.sub(" ", _ABROAD.sub(" ", question))


def _places(question: str, names: Sequence[str]) -> list[tuple[re.Pattern[str], str]]:
    """The place the question narrows its figure to, if any; the capitalised words of the
    company's names left out ("Harbor International")."""
    own = {w.lower() for name in names for w in re.findall(r"[A-Za-z]+", name)}
    question = re.sub(
        r"\b[A-Z][A-Za-z]*\b", lambda m: " " if m[0].lower() in own else m[0], question
    )
    sides = ((_ABROAD, "outside the home country"), (_HOME, "in the home country"))
    return [(place, side) for place, side in sides if place.search(question)][:1]
