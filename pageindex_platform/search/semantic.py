"""Hybrid chunk search in SQL: pgvector (HNSW, cosine) fused with Postgres full text
(tsvector) by reciprocal rank, and documents ranked by DocScore = Σ score / √(N+1) over
each document's N hits. A metadata filter is a prefilter (pgvector 0.8 iterative scans keep
recall under filtering). `ChunkSearch` binds a question's text and vector once; the router
ranks documents with it and each selected document's search finds its chunks with it."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..db import queries
from ..db.sql import Session, text
from ..db.vectors import Vector, vector_literal
from .candidates import candidate_documents, in_documents
from .query import Query
from .terms import term_weights, terms, tsquery

logger = logging.getLogger(__name__)

DOC_K = 10  # top-K chunks per list behind DocScore
BROAD = 300  # more documents than this: rank chunks inside candidate documents only
CHUNK_K = 60  # chunks per list when searching inside selected documents
RRF_K = 10  # small: the best-ranked chunks dominate (measured: 60 did worse)


@dataclass(frozen=True)
class ChunkHit:
    document: str
    node_id: str
    page: int
    score: float
    text: str


@dataclass(frozen=True)
class DocumentHit:
    name: str
    score: float


def _coverage(n_terms: int, tsv: str = "c.tsv") -> str:
    """How many distinct question keywords a chunk contains, each weighted by `:w{i}` (a
    word on every page of the filing — "fiscal", "end" — counts for little)."""
    parts = [f"({tsv} @@ to_tsquery('english', :t{i}))::int * :w{i}" for i in range(n_terms)]
    return " + ".join(parts) or "0"


def _fused_sql(
    document_ids: Sequence[int] | None, n_terms: int, titles: bool = False, nearest: bool = False
) -> str:
    """Vector and lexical top-k fused by reciprocal rank (ties by chunk id, not by where rows
    happen to lie on disk). With `titles`, a chunk's lexical
    match also counts the words of its section's title (the context the chunk sits in). With
    `nearest`, the vector side is the chunk ids `:near`, nearest first, already found."""
    where = in_documents(document_ids)
    tsv = "(c.tsv || n.title_tsv)" if titles else "c.tsv"
    join = (
        "JOIN nodes n ON n.document_id = c.document_id AND n.node_id = c.node_id" if titles else ""
    )
    vec = (
        "SELECT id, rank FROM unnest(CAST(:near AS int[])) WITH ORDINALITY AS v(id, rank)"
        if nearest
        else f"""SELECT id, row_number() OVER (ORDER BY dist, id) AS rank FROM (
            SELECT c.id, c.embedding <=> CAST(:v AS vector) AS dist
            FROM chunks c WHERE TRUE {where}
            ORDER BY c.embedding <=> CAST(:v AS vector) LIMIT :k) v"""
    )
    return f"""
    WITH vec AS ({vec}),
    lex AS (
        SELECT id, row_number() OVER (ORDER BY covered DESC, r DESC, id) AS rank FROM (
            SELECT c.id, {_coverage(n_terms, tsv)} AS covered, ts_rank_cd({tsv}, q, 32) AS r
            FROM chunks c {join} CROSS JOIN to_tsquery('english', :tsq) q
            WHERE {tsv} @@ q {where}
            ORDER BY covered DESC, r DESC, c.id LIMIT :k) l
    ),
    fused AS (
        SELECT id, sum(1.0 / (:rrf + rank)) AS score
        FROM (SELECT * FROM vec UNION ALL SELECT * FROM lex) u GROUP BY id
    )"""


def _params(
    question: str,
    vector: Vector,
    k: int,
    ids: Sequence[int] | None,
    weights: Sequence[float] | None = None,
    phrases: Sequence[str] = (),
) -> dict[str, Any]:
    params: dict[str, Any] = {
        "v": vector_literal(vector),
        "tsq": tsquery(question, phrases),
        "k": k,
        "rrf": RRF_K,
    }
    found = terms(question, phrases)
    params.update({f"t{i}": term for i, term in enumerate(found)})
    params.update({f"w{i}": 1.0 if weights is None else weights[i] for i in range(len(found))})
    if ids is not None:
        params["ids"] = list(ids)
    return params


def tune_hnsw(session: Session, filtered: bool) -> None:
    """HNSW search settings for this transaction (iterative scans under a filter)."""
    session.execute(text("SET LOCAL hnsw.ef_search = 200"))
    if filtered:
        session.execute(text("SET LOCAL hnsw.iterative_scan = relaxed_order"))


def by_description(session: Session, vector: Vector, limit: int = 10) -> list[DocumentHit]:
    """Documents by the similarity of their description's vector to the question's."""
    rows = session.execute(
        text(
            "SELECT name, 1 - (description_embedding <=> CAST(:v AS vector)) FROM documents "
            "WHERE description_embedding IS NOT NULL "
            "ORDER BY description_embedding <=> CAST(:v AS vector) LIMIT :n"
        ),
        {"v": vector_literal(vector), "n": limit},
    )
    return [DocumentHit(name, float(score)) for name, score in rows]


@dataclass(frozen=True)
class ChunkSearch:
    """A question's hybrid chunk search: its text and its vector, bound once. Documents are
    ranked by the question's text; chunks inside a document also by the section phrases of
    the subjects it names."""

    session: Session
    query: Query
    vector: Vector

    def rank_documents(
        self, document_ids: Sequence[int] | None = None, k: int = DOC_K
    ) -> list[DocumentHit]:
        """Documents by DocScore = Σ fused chunk score / √(N+1), computed in SQL. Over more
        than BROAD documents, chunks are ranked inside `candidate_documents` only."""
        session, question = self.session, self.query.text
        size = len(document_ids) if document_ids is not None else queries.document_count(session)
        tune_hnsw(session, document_ids is not None or size > BROAD)
        nearest: list[int] | None = None
        if size > BROAD:
            found = candidate_documents(
                session=session, question=question, vector=self.vector, document_ids=document_ids
            )
            logger.info("%d candidate documents of %d", len(found.documents), size)
            document_ids = found.documents
            # The k nearest chunks inside the candidates are the k nearest found: every
            # chunk's document among those is a candidate. No second (filtered) vector search.
            nearest = found.nearest[:k] if len(found.nearest) >= k else None
        sql = (
            _fused_sql(document_ids, len(terms(question)), nearest=nearest is not None)
            + """
    SELECT d.name, sum(f.score) / sqrt(count(*) + 1) AS doc_score
    FROM fused f JOIN chunks c ON c.id = f.id JOIN documents d ON d.id = c.document_id
    GROUP BY d.name ORDER BY doc_score DESC"""
        )
        params = _params(question, self.vector, k, document_ids)
        if nearest is not None:
            params["near"] = nearest
        rows = session.execute(text(sql), params)
        return [DocumentHit(name, float(score)) for name, score in rows]

    def chunk_hits(self, document_ids: Sequence[int], k: int = CHUNK_K) -> list[ChunkHit]:
        """The fused chunk hits inside some documents, best first. The section phrases are
        searched as further full-text terms; each term counts by its rarity in these
        documents."""
        session, question, phrases = self.session, self.query.text, self.query.phrases
        tune_hnsw(session, True)
        sql = (
            _fused_sql(document_ids, len(terms(question, phrases)), titles=True)
            + """
    SELECT d.name, c.node_id, c.page, f.score, c.text
    FROM fused f JOIN chunks c ON c.id = f.id JOIN documents d ON d.id = c.document_id
    ORDER BY f.score DESC"""
        )
        weights = term_weights(session, question, document_ids, phrases)
        params = _params(question, self.vector, k, document_ids, weights, phrases)
        rows = session.execute(text(sql), params)
        return [
            ChunkHit(name, node_id, page, float(score), body)
            for name, node_id, page, score, body in rows
        ]
