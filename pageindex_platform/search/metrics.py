"""Standard metrics computed from a filing's figures, with the working shown. Definitions
are data (`metrics.txt`, see vocabulary.py): "operating margin: operating income / revenue
%". A question may define its own ("DPO is defined as: 365 * (average accounts payable
between FY2016 and FY2017) / (FY2017 COGS + change in inventory between FY2016 and
FY2017)"), which is read into the same formulas and wins over the catalogue's."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from ..errors import PageIndexError
from .figures import Figure, LineItem
from .results import MetricWorking
from .terms import phrase_words

_TOKEN = re.compile(r"\s*(?:(fy\s?\d{4})|(\d+(?:\.\d+)?)|([-+*/()])|([a-z&][a-z0-9&'.%-]*))")
_FUNCTIONS = ("average", "change", "previous")
_NUMBER_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}


class FormulaError(PageIndexError):
    """A formula that cannot be read."""


@dataclass(frozen=True)
class Metric:
    names: tuple[str, ...]
    formula: str  # without its "%" mark
    percent: bool

    @property
    def name(self) -> str:
        return self.names[0]


@dataclass(frozen=True)
class Catalogue:
    """The metrics and line items known: the user's lines first, then the packaged ones."""

    metrics: tuple[Metric, ...]
    items: tuple[LineItem, ...]

    def item(self, name: str) -> LineItem | None:
        """The line item `name` names: one of its names, else the longest name inside it."""
        words = phrase_words(name)
        for item in self.items:
            if any(phrase_words(n.removesuffix(" *")) == words for n in item.names):
                return item
        best: tuple[int, LineItem] | None = None
        for item in self.items:
            for n in item.names:
                w = phrase_words(n.removesuffix(" *"))
                if w in words and (best is None or len(w) > best[0]):
                    best = (len(w), item)
        return best[1] if best else None

    def broader(self, item: LineItem) -> LineItem | None:
        """The line item whose name the item's starts with ("net income" for "net income
        attributable to shareholders"): asked for where a filing states no narrower line."""
        found = [
            other
            for other in self.items
            if other is not item and item.name.startswith(f"{other.name} ")
        ]
        return max(found, key=lambda other: len(other.name), default=None)

    def lookup(self, book: Lookup) -> Lookup:
        """`book`'s figure of a line item, else of its broader line item."""

        def find(item: LineItem, year: int | None) -> Figure | None:
            figure = book(item, year)
            broader = self.broader(item) if figure is None else None
            return book(broader, year) if broader is not None else figure

        return find

    def metric(self, name: str) -> Metric | None:
        words = phrase_words(name)
        return next(
            (m for m in self.metrics if any(phrase_words(n) == words for n in m.names)), None
        )


def parse_metrics(body: str) -> tuple[list[Metric], list[str]]:
    """(metrics, outflow line items) from metrics.txt lines."""
    metrics: list[Metric] = []
    outflows: list[str] = []
    for line in body.splitlines():
        if line.lstrip().startswith("#") or ":" not in line:
            continue
        left, right = line.split(":", 1)
        if left.strip().lower() == "outflows":
            outflows.extend(n.strip().lower() for n in right.split(",") if n.strip())
            continue
        names = tuple(n.strip().lower() for n in left.split(",") if n.strip())
        formula = right.strip()
        percent = formula.endswith("%")
        if names and formula:
            metrics.append(Metric(names, formula.removesuffix("%").strip(), percent))
    return metrics, outflows


# --- formulas ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Node:
    kind: str  # "number", "name", "call", "op"
    value: str = ""
    args: tuple[Node, ...] = ()
    year: int | None = None  # "FY2019 revenue": the year named for it


