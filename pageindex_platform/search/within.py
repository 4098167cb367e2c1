"""A part of the company named as the place of another: "Within Acme's North America Retail
segment, what were the net sales of the U.S. Cereal operating unit?" asks the unit's figure;
the segment only says where the unit is. A figure of the segment is not the unit's."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..patterns import deferred

# the words before a part's name that make it the place of another: "Within Acme's", "inside
# the" (the name's first words between; no comma: the clause ends there)
_WITHIN = deferred(r"\b(?:within|inside)\s+[\w&.'’ -]{0,60}$", re.I)


def inner_parts(
    named: Iterable[re.Match[str]], question: str, *, only: bool = False
) -> list[re.Match[str]]:
    """The parts `question` names (matches in it), less those named as where another one is —
    unless every one is (`only`: even then)."""
    found = list(named)
    inner = [m for m in found if not _WITHIN.search(question, 0, m.start())]
    return inner if inner or only else found
