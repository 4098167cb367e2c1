"""The headline an answer states — one figure or metric, with the checks it passed — and the
candidates it considered, each with why it was set aside; a computed metric's own checks
(its inputs each checked, of one period, a margin within bounds); and the plain words of an
answer that states no figure with confidence."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date, timedelta

from ..patterns import deferred
from .checks import Vetted
from .figures import Figure
from .narrowing import percent_asked
from .results import Candidate, Check, ComparedFigure, Headline, Series
from .working import Working

_SLACK = timedelta(days=7)
# "in USD billions", "in $ millions", "in billions of dollars"
_UNIT_ASKED = deferred(
    r"\bin\s+(?:(?:usd|us\$|\$|u\.s\. dollars|dollars)\s*)?(billion|million|thousand)s?\b",
    re.IGNORECASE,
)
_POWERS = {"thousand": 3, "million": 6, "billion": 9}


@dataclass
class Stated:
    """The lines an answer states first, the figures and working behind them, and the
    pages they cite (first)."""

    text: str = ""
    figures: list[Figure] = field(default_factory=list)
    working: Working | None = None
    readings: list[str] = field(default_factory=list)  # how the period asked was read
    headline: Headline | None = None  # the figure stated, checked (None: none passed)
    candidates: list[Candidate] = field(default_factory=list)  # those set aside, and why
    compared: list[ComparedFigure] = field(default_factory=list)  # each company's, compared
    series: list[Series] = field(default_factory=list)  # a series question's (series_answer.py)
    part: str = ""  # the part of the company asked, where no row of it was found

    @property
    def pages(self) -> list[tuple[str, int]]:
        """The pages of the headline and of each figure stated, the headline's first."""
        first = [(self.headline.document, self.headline.page)] if self.headline else []
        return list(dict.fromkeys([*first, *((f.document, f.page) for f in self.figures)]))


# a part's figure below this share of the whole's is read at another scale ("$202" of millions)
_SMALLEST_SHARE = 1e-5


def scale_missed(part: float, whole: float) -> bool:
    """Whether a part's figure is too small a share of the whole's to be read at its
    scale ("$202" of a table in millions beside the whole's $1,222 million)."""
    return 0 < abs(part) < abs(whole) * _SMALLEST_SHARE


# why a part's question sets the whole company's figure aside ("... not the MGM China's")
WHOLE_NOT_PART = "the whole company's figure, not the"


def _shown(figure: Figure) -> dict[str, object]:
    return {
        "value": figure.value,
        "shown": figure.shown,
        "unit": figure.unit.split(":")[-1],
        "label": figure.label,
        "period": figure.period,
        "period_start": figure.period_start,
        "period_end": figure.period_end,
        "document": figure.document,
        "page": figure.page,
    }


def candidate(figure: Figure, reason: str, checks: Sequence[Check] = ()) -> Candidate:
    return Candidate(**_shown(figure), set_aside=reason, checks=list(checks))  # type: ignore[arg-type]


def figure_headline(
    figure: Figure,
    checks: Sequence[Check],
    *,
    kind: str = "line item",
    label: str | None = None,
    notes: Sequence[str] = (),
) -> Headline:
    shown = _shown(figure)
    if label:
        shown["label"] = label
    return Headline(**shown, checks=list(checks), kind=kind, notes=list(notes))  # type: ignore[arg-type]


def set_aside(vetted: Sequence[Vetted]) -> list[Candidate]:
    """Every candidate set aside for the line items and years considered."""
    return [candidate(f, reason, checks) for v in vetted for f, reason, checks in v.set_aside]


def metric_checks(working: Working, vetted: dict[tuple[str, int | None], Vetted]) -> list[Check]:
    """A computed metric's checks: each input passed its own (the page, among them), its
    inputs of one year end together, and a margin lies within -100% and 100% (below zero
    far: said as unusual, not set aside)."""
    checks = []
    for name, year, _ in working.inputs:
        passed = vetted[name, year].checks if (name, year) in vetted else []
        said = "; ".join(c.detail for c in passed if c.name in ("statement", "page"))
        checks.append(Check("inputs", True, f"{name}{f' FY{year}' if year else ''}: {said}"))
    checks.append(_same_period(working))
    checks.append(_bounds(working))
    return checks


