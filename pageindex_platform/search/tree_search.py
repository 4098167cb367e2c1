"""Search inside one selected document's tree (local mode): nodes ranked by the question's
hybrid chunk hits aggregated per node, plus the overlap between the question and the node's
title path; pages ranked by their hits, favouring pages of the best nodes."""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from ..db.queries import TreeInfo
from ..patterns import deferred
from .semantic import ChunkHit
from .terms import keywords

TITLE_WEIGHT = 0.05  # a title naming every keyword weighs like a few top-ranked chunk hits
# Pages every filing carries that answer no analyst's question — officers' certifications
# (Exhibits 31 and 32), the signatures page, auditors' consents, powers of attorney — yet
# whose wording ("fairly presents, in all material respects", "the registrant has duly
# caused this report to be signed") matches questions about what was reported.
_BOILERPLATE = deferred(
    r"certification\s+pursuant\s+to|sarbanes-oxley\s+act\s+of\s+2002|rule\s+13a-14|"
    r"\bI,\s+[A-Z][\w.' -]{2,60},\s+certify\s+that|has\s+duly\s+caused\s+this\s+report|"
    r"consent\s+of\s+independent\s+registered|power\s+of\s+attorney",
    re.IGNORECASE,
)
BOILERPLATE_WEIGHT = 0.1


def _stems(text: str) -> set[str]:
    return {w[:-1] if len(w) > 3 and w.endswith("s") else w for w in keywords(text)}


@dataclass(frozen=True)
class NodeHit:
    document: str
    node_id: str
    title: str
    start_page: int
    end_page: int
    score: float


@dataclass(frozen=True)
class PageHit:
    document: str
    page: int
    node_id: str
    score: float


def search_tree(
    *,
    question: str,
    tree: TreeInfo,
    hits: Sequence[ChunkHit],
    top_nodes: int = 3,
    statement_pages: Sequence[int] = (),
) -> tuple[list[NodeHit], list[PageHit]]:
    """Nodes and pages of one document's tree for the question (its words and the section
    phrases it names: `Query.lexical`), from its chunk hits. `statement_pages` are the pages of
    the primary statements the question needs (see statements.py), most needed first: they
    rank first, since the figure asked for is there while chunk matching favours the prose
    discussing it (measured on the dev set: better at every k than ranking them second)."""
    terms = _stems(question)
    document, nodes = tree.document, tree.nodes
    by_node: dict[str, list[float]] = defaultdict(list)
    by_page: dict[int, list[float]] = defaultdict(list)
    node_of_page: dict[int, str] = {}
    for h in hits:
        score = h.score * (BOILERPLATE_WEIGHT if _BOILERPLATE.search(h.text) else 1.0)
        by_node[h.node_id].append(score)
        by_page[h.page].append(score)
        node_of_page.setdefault(h.page, h.node_id)
    scored: list[NodeHit] = []
    for n in nodes:
        chunk = sum(by_node.get(n.node_id, [])) / math.sqrt(len(by_node.get(n.node_id, [])) + 1)
        title = terms & _stems(n.title)
        path = terms & _stems(n.path)
        score = chunk + TITLE_WEIGHT * (len(title) + 0.5 * len(path - title))
        if score > 0:
            scored.append(NodeHit(document, n.node_id, n.title, n.start_page, n.end_page, score))
    scored.sort(key=lambda x: -x.score)
    best = scored[:top_nodes]
    boost = {n.node_id: 1.0 + 0.5 * (top_nodes - i) / top_nodes for i, n in enumerate(best)}
    page_scores = {
        page: (max(s) + 0.25 * sum(s)) * boost.get(node_of_page[page], 1.0)
        for page, s in by_page.items()
    }
    # The pages of a short, well-matching section are candidates even without chunk hits
    # (a statement named in the question, a note whose title says it all).
    for hit in best:
        span = hit.end_page - hit.start_page + 1
        if span <= 3:
            for page in range(hit.start_page, hit.end_page + 1):
                if page not in page_scores:
                    node_of_page[page] = hit.node_id
                page_scores[page] = page_scores.get(page, 0.0) + 0.5 * hit.score / span
    top = max(page_scores.values(), default=1.0)
    for rank, page in enumerate(statement_pages):
        node_of_page.setdefault(page, tree.leaf_of(page))
        score = top * (1.05 - 0.01 * rank)
        page_scores[page] = max(page_scores.get(page, 0.0), score)
    pages = [PageHit(document, page, node_of_page[page], s) for page, s in page_scores.items()]
    pages.sort(key=lambda p: -p.score)
    return best, pages


def pages_in_nodes(
    nodes: Sequence[NodeHit], pages: Sequence[PageHit], budget: int = 8
) -> list[PageHit]:
    """Pages of the chosen nodes, in the nodes' order: pages with chunk hits first (best
    first), then each node's opening pages; at most `budget` pages."""
    out: list[PageHit] = []
    seen: set[int] = set()
    for rank, node in enumerate(nodes):
        inside = [p for p in pages if node.start_page <= p.page <= node.end_page]
        opening = range(node.start_page, min(node.end_page, node.start_page + 2) + 1)
        extra = [PageHit(node.document, pg, node.node_id, 0.0) for pg in opening]
        for p in [*inside, *extra]:
            if p.page not in seen and len(out) < budget:
                seen.add(p.page)
                out.append(PageHit(p.document, p.page, node.node_id, 1.0 / (rank + 1)))
    return out
