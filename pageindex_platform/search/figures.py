"""The figure a question asks for, stated from the filing's own tagged facts (inline XBRL):
"Apple Q3 FY2025 revenue" → the revenue fact of the selected 10-Q for its own quarter, with
its period, unit, concept and the page it is shown on. Concepts come from `concepts.txt`
(packaged, plus `$PI_HOME/concepts.txt`); only facts of the whole company (no dimension) of
the filing's own period count."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import cache
from importlib import resources

from sqlalchemy import text
from sqlalchemy.orm import Session

from ..settings import get_settings
from .statements import _words
from .subjects import parse_subjects

_MONTHS = {3: "three", 6: "six", 9: "nine", 12: "twelve"}
_SCALES = ((12, "trillion"), (9, "billion"), (6, "million"), (3, "thousand"))


@dataclass(frozen=True)
class StatedFigure:
    concept: str
    value: float
    unit: str
    decimals: int | None
    period_start: str | None
    period_end: str
    page: int

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


@cache
def _packaged() -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    body = resources.files(__package__).joinpath("concepts.txt").read_text(encoding="utf-8")
    return tuple(parse_subjects(body))


def concepts_for(question: str) -> list[str]:
    """The concepts (local names) the question's figure may be tagged with, best first:
    the longest matching name first ("net income" before "income")."""
    words = _words(question)
    path = get_settings().home / "concepts.txt"
    user = parse_subjects(path.read_text(encoding="utf-8")) if path.exists() else []
    found: list[tuple[int, int, tuple[str, ...]]] = []
    for order, (spoken, concepts) in enumerate((*user, *_packaged())):
        hits = [len(s) for s in spoken if s in words]
        if hits:
            found.append((-max(hits), order, concepts))
    found.sort()
    return list(dict.fromkeys(c for _, _, concepts in found for c in concepts))


def stated_figure(*, session: Session, question: str, document_id: int) -> StatedFigure | None:
    """The document's own-period, whole-company fact for the question's concept, shown on a
    page; None when the question names no known concept or the filing tags none."""
    wanted = concepts_for(question)
    if not wanted:
        return None
    row = session.execute(
        text("SELECT period_end, fiscal_period FROM documents WHERE id = :d"), {"d": document_id}
    ).one_or_none()
    if row is None or row.period_end is None:
        return None
    facts = session.execute(
        text(
            "SELECT concept, value, unit, decimals, period_start, period_end, page FROM facts "
            "WHERE document_id = :d AND page IS NOT NULL AND dimensions = '[]'::jsonb "
            "AND period_end = :end AND split_part(concept, ':', 2) = ANY(:c)"
        ),
        {"d": document_id, "end": row.period_end, "c": wanted},
    ).all()
    if not facts:
        return None
    quarter = row.fiscal_period in ("Q1", "Q2", "Q3", "Q4")

    def rank(f: object) -> tuple[int, int, int]:
        concept, start, page = f.concept, f.period_start, f.page  # type: ignore[attr-defined]
        days = (
            0
            if start is None
            else (date.fromisoformat(row.period_end) - date.fromisoformat(start)).days
        )
        # a quarter's own three months first; a year's twelve
        span = abs(days - (91 if quarter else 364)) if start is not None else 0
        return (wanted.index(concept.split(":")[-1]), span, page)

    best = min(facts, key=rank)
    return StatedFigure(
        best.concept,
        best.value,
        best.unit,
        best.decimals,
        best.period_start,
        best.period_end,
        best.page,
    )
