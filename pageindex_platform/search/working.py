"""A metric computed from a filing's figures, with the working shown: the `Evaluator` walks a
formula's tree over the figures (`Lookup`), recording each input; `compute` gives the metric
for the year asked (or its N-year average, or its change) as a `Working`."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from ..errors import PageIndexError
from ..patterns import deferred
from .figures import Figure, LineItem
from .formulas import FormulaError, Node, parse_formula
from .metric_questions import Asked, input_names
from .metrics import Catalogue, Lookup, Metric
from .results import MetricWorking
from .section_rows import names_a_block
from .terms import STATEMENT_NAMED, initials, phrase_words

# a row's figure by its printed label; True: only where no other row is so named on its page
Rows = Callable[[str, int | None, bool], Figure | None]


class MissingInput(PageIndexError):
    """An input the filing's figures do not hold."""

    def __init__(self, name: str, year: int | None) -> None:
        self.name, self.year = name, year
        super().__init__(f"{name}{f' for FY{year}' if year else ''}")


@dataclass
class Working:
    """A metric's result and how it was reached: its formula, and each input figure with
    the line item it stands for and its fiscal year."""

    metric: str
    formula: str
    value: float
    percent: bool
    places: int
    years: list[int]
    inputs: list[tuple[str, int | None, Figure]] = field(default_factory=list)
    ratio: bool = True  # False: an amount of money (inputs added and subtracted)
    places_asked: bool = False  # the question says how many places to give
    # the question's own definitions of its terms that the formula used ("debt = ...")
    defined: list[Metric] = field(default_factory=list)
    change: tuple[float, float] | None = None  # (first year's, last year's) for a change asked
    period: str = (
        ""  # the period it is computed for: "FY2023", "Q2 FY2024", "FY2021–FY2023 average"
    )

    @property
    def shown(self) -> str:
        """The result: a percentage, a ratio, or an amount of money in its inputs' scale
        ("$3,215 million") when the formula only adds and subtracts amounts."""
        money = [f for _, _, f in self.inputs if f.unit == "iso4217:USD"]
        if not self.percent and not self.ratio and money and len(money) == len(self.inputs):
            scale = min((f.decimals for f in money if f.decimals is not None), default=None)
            return replace(money[0], value=self.value, decimals=scale).shown
        return f"{self.value:,.{self.places}f}{'%' if self.percent else ''}"

    def stated(self) -> MetricWorking:
        """The working as the answer shows it (`working` of `pi ask --json`)."""
        return MetricWorking(
            metric=self.metric,
            change_of=list(self.change) if self.change else None,
            formula=self.formula,
            value=round(self.value, self.places),
            shown=self.shown,
            years=self.years,
            period=self.period,
            inputs=[figure.as_input(name, year) for name, year, figure in self.inputs],
        )


