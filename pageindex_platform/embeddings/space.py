"""The vector space a question is asked in, resolved from the stored documents' embedders.

A question is embedded by the model most stored documents were embedded with (for `fast`
documents, whose chunk vectors are a token table's mapped into all-MiniLM-L6-v2's space,
that is the transformer itself). Where some stored chunk vectors approximate the question
model's (`fast`), the chunks they find are re-ordered by the model's own vectors of their
texts: made the first time a question ranks a chunk and kept beside the approximate one
(`chunks.exact_embedding`), so that every chunk is compared in one space.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from sqlalchemy.orm import Session

from ..db import queries, vectors
from . import Embedder, embedder_named, get_embedder
from .minilm import SentenceTransformerEmbedder
from .static import FastMiniLM

logger = logging.getLogger(__name__)

TRANSFORMER = SentenceTransformerEmbedder.name  # all-MiniLM-L6-v2, however it is run
APPROXIMATE = FastMiniLM.name  # chunk vectors in the transformer's space, approximately


@dataclass(frozen=True)
class EmbeddingSpace:
    """How a corpus's questions are embedded, and whether chunks found by their stored vectors
    are re-ordered by the question model's own (`rescores`)."""

    questions: Embedder
    rescores: bool = False

    @classmethod
    def of_corpus(cls, session: Session) -> EmbeddingSpace:
        """The space of the stored documents (PI_EMBEDDER's when none is stored yet)."""
        stored = queries.most_common_embedder(session)
        questions = get_embedder(embedder_named(stored) if stored else None, queries=True)
        rescores = questions.name == TRANSFORMER and queries.any_embedded_by(session, APPROXIMATE)
        logger.info(
            "questions embedded by %s%s",
            questions.name,
            "; chunks found by approximate vectors re-ordered by its own" if rescores else "",
        )
        return cls(questions, rescores)

    def embed_question(self, text: str) -> np.ndarray:
        vector: np.ndarray = self.questions.embed([text])[0]
        return vector

    def reorder(self, session: Session, chunk_ids: Sequence[int], vector: np.ndarray) -> list[int]:
        """`chunk_ids` (found by their stored vectors, nearest first) ordered by the question
        model's vectors: exact ones stored, made now for approximate ones (and kept). Ties
        keep the order found."""
        scored = vectors.chunk_scores(session, chunk_ids, vector, APPROXIMATE)
        score = {c.id: c.score for c in scored}
        pending = [c for c in scored if c.pending]
        if pending:
            fresh = dict(
                zip(
                    (c.id for c in pending),
                    self.questions.embed([c.text for c in pending]),
                    strict=True,
                )
            )
            vectors.store_exact_vectors(session, fresh)
            score.update({i: float(v @ vector) for i, v in fresh.items()})
        found = {chunk: n for n, chunk in enumerate(chunk_ids)}
        return sorted(score, key=lambda i: (-score[i], found[i]))
