"""What a question returns: the answer with its citations, the figures and working it states,
the evidence lines it used, the route taken and why, the documents and nodes searched,
warnings, model usage and timings (`pi ask --json`, the MCP `ask` tool, the web page)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..shapes import Shape


@dataclass(frozen=True)
class Citation(Shape):
    """A cited page (1-based) and the tree node holding it."""

    document: str
    page: int
    node_id: str


@dataclass(frozen=True)
class DocumentScore(Shape):
    """A document the route ranked, and its score."""

    name: str
    score: float


@dataclass(frozen=True)
class NodeRef(Shape):
    """A tree node searched for the answer, with its pages."""

    document: str
    node_id: str
    title: str
    start_page: int
    end_page: int


@dataclass(frozen=True)
class StatedFigure(Shape):
    """A figure the answer states: its value, as the filing writes it (`shown`), its line
    (`label`), period, page and source (tagged in inline XBRL, or a table row)."""

    value: float
    shown: str
    unit: str
    scale: int
    label: str
    period: str
    period_start: str | None
    period_end: str
    document: str
    page: int
    source: str
    concept: str | None


@dataclass(frozen=True)
class WorkingInput(StatedFigure):
    """One input of a computed metric: the line item it stands for and its fiscal year."""

    name: str = ""
    fiscal_year: int | None = None


@dataclass(frozen=True)
class MetricWorking(Shape):
    """A computed metric: its formula, result and each input cited."""

    metric: str
    change_of: list[float] | None
    formula: str
    value: float
    shown: str
    years: list[int]
    inputs: list[WorkingInput]
    period: str = ""  # what it is computed for: "FY2023", "Q2 FY2024", "FY2021–FY2023 average"


@dataclass(frozen=True)
class Check(Shape):
    """One check a figure was put through before it is stated: `name` is one of kind,
    duration, statement, sign, agreement, page, period (a figure read from a sentence);
    `detail` says what was seen."""

    name: str
    passed: bool
    detail: str


@dataclass(frozen=True)
class Candidate(Shape):
    """A figure considered for the answer: as the filing writes it, where, and why it was
    set aside (`set_aside`; "" for the one stated)."""

    value: float
    shown: str
    unit: str
    label: str
    period: str
    period_start: str | None
    period_end: str | None
    document: str
    page: int
    set_aside: str = ""
    checks: list[Check] = field(default_factory=list)


@dataclass(frozen=True)
class Headline(Candidate):
    """The one figure or metric the answer states first, and the checks it passed: `kind` is
    "line item", "segment", "metric", "text" (a figure read from a sentence) or "row" (a table
    row the question names that no catalogue line names); `notes` say what else was seen (a
    table row that differs from the tagged fact, an unusual value)."""

    kind: str = "line item"
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ComparedFigure(Shape):
    """One named company's figure in a comparison: its headline, or null and why."""

    company: str
    headline: Headline | None
    why: str = ""


@dataclass(frozen=True)
class EvidenceLine(Shape):
    """A line the answer stands on, as printed on its page: a stated figure's row ("Revenue:
    9,583 million", kind "figure") or a line extracted from a cited page (kind "extract")."""

    document: str
    page: int
    text: str
    kind: str


@dataclass(frozen=True, kw_only=True)
class Answer(Shape):
    """A question's answer: `answer` is the text; `figures` and `working` what it states;
    `evidence` the lines it used; `citations` the pages, best first."""

    question: str
    mode: str
    route: str
    route_reason: str
    sql: str | None
    documents: list[DocumentScore]
    nodes: list[NodeRef]
    citations: list[Citation]
    answer: str
    figures: list[StatedFigure] = field(default_factory=list)
    working: MetricWorking | None = None
    # the figure stated, checked (null: none passed every check; `candidates` says why),
    # and, for a comparison, each named company's
    headline: Headline | None = None
    candidates: list[Candidate] = field(default_factory=list)
    compared: list[ComparedFigure] = field(default_factory=list)
    evidence: list[EvidenceLine] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    usage: dict[str, int] = field(
        default_factory=lambda: {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0}
    )
    warnings: list[str] = field(default_factory=list)
    # how the question's words were read: its period on the company's calendar ('read "FY23"
    # as fiscal 2023, the year ended September 30, 2023'), the filing a comparative period is
    # read from, a misspelt or shortened company name
    readings: list[str] = field(default_factory=list)
    # a line item across periods, each value from its own filing and cross-checked; derived
    # series (growth, CAGR, a metric per year) with their inputs
    series: list[Series] = field(default_factory=list)


@dataclass(frozen=True)
class SearchHit(Shape):
    """A page a question selects, with its section and a short snippet."""

    document: str
    page: int
    section: str | None
    snippet: str


@dataclass(frozen=True)
class SearchResult(Shape):
    """A question's ranked filings and pages, with short snippets: no answer written."""

    question: str
    route: str
    route_reason: str
    documents: list[DocumentScore]
    pages: list[SearchHit] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class SeriesSource(Shape):
    """A page that prints a figure of a series: the value it prints, as the filing writes it,
    its line and period; for a derived value's input, the line item and period it stands
    for (`name`, `fiscal_year`, `fiscal_period`)."""

    document: str
    page: int
    value: float
    shown: str
    label: str
    period: str
    name: str = ""
    fiscal_year: int | None = None
    fiscal_period: str | None = None


@dataclass(frozen=True)
class SeriesValue(Shape):
    """One period of a series: its value (None: a gap, `reason` says why), as the filing
    writes it, its line, period, document and page; `source` says where it was read ("own":
    the filing of that period, "comparative": a later filing's comparative column,
    "derived": computed from `inputs`, which it cites); `checks` those it passed;
    `confirmed_by` the other filings printing the same value, `restated` those printing
    another."""

    fiscal_year: int
    fiscal_period: str | None
    value: float | None
    shown: str | None = None
    label: str | None = None
    period: str | None = None
    document: str | None = None
    page: int | None = None
    source: str | None = None
    checks: list[str] = field(default_factory=list)
    confirmed_by: list[SeriesSource] = field(default_factory=list)
    restated: list[SeriesSource] = field(default_factory=list)
    inputs: list[SeriesSource] = field(default_factory=list)
    formula: str | None = None
    reason: str | None = None


@dataclass(frozen=True)
class Series(Shape):
    """A line item (or a metric, a growth rate, a CAGR) of one company across periods, on
    one `basis` ("as filed": each period as its own filing printed it; "as last restated":
    as the latest filing reporting it printed it). `kind`: "line item", "metric", "growth",
    "cagr"; `formula` for a derived series; `unit` and `scale` (10**6: millions) of its
    values."""

    company: str
    line_item: str
    kind: str
    unit: str
    scale: int
    basis: str
    values: list[SeriesValue]
    formula: str | None = None