def _same_period(working: Working) -> Check:
    by_year: dict[int | None, list[tuple[str, Figure]]] = {}
    for name, year, figure in working.inputs:
        by_year.setdefault(year, []).append((name, figure))
    for year, inputs in by_year.items():
        ends = [date.fromisoformat(f.period_end) for _, f in inputs]
        if max(ends) - min(ends) > _SLACK:
            said = ", ".join(f"{name} {f.period}" for name, f in inputs)
            return Check(
                "period", False, f"its inputs{f' for FY{year}' if year else ''} differ: {said}"
            )
    return Check("period", True, "its inputs of each year end on the same day")


_MORE_PLACES = 4  # a metric's value beyond the places it is shown in, where none are asked
_LARGEST_RATIO = 1e5  # a ratio of amounts this large adds an amount to a ratio
_SCALE_MISSED = 6  # powers of ten between a figure read in millions and one read in units


def _bounds(working: Working) -> Check:
    money = [f for _, _, f in working.inputs if f.unit.startswith("iso4217:") and "/" not in f.unit]
    scales = {f.exponent for f in money if f.value}
    if scales and max(scales) - min(scales) >= _SCALE_MISSED:
        # "$5,700" read where its table prints millions beside inputs read in millions
        said = ", ".join(f"{f.label} {f.shown}" for f in money)
        return Check("sign", False, f"its amounts are read at scales a million apart: {said}")
    name = working.metric.lower()
    if working.ratio and not working.percent and abs(working.value) >= _LARGEST_RATIO:
        return Check("sign", False, f"a ratio of {working.shown}: no ratio of amounts is so large")
    if working.percent and "margin" in name and not working.change:
        if working.value > 100:
            return Check("sign", False, f"a margin of {working.shown} is above 100%")
        parts = {n: f.value for n, _, f in working.inputs}
        gross, revenue = parts.get("gross profit"), parts.get("revenue")
        if gross is not None and revenue is not None and gross > revenue:
            return Check("sign", False, "gross profit is larger than revenue")
    return Check("sign", True, "within the bounds a metric of its kind has")


def unusual(working: Working) -> list[str]:
    if working.percent and "margin" in working.metric.lower() and working.value < -100:
        return [f"{working.shown} is unusual: a margin far below zero"]
    return []


def metric_headline(working: Working, checks: Sequence[Check]) -> Headline:
    """The metric as the answer's headline: its value in the places asked, its unit, the
    period of its last year's inputs, and the first input's page."""
    first = working.inputs[0][2]
    last_year = working.years[-1] if working.years else None
    ends = [f for _, y, f in working.inputs if y == last_year] or [first]
    spans = [f for f in ends if f.period_start is not None] or ends
    unit = "%" if working.percent else ("ratio" if working.ratio else first.unit.split(":")[-1])
    shown = working.shown
    if working.change:
        points = " percentage points" if working.percent else ""
        shown, unit = f"{working.value:+,.{working.places}f}{points}", unit.replace("%", "points")
    # the value as asked where the question says its places; else unrounded to the shown places
    places = working.places if working.places_asked else working.places + _MORE_PLACES
    return Headline(
        value=round(working.value, places),
        shown=shown,
        unit=unit,
        label=working.metric,
        period=working.period,
        period_start=spans[0].period_start,
        period_end=spans[0].period_end,
        document=first.document,
        page=first.page,
        checks=list(checks),
        kind="metric",
        notes=unusual(working),
    )


def not_sure(what: str, candidates: Sequence[Candidate]) -> str:
    """The answer's words when no candidate passed every check."""
    if not candidates:
        return f"No figure for {what} could be stated with confidence."
    lines = [
        f"No figure for {what} could be stated with confidence: each candidate failed a check.",
        "Candidates considered:",
    ]
    lines.extend(
        f"- {c.shown} — {c.label}, {c.period} [{c.document}, p. {c.page}]: set aside, {c.set_aside}"
        for c in candidates
    )
    return "\n".join(lines)


