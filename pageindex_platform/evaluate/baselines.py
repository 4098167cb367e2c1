"""The naive baselines a user would otherwise pick, run on the same database as `pi ask`:
pgvector top-k chunks over all documents (no routing, no tree) and Postgres full-text top-k
pages. Each returns ranked pages; documents are ranked by their first appearance."""

from __future__ import annotations

import time
from collections.abc import Sequence
from enum import StrEnum

from ..db.sql import Session, text
from ..db.vectors import vector_literal
from ..embeddings import Embedder
from ..search.semantic import tune_hnsw
from ..search.terms import tsquery
from .metrics import RANK_LIMIT, PageKey, Ranking

VECTOR_CHUNKS = 100  # chunks fetched so that RANK_LIMIT distinct pages remain after merging


class Baseline(StrEnum):
    VECTOR = "pgvector top-k chunks"
    FULL_TEXT = "full-text top-k pages"


def _ranking(pages: Sequence[PageKey], started: float) -> Ranking:
    unique = list(dict.fromkeys(pages))[:RANK_LIMIT]
    documents = list(dict.fromkeys(d for d, _ in unique))
    return Ranking(documents=documents, pages=unique, seconds=time.perf_counter() - started)


def vector_top_k(*, session: Session, question: str, embedder: Embedder) -> Ranking:
    """The question's embedding against every chunk (HNSW, cosine); pages in chunk order."""
    started = time.perf_counter()
    vector = embedder.embed([question])[0]
    tune_hnsw(session, filtered=False)
    rows = session.execute(
        text(
            "SELECT d.name, c.page FROM chunks c JOIN documents d ON d.id = c.document_id "
            "ORDER BY c.embedding <=> CAST(:v AS vector) LIMIT :k"
        ),
        {"v": vector_literal(vector), "k": VECTOR_CHUNKS},
    ).all()
    return _ranking([(name, page) for name, page in rows], started)


def full_text_top_k(*, session: Session, question: str) -> Ranking:
    """Pages matching any of the question's keywords, ranked by ts_rank (Postgres' default
    ranking; measured on the dev set, it did better than ts_rank_cd, length normalisation or
    counting distinct keywords first)."""
    started = time.perf_counter()
    rows = session.execute(
        text(
            "SELECT d.name, p.page FROM pages p JOIN documents d ON d.id = p.document_id, "
            "to_tsquery('english', :q) q WHERE p.tsv @@ q "
            "ORDER BY ts_rank(p.tsv, q) DESC LIMIT :k"
        ),
        {"q": tsquery(question), "k": RANK_LIMIT},
    ).all()
    return _ranking([(name, page) for name, page in rows], started)
