"""Chunk vectors on the question path: a vector as pgvector's text literal, chunks scored
against a question by their best stored vector, and the one write a question makes — the
exact vectors of chunks whose stored ones approximate them (see `embeddings/space.py`)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

logger = logging.getLogger(__name__)


def vector_literal(vector: np.ndarray) -> str:
    """A vector as a pgvector text literal, for `CAST(:v AS vector)`."""
    return "[" + ",".join(f"{x:.6f}" for x in vector.tolist()) + "]"


@dataclass(frozen=True)
class ChunkScore:
    """A chunk's text and its cosine similarity to a question by its best stored vector;
    `pending` when that vector approximates the question model's and no exact one is stored."""

    id: int
    text: str
    pending: bool
    score: float


def chunk_scores(
    session: Session, chunk_ids: Sequence[int], vector: np.ndarray, approximate: str
) -> list[ChunkScore]:
    """The chunks' similarity to `vector` by their exact vectors where stored, else their
    stored ones; a chunk of a document embedded by `approximate` without an exact vector is
    pending."""
    rows = session.execute(
        text("""
        SELECT c.id, c.text, c.exact_embedding IS NULL AND d.embedder = :approximate AS pending,
               1 - (coalesce(c.exact_embedding, c.embedding) <=> CAST(:v AS vector)) AS score
        FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.id = ANY(:ids)"""),
        {"v": vector_literal(vector), "ids": list(chunk_ids), "approximate": approximate},
    )
    return [ChunkScore(int(r.id), r.text, bool(r.pending), float(r.score)) for r in rows]


def store_exact_vectors(session: Session, vectors: dict[int, np.ndarray]) -> None:
    """Keep the exact vectors of chunks whose stored ones are approximate. Rows another
    question is storing right now are left to it (no waiting, no deadlock); a database that
    refuses the write (a read-only replica) keeps none, which is logged: the question is
    answered alike, from the vectors just made."""
    unlocked = text(
        "SELECT id FROM chunks WHERE id = ANY(:ids) AND exact_embedding IS NULL "
        "ORDER BY id FOR UPDATE SKIP LOCKED"
    )
    store = text("UPDATE chunks SET exact_embedding = CAST(:v AS vector) WHERE id = :id")
    try:
        with session.begin_nested():
            locked = session.execute(unlocked, {"ids": list(vectors)}).scalars().all()
            if locked:
                session.execute(store, [{"id": i, "v": vector_literal(vectors[i])} for i in locked])
    except SQLAlchemyError as exc:
        problem = str(getattr(exc, "orig", None) or exc).splitlines()[0][:200]
        logger.info("exact vectors of %d chunks not stored (%s)", len(vectors), problem)