class Evaluator:
    """Evaluates formulas over one filing's figures (`lookup`), recording each input."""

    def __init__(
        self,
        catalogue: Catalogue,
        lookup: Lookup,
        defined: dict[str, Metric] | None = None,
        rows: Rows | None = None,
    ) -> None:
        self.catalogue, self.lookup, self.rows = catalogue, lookup, rows
        self.defined = defined or {}
        self.inputs: list[tuple[str, int | None, Figure]] = []
        self.ratio = False  # whether it multiplied, divided or counted (not an amount)
        self._depth = 0
        self._using: list[str] = []  # the definitions being evaluated
        self._read_as: dict[str, str] = {}  # each line item read, by the words that named it
        self.used: list[Metric] = []  # the question's definitions used, in order

    def computing(self, name: str) -> None:
        """The metric being computed: no term of its own formula stands for it ("operating
        cash flow" in a free cash flow the question defines is the line, not the metric)."""
        self._using.append(name)

    def _abbreviated(self, name: str) -> Metric | None:
        """A term the question defines by its abbreviation, written in full in a formula:
        "earnings before interest and taxes" where the question takes EBIT as ..."""
        spelled = initials(phrase_words(name), _UNSPELLED)
        if len(phrase_words(name).split()) < 3:
            return None
        return next(
            (m for m in self.defined.values() if phrase_words(m.name).strip() == spelled), None
        )

    def _standing_for(self, name: str) -> Metric | None:
        """A term the question defines that stands for the line item `name` of a formula:
        "taking total debt as ..." in a debt-to-equity question defines the debt its
        formula's "long-term debt" stands for (the same last word, another name)."""
        if self.catalogue.item(name) is None:
            return None
        last = phrase_words(name).split()[-1:]
        for metric in self.defined.values():
            if metric.name in self._using or phrase_words(metric.name) == phrase_words(name):
                continue
            if phrase_words(metric.name).split()[-1:] == last:
                return metric
        return None

    def value(self, node: Node, year: int | None) -> float:
        year = node.year or year
        if node.kind == "number":
            self.ratio = self.ratio or node.value != "0"
            return float(node.value)
        if node.kind == "op":
            self.ratio = self.ratio or node.value in "*/"
            left, right = (self._operand(a, year, node.value == "/") for a in node.args)
            if node.value == "+":
                return left + right
            if node.value == "-":
                return left - right
            if node.value == "*":
                return left * right
            if right == 0:
                raise FormulaError("division by zero")
            return left / right
        if node.kind == "call":
            if year is None:
                raise FormulaError(f"{node.value}() needs a fiscal year")
            (arg,) = node.args
            now, before = self.value(arg, year), self.value(arg, year - 1)
            if node.value == "average":
                return (now + before) / 2
            return now - before if node.value == "change" else before
        return self.name(node.value, year)

    def _operand(self, node: Node, year: int | None, divided: bool) -> float:
        """An operand's value; a term of a division naming a line's negative side ("income
        tax benefit / loss before income taxes") as its amount, without its sign."""
        if divided and node.kind == "name":
            return self.name(node.value, node.year or year, amount=True)
        return self.value(node, year)

    def name(self, name: str, year: int | None, *, amount: bool = False) -> float:
        metric = (
            self.defined.get(phrase_words(name))
            or self._abbreviated(name)
            or self._standing_for(name)
        )
        if metric is not None and metric not in self.used:
            self.used.append(metric)
        if metric is None and not (self._in_question_formula() and self.catalogue.named(name)):
            metric = self.catalogue.metric(name)  # a line's own name in the question's formula
        if metric is not None:
            self._depth += 1
            self._using.append(metric.name)
            if self._depth > 10:
                raise FormulaError(f"{name} is defined by itself")
            try:
                result = self.value(parse_formula(metric.formula), year)
            finally:
                self._depth -= 1
                self._using.pop()
            return result
        name = " ".join(_WHERE_READ.sub(" ", name).split())  # "D&A from the cash flow statement"
        side = _signed_side(name)
        if side != name:  # "loss before income taxes": the line; in a ratio, its amount
            if not amount and _BENEFIT.search(name):
                # a tax line is read as an amount, whatever its sign: a benefit added to a
                # loss could not be told from a provision
                raise FormulaError(f"{name!r} is added or subtracted; its sign is not read")
            value = self.name(side, year)
            return abs(value) if amount else value
        item = self.catalogue.item(name)
        if item is None:
            return self._row(name, year, f"{name!r} is neither a line item nor a metric")
        beside = _left_over(name, item).split()
        joined = self._joined(name, year) if beside else None
        if joined is not None:
            return joined
        if beside:  # "operating income excluding special items", "U.S. net sales"
            why = f"{name!r} is {item.name} with {' '.join(beside)!r}: not the line"
            return self._row(name, year, why)  # unless a row is printed so
        # two terms of one formula read as one line ("income tax provision" over "income from
        # continuing operations before income taxes"): one of them is not that line
        said = self._read_as.setdefault(item.name, phrase_words(name))
        if said != phrase_words(name):
            raise FormulaError(f"{said!r} and {name!r} would both be read as {item.name}")
        figure = self.lookup(item, year)
        if figure is None and self.rows is not None and names_a_block(name):
            # the balance sheet's row of the block the term names: "long-term debt" printed
            # "Debt" below "Total current liabilities"
            figure = self.rows(name, year, False)
            figure = figure if figure is not None and figure.value >= 0 else None
        if figure is None:
            raise MissingInput(item.name, year)
        if not any(n == item.name and y == year for n, y, _ in self.inputs):
            self.inputs.append((item.name, year, figure))
        return figure.value

    def _in_question_formula(self) -> bool:
        """Whether the formula being computed is one the question writes."""
        return bool(self._using) and any(m.name == self._using[-1] for m in self.defined.values())

    def _joined(self, name: str, year: int | None) -> float | None:
        """Two lines a term joins with "and" ("cash and cash equivalents and marketable
        securities"): their sum, where the words before an "and" name a line whole and those
        after name one too; None where no "and" splits the term so."""
        words = name.split()
        for at, word in enumerate(words):
            if word.lower() != "and" or at == 0:
                continue
            left, right = " ".join(words[:at]), " ".join(words[at + 1 :])
            if self.catalogue.named(left) and self.catalogue.named(right):
                return self.name(left, year) + self.name(right, year)
        return None

    def _row(self, name: str, year: int | None, why: str) -> float:
        """A term no line item names whole, read from the row the filing prints under that
        name ("Notes payable and other borrowings, non-current"; else `why` it is not read);
        never a figure in parentheses, which may be an outflow or a loss."""
        figure = None
        if self.rows is not None:  # "product development expense", printed "Product development"
            bare = _EXPENSE.sub("", name)
            figure = self.rows(name, year, False)
            if figure is None and bare != name:  # read without "expense": the only row so
                figure = self.rows(bare, year, True)
        if figure is None:
            raise FormulaError(why)
        if figure.value < 0:
            raise FormulaError(f"the row {figure.label!r} is printed negative")
        if not any(n == figure.label and y == year for n, y, _ in self.inputs):
            self.inputs.append((figure.label, year, figure))
        return figure.value


