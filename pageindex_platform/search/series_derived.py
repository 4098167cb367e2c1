"""Values of a series that no page prints, each from cited values of the same basis: a fourth
quarter as its year less its first nine months, growth over the same period a year before,
the compound annual growth rate between the first and last values, and a metric (a margin,
a return) per period from its inputs' values."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import date, timedelta

from ..periods.series import SeriesPeriod
from .figures import Figure, LineItem
from .formulas import FormulaError, parse_formula
from .metrics import Metric
from .results import SeriesSource, SeriesValue
from .series import History, Point, is_balance, line_item_points
from .working import Evaluator, MissingInput

DERIVED = "derived"


class Builder:
    """A company's line items period by period on one basis, each point read once; a
    fourth quarter's flow no page prints derived from its year and nine months."""

    def __init__(self, history: History, basis: str) -> None:
        self.history, self.basis = history, basis
        self._points: dict[tuple[str, SeriesPeriod], Point] = {}
        self._scales: dict[str, int] = {}  # the scale each line item's series is written in

    def points(self, item: LineItem, periods: Sequence[SeriesPeriod]) -> list[Point]:
        missing = [at for at in periods if (item.name, at) not in self._points]
        if not missing:
            return [self._points[(item.name, at)] for at in periods]
        found, scale = line_item_points(
            self.history, item, missing, self.basis, self._scales.get(item.name)
        )
        self._scales.setdefault(item.name, scale)
        for point in found:
            self._points[(item.name, point.at)] = point
            fourth = point.at.quarter == 4 and not point.at.months
            if fourth and point.chosen is None and not is_balance(item):
                self._fourth_quarter(item, point)
        return [self._points[(item.name, at)] for at in periods]

    def point(self, item: LineItem, at: SeriesPeriod) -> Point:
        return self.points(item, [at])[0]

    def _fourth_quarter(self, item: LineItem, point: Point) -> None:
        """The fourth quarter as the year less the first nine months, both cited."""
        year = point.at.fiscal_year
        whole, nine = self.points(item, [SeriesPeriod(year), SeriesPeriod(year, 3, 9)])
        if whole.figure is None or nine.figure is None:
            lacking = " and ".join(p.at.label for p in (whole, nine) if p.figure is None)
            point.reason = f"no stored filing prints it, nor {lacking} to derive it from"
            return
        start = date.fromisoformat(nine.figure.period_end) + timedelta(days=1)
        figure = replace(
            whole.figure,
            value=whole.figure.value - nine.figure.value,
            period_start=start.isoformat(),
            source=DERIVED,
        )
        point.made = figure
        point.derived = SeriesValue(
            fiscal_year=year,
            fiscal_period="Q4",
            value=figure.value,
            shown=figure.shown,
            label=f"{whole.figure.label} (the year less its first nine months)",
            period=figure.period,
            source=DERIVED,
            formula=f"FY{year} − 9M FY{year}",
            inputs=[*sources(whole, item.name), *sources(nine, item.name)],
        )


def sources(point: Point, name: str) -> list[SeriesSource]:
    """The pages a point's value stands on: its own, or a derived value's inputs."""
    if point.derived is not None:
        return list(point.derived.inputs)
    if point.chosen is None:
        return []
    return [point.chosen.source(name, point.at)]


def _gap(at: SeriesPeriod, reason: str) -> SeriesValue:
    return SeriesValue(at.fiscal_year, at.fiscal_period, None, reason=reason)


def growth(builder: Builder, item: LineItem, points: Sequence[Point]) -> list[SeriesValue]:
    """Growth over the same period a year before, per period, as a percentage."""
    values = []
    for point in points:
        before = builder.point(item, point.at.before())
        at, was = point.at, before.at
        if point.value is None or before.value is None:
            lacking = " and ".join(p.at.label for p in (before, point) if p.value is None)
            values.append(_gap(at, f"{lacking} has no value"))
            continue
        if before.value <= 0:
            values.append(_gap(at, f"{was.label} is not positive: growth from it is not said"))
            continue
        rate = (point.value / before.value - 1) * 100
        values.append(
            SeriesValue(
                fiscal_year=at.fiscal_year,
                fiscal_period=at.fiscal_period,
                value=round(rate, 2),
                shown=f"{rate:+,.1f}%",
                label=f"{item.name} growth over {was.label}",
                period=f"{was.label} to {at.label}",
                source=DERIVED,
                formula=f"{at.label} / {was.label} − 1",
                inputs=[*sources(before, item.name), *sources(point, item.name)],
            )
        )
    return values


