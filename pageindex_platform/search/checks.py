"""The checks a figure passes before an answer states it. A line item's candidates, ranked as
`FigureBook` ranks them, are each put through the same checks, and the first that passes
every one is the figure stated; the others are set aside, each with its reason:

- kind: a flow (revenue, income, cash flow) has a duration (a quarter three months, a fiscal
  year twelve), a balance a date — a flow "as of" a date, or a balance for a period, is not it;
- statement: a tagged fact without dimensions, or a row of a primary statement, is the
  company's consolidated line; a table about affiliates, equity-method investees, joint
  ventures or segments is not, unless the question asks for a segment;
- sign: debt, assets, revenue and the like are not negative, nor a dash;
- page: the figure's digits are printed on the page it cites (the stored page text).

Agreement — a tagged fact and a table row of the same period that differ — is said in the
notes of the figure stated."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..db import queries
from ..db.queries import DocumentInfo, FactInfo
from ..db.sql import Session
from ..patterns import deferred
from ..periods import PeriodAsk
from .figures import Figure, FigureBook, LineItem, months_of
from .items_named import items_in
from .printed import dated_columns, printed_form, row_line, table_context
from .registrants import not_the_registrants, own_first
from .results import Check
from .row_labels import heading_check
from .section_rows import section_row
from .sizes import sign_check
from .statements import Statement

_MAX_CANDIDATES = 6
_READ_FOR_REGISTRANT = 30  # candidates whose pages are read for whose statement they are

# a table about something other than the company's consolidated lines
_NOT_CONSOLIDATED = deferred(
    r"\b(equity[- ]method|equity affiliates?|affiliated compan\w+|(?:unconsolidated|equity) "
    r"(?:affiliates?|investees?|subsidiaries)|investees?|joint ventures?|guarantor|parent "
    r"company only|condensed consolidating|reportable segments?|segment information|by "
    r"segment|business segments?|pro forma|as if the acquisitions?)\b",
    re.IGNORECASE,
)
# "HSG's results of operations", "the joint venture's summarized balance sheet"
_ENTITY_TABLE = deferred(
    r"\b([A-Z][A-Za-z&.-]{1,30})[’']s\s+(?:results|balance sheets?|summarized|condensed|"
    r"combined|financial (?:statements|information|position)|statements? of)"
)
# the words a filing names itself by ("the Company's", "the Corporation's", "the Registrant's")
_FILER_WORDS = frozenset("company corporation registrant".split())
_STATEMENT_NAMES = {
    "cash flow statement": Statement.CASH_FLOW,
    "statement of cash flows": Statement.CASH_FLOW,
    "cash flows statement": Statement.CASH_FLOW,
    "income statement": Statement.INCOME,
    "statement of operations": Statement.INCOME,
    "statement of income": Statement.INCOME,
    "balance sheet": Statement.BALANCE,
}
_FROM_STATEMENT = deferred(
    r"([^.?;]{3,80}?)\s+(?:from|on|in) the\s+(?:consolidated\s+)?(cash flows? statement|"
    r"statement of cash flows|income statement|statement of operations|statement of income|"
    r"balance sheet)\b",
    re.IGNORECASE,
)
_END_BALANCE = deferred(r"\b(?:end of|at end|ending)\b", re.IGNORECASE)
_CASH_FLOWS = deferred(r"\bcash\s+flows?\b", re.IGNORECASE)


@dataclass
class Vetted:
    """A line item's candidates for one period, checked: the figure chosen (None: none
    passed), its checks and notes, and each candidate set aside with its reason."""

    item: LineItem
    year: int | None
    chosen: Figure | None = None
    checks: list[Check] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    set_aside: list[tuple[Figure, str, list[Check]]] = field(default_factory=list)


def line_kind(item: LineItem) -> str | None:
    """ "flow" (a duration), "balance" (a date), or None when not known."""
    if item.per_share:
        return "flow"
    kinds = set(item.statements)
    if not kinds:
        return None
    if kinds <= {Statement.BALANCE}:
        return "balance"
    return None if Statement.BALANCE in kinds else "flow"


class CheckedBook(FigureBook):
    """A `FigureBook` whose figures are checked: `get` gives the first candidate that
    passes every check; `vetted` keeps what was considered for each line item and year."""

    def __init__(
        self,
        session: Session,
        document: DocumentInfo,
        ask: PeriodAsk | None = None,
    ) -> None:
        super().__init__(session, document, ask)
        # line items the question asks from one statement ("D&A from the cash flow statement")
        self.required: dict[str, Statement] = {}
        self.registrant = ""  # a registrant of a combined filing the question names
        self.vetted: dict[tuple[str, int | None], Vetted] = {}
        self._pages: dict[int, str] = {}

    def get(self, item: LineItem, year: int | None = None) -> Figure | None:
        key = (item.name, year)
        if key not in self.vetted:
            self.vetted[key] = self.vet(item, year)
        return self.vetted[key].chosen

    def formula_row(self, label: str, year: int | None, alone: bool = False) -> Figure | None:
        """The figure of the row printed as `label` that a formula's term may stand for: a
        primary statement's, or a note's where the statements print the same figure and its
        table is about no segment or other entity; `alone`: the only row so named on its page
        (a name read without "expenses": not "Hardware" among revenues where "Hardware"
        among costs is asked)."""
        # "current non-recourse debt": the row so named in the balance sheet's current block
        figure = self.row_named(label, year) or section_row(self, label, year, self.page_text)
        if figure is None:
            return None
        text = self.page_text(figure.page)
        if self.statement_pages and figure.page not in self.statement_pages:
            # a note's "Cloud services and license support expenses" (a segment's) is not
            # the income statement's line
            pages = sorted(self.statement_pages)
            self.load_pages(pages)
            if not any(printed_form(figure, self.page_text(p)) for p in pages):
                return None
            if not self.statement_check(figure, text).passed:
                return None
        if alone:
            printed = re.findall(
                rf"(?im)^[ \t]*{re.escape(figure.label)}[ \t]*(?:$|[\d$(—–-])", text
            )
            return figure if len(printed) <= 1 else None
        return figure

    def page_text(self, page: int) -> str:
        if page not in self._pages:
            self.load_pages([page])
        return self._pages.get(page, "")

    def load_pages(self, pages: list[int]) -> None:
        wanted = [(self.document.name, p) for p in dict.fromkeys(pages) if p not in self._pages]
        for found in queries.page_texts(self.session, wanted):
            self._pages[found.page] = found.text
        self._pages.update({p: "" for _, p in wanted if p not in self._pages})

    def vet(self, item: LineItem, year: int | None) -> Vetted:
        figures = self.candidates(item, year)
        if self.registrant:  # its own statements first ("PACIFIC GAS AND ELECTRIC COMPANY")
            self.load_pages([f.page for f in figures[:_READ_FOR_REGISTRANT]])
            figures = own_first(figures[:_READ_FOR_REGISTRANT], self.registrant, self.page_text)
        figures = figures[:_MAX_CANDIDATES]
        self.load_pages([f.page for f in figures])
        vetted = Vetted(item, year)
        for figure in figures:
            checks = self.check(item, figure, year, figures)
            failed = next((c for c in checks if not c.passed), None)
            if failed is not None:
                vetted.set_aside.append((figure, failed.detail, checks))
                continue
            vetted.chosen, vetted.checks = figure, checks
            vetted.notes = _differences(figure, figures)
            break
        return vetted

    def check(
        self,
        item: LineItem,
        figure: Figure,
        year: int | None,
        peers: Sequence[Figure] = (),
        *,
        part: bool = False,
    ) -> list[Check]:
        """Every check of one candidate, in order; `part`: the question asks a part of the
        company (a segment's row may then be in a table about segments)."""
        text = self.page_text(figure.page)
        return [
            kind_check(item, figure, text),
            self.duration_check(figure, year, line_kind(item)),
            self.statement_check(figure, text, self.required.get(item.name), part=part),
            sign_check(item, figure),
            page_check(figure, text),
            column_check(figure, peers, text),
            heading_check(item, figure, text),
        ]

    def duration_check(self, figure: Figure, year: int | None, kind: str | None = None) -> Check:
        """The figure covers the duration asked; a quarterly filing's flow whose table gives it
        no span ("as of June 30, 2023") is not a year's."""
        if figure.period_start is None and kind == "flow" and self._year_of_quarter(year):
            return Check(
                "duration", False, f"a quarterly filing's flow, not a year's ({figure.period})"
            )
        if figure.period_start is None:
            return Check("duration", True, f"a figure at a date ({figure.period})")
        months = months_of(figure)
        span = self.span(year)
        wanted = span.months if span is not None else self.ask.months
        if not wanted and self.ask.quarter is not None:
            wanted = 3  # a quarter asked is three months, whatever the filing's calendar
        if wanted is None and self.document.fiscal_period:
            wanted = 12 if self.document.fiscal_period == "FY" else None
        if wanted and months != wanted:
            asked = span.label if span is not None else "the filing's period"
            return Check(
                "duration", False, f"it covers {months} months; {asked} is {wanted} months"
            )
        return Check("duration", True, f"{months} months, as asked")

    def _year_of_quarter(self, year: int | None) -> bool:
        """Whether a year is asked of a filing of one quarter (Q1 to Q3)."""
        span = self.span(year)
        quarterly = self.document.fiscal_period in ("Q1", "Q2", "Q3")
        return quarterly and span is not None and span.months == 12

    def statement_check(
        self, figure: Figure, text: str, required: Statement | None = None, *, part: bool = False
    ) -> Check:
        kind = self.statement_pages.get(figure.page)
        if required is not None and kind != required:
            where = f"the {kind}" if kind else "no primary statement"
            return Check(
                "statement",
                False,
                f"the question asks for the {required}'s; p. {figure.page} is {where}",
            )
        if self.registrant and (why := not_the_registrants(text, self.registrant)):
            return Check("statement", False, why)  # "Pacific Gas and Electric Company" asked
        if figure.source == "tagged":
            what = "with no dimension: the company's consolidated figure"
            return Check("statement", True, f"tagged in the filing's inline XBRL {what}")
        context = table_context(figure, text)
        about = _NOT_CONSOLIDATED.search(context)
        other = self._another_entity(context)
        if (about or other) and not part:
            what = about.group(0).lower() if about else f"{other}'s figures"
            return Check(
                "statement",
                False,
                f"a row of a table about {what} (p. {figure.page}), not the company's "
                "consolidated statements",
            )
        dated = figure.period_start is None and not _END_BALANCE.search(figure.label)
        if dated and self.cash_flow_row(figure, context):  # its changes, read at a date
            why = f"a row of the {kind} read at a date (p. {figure.page}): misread"
            return Check("statement", False, why)
        if kind is not None:
            return Check("statement", True, f"a row of the {kind} (p. {figure.page})")
        where = f"a table outside the primary statements (p. {figure.page})"
        return Check("statement", True, where)

    def cash_flow_row(self, figure: Figure, context: str) -> bool:
        """Whether the row is of a cash flow statement: its page's and its table's title
        (`context`, the lines over its table) say so."""
        cash_flow = self.statement_pages.get(figure.page) == Statement.CASH_FLOW
        return cash_flow and _CASH_FLOWS.search(context) is not None

    def _another_entity(self, context: str) -> str | None:
        """The name of another entity whose results a table gives ("HSG's results of
        operations ... were as follows"), where it is not the company's own name."""
        own = {w.lower() for w in re.findall(r"[A-Za-z]+", self.document.company or "")}
        own |= _FILER_WORDS  # "the Company's results of operations": the filer's own
        for found in _ENTITY_TABLE.finditer(context):
            if found.group(1).lower() not in own:
                return found.group(1)
        return None

    def _figure(self, item: LineItem, best: FactInfo) -> Figure:
        """As `FigureBook` reads it, except that a row whose columns are headed by dates
        ("December 31, 2023") stays at its date: it is not a year's column."""
        if best.period_start is None and dated_columns(
            Figure.of(self.document.name, best), self.page_text(best.page)
        ):
            figure = Figure.of(self.document.name, best, item.name)
            return figure.positive() if item.outflow else figure
        return super()._figure(item, best)


def statement_asked(question: str) -> Statement | None:
    """The primary statement the question says a figure is read from ("on the balance
    sheet"); None where it names none."""
    asked = _FROM_STATEMENT.search(question)
    return _STATEMENT_NAMES[re.sub(r"\W+", " ", asked.group(2).lower()).strip()] if asked else None


def required_statements(question: str, items: Sequence[LineItem]) -> dict[str, Statement]:
    """The line items a question asks to take from one statement: "using operating income
    and D&A from the cash flow statement" → {depreciation and amortization: cash flow
    statement} (the item named last before "from the ...")."""
    found: dict[str, Statement] = {}
    for asked in _FROM_STATEMENT.finditer(question):
        statement = _STATEMENT_NAMES[re.sub(r"\W+", " ", asked.group(2).lower()).strip()]
        named = items_in(asked.group(1), items)
        if named:
            last = max(named, key=lambda x: x[1] + x[2])
            found[last[0].name] = statement
    return found


def kind_check(item: LineItem, figure: Figure, text: str) -> Check:
    kind = line_kind(item)
    if kind == "balance" and figure.period_start is not None:
        if _END_BALANCE.search(figure.label):
            return Check("kind", True, "a balance at the end of a period")
        return Check(
            "kind",
            False,
            f"{item.name} is a balance, at a date; this row ({figure.label!r}) is for the "
            f"{figure.period}",
        )
    if kind == "flow" and figure.period_start is None and dated_columns(figure, text):
        return Check(
            "kind",
            False,
            f"{item.name} is a flow, over a period; this row ({figure.label!r}) is {figure.period}",
        )
    what = {"flow": "a flow over a period", "balance": "a balance at a date"}.get(kind or "", "")
    return Check("kind", True, what or "a line of either kind")


def column_check(figure: Figure, peers: Sequence[Figure], text: str) -> Check:
    """Whether the figure's column is sure: no other column of its row line is of the same
    period with another value — side-by-side tables ("Net Sales | Operating Income", each
    headed 2019 2018 2017)."""
    if not figure.source.startswith("table"):  # a tagged fact's context says its period
        return Check("column", True, "tagged with its own period")
    row = row_line(figure, text)
    for other in peers:
        if (
            other.source == figure.source
            and other.page == figure.page
            and other.label == figure.label
            and (other.period_start, other.period_end) == (figure.period_start, figure.period_end)
            and not _same_amount(other.value, figure.value)
            and printed_form(other, row)  # a whole number: "800" is not the end of "2,800"
        ):
            return Check(
                "column",
                False,
                f"its row gives {figure.shown} and {other.shown} for the same period "
                f"(p. {figure.page}): which column is which is not sure",
            )
    return Check("column", True, "one figure of its row for the period")


def _same_amount(a: float, b: float) -> bool:
    """Whether two values are one amount written in different scales (9,713 and $9,713
    million)."""
    return any(abs(abs(a) * 10.0**e - abs(b)) <= 0.005 * max(abs(b), 1.0) for e in range(-9, 10, 3))


def page_check(figure: Figure, text: str) -> Check:
    """Whether the figure's digits are printed on the page it cites."""
    form = printed_form(figure, text)
    if form:
        return Check("page", True, f"{form} is printed on p. {figure.page}")
    return Check("page", False, f"its digits ({figure.shown}) are not printed on p. {figure.page}")


def _differences(chosen: Figure, figures: list[Figure]) -> list[str]:
    """Where the figure stated is tagged and a table row of the same period differs (or
    the other way round): the other figure, said."""
    said = []
    for other in figures:
        if other.source == chosen.source or (other.period_start, other.period_end) != (
            chosen.period_start,
            chosen.period_end,
        ):
            continue
        if not _same_amount(other.value, chosen.value):
            how = "the table row" if other.source == "table" else "the tagged fact"
            said.append(
                f"{how} {other.label!r} on p. {other.page} gives {other.shown}, which differs "
                f"from the {chosen.source} figure stated ({chosen.shown})"
            )
    return said[:2]