def parse_formula(text: str) -> Node:
    """A formula's tree: + - * / with the usual precedence, parentheses, numbers, names of
    line items or metrics (words), `average(X)` `change(X)` `previous(X)`, and "FY2019"
    before a term naming its year."""
    tokens: list[tuple[str, str]] = []
    at, body = 0, text.lower().strip()
    while at < len(body):
        found = _TOKEN.match(body, at)
        if not found or found.end() == at:
            raise FormulaError(f"cannot read {body[at : at + 30]!r} in {text!r}")
        at = found.end()
        year, number, op, word = found.groups()
        if year:
            tokens.append(("year", year[2:].strip()))
        elif number:
            tokens.append(("number", number))
        elif op:
            tokens.append(("op", op))
        elif word:
            if tokens and tokens[-1][0] == "word":
                tokens[-1] = ("word", f"{tokens[-1][1]} {word}")
            else:
                tokens.append(("word", word))
    parser = _Parser(tokens, text)
    node = parser.expression()
    if parser.at != len(tokens):
        raise FormulaError(f"cannot read {text!r}")
    return node


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]], text: str) -> None:
        self.tokens, self.text, self.at = tokens, text, 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        token = self.peek()
        if token is None:
            raise FormulaError(f"{self.text!r} ends too soon")
        self.at += 1
        return token

    def expression(self) -> Node:
        node = self.term()
        while self.peek() in (("op", "+"), ("op", "-")):
            op = self.take()[1]
            node = Node("op", op, (node, self.term()))
        return node

    def term(self) -> Node:
        node = self.atom()
        while self.peek() in (("op", "*"), ("op", "/")):
            op = self.take()[1]
            node = Node("op", op, (node, self.atom()))
        return node

    def atom(self) -> Node:
        year = None
        if self.peek() is not None and self.peek()[0] == "year":  # type: ignore[index]
            year = int(self.take()[1])
        kind, value = self.take()
        if kind == "op" and value == "(":
            node = self.expression()
            if self.take() != ("op", ")"):
                raise FormulaError(f"a parenthesis is not closed in {self.text!r}")
            return Node(node.kind, node.value, node.args, year or node.year)
        if kind == "op" and value == "-":
            return Node("op", "-", (Node("number", "0"), self.atom()))
        if kind == "number":
            return Node("number", value)
        if kind == "word":
            words = value.split()
            if words[-1] in _FUNCTIONS and self.peek() == ("op", "("):
                self.take()
                inner = self.expression()
                if self.take() != ("op", ")"):
                    raise FormulaError(f"a parenthesis is not closed in {self.text!r}")
                call = Node("call", words[-1], (inner,), year)
                if len(words) > 1:
                    raise FormulaError(f"{' '.join(words[:-1])!r} before {words[-1]}()")
                return call
            return Node("name", value, (), year)
        raise FormulaError(f"unexpected {value!r} in {self.text!r}")


# --- evaluation ----------------------------------------------------------------------------


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
    change: tuple[float, float] | None = None  # (first year's, last year's) for a change asked

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
            inputs=[figure.as_input(name, year) for name, year, figure in self.inputs],
        )


Lookup = Callable[[LineItem, int | None], Figure | None]


class Evaluator:
    """Evaluates formulas over one filing's figures (`lookup`), recording each input."""

    def __init__(
        self, catalogue: Catalogue, lookup: Lookup, defined: dict[str, Metric] | None = None
    ) -> None:
        self.catalogue, self.lookup = catalogue, lookup
        self.defined = defined or {}
        self.inputs: list[tuple[str, int | None, Figure]] = []
        self.ratio = False  # whether it multiplied, divided or counted (not an amount)
        self._depth = 0

    def value(self, node: Node, year: int | None) -> float:
        year = node.year or year
        if node.kind == "number":
            self.ratio = self.ratio or node.value != "0"
            return float(node.value)
        if node.kind == "op":
            self.ratio = self.ratio or node.value in "*/"
            left, right = (self.value(a, year) for a in node.args)
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

    def name(self, name: str, year: int | None) -> float:
        metric = self.defined.get(phrase_words(name)) or self.catalogue.metric(name)
        if metric is not None:
            self._depth += 1
            if self._depth > 10:
                raise FormulaError(f"{name} is defined by itself")
            try:
                result = self.value(parse_formula(metric.formula), year)
            finally:
                self._depth -= 1
            return result
        item = self.catalogue.item(name)
        if item is None:
            raise FormulaError(f"{name!r} is neither a line item nor a metric")
        figure = self.lookup(item, year)
        if figure is None:
            raise MissingInput(item.name, year)
        if not any(n == item.name and y == year for n, y, _ in self.inputs):
            self.inputs.append((item.name, year, figure))
        return figure.value


# --- questions -----------------------------------------------------------------------------

