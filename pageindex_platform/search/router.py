"""Document selection: one `Route` enum, dispatched in one place (`decide_route`).

- metadata:    the question's constraints as a filter on the documents table (in llm mode,
               the model's Query-to-SQL first), ranked inside by semantic DocScore;
- semantic:    DocScore over the whole corpus (hybrid chunk search);
- description: similarity between the question and each document's description (in llm
               mode, the model's choice first);
- auto:        metadata when constraints select documents, else semantic; the decision and
               its reason are recorded.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from ..db import queries
from ..db.queries import DocumentInfo
from .constraints import Constraints
from .modes import Steps
from .priors import whole_corpus, within_filter
from .semantic import ChunkSearch, DocumentHit
from .trace import Trace

logger = logging.getLogger(__name__)


class Route(StrEnum):
    AUTO = "auto"
    METADATA = "metadata"
    SEMANTIC = "semantic"
    DESCRIPTION = "description"


@dataclass(frozen=True)
class RouteDecision:
    route: Route
    reason: str
    documents: list[DocumentHit]  # best first
    sql: str | None = None  # the model's Query-to-SQL, when it selected the documents
    stored: dict[str, DocumentInfo] = field(default_factory=dict)  # ranked ones read, by name


def decide_route(
    *,
    search: ChunkSearch,
    constraints: Constraints,
    requested: Route,
    steps: Steps,
    trace: Trace,
    within: Sequence[int] | None = None,
) -> RouteDecision:
    """The documents to search, by the route requested (auto: metadata when the constraints
    select documents, else semantic), with the reason in words. `within`: the ids of the
    documents the caller's filters allow (None: all); every route chooses among them."""
    if requested == Route.DESCRIPTION:
        documents, reason = steps.by_description(search, trace)
        if within is not None:
            allowed = {d.name for d in queries.documents(search.session, ids=within)}
            documents = [d for d in documents if d.name in allowed]
        decision = RouteDecision(requested, reason, documents)
    elif requested == Route.SEMANTIC:
        where = "the filtered filings" if within is not None else "the whole corpus"
        decision = _semantic(
            search, constraints, f"semantic search over {where} (requested)", within
        )
    else:
        decision = _metadata(search, constraints, requested, steps, trace, within)
    logger.info("route %s: %s", decision.route, decision.reason)
    return decision


def _metadata(
    search: ChunkSearch,
    constraints: Constraints,
    requested: Route,
    steps: Steps,
    trace: Trace,
    within: Sequence[int] | None,
) -> RouteDecision:
    match = steps.metadata_match(search, constraints, trace)
    if within is not None and match.ids:
        allowed = set(within)
        kept = [i for i in match.ids if i in allowed]
        applied = f"{match.applied}; within the filters"
        match = replace(match, ids=kept, applied=applied)
    if match.ids:
        documents = queries.documents(search.session, ids=match.ids)
        ranked = within_filter(
            search.rank_documents(match.ids), documents, search.query.text, constraints
        )
        stored = {d.name: d for d in documents}
        if match.sql is not None:  # the model's query selected them
            return RouteDecision(Route.METADATA, match.applied, ranked, match.sql, stored)
        reason = (
            f"constraints {constraints.describe()} → {len(match.ids)} document(s) ({match.applied})"
        )
        return RouteDecision(Route.METADATA, reason, ranked, stored=stored)
    if requested == Route.METADATA:
        reason = f"no document matches constraints ({constraints.describe()}; {match.applied})"
        return RouteDecision(Route.METADATA, reason, [])
    where = "the filtered filings" if within is not None else "the whole corpus"
    return _semantic(
        search,
        constraints,
        f"no metadata match ({match.applied}); semantic search over {where}",
        within,
    )


def _semantic(
    search: ChunkSearch, constraints: Constraints, reason: str, within: Sequence[int] | None
) -> RouteDecision:
    ranked = search.rank_documents(list(within) if within is not None else None)
    documents = queries.documents_by_name(search.session, [d.name for d in ranked])
    weighted = whole_corpus(ranked, documents, search.query.text, constraints)
    return RouteDecision(Route.SEMANTIC, reason, weighted, stored=documents)
