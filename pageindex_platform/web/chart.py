"""A series drawn on the page without script: an SVG line chart made on the server (a point
per value, the line broken at gaps), each point and each table cell linked to the page it
cites, the link carrying the value's line so that the page view boxes it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..api import Series, SeriesSource, SeriesValue
from .views import page_url

WIDTH, HEIGHT = 640, 220
_LEFT, _RIGHT, _TOP, _BOTTOM = 86, 30, 14, 30  # margins for the axis labels


@dataclass(frozen=True)
class Dot:
    """A value's point: where it is drawn, the page it links to, and its tooltip."""

    x: float
    y: float
    url: str | None
    title: str


@dataclass(frozen=True)
class Tick:
    x: float
    label: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    dots: list[Dot]
    lines: list[str]  # polyline point lists, one per run of values without a gap
    ticks: list[Tick]
    top: str  # the highest and lowest values drawn, as labels of the y axis
    bottom: str
    baseline: float  # where the x axis is drawn, from `left` to `right`
    left: int = _LEFT
    right: int = WIDTH - _RIGHT


def _line(source: SeriesSource | SeriesValue) -> str:
    """The evidence line of a value as printed on its page ("Revenue: 1,200 million")."""
    return f"{source.label}: {(source.shown or '').lstrip('$-')}"


def value_url(value: SeriesValue) -> str | None:
    """The page a value cites, its line to be boxed; a derived value's first input's."""
    if value.document is not None and value.page is not None:
        return page_url(value.document, value.page, [_line(value)])
    if value.inputs:
        first = value.inputs[0]
        at = (first.document, first.page)
        lines = [_line(s) for s in value.inputs if (s.document, s.page) == at]
        return page_url(first.document, first.page, lines)
    return None


def source_url(source: SeriesSource) -> str:
    return page_url(source.document, source.page, [_line(source)])


def _label(value: SeriesValue) -> str:
    year = f"FY{value.fiscal_year}"
    return f"{value.fiscal_period} {year}" if value.fiscal_period else year


def _amount(value: float, series: Series) -> str:
    if series.unit == "%":
        return f"{value:,.1f}%"
    scaled = value / series.scale if series.scale else value
    if scaled == 0:
        return "0"
    return f"{scaled:,.0f}" if abs(scaled) >= 100 else f"{scaled:,.2f}"


def chart(series: Series) -> Chart | None:
    """The series' chart; None when fewer than two values have a number."""
    valued = [v.value for v in series.values if v.value is not None]
    if len(valued) < 2:
        return None
    low, high = min(min(valued), 0.0), max(max(valued), 0.0)
    span = (high - low) or 1.0
    inner_w, inner_h = WIDTH - _LEFT - _RIGHT, HEIGHT - _TOP - _BOTTOM
    step = inner_w / max(len(series.values) - 1, 1)

    def y_of(value: float) -> float:
        return round(_TOP + (high - value) / span * inner_h, 1)

    dots: list[Dot] = []
    lines: list[str] = []
    run: list[str] = []
    ticks: list[Tick] = []
    for i, value in enumerate(series.values):
        x = round(_LEFT + i * step, 1)
        ticks.append(Tick(x, _label(value)))
        if value.value is None:
            lines += [" ".join(run)] if len(run) > 1 else []
            run = []
            continue
        y = y_of(value.value)
        run.append(f"{x},{y}")
        title = f"{_label(value)}: {value.shown}"
        dots.append(Dot(x, y, value_url(value), title))
    lines += [" ".join(run)] if len(run) > 1 else []
    return Chart(
        WIDTH, HEIGHT, dots, lines, ticks, _amount(high, series), _amount(low, series), y_of(0.0)
    )


@dataclass(frozen=True)
class Companions:
    """A line item's derived series shown beside it: its growth per period, its CAGR."""

    growth: dict[tuple[int, str | None], SeriesValue]
    cagr: SeriesValue | None

    def rate(self, value: SeriesValue) -> SeriesValue | None:
        return self.growth.get((value.fiscal_year, value.fiscal_period))


def companions(every: list[Series], main: Series) -> Companions:
    same = [
        s
        for s in every
        if s.company == main.company and s.line_item == main.line_item and s is not main
    ]
    growth = next((s for s in same if s.kind == "growth"), None)
    cagr = next((s for s in same if s.kind == "cagr" and s.values), None)
    return Companions(
        {(v.fiscal_year, v.fiscal_period): v for v in growth.values} if growth else {},
        cagr.values[0] if cagr else None,
    )


def shown(every: list[Series]) -> list[Series]:
    """The series drawn as tables and charts: line items and metrics (growth and CAGR go
    beside their line item)."""
    return [s for s in every if s.kind in ("line item", "metric")]


HELPERS: dict[str, Any] = {  # the template's names for these
    "series_chart": chart,
    "series_companions": companions,
    "series_shown": shown,
    "value_url": value_url,
    "source_url": source_url,
    "value_label": _label,
}
