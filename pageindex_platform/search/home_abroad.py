"""Which side of the home border a question narrows its figure to: abroad ("outside the U.S.",
"international sales") or at home ("in the United States", "U.S. comparable sales"); neither
where it names both ("across its Domestic and International segments": the whole)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..patterns import deferred

# places a question may narrow a figure to, by the side of the border they are on
_ABROAD = deferred(
    r"\binternational(?:ly)?\b|\boutside\s+(?:of\s+)?(?:the\s+)?(?:u\.\s?s\.?|us|usa|united\s+"
    r"states|north\s+america)(?!\w)|\bnon-u\.?s\.?(?!\w)|\bforeign\b|\boverseas\b|\babroad\b|"
    r"\bother\s+countries\b|\brest[\s-]+of[\s-]+(?:the[\s-]+)?world\b|\bnon-?domestic\b|"
    r"\b(?:other\s+than|excluding|except)\s+(?:in\s+)?(?:the\s+)?(?:u\.\s?s\.?|us|usa|united\s+states)"
    r"(?!\w)|\bex-u\.?s\.?(?!\w)",
    re.IGNORECASE,
)
HOME_SIDE = "in the home country"
_HOME = deferred(
    r"\bdomestic(?:ally)?\b|\b(?:in|within|from|based\s+in)\s+the\s+(?:u\.\s?s\.?|us|united\s+states)"
    r"(?!\w)|\bu\.\s?s\.?-based\b"
    # "U.S. comparable sales" (not "U.S. dollars", nor "non-U.S."); a row of the place alone
    r"|(?<![-\w.])u\.\s?s\.(?=\s+(?-i:[a-z]))"
    r"(?!\s+(?:in|of|for|to|from|at|on|by|as|versus|vs|dollars?|federal|treasury)\b)"
    r"|^(?:u\.\s?s\.|united\s+states)$",
    re.IGNORECASE,
)


def without_place(question: str, own: set[str] | None = None) -> str:
    """The question with the place it narrows its figure to left out (none where the only
    place words are the company's own: `own`, its names' words in lower case)."""
    if place_asked(question, own_words=own or set()) is None:
        return question
    return _HOME.sub(" ", _ABROAD.sub(" ", question))


def place_asked(
    question: str, names: Sequence[str] = (), *, own_words: set[str] | None = None
) -> tuple[re.Pattern[str], str] | None:
    """The place the question narrows its figure to, with the side of the border it is on;
    None when it names none. The capitalised words of two letters or more of the company's
    names (`names`, or their words `own_words`) are no place ("Harbor International")."""
    own = own_words if own_words is not None else company_words(names)
    question = re.sub(
        r"\b[A-Z][A-Za-z]+\b", lambda m: " " if m[0].lower() in own else m[0], question
    )
    sides = ((_ABROAD, "outside the home country"), (_HOME, HOME_SIDE))
    abroad = [m.span() for m in _ABROAD.finditer(question)]
    home = [m for m in _HOME.finditer(question) if not any(a <= m.start() < b for a, b in abroad)]
    if abroad and home and _joined(question, abroad, [m.span() for m in home]):
        return None  # "across its Domestic and International segments": the whole
    return next((side for side, said in zip(sides, (abroad, home), strict=True) if said), None)


def _joined(question: str, *sides: list[tuple[int, int]]) -> bool:
    """Whether the question names the two sides together ("Domestic and International", "U.S.
    plus non-U.S."): one side's words, then "and", "&" or "plus", then the other's."""
    return any(
        _AND.fullmatch(question, min(a[1], b[1]), max(a[0], b[0]))
        for a in sides[0]
        for b in sides[1]
    )


_AND = deferred(r"\s*(?:,\s*)?(?:and|&|plus|or)\s+(?:the\s+)?", re.IGNORECASE)


def company_words(names: Sequence[str]) -> set[str]:
    """The words of the company's names, in lower case."""
    return {w.lower() for name in names for w in re.findall(r"[A-Za-z]{2,}", name)}


def other_side(place: re.Pattern[str]) -> re.Pattern[str]:
    """The words of the side of the border across from `place`'s."""
    return _HOME if place is _ABROAD else _ABROAD
