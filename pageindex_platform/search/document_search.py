"""From the route's ranking to each selected document's nodes and pages: which of the ranked
documents are searched (the best one, those scoring close to it, or each company's best
when the question compares companies), and the search inside each one's tree."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from ..db import queries
from ..db.queries import DocumentInfo, TreeInfo
from ..db.sql import Session
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
    rivals: frozenset[str] = frozenset()  # documents claiming the filing of a selected one


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


def with_rivals(*, session: Session, selected: Selected) -> tuple[Selected, str | None]:
    """The selected documents, each followed by the stored documents that claim the same
    filing (CIK, form, fiscal period), which are searched and cited in turn with it; and a
    notice saying which documents claim one filing. Never silently the first stored."""
    rivals = queries.rivals(session, [d.id for d, _ in selected.documents])
    if not rivals:
        return selected, None
    claimed = frozenset(n for group in rivals.values() for n in group)
    stored = queries.documents_by_name(session, sorted(claimed))
    included = {d.name for d, _ in selected.documents}
    documents: list[tuple[DocumentInfo, float]] = []
    said: list[str] = []
    noticed: set[str] = set()
    for document, score in selected.documents:
        documents.append((document, score))
        others = [stored[n] for n in rivals.get(document.id, ()) if n in stored]
        for other in others:
            if other.name not in included:
                documents.append((other, score))
                included.add(other.name)
        group = [document, *others]
        if others and document.name not in noticed:
            noticed.update(d.name for d in group)
            said.append(
                f"{', '.join(d.name for d in group)} claim to be one filing "
                f"({document.company or 'CIK ' + str(document.cik)}'s {document.doc_type} for "
                f"fiscal {document.fiscal_year} {document.fiscal_period}, CIK {document.cik}): "
                "each is cited; `pi docs show` says where each came from."
            )
    chosen = Selected(documents, selected.top, interleaved=True, rivals=claimed)
    return chosen, " ".join(said) or None


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
