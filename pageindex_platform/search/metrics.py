"""The metrics and line items known: definitions kept as data (`metrics.txt`, see
vocabulary.py), "operating margin: operating income / revenue %", read into `Metric`s, and
the `Catalogue` that finds a line item or metric by name. Formulas are read by formulas.py,
evaluated over a filing's figures by working.py; a question's own definitions are read by
metric_questions.py."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .figures import Figure, LineItem
from .terms import phrase_words

# a filing's figure of a line item for a fiscal year (None: the filing's own), if it has one
Lookup = Callable[[LineItem, int | None], Figure | None]


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

    def named(self, name: str) -> LineItem | None:
        """The line item one of whose names `name` is, whole."""
        words = phrase_words(name)
        for item in self.items:
            if any(phrase_words(n.removesuffix(" *")) == words for n in item.names):
                return item
        return None

    def item(self, name: str) -> LineItem | None:
        """The line item `name` names: one of its names, else the longest name inside it."""
        whole = self.named(name)
        if whole is not None:
            return whole
        words = phrase_words(name)
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
