"""The figure a question asks for, stated from the filing's own tagged facts (inline XBRL):
"Apple Q3 FY2025 revenue" → the revenue fact of the selected 10-Q for its own quarter, with
its period, unit, concept and the page it is shown on. Concepts come from `concepts.txt`
(see vocabulary.py); only facts of the whole company (no dimension) of
the filing's own period count."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from sqlalchemy.orm import Session

from ..db import queries
from ..db.queries import DocumentInfo, FactInfo
from .subjects import Subject
from .terms import phrase_words

_MONTHS = {3: "three", 6: "six", 9: "nine", 12: "twelve"}
_SCALES = ((12, "trillion"), (9, "billion"), (6, "million"), (3, "thousand"))


@dataclass(frozen=True)
class StatedFigure(FactInfo):
    """A tagged fact as the answer states it: its period and its value in words."""

    @property
    def period(self) -> str:
        end = date.fromisoformat(self.period_end)
        when = f"{end:%B} {end.day}, {end.year}"
        if self.period_start is None:
            return f"as of {when}"
        days = (end - date.fromisoformat(self.period_start)).days + 1
        months = round(days / 30.44)
        if months == 12:
            return f"year ended {when}"
        return f"{_MONTHS.get(months, str(months))} months ended {when}"

    @property
    def shown(self) -> str:
        """The value as a reader writes it: "$94,036 million", "$1.57", "15 billion shares"."""
        money = self.unit.startswith("iso4217:USD")
        sign, value = ("-" if self.value < 0 else ""), abs(self.value)
        if "/" in self.unit:  # per share
            return f"{sign}{'$' if money else ''}{value:,.2f}"
        exponent = -self.decimals if self.decimals is not None and self.decimals < 0 else 0
        for power, word in _SCALES:
            if exponent >= power or value >= 10.0 ** (power + 3):
                amount = f"{value / 10.0**power:,.{max(0, power - exponent)}f}"
                amount = f"{amount.rstrip('0').rstrip('.') if '.' in amount else amount} {word}"
                break
        else:
            amount = f"{value:,.0f}"
        unit = "" if money else f" {self.unit.split(':')[-1]}"
        return f"{sign}{'$' if money else ''}{amount}{unit}"


def concepts_for(question: str, concepts: Sequence[Subject]) -> list[str]:
    """The concepts (local names) the question's figure may be tagged with, best first:
    the longest matching name first ("net income" before "income"), then in the order of
    `concepts` (the user's lines before the packaged ones)."""
    words = phrase_words(question)
    found: list[tuple[int, int, tuple[str, ...]]] = []
    for order, (spoken, named) in enumerate(concepts):
        hits = [len(s) for s in spoken if s in words]
        if hits:
            found.append((-max(hits), order, named))
    found.sort()
    return list(dict.fromkeys(c for _, _, named in found for c in named))


def stated_figure(
    *, session: Session, concepts: Sequence[str], document: DocumentInfo
) -> StatedFigure | None:
    """The document's own-period, whole-company fact for the first of `concepts` it tags,
    shown on a page; None when no concept is wanted or the filing tags none of them."""
    if not concepts or document.period_end is None:
        return None
    facts = queries.whole_company_facts(session, document.id, document.period_end, concepts)
    if not facts:
        return None
    quarter = document.fiscal_period in ("Q1", "Q2", "Q3", "Q4")
    end = date.fromisoformat(document.period_end)

    def rank(f: FactInfo) -> tuple[int, int, int]:
        days = 0 if f.period_start is None else (end - date.fromisoformat(f.period_start)).days
        # a quarter's own three months first; a year's twelve
        span = abs(days - (91 if quarter else 364)) if f.period_start is not None else 0
        return (list(concepts).index(f.concept.split(":")[-1]), span, f.page)

    return StatedFigure(**vars(min(facts, key=rank)))
