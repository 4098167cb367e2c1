"""A part of the company named as the place of another: "Within Acme's North America Retail
segment, what were the net sales of the U.S. Cereal operating unit?" asks the unit's figure;
the segment only says where the unit is. A figure of the segment is not the unit's. A part
named "within" with no other part after it ("net sales within Acme's Snacks segment") is the
part asked."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..patterns import deferred

# the words before a part's name that make it the place of another: "Within Acme's", "inside
# the" (the name's first words between; no comma: the clause ends there)
_WITHIN = deferred(r"\b(?:within|inside)\s+[\w&.'’ -]{0,60}$", re.I)
# another part named after it: "... of the U.S. Cereal operating unit"
_ANOTHER_PART = deferred(
    r"\b(?:units?|business(?:es)?|brands?|divisions?|segments?|groups?|SBUs?|categor(?:y|ies))\b",
    re.I,
)


def inner_parts(named: Iterable[re.Match[str]], question: str) -> list[re.Match[str]]:
    """The parts `question` names (matches in it), less those named as where another one is:
    after "within", with another part named after them."""
    return [
        m
        for m in named
        if not (_WITHIN.search(question, 0, m.start()) and _ANOTHER_PART.search(question, m.end()))
    ]
