"""From the route's ranking to each selected document's nodes and pages: which of the ranked
documents are searched (the best one, those scoring close to it, or each company's best
when the question compares companies), and the search inside each one's tree."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from ..db import queries
from ..db.queries import DocumentInfo, TreeInfo
from .constraints import Constraints
from .modes import Steps
from .priors import asks_newest
from .router import Route, RouteDecision
from .semantic import ChunkSearch
from .statements import statement_pages
from .trace import Trace
from .tree_search import NodeHit, PageHit, search_tree

logger = logging.getLogger(__name__)

MULTI_DOCUMENT_RATIO = 0.6  # documents scoring at least this share of the best are searched too


@dataclass(frozen=True)
class Selected:
    """The documents to search, best first, with their route scores. `interleaved`: the
    question compares companies, and each company's pages are cited in turn."""

    documents: list[tuple[DocumentInfo, float]]
    top: float  # the best route score
    interleaved: bool


def select_documents(
    *, search: ChunkSearch, decision: RouteDecision, constraints: Constraints, limit: int
) -> Selected:
    """The route's best document and those scoring at least MULTI_DOCUMENT_RATIO of it (at
    most `limit`), or, for "Amazon vs Apple", each company's best filing."""
    ranked = decision.documents
    top = ranked[0].score if ranked else 0.0
    entities = constraints.groups() if decision.route == Route.METADATA else []
    # the route read the documents it ranked, except the description route
    stored = decision.stored or queries.documents_by_name(search.session, [d.name for d in ranked])
    if len(entities) > 1:  # each company's best filing, in ranking order
        company = {name: d.company or "" for name, d in stored.items()}
        best = [
            next((d for d in ranked if company.get(d.name) in group), None) for group in entities
        ]
        chosen = sorted((d for d in best if d is not None), key=ranked.index)
    elif asks_newest(constraints) and decision.route == Route.METADATA:
        chosen = ranked[:1]  # the newest filing answers, not older ones scoring alike
    else:
        chosen = [
            d
            for d in ranked[:limit]
            if d is ranked[0] or (top > 0 and d.score >= MULTI_DOCUMENT_RATIO * top)
        ]
    logger.info("documents searched: %s", ", ".join(d.name for d in chosen))
    documents = [(stored[d.name], d.score) for d in chosen if d.name in stored]
    return Selected(documents, top, interleaved=len(entities) > 1)


@dataclass(frozen=True)
class Found:
    """A searched document: its tree, its best nodes and its pages, best first."""

    document: DocumentInfo
    score: float  # the route's
    tree: TreeInfo
    nodes: list[NodeHit]
    pages: list[PageHit]


def search_document(
    *, search: ChunkSearch, document: DocumentInfo, score: float, steps: Steps, trace: Trace
) -> Found:
    """The document's chunk hits for the question, aggregated on its tree (with the pages of
    the primary statements the question needs first), then the mode's choice of nodes."""
    hits = search.chunk_hits([document.id])
    tree = queries.tree(search.session, document)
    needed = search.query.statements
    found = statement_pages(session=search.session, document_id=document.id) if needed else {}
    statements = {kind: found[kind] for kind in needed if kind in found}
    local = search_tree(
        question=search.query.lexical,
        tree=tree,
        hits=hits,
        statement_pages=list(statements.values()),
    )
    nodes, pages = steps.choose_nodes(search, tree, statements, local, trace)
    return Found(document, score, tree, nodes, pages)
