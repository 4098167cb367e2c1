"""The vector space a question is asked in, resolved from the stored documents' embedders.

A question is embedded by the model most stored documents were embedded with (for `fast`
documents, whose chunk vectors are a token table's mapped into all-MiniLM-L6-v2's space,
that is the transformer itself), and compared with the stored chunk vectors as they are:
asking writes nothing, so the same question over the same corpus ranks the same chunks
whatever was asked before.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import numpy as np
from sqlalchemy.orm import Session

from ..db import queries
from ..settings import Settings
from . import Embedder, embedder_named, get_embedder

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class EmbeddingSpace:
    """How a corpus's questions are embedded."""

    questions: Embedder

    @classmethod
    def of_corpus(cls, session: Session, settings: Settings) -> EmbeddingSpace:
        """The space of the stored documents (the settings' embedder when none is stored
        yet)."""
        stored = queries.most_common_embedder(session)
        name = embedder_named(stored) if stored else None
        questions = get_embedder(name, settings=settings, queries=True)
        logger.info("questions embedded by %s", questions.name)
        return cls(questions)

    def embed_question(self, text: str) -> np.ndarray:
        vector: np.ndarray = self.questions.embed([text])[0]
        return vector