def in_unit(stated: Stated, question: str, places: int | None) -> None:
    """The headline in the unit the question asks ("in USD billions"), where it is an
    amount of dollars: its value and shown text in that unit, the text saying it first; an
    amount set aside where the question asks a percentage, a table's percentage where it
    asks more decimal places than printed (`to_places`)."""
    to_places(stated, places)
    asked = _UNIT_ASKED.search(question)
    headline = stated.headline
    if headline is not None and headline.unit == "USD" and percent_asked(question):
        unsure(stated, "an amount; the question asks a percentage")  # free cash flow, for
        return  # "free cash flow as a percentage of revenue"
    if asked is None or headline is None or headline.unit != "USD":
        return
    word = asked.group(1).lower()
    value = headline.value / 10.0 ** _POWERS[word]
    shown = f"{'-' if value < 0 else ''}${abs(value):,.{2 if places is None else places}f} {word}"
    stated.headline = replace(
        headline,
        value=round(value, 2 if places is None else places),
        shown=shown,
        unit=f"USD {word}s",
        notes=[*headline.notes, f"in {word}s as asked: {headline.shown}"],
    )
    stated.text = f"{shown} ({headline.shown}) — {stated.text.split(' — ', 1)[-1]}"


def to_places(stated: Stated, places: int | None) -> None:
    """A table's percentage printed with fewer decimal places than the question asks set
    aside ("17%" for a share asked "rounded to one decimal"): it is not the figure asked."""
    headline = stated.headline
    if headline is None or places is None or headline.unit != "%":
        return
    if headline.kind not in ("row", "line item", "segment"):
        return  # a metric computed to the places asked; a sentence's own figure
    printed = len(found[1]) if (found := re.search(r"\.(\d+)", headline.shown)) else 0
    if printed < places:
        unsure(stated, f"printed to {printed} decimal places; the question asks {places}")


def as_candidate(headline: Headline, reason: str) -> Candidate:
    """A headline as a candidate set aside for `reason`."""
    fields = {k: v for k, v in vars(headline).items() if k not in ("kind", "notes")}
    return Candidate(**{**fields, "set_aside": reason})


def demote(stated: Stated, reason: str) -> None:
    """The headline made a candidate set aside for `reason`."""
    if stated.headline is not None:
        stated.candidates.insert(0, as_candidate(stated.headline, reason))
        stated.headline = None


def unsure(stated: Stated, why: str, what: str = "the figure asked") -> None:
    """The headline made a candidate set aside for `why`, and the answer's words say no
    figure of `what` could be stated with confidence."""
    demote(stated, why)
    stated.text = not_sure(what, stated.candidates)


def for_reference(stated: Stated) -> Stated:
    """A metric computed for a question that asks no number: for reference, not the answer."""
    if stated.text:
        stated.text = f"For reference, {stated.text}"
    demote(stated, "the question asks no figure")
    return stated


def input_check(figure: Figure | Candidate) -> Check:
    """The check that names one input of a computed figure, where it was read."""
    said = f"{figure.label}: {figure.shown}, {figure.period} [{figure.document}, p. {figure.page}]"
    return Check("inputs", True, said)


def row_stated(
    figure: Figure, checks: Sequence[Check], rows: Sequence[Figure], what: str
) -> Stated:
    """A table row's figure stated where every check passes; else it and the other rows read
    for it (`rows`, four at most) set aside with the check that failed, and `what` was asked
    said plainly to be not sure."""
    failed = next((c for c in checks if not c.passed), None)
    if failed is None:
        headline = figure_headline(figure, checks, kind="row")
        return Stated(f"{figure.shown} — {figure.cited}", [figure], headline=headline)
    aside = [candidate(f, failed.detail, checks) for f in rows[:4]]
    return Stated(not_sure(what, aside), candidates=aside)