_SENTENCE = re.compile(r"(?<=[.?!])\s+(?=[A-Z(])")
_DEFINED = re.compile(
    r"^(?:(?:the\s+)?(?P<name>[\w&%/' -]+?)\s+(?:here\s+)?(?:is|are)\s+defined\s+as"
    r"|define\s+(?P<name2>[\w&%/' -]+?)\s+as)\s*:?\s*(?P<expr>.+?)\.?$",
    re.IGNORECASE,
)
_WORDS_TO_OPS = (
    (r"\bdivided by\b", "/"),
    (r"\bmultiplied by\b|\btimes\b", "*"),
    (r"\bplus\b", "+"),
    (r"\bminus\b|\bless\b", "-"),
)
_BETWEEN = re.compile(
    r"\b(average|change)\s+(?:in\s+|of\s+)?(?:the\s+)?(.+?)\s+between\s+fy\s?(\d{4})\s+and\s+"
    r"fy\s?(\d{4})",
    re.IGNORECASE,
)
# "average PP&E" (the year's and the year before's) where no years are named
_OF_YEARS = re.compile(
    r"\b(average|change)\s+(?:in\s+|of\s+)?(?:the\s+)?(?!\()([^-+*/()]+?)(?=\s*[-+*/)]|\s*$)",
    re.IGNORECASE,
)
_YEARS = re.compile(r"\b(?:fy|fiscal(?: year)?)\s?'?((?:19|20)\d\d)\b", re.IGNORECASE)
_BARE_YEAR = re.compile(r"\b((?:19|20)\d\d)\b")
_SPAN_AVERAGE = re.compile(r"\b(\d|two|three|four|five)[\s-]years?\s+average\b", re.IGNORECASE)
_PLACES = re.compile(
    r"\bround(?:ed)?\b[^.?]{0,30}?\bto\s+(\w+)\s+decimal", re.IGNORECASE
)  # "round your answer to two decimal places"
_CHANGE = re.compile(r"\bchang\w*|\bcompare\w*|\bdifference\b|\bvs\.?\b", re.IGNORECASE)
_PERCENT = re.compile(r"%|\bpercent|\bpercentage\b", re.IGNORECASE)


def translate(expression: str) -> str:
    """A question's words for a formula in formula syntax: "average PP&E between FY2018 and
    FY2019" → "fy2019 average(PP&E)", "divided by" → "/"."""
    text = _BETWEEN.sub(lambda m: f"fy{m.group(4)} {m.group(1).lower()}({m.group(2)})", expression)
    for words, op in _WORDS_TO_OPS:
        text = re.sub(words, op, text, flags=re.IGNORECASE)
    return _OF_YEARS.sub(lambda m: f"{m.group(1).lower()}({m.group(2)})", text)


def defined_metrics(question: str) -> dict[str, Metric]:
    """The metrics the question defines, by their name's words."""
    found: dict[str, Metric] = {}
    for sentence in _SENTENCE.split(question):
        match = _DEFINED.match(sentence.strip())
        if not match:
            continue
        name = (match.group("name") or match.group("name2")).strip()
        expr = translate(match.group("expr").strip())
        try:
            parse_formula(expr)
        except FormulaError:
            continue
        percent = bool(_PERCENT.search(match.group("expr")))
        found[phrase_words(name)] = Metric((name.lower(),), expr, percent)
    return found


@dataclass(frozen=True)
class Asked:
    """What a figure question asks about time and form: its fiscal years (the last is the
    one asked; all of them for an N-year average), and how to round."""

    years: list[int]
    span_average: bool
    places: int | None
    percent: bool
    change: bool = False  # how it changed from the first year to the last


def asked(question: str) -> Asked:
    years = sorted({int(y) for y in _YEARS.findall(question)})
    if not years:
        years = sorted({int(y) for y in _BARE_YEAR.findall(question)})
    span = _SPAN_AVERAGE.search(question)
    span_average = bool(span) and len(years) >= 2
    if span_average:
        years = list(range(years[0], years[-1] + 1))
    places = None
    found = _PLACES.search(question)
    if found:
        word = found.group(1).lower()
        places = int(word) if word.isdigit() else _NUMBER_WORDS.get(word)
    first = _SENTENCE.split(question)[0]  # what is asked, not how it defines its terms
    change = not span_average and len(years) >= 2 and bool(_CHANGE.search(first))
    return Asked(years, span_average, places, bool(_PERCENT.search(question)), change)


def metric_in(question: str, catalogue: Catalogue, defined: dict[str, Metric]) -> Metric | None:
    """The metric a question asks for: one it defines (named in its first sentence, else
    the first it defines), else the catalogue's with the longest name found in it."""
    first = phrase_words(_SENTENCE.split(question)[0])
    for metric in defined.values():
        if any(phrase_words(n) in first for n in metric.names):
            return metric
    words = phrase_words(question)
    best: tuple[Metric, int] | None = None
    for metric in catalogue.metrics:
        for name in metric.names:
            w = phrase_words(name)
            if w in words and (best is None or len(w) > best[1]):
                best = (metric, len(w))
    if best is None and defined:
        return next(iter(defined.values()))
    return best[0] if best else None


def compute(
    *,
    metric: Metric,
    catalogue: Catalogue,
    defined: dict[str, Metric],
    lookup: Lookup,
    ask: Asked,
    own_year: int | None,
) -> Working:
    """The metric for the year asked (or the N-year average of it), its inputs recorded.
    Raises MissingInput naming an input the filing does not hold."""
    evaluator = Evaluator(catalogue, lookup, defined)
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
        change=change,
    )