_EXPENSE = deferred(r"\s+expenses?\s*$", re.IGNORECASE)
# the side of a line a filing prints as "income (loss)" or "provision (benefit)" that a term
# names: "loss before income taxes", "net loss", "income tax benefit" — the same line, signed
# as printed where it is added or subtracted, its amount where it is divided (a loss of 7 is 7)
_LOSS_OF = deferred(r"\b(net|operating)\s+loss\b|\bloss(?=\s+before\s+(?:income\s+)?tax)", re.I)
_BENEFIT = deferred(r"\b((?:income\s+)?tax(?:es)?)\s+benefit\b", re.IGNORECASE)


def _signed_side(name: str) -> str:
    """`name` with a loss said as the income line it is, a tax benefit as the tax line."""
    name = _LOSS_OF.sub(lambda m: f"{m[1]} income" if m[1] else "income", name)
    return _BENEFIT.sub(lambda m: m[1], name)


# words an abbreviation skips: "EBIT" for "earnings before interest and taxes"
_UNSPELLED = frozenset({"and", "of", "the", "to", "for", "in", "on"})


# what a formula's term may say beside a line's name and still be the line: where it is
# read ("from the cash flow statement"), its period, "the", "total", "reported" ...
_WHERE_READ = deferred(
    r"\b(?:from|in|on|per|as\s+reported\s+in|reported\s+in)\s+(?:the\s+)?" + STATEMENT_NAMED,
    re.IGNORECASE,
)
_SAID_OF_THE_LINE = deferred(
    r"\b(?:the|its|their|total|net|fiscal|year|fy\s?\d{4}|\d{4}|consolidated|reported|"
    r"unadjusted|gaap|company|s|annual|full|as|a|an|of)\b"
)


def _left_over(name: str, item: LineItem) -> str:
    """The words of a formula's term beside the item's name it was read as ("excluding
    special items" of "operating income excluding special items"), less those that say
    where or when the line is read; "" when the term is the line."""
    said = phrase_words(name)
    names = [phrase_words(n.removesuffix(" *")) for n in item.names]
    starred = [phrase_words(n[:-2]) for n in item.names if n.endswith(" *")]
    if said in names or any(said.startswith(n) for n in starred):
        return ""  # "net income attributable to *" names every owner's
    inside = max((n for n in names if n in said), key=len, default="")
    left = said.replace(inside, " ", 1) if inside else said
    # "equity excluding noncontrolling interest" is the equity line (the parent's)
    left = re.sub(r"\bexclu\w* (?:the )?(?:non ?controlling|minority) interest\b", " ", left)
    return _SAID_OF_THE_LINE.sub(" ", left)


def compute(
    *,
    metric: Metric,
    catalogue: Catalogue,
    defined: dict[str, Metric],
    lookup: Lookup,
    ask: Asked,
    own_year: int | None,
    rows: Rows | None = None,
) -> Working:
    """The metric for the year asked (or the N-year average of it), its inputs recorded.
    Raises MissingInput naming an input the filing does not hold."""
    evaluator = Evaluator(catalogue, lookup, defined, rows)
    evaluator.computing(metric.name)
    formula = parse_formula(metric.formula)
    over_time = "previous(" in metric.formula or "change(" in metric.formula
    years: Sequence[int | None] = [ask.years[-1] if ask.years else own_year]
    if ask.span_average or (ask.change and not over_time):
        years = [ask.years[0], ask.years[-1]] if ask.change else ask.years
    values = [evaluator.value(formula, y) for y in years]
    percent = metric.percent or (ask.percent and abs(sum(values) / len(values)) < 5)
    if percent:
        values = [v * 100 for v in values]
    change = None
    if ask.change and not over_time and not ask.span_average:
        change = (values[0], values[-1])
        value = values[-1] - values[0]
    else:
        value = sum(values) / len(values)
    places = ask.places if ask.places is not None else (1 if percent else 2)
    return Working(
        metric=metric.name,
        formula=metric.formula,
        value=value,
        percent=percent,
        places=places,
        years=[y for y in years if y is not None],
        inputs=evaluator.inputs,
        ratio=evaluator.ratio,
        defined=evaluator.used,
        change=change,
        places_asked=ask.places is not None,
    )


def terms_defined(question: str, working: Working | None) -> bool:
    """Whether the question defines its metric's terms ("where debt = ..., and equity = ...")
    and the working used each of those definitions."""
    names = {phrase_words(n) for n in input_names(question)}
    used = {phrase_words(m.name) for m in working.defined} if working else set()
    return bool(names) and names <= used
