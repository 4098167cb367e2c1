"""A line item across a company's history: for each period, every stored filing that reports
it (the filing whose own period it is, and later filings' comparative columns) read through
its `FigureBook`, each figure checked (series_checks.py), and one value chosen on one basis:
"as filed" (the period's own filing, else the earliest later one) or "as last restated" (the
latest filing reporting it). The others are compared with it: equal values confirm it, a
different one is shown as restated. A period no filing covers, or whose figures all fail a
check, is a gap with its reason."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date

from ..db import queries
from ..db.queries import DocumentInfo
from ..db.sql import Session
from ..periods import PeriodAsk
from ..periods.fiscal import Span, own_span, reported, reports, span_for
from ..periods.series import SeriesPeriod
from ..records import PERIODIC
from .figures import Figure, FigureBook, LineItem
from .metrics import Catalogue
from .results import SeriesSource, SeriesValue
from .series_checks import (
    Checked,
    agree,
    check,
    digits,
    printed_digits,
    scale_failure,
    unscaled,
)
from .statements import Statement

logger = logging.getLogger(__name__)

AS_FILED = "as filed"
AS_RESTATED = "as last restated"


@dataclass(frozen=True)
class Reading:
    """One filing's figure for a period: "own" when it is the filing's own period, else
    "comparative"; the checks it passed or the one it failed."""

    filing: DocumentInfo
    how: str
    figure: Figure
    checked: Checked
    printed: str | None = None  # its digits as the page prints them ("16,865.2")

    @property
    def usable(self) -> bool:
        return self.checked.failed is None

    @property
    def shown(self) -> str:
        """The value as the filing writes it, with the decimals its page prints."""
        shown, said = self.figure.shown, digits(self.figure)
        if self.printed and said and self.printed.replace(",", "") != said.replace(",", ""):
            return shown.replace(said, self.printed, 1)
        return shown

    def source(self, name: str = "", at: SeriesPeriod | None = None) -> SeriesSource:
        f = self.figure
        return SeriesSource(
            document=f.document,
            page=f.page,
            value=f.value,
            shown=self.shown,
            label=f.label,
            period=f.period,
            name=name,
            fiscal_year=at.fiscal_year if at else None,
            fiscal_period=at.fiscal_period if at else None,
        )


@dataclass
class Point:
    """A period's value as chosen: the reading shown (None: a gap or a derived value), the
    others that confirm or restate it, and for a derived value its working."""

    at: SeriesPeriod
    chosen: Reading | None = None
    confirmed: list[Reading] = field(default_factory=list)
    restated: list[Reading] = field(default_factory=list)
    reason: str | None = None
    derived: SeriesValue | None = None  # a value no page prints, with its inputs
    made: Figure | None = None  # ... as a figure a metric reads

    @property
    def figure(self) -> Figure | None:
        return self.chosen.figure if self.chosen else None

    @property
    def value(self) -> float | None:
        if self.derived is not None:
            return self.derived.value
        return self.chosen.figure.value if self.chosen else None

    def shown(self) -> SeriesValue:
        """The point as the answer shows it."""
        if self.derived is not None:
            return self.derived
        at = self.at
        if self.chosen is None:
            return SeriesValue(at.fiscal_year, at.fiscal_period, None, reason=self.reason)
        f = self.chosen.figure
        return SeriesValue(
            fiscal_year=at.fiscal_year,
            fiscal_period=at.fiscal_period,
            value=f.value,
            shown=self.chosen.shown,
            label=f.label,
            period=f.period,
            document=f.document,
            page=f.page,
            source=self.chosen.how,
            checks=list(self.chosen.checked.passed),
            confirmed_by=[r.source() for r in self.confirmed],
            restated=[r.source() for r in self.restated],
        )


class History:
    """A company's stored periodic filings, read period by period through one FigureBook per
    filing and period asked, the cited pages' text fetched once."""

    def __init__(
        self, session: Session, filings: Sequence[DocumentInfo], catalogue: Catalogue
    ) -> None:
        self.session = session
        self.catalogue = catalogue
        self.filings = sorted(
            (f for f in filings if own_span(f) is not None),
            key=lambda f: (f.period_end or "", f.name),
        )
        self._books: dict[tuple[int, PeriodAsk], FigureBook] = {}
        self._pages: dict[tuple[str, int], str] = {}
        self._statements: dict[int, dict[int, Statement]] = {}

    def book(self, filing: DocumentInfo, ask: PeriodAsk) -> FigureBook:
        key = (filing.id, ask)
        if key not in self._books:
            self._books[key] = _Book(self.session, filing, ask, self._statements)
        return self._books[key]

    def covered(self, *, quarterly: bool, balance: bool) -> set[int]:
        """The fiscal years the filings report the line item for: their own years, and the
        comparative years of an annual report (a balance: the year before; a flow: two)."""
        years: set[int] = set()
        months = 0 if balance else 3 if quarterly else 12
        for filing in self.filings:
            for span in reported(filing):
                if span.fiscal_year is None or span.months != months:
                    continue
                if quarterly or span.quarter == 4:
                    years.add(span.fiscal_year)
        return years

    def reporting(
        self, at: SeriesPeriod, ask: PeriodAsk, balance: bool
    ) -> list[tuple[DocumentInfo, str]]:
        """The filings reporting the period (own or comparative), in the order of their
        periods."""
        found = []
        for filing in self.filings:
            span = span_for(ask, filing, at.fiscal_year)
            if span is None:
                continue
            how = _balance_reported(filing, span) if balance else reports(filing, span)
            if how is not None:
                found.append((filing, how))
        return found

    def readings(
        self, item: LineItem, at: SeriesPeriod, ask: PeriodAsk, balance: bool
    ) -> tuple[list[Reading], list[DocumentInfo]]:
        """Each reporting filing's figure of `item` for the period, checked; and the filings
        that report the period but state no figure of it."""
        found: list[tuple[DocumentInfo, str, Figure]] = []
        silent = []
        for filing, how in self.reporting(at, ask, balance):
            figure = self.catalogue.lookup(self.book(filing, ask).get)(item, at.fiscal_year)
            if figure is None:
                silent.append(filing)
            else:
                found.append((filing, how, figure))
        self._fetch([(f.document, f.page) for _, _, f in found])
        return [
            self._reading(figure, filing, how, at, balance) for filing, how, figure in found
        ], silent

    def _reading(
        self, figure: Figure, filing: DocumentInfo, how: str, at: SeriesPeriod, balance: bool
    ) -> Reading:
        page = self._pages.get((figure.document, figure.page), "")
        checked = check(figure, filing, at, balance=balance, page=page)
        return Reading(filing, how, figure, checked, printed_digits(figure, page))

    def _fetch(self, pages: list[tuple[str, int]]) -> None:
        wanted = [p for p in dict.fromkeys(pages) if p not in self._pages]
        for info in queries.page_texts(self.session, wanted):
            self._pages[(info.document, info.page)] = info.text