def cagr(item: LineItem, points: Sequence[Point]) -> SeriesValue | None:
    """The compound annual growth rate from the first value to the last, both positive;
    None when fewer than two years have values."""
    valued = [p for p in points if p.value is not None]
    if len(valued) < 2 or valued[0].at.fiscal_year == valued[-1].at.fiscal_year:
        return None
    first, last = valued[0], valued[-1]
    years = last.at.fiscal_year - first.at.fiscal_year
    period = f"{first.at.label} to {last.at.label}"
    assert first.value is not None and last.value is not None
    if first.value <= 0 or last.value <= 0:
        return _gap(last.at, f"{period}: a value is not positive, so no CAGR is said")
    rate = ((last.value / first.value) ** (1 / years) - 1) * 100
    return SeriesValue(
        fiscal_year=last.at.fiscal_year,
        fiscal_period=last.at.fiscal_period,
        value=round(rate, 2),
        shown=f"{rate:,.1f}%",
        label=f"{item.name} CAGR {period}",
        period=period,
        source=DERIVED,
        formula=f"({last.at.label} / {first.at.label})^(1/{years}) − 1",
        inputs=[*sources(first, item.name), *sources(last, item.name)],
    )


def metric_values(
    builder: Builder,
    metric: Metric,
    defined: dict[str, Metric],
    periods: Sequence[SeriesPeriod],
) -> list[SeriesValue]:
    """The metric per period, from the same basis's values of its inputs, each cited."""
    catalogue = builder.history.catalogue
    formula = parse_formula(metric.formula)
    values = []
    for at in periods:

        def lookup(item: LineItem, year: int | None, at: SeriesPeriod = at) -> Figure | None:
            when = replace(at, fiscal_year=year if year is not None else at.fiscal_year)
            point = builder.point(item, when)
            return point.figure or point.made

        evaluator = Evaluator(catalogue, lookup, defined)
        try:
            value = evaluator.value(formula, at.fiscal_year)
        except MissingInput as exc:
            values.append(_gap(at, _missing(builder, exc, at)))
            continue
        except FormulaError as exc:
            values.append(_gap(at, f"not computed: {exc}"))
            continue
        values.append(_metric_value(builder, metric, at, value, evaluator))
    return values


def _missing(builder: Builder, missing: MissingInput, at: SeriesPeriod) -> str:
    """Why a metric has no value: its input's gap ("net income FY2018: no filing stored
    covers it")."""
    when = replace(at, fiscal_year=missing.year or at.fiscal_year)
    item = builder.history.catalogue.item(missing.name)
    reason = builder.point(item, when).reason if item is not None else None
    return f"{missing.name} {when.label}: {reason or 'no value'}"


def _metric_value(
    builder: Builder, metric: Metric, at: SeriesPeriod, value: float, evaluator: Evaluator
) -> SeriesValue:
    places = 1 if metric.percent else 2
    value = value * 100 if metric.percent else value
    own = (at.fiscal_year, at.fiscal_period)
    inputs = []
    for name, year, _ in evaluator.inputs:
        item = builder.history.catalogue.item(name)
        if item is not None:
            when = replace(at, fiscal_year=year if year is not None else at.fiscal_year)
            inputs.extend(sources(builder.point(item, when), name))
    return SeriesValue(
        fiscal_year=at.fiscal_year,
        fiscal_period=at.fiscal_period,
        value=round(value, places + 2),
        shown=f"{value:,.{places}f}{'%' if metric.percent else ''}",
        label=metric.name,
        period=next(
            (i.period for i in inputs if (i.fiscal_year, i.fiscal_period) == own), at.label
        ),
        source=DERIVED,
        formula=f"{metric.formula}{' (as a %)' if metric.percent else ''}",
        inputs=inputs,
    )
