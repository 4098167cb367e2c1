"""Financial-statement awareness for tree search. A question about capital expenditure, a
quick ratio or gross margin is answered by a primary statement (cash flow statement,
balance sheet, income statement), a page of numbers that prose-oriented chunk matching ranks
below the MD&A text discussing the same items. Knowledge lines map concepts to statements
(knowledge.txt, see vocabulary.py); statement pages are recognised by their
heading and their table of numbers."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from ..db import queries
from ..db.sql import Session
from ..patterns import deferred
from .terms import phrase_words


class Statement(StrEnum):
    INCOME = "income statement"
    BALANCE = "balance sheet"
    CASH_FLOW = "cash flow statement"


# Headings after dropping everything but letters ("Statement of Cash Flow s" → …cashflows).
_HEADINGS = {
    Statement.CASH_FLOW: re.compile(r"statements?ofcashflows?|cashflowsstatements?"),
    Statement.BALANCE: re.compile(
        r"balancesheets?|statements?offinancialposition|statements?ofcondition"
    ),
    Statement.INCOME: re.compile(
        r"statements?of(?:consolidated)?(?:income|operations|earnings)(?!taxes)|incomestatements?"
    ),
}
# In SQL, on the page's opening letters only (PDF text splits words: "Statem ents").
_PREFILTER = "balancesheet|cashflow|statements?of|financialposition|incomestatement"
_HEAD_LINES = 8
_CLUSTER_SPAN = 12  # pages within which a filing's primary statements follow each other
_QUALIFIER = deferred(r"consolidated|condensed|combined")
_ROW_END = deferred(r"(?:\d[\d,]*(?:\.\d+)?\)?%?|[—–-])$")  # a table row's last cell


@dataclass(frozen=True)
class Fact:
    concepts: tuple[str, ...]
    statements: tuple[Statement, ...]


def parse_knowledge(body: str) -> list[Fact]:
    """Facts from "concept, concept: statement, statement" lines; other lines are ignored
    here (they are free-form hints for the model)."""
    facts = []
    known = {s.value: s for s in Statement}
    for line in body.splitlines():
        if line.lstrip().startswith("#") or ":" not in line:
            continue
        left, right = line.rsplit(":", 1)
        statements = tuple(
            known[s] for s in (x.strip().lower() for x in right.split(",")) if s in known
        )
        concepts = tuple(phrase_words(c) for c in left.split(",") if c.strip())
        if statements and concepts:
            facts.append(Fact(concepts, statements))
    return facts


def statements_for(question: str, facts: Sequence[Fact]) -> list[Statement]:
    """The statements a question needs, in the order its concepts appear in it (the most
    specific concept first where several start at the same word)."""
    words = phrase_words(question)
    found: list[tuple[int, int, int, Statement]] = []
    for fact in facts:
        matches = [(words.find(c), -len(c)) for c in fact.concepts if c in words]
        if matches:
            at, length = min(matches)
            found.extend((at, length, i, s) for i, s in enumerate(fact.statements))
    found.sort(key=lambda x: x[:3])
    return list(dict.fromkeys(x[3] for x in found))


def detect_statement(page_text: str) -> Statement | None:
    """The primary statement on a page: a consolidated/condensed statement heading among the
    first lines (a title line: not a sentence, not an index entry ending in a page number),
    and the page is mostly table rows ending in numbers. Guarantor ("consolidating")
    schedules and press-release section titles do not count."""
    lines = [ln.strip() for ln in page_text.splitlines() if ln.strip()]
    kinds: set[Statement] = set()
    for line in lines[:_HEAD_LINES]:
        lower = line.lower()
        if len(line) > 100 or line.endswith(".") or line[-1].isdigit() or "following" in lower:
            continue
        if "consolidating" in lower or not _QUALIFIER.search(lower):
            continue
        letters = re.sub(r"[^a-z]", "", lower)
        kinds.update(kind for kind, pattern in _HEADINGS.items() if pattern.search(letters))
    if len(kinds) != 1 or len(lines) < 12:
        return None
    rows = sum(bool(_ROW_END.search(line)) for line in lines)
    return kinds.pop() if rows >= 0.4 * len(lines) else None


def statement_pages(*, session: Session, document_id: int) -> dict[Statement, int]:
    """The first page of each primary statement in a document. A filing repeats statement
    headings elsewhere (selected data, parent-only or segment schedules); the primary
    statements are the first compact cluster holding the most kinds. A statement's
    continuation pages are one block with its first page."""
    rows = [(p.page, p.text) for p in queries.pages_opening_with(session, document_id, _PREFILTER)]
    blocks: list[tuple[Statement, int]] = []  # (kind, first page) of consecutive pages
    previous: tuple[Statement | None, int] = (None, -1)
    for page, body in rows:
        kind = detect_statement(body)
        if kind is not None and previous != (kind, page - 1):
            blocks.append((kind, page))
        previous = (kind, page)
    best: dict[Statement, int] = {}
    best_key: tuple[int, bool, int] | None = None
    for _, anchor in blocks:
        cluster: dict[Statement, int] = {}
        for kind, first in blocks:
            held = cluster.get(kind)
            if held is None or abs(first - anchor) < abs(held - anchor):
                cluster[kind] = first
        starts = cluster.values()
        key = (-len(cluster), max(starts) - min(starts) > _CLUSTER_SPAN, min(starts))
        if best_key is None or key < best_key:
            best, best_key = cluster, key
    return best
