"""A series as the answer writes it: a table per company and line item (period, value, its
growth, where it was read, what the other filings print), its CAGR and its gaps said; and
the pages and evidence lines it stands on, for citations and for the page view's boxes."""

from __future__ import annotations

from collections.abc import Sequence

from .results import EvidenceLine, Series, SeriesSource, SeriesValue

_NONE = "—"
_SCALES = {1: "", 10**3: "thousands", 10**6: "millions", 10**9: "billions"}


def series_text(series: Sequence[Series]) -> str:
    """Each line item's or metric's table, its growth beside it and its CAGR after."""
    blocks = []
    for main in (s for s in series if s.kind in ("line item", "metric")):
        related = [
            s
            for s in series
            if s.company == main.company and s.line_item == main.line_item and s is not main
        ]
        rates = next((s for s in related if s.kind == "growth"), None)
        compound = next((s for s in related if s.kind == "cagr"), None)
        blocks.append(_table(main, rates, compound))
    return "\n\n".join(blocks)


def _heading(series: Series) -> str:
    scale = _SCALES.get(series.scale, f"×{series.scale:,}")
    unit = ", ".join(x for x in (series.unit, scale and f"in {scale}") if x)
    first, last = series.values[0], series.values[-1]
    span = _label(first) if first is last else f"{_label(first)}–{_label(last)}"
    said = f"{series.line_item.capitalize()} of {series.company}, {span}, {series.basis}"
    return f"{said} ({unit}):" if unit else f"{said}:"


def _table(main: Series, rates: Series | None, compound: Series | None) -> str:
    growth = {(v.fiscal_year, v.fiscal_period): v for v in rates.values} if rates else {}
    rows = [["Period", main.line_item.capitalize(), "Growth" if rates else "", "Read from", ""]]
    for value in main.values:
        rate = growth.get((value.fiscal_year, value.fiscal_period))
        rows.append(
            [
                _label(value),
                value.shown or _NONE,
                (rate.shown or _NONE) if rate else "",
                _where(value),
                _crosscheck(value),
            ]
        )
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    lines = [_heading(main)]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    restated = ", ".join(_label(v) for v in main.values if v.restated)
    if restated and main.basis == "as filed":
        lines.append(
            f'Restated by a later filing: {restated} (the question with "as restated" gets '
            "the series as last restated)"
        )
    elif restated:
        lines.append(f"Printed otherwise when first filed: {restated} (see restated)")
    if compound and compound.values:
        value = compound.values[0]
        if value.value is None:
            lines.append(f"CAGR: {value.reason}")
        else:
            lines.append(f"CAGR {value.period}: {value.shown} = {value.formula}")
    return "\n".join(lines)


def _label(value: SeriesValue) -> str:
    year = f"FY{value.fiscal_year}"
    return f"{value.fiscal_period} {year}" if value.fiscal_period else year


def _label_of(source: SeriesSource) -> str:
    if source.fiscal_year is None:
        return ""
    year = f"FY{source.fiscal_year}"
    return f"{source.fiscal_period} {year}" if source.fiscal_period else year


def _where(value: SeriesValue) -> str:
    """Where the value was read: its page (and whose column), its inputs, or why none."""
    if value.value is None:
        return f"{_NONE} {value.reason}"
    if value.source == "derived":
        used = ", ".join(f"{s.name} {_label_of(s)} {s.shown}".strip() for s in value.inputs)
        cited = ", ".join(dict.fromkeys(_cite(s) for s in value.inputs))
        return f"derived: {value.formula}, from {used} ({cited})"
    how = " (comparative column)" if value.source == "comparative" else ""
    return f"{value.document} p. {value.page}{how}"


def _crosscheck(value: SeriesValue) -> str:
    said = []
    if value.confirmed_by:
        said.append("confirmed by " + ", ".join(_cite(s) for s in value.confirmed_by))
    said += [f"restated in {_cite(s)}: {s.shown}" for s in value.restated]
    return "; ".join(said)


def _cite(source: SeriesSource) -> str:
    return f"{source.document} p. {source.page}"


def _sources(value: SeriesValue) -> list[SeriesSource]:
    own = (
        [
            SeriesSource(
                value.document,
                value.page,
                value.value or 0.0,
                value.shown or "",
                value.label or "",
                value.period or "",
            )
        ]
        if value.document is not None and value.page is not None
        else []
    )
    return [*own, *value.inputs, *value.confirmed_by, *value.restated]


def series_pages(series: Sequence[Series]) -> list[tuple[str, int]]:
    """The pages the series stands on: each value's own first, in order, then the pages
    confirming, restating or feeding it."""
    values = [v for s in series for v in s.values]
    first = [(v.document, v.page) for v in values if v.document and v.page is not None]
    rest = [(s.document, s.page) for v in values for s in _sources(v)]
    return list(dict.fromkeys([*first, *rest]))


def evidence_lines(series: Sequence[Series]) -> list[EvidenceLine]:
    """The rows the series reads, as printed on their pages ("Revenue: 1,200 million"),
    once per page and line."""
    lines = [
        EvidenceLine(s.document, s.page, f"{s.label}: {s.shown.lstrip('$-')}", "figure")
        for one in series
        for v in one.values
        for s in _sources(v)
    ]
    return list(dict.fromkeys(lines))