class _Book(FigureBook):
    """A filing's FigureBook whose statement pages are found once for every period asked
    of it (`shared`, by document id)."""

    def __init__(
        self,
        session: Session,
        document: DocumentInfo,
        ask: PeriodAsk,
        shared: dict[int, dict[int, Statement]],
    ) -> None:
        super().__init__(session, document, ask)
        self._shared = shared

    @property
    def statement_pages(self) -> dict[int, Statement]:
        found = self._shared.get(self.document.id)
        if found is None:
            found = self._shared[self.document.id] = super().statement_pages
        return found


def _balance_reported(filing: DocumentInfo, span: Span) -> str | None:
    """ "own" or "comparative" when the filing reports a balance at the span's end."""
    for candidate in reported(filing):
        if candidate.months == 0 and candidate.ends_at(span.end):
            own = filing.period_end is not None and span.ends_at(
                date.fromisoformat(filing.period_end)
            )
            return "own" if own else "comparative"
    return None


def is_balance(item: LineItem) -> bool:
    """Whether the line item is a balance at a date (a balance sheet's) rather than a flow."""
    return Statement.BALANCE in item.statements


def scale_of(readings: Sequence[Reading]) -> int:
    """The power of ten most figures are written in (6: millions)."""
    powers = [r.figure.exponent for r in readings if r.usable]
    return max(set(powers), key=powers.count) if powers else 0


def _scaled(readings: list[Reading], scale: int) -> list[Reading]:
    """The readings, those printed without their table's scale ruled out: the same digits
    as another filing's figure in thousands or more, or a figure in units in a series in
    thousands or more."""
    kept = []
    for r in readings:
        failed = r.checked.failed or next(
            (
                f"{r.figure.document} p. {r.figure.page}: its scale is not read (the same "
                f"digits are {o.figure.shown} in {o.filing.name})"
                for o in readings
                if o is not r and o.usable and unscaled(r.figure, o.figure)
            ),
            None,
        )
        failed = failed or scale_failure(r.figure, scale)
        kept.append(
            r
            if failed == r.checked.failed
            else replace(r, checked=Checked(r.checked.passed, failed))
        )
    return kept


def choose(at: SeriesPeriod, readings: list[Reading], basis: str, scale: int) -> Point:
    """The period's value on `basis`, the other readings confirming or restating it; a gap
    naming the failed checks when no reading passes them."""
    readings = _scaled(readings, scale)
    usable = [r for r in readings if r.usable]
    if not usable:
        failed = "; ".join(r.checked.failed or "" for r in readings)
        return Point(at, reason=f"no figure passed the checks ({failed})")
    if basis == AS_RESTATED:  # the latest filing; of two, the report before a release
        ordered = sorted(usable, key=lambda r: (_latest(r), r.filing.doc_type not in PERIODIC))
    else:  # the period's own filing, else the earliest later one; a report before a release
        ordered = sorted(
            usable,
            key=lambda r: (
                r.how != "own",
                r.filing.period_end or "",
                r.filing.doc_type not in PERIODIC,
            ),
        )
    chosen, others = ordered[0], ordered[1:]
    point = Point(at, chosen)
    for other in others:
        same = agree(chosen.figure, other.figure)
        (point.confirmed if same else point.restated).append(other)
    return point


def _latest(reading: Reading) -> int:
    """A sort key putting the latest filing first."""
    end = reading.filing.period_end
    return -date.fromisoformat(end).toordinal() if end else 0


def line_item_points(
    history: History,
    item: LineItem,
    periods: Sequence[SeriesPeriod],
    basis: str,
    scale: int | None = None,
) -> tuple[list[Point], int]:
    """The line item's value for each period, cross-checked, gaps said; and the scale the
    series is written in (`scale`, else most of these periods' figures')."""
    balance = is_balance(item)
    gathered = [
        (at, *history.readings(item, at, at.ask(balance=balance), balance)) for at in periods
    ]
    if scale is None:
        scale = scale_of([r for _, readings, _ in gathered for r in readings])
    points = []
    for at, readings, silent in gathered:
        if readings:
            points.append(choose(at, readings, basis, scale))
        elif silent:
            names = ", ".join(f.name for f in silent)
            points.append(Point(at, reason=f"no figure of {item.name} was found in {names}"))
        else:
            points.append(Point(at, reason="no filing stored covers it"))
    return points, scale
