"""The figures a filing states, as an answer states them: its tagged facts (inline XBRL) and
the rows of its tables (index/tables.py), looked up by line item and fiscal year. Line
items come from `concepts.txt` (see vocabulary.py): the names an analyst or a filing gives
one, and the tagged concepts that state it. Only whole-company facts shown on a page count;
a table row counts first when it is on a primary statement."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from ..db import queries
from ..db.queries import DocumentInfo, FactInfo
from ..db.sql import Session
from ..index.tables import label_key
from ..patterns import deferred
from ..periods import PeriodAsk, months_between
from ..periods.dates import first_day
from ..periods.fiscal import Span, span_for, span_words, year_named
from .results import StatedFigure, WorkingInput
from .statements import Fact, Statement, statement_pages, statements_for

SCALE_WORDS = {3: "thousand", 6: "million", 9: "billion", 12: "trillion"}  # by power of ten
_SOURCES = {"text": "sentence"}  # how a figure not tagged was read, by its source
_STATEMENT_PAGES = 3  # a primary statement's first page and its continuations
_FLOWS = (Statement.INCOME, Statement.CASH_FLOW)
_MINORITY = deferred(r"non-?controlling|minority", re.IGNORECASE)


@dataclass(frozen=True)
class LineItem:
    """A line item: its names (the first is how metrics refer to it), the tagged concepts
    stating it, and whether it is an outflow (a payment, shown in parentheses)."""

    names: tuple[str, ...]
    concepts: tuple[str, ...]
    outflow: bool = False
    statements: tuple[Statement, ...] = ()  # the primary statements that report it

    @property
    def name(self) -> str:
        return self.names[0]

    @property
    def keys(self) -> tuple[str, ...]:
        """Its names as table-row keys; a name ending in " *" as a prefix ("... to %")."""
        return tuple(
            f"{label_key(n[:-2])} %" if n.endswith(" *") else label_key(n) for n in self.names
        )

    @property
    def per_share(self) -> bool:
        return any("PerShare" in c for c in self.concepts)


def parse_line_items(
    body: str, outflows: Sequence[str] = (), facts: Sequence[Fact] = ()
) -> list[LineItem]:
    """Line items from "name, name: Concept, Concept" lines ('#' lines are comments); the
    statements that report each from knowledge `facts` (knowledge.txt)."""
    items = []
    for line in body.splitlines():
        if line.lstrip().startswith("#") or ":" not in line:
            continue
        left, right = line.rsplit(":", 1)
        names = tuple(n.strip().lower() for n in left.split(",") if n.strip())
        concepts = tuple(c.strip() for c in right.split(",") if c.strip())
        if names:
            statements = tuple(statements_for(names[0], facts))
            item = LineItem(names, concepts, names[0] in outflows, statements)
            if not statements and not item.per_share:  # "income tax": "income tax expense"'s
                found = (tuple(statements_for(n, facts)) for n in names[1:])
                item = replace(item, statements=next((f for f in found if f), ()))
            items.append(item)
    return items


@dataclass(frozen=True)
class Figure:
    """One stated figure: tagged, or read from a table row (its label), with its period,
    page and document."""

    document: str
    label: str
    value: float
    unit: str
    decimals: int | None
    period_start: str | None
    period_end: str
    page: int
    source: str  # "tagged", "table", "table_percent" (a row of percentages) or "text"
    concept: str | None = None  # a tagged figure's concept

    @property
    def period(self) -> str:
        """ "year ended September 28, 2024", "three months ended ...", "as of ..."."""
        return span_words(self.period_start, self.period_end)

    @property
    def exponent(self) -> int:
        """The power of ten the filing writes the figure in (3: thousands, 6: millions)."""
        value = abs(self.value)
        if self.decimals is not None:
            return -self.decimals if self.decimals < 0 else 0
        if value >= 10**6 and value.is_integer():
            # the precision is unknown: the scale the number is a whole multiple of
            return next((e for e in (6, 3) if value % 10**e == 0), 0)
        return 0

    @property
    def _last_digit(self) -> int:
        """The power of ten the printed digits end at: a table's cell "4,408.5" in a table in
        millions ends at 5 (two places below its scale at most); a tagged fact's at its
        decimals."""
        exponent = self.exponent
        if self.source == "tagged":
            return exponent
        fewest = max(0, exponent - 2)
        while exponent > fewest and not _whole(abs(self.value) / 10.0**exponent):
            exponent -= 1
        return exponent

    @property
    def shown(self) -> str:
        """The value as the filing writes it: "$94,036 million", "$39,000,966 thousand",
        "$1.57" per share, "15,204 million shares"."""
        money = self.unit.startswith("iso4217:USD")
        sign, value = ("-" if self.value < 0 else ""), abs(self.value)
        if "/" in self.unit:  # per share
            return f"{sign}{'$' if money else ''}{value:,.2f}"
        if self.unit == "%":  # a row of percentages: as printed
            return f"{sign}{value:,.{self.decimals or 0}f}%"
        exponent, last = self.exponent, self._last_digit
        if exponent:
            power = min(12, -(-exponent // 3) * 3)  # the filing's scale: thousands, millions...
            places = max(0, power - last)
            amount = f"{value / 10.0**power:,.{places}f} {SCALE_WORDS[power]}"
        else:
            amount = f"{value:,.2f}".removesuffix(".00")
        unit = "" if money else f" {self.unit.split(':')[-1]}"
        return f"{sign}{'$' if money else ''}{amount}{unit}"

    @property
    def cited(self) -> str:
        how = f"tagged {self.concept}" if self.concept else _SOURCES.get(self.source, "table row")
        return f"{self.label}, {self.period} ({how}) [{self.document}, p. {self.page}]"

    @classmethod
    def of(cls, document: str, fact: FactInfo, item: str | None = None) -> Figure:
        """A stored fact of `document` as stated: a table row by its label, a tagged fact by
        the line `item` it states (its concept beside it)."""
        tagged = fact.source == "tagged"
        return cls(
            document,
            fact.label or (item.capitalize() if tagged and item else fact.concept),
            fact.value,
            fact.unit,
            fact.decimals,
            fact.period_start,
            fact.period_end,
            fact.page,
            fact.source,
            fact.concept if tagged else None,
        )

    def positive(self) -> Figure:
        """The same figure as an amount (an outflow's parentheses dropped)."""
        return replace(self, value=abs(self.value))

    def stated(self) -> StatedFigure:
        """The figure as the answer states it (`figures` of `pi ask --json`)."""
        return StatedFigure(**self._shown())

    def _shown(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "shown": self.shown,
            "unit": self.unit.split(":")[-1],
            "scale": 10**self.exponent,
            "label": self.label,
            "period": self.period,
            "period_start": self.period_start,
            "period_end": self.period_end,
            "document": self.document,
            "page": self.page,
            # where it was read: a tagged fact, a table's row (of amounts or percentages), or
            # a sentence ("text")
            "source": "table" if self.source.startswith("table") else self.source,
            "concept": self.concept,
        }

    def as_input(self, name: str, fiscal_year: int | None) -> WorkingInput:
        """The figure as an input of a metric's working, for the line item `name`."""
        return WorkingInput(**self._shown(), name=name, fiscal_year=fiscal_year)


def of_income(key: str) -> bool:
    """Whether a table row's key starts with what a figure per share is of ("net income
    attributable to Acme"), as per-share rows under a heading are named."""
    return any(key == k or key.startswith(f"{k} ") for k in PER_SHARE_OF)


# a cash flow statement's row of money paid out, printed in parentheses: an amount paid
_PAID = deferred(r"\b(?:paid|payments?|purchases?|repayments?|repurchases?|additions?)\b", re.I)
# the bare labels of per-share rows under a heading that names the line ("Net income per
# share:" over "Basic" and "Diluted")
BARE_PER_SHARE = ("diluted", "basic")
# words that say a figure is per share ("per common share", "per diluted share")
PER_SHARE = deferred(r"\bper\s+(?:common\s+|diluted\s+|basic\s+)?share\b", re.IGNORECASE)
PER_SHARE_OF = ["net income", "net earning"]  # row keys of what a figure per share is of


class FigureBook:
    """The figures of one document, looked up by line item and fiscal year (None: the year
    asked, else the filing's own period), for the period `ask` names placed on the filing's
    calendar (`periods.fiscal.span_for`): a quarter's figure spans three months, a year's
    twelve. A filing with no place on a calendar (an 8-K) matches a column by its fiscal
    year: its end's year shifted as the filing's own is (a year ending January 1, 2022 is
    fiscal 2021 when the filing says so)."""

    def __init__(
        self, session: Session, document: DocumentInfo, ask: PeriodAsk | None = None
    ) -> None:
        self.session = session
        self.document = document
        self.ask = ask or PeriodAsk()
        self._statements: dict[int, Statement] | None = None
        self._found: dict[tuple[str, int | None], Figure | None] = {}

    def span(self, year: int | None) -> Span | None:
        """The period asked, for fiscal `year`, on the filing's calendar."""
        return span_for(self.ask, self.document, year)

    def of_year(self, fact: FactInfo, year: int | None) -> bool:
        """Whether the fact is of the fiscal year (None: ends on the filing's own period)."""
        if year is None:
            return fact.period_end == self.document.period_end
        return year_named(self.document, fact.period_end) == year

    def rows(
        self, labels: Sequence[str], year: int | None, prefixes: Sequence[str] = ()
    ) -> list[FactInfo]:
        """The table rows whose label's key is one of `labels`' (or LIKE a prefix), of the
        period asked."""
        keys = list(dict.fromkeys(label_key(label) for label in labels))
        found = queries.stated_figures(
            self.session, self.document.id, names=keys, prefixes=list(prefixes)
        )
        return self._of_period([f for f in found if f.source == "table"], self.span(year), year)

    def row_named(self, label: str, year: int | None) -> Figure | None:
        """The figure of the table row printed as `label` for the period asked, a primary
        statement's first (a cash flow statement's payment as the amount paid); None where
        none is, or the rows so named give different figures."""
        found = [Figure.of(self.document.name, f) for f in self.rows([label], year)]
        found = [f for f in found if f.page in self.statement_pages] or found
        if not found or len({f.value for f in found}) > 1:
            return None
        first = found[0]
        paid = self.statement_pages.get(first.page) == Statement.CASH_FLOW and _PAID.search(label)
        return replace(first, value=-first.value) if paid and first.value < 0 else first

    @property
    def statement_pages(self) -> dict[int, Statement]:
        """The primary statements' pages: each first page and its continuations."""
        if self._statements is None:
            starts = statement_pages(session=self.session, document_id=self.document.id)
            found = {first: kind for kind, first in starts.items()}
            for kind, first in starts.items():
                for page in range(first + 1, first + _STATEMENT_PAGES):
                    if page in starts.values():
                        break
                    found.setdefault(page, kind)
            self._statements = found
        return self._statements

    def get(self, item: LineItem, year: int | None = None) -> Figure | None:
        key = (item.name, year)
        if key not in self._found:
            self._found[key] = self._find(item, year)
        return self._found[key]

    def _find(self, item: LineItem, year: int | None) -> Figure | None:
        found = self.candidates(item, year)
        return found[0] if found else None

    def candidates(self, item: LineItem, year: int | None = None) -> list[Figure]:
        """The figures of the line item for the period asked, best first: a primary
        statement's (or a tagged fact) first, the span's months nearest, tagged first."""
        keys = item.keys
        # "Diluted" under "Earnings per share:": a per-share line's bare row (checked for its
        # heading: `checks.CheckedBook`)
        bare = [w for w in BARE_PER_SHARE if item.per_share and any(w in n for n in item.names)]
        # "Net income attributable to Acme common stockholders" under "DILUTED EARNINGS PER
        # SHARE:": the per-share line's row named by what it is of (checked for its heading)
        named_of = PER_SHARE_OF if bare else []
        rows = queries.stated_figures(
            self.session,
            self.document.id,
            names=[*item.concepts, *(k for k in keys if not k.endswith("%")), *bare, *named_of],
            prefixes=[k for k in keys if k.endswith("%")] + [f"{k} %" for k in named_of],
        )
        minority = any("controlling" in n or "minority" in n for n in item.names)
        kept = [
            f
            for f in rows
            if ("/" in f.unit) == item.per_share
            and (minority or not _MINORITY.search(f.label or ""))
            # a per-share row named by what it is of is a flow: never a column at a date
            and not (named_of and f.period_start is None and of_income(f.concept.split(":", 1)[-1]))
        ]
        span = self.span(year)
        wanted = sorted(self._of_period(kept, span, year), key=self._ranking(item, span))
        figures = list(dict.fromkeys(self._figure(item, fact) for fact in wanted))
        return figures

    def _figure(self, item: LineItem, best: FactInfo) -> Figure:
        """A fact as the figure of `item`: a year's column of an annual flow statement
        headed by its year alone spans that year; an outflow as an amount."""
        document = self.document
        figure = Figure.of(document.name, best, item.name)
        if (
            best.period_start is None
            and self.statement_pages.get(best.page) in _FLOWS
            and document.fiscal_period == "FY"
            and Statement.BALANCE not in item.statements
        ):
            end = date.fromisoformat(best.period_end)
            start = first_day(end, 12)
            figure = replace(figure, period_start=start.isoformat())
        return figure.positive() if item.outflow else figure

    def of_period(self, facts: list[FactInfo], year: int | None) -> list[FactInfo]:
        """The facts of the period asked, for fiscal `year` (`_of_period`)."""
        return self._of_period(facts, self.span(year), year)

    def _of_period(
        self, facts: list[FactInfo], span: Span | None, year: int | None
    ) -> list[FactInfo]:
        """The facts of the period asked: of its span (its end, and as many months); a
        fiscal year's, where no column ends on the calendar's day, by its end's year (a
        column headed by a year alone). No calendar: by fiscal year, of the months asked."""
        if span is None:  # a release's twelve months beside its quarter's
            found, months = [f for f in facts if self.of_year(f, year)], self.ask.months
            return [f for f in found if months_of(f) in (0, months or months_of(f))] or found
        held = [f for f in facts if span.holds(f.period_start, f.period_end)]
        if held or self.ask.end is not None or span.months not in (0, 12) or span.quarter != 4:
            return held
        assert span.fiscal_year is not None
        return [f for f in facts if self.of_year(f, span.fiscal_year) and months_of(f) in (0, 12)]

    def _ranking(
        self, item: LineItem, span: Span | None
    ) -> Callable[[FactInfo], tuple[int, int, bool, int, int]]:
        """How the facts of one period are ordered: a primary statement's (or a tagged
        fact) first, the span's months nearest, tagged first, the line item's first name,
        the page."""
        keys, pages = item.keys, self.statement_pages
        quarter = self.document.fiscal_period in ("Q1", "Q2", "Q3", "Q4")
        months = span.months if span is not None else (3 if quarter else 12)

        def order(f: FactInfo) -> int:
            name = f.concept.split(":", 1)[-1]
            if f.source == "tagged":
                return item.concepts.index(name) if name in item.concepts else len(keys)
            for i, k in enumerate(keys):
                if name == k or (k.endswith("%") and name.startswith(k[:-1])):
                    return i
            return len(keys)

        def rank(f: FactInfo) -> tuple[int, int, bool, int, int]:
            kind = pages.get(f.page)
            if f.source == "tagged" or (kind is not None and kind in item.statements):
                where = 0
            else:  # another statement; a table elsewhere (a segment's, a quarter's)
                where = 1 if kind is not None else 2
            if f.period_start is None:
                apart = 0
            else:
                apart = abs(months_of(f) - months) if months else 12 - min(months_of(f), 12)
            return (where, apart, f.source != "tagged", order(f), f.page)

        return rank


def months_of(fact: FactInfo | Figure) -> int:
    """The months a fact's or figure's period spans (0: a balance)."""
    if fact.period_start is None:
        return 0
    return months_between(
        date.fromisoformat(fact.period_start), date.fromisoformat(fact.period_end)
    )


def _whole(number: float) -> bool:
    """Whether `number` is a whole number but for floating point's error."""
    return abs(number - round(number)) < 1e-6
