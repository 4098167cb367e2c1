"""The vector space a question is asked in, resolved from the stored documents' embedders.

A question is embedded by the model most stored documents were embedded with (for `fast`
documents, whose chunk vectors are a token table's mapped into all-MiniLM-L6-v2's space,
that is the transformer itself), and compared with the stored chunk vectors as they are:
asking writes nothing that ranks, so the same question over the same corpus ranks the same
chunks whatever was asked before.

The transformer's vector of a question is kept in the user's model cache (`questions/`,
keyed by the model file and the question's text): asked again, by any process, the question
is not embedded again and the model is not even loaded — the same vector, so the same
answer, in a fraction of the time.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from array import array
from dataclasses import dataclass
from pathlib import Path

from ..db import queries
from ..db.sql import Session
from ..db.vectors import Vector
from ..settings import EmbedderName, Settings
from . import EMBEDDING_DIM, Embedder, embedder_named, get_embedder, model_place
from .base import ONNX_NAME

logger = logging.getLogger(__name__)

_TRANSFORMER = (EmbedderName.FAST, EmbedderName.MINILM)  # questions through the ONNX file


@dataclass(frozen=True)
class EmbeddingSpace:
    """How a corpus's questions are embedded: by the embedder `name` (None: the settings'),
    loaded on the first question the cache does not hold."""

    name: EmbedderName | None
    settings: Settings

    @classmethod
    def of_corpus(cls, session: Session, settings: Settings) -> EmbeddingSpace:
        """The space of the stored documents (the settings' embedder when none is stored
        yet)."""
        stored = queries.most_common_embedder(session)
        return cls(embedder_named(stored) if stored else None, settings)

    @property
    def questions(self) -> Embedder:
        """The question embedder (made once per process)."""
        embedder = get_embedder(self.name, settings=self.settings, queries=True)
        logger.info("questions embedded by %s", embedder.name)
        return embedder

    def embed_question(self, text: str) -> Vector:
        kept = self._kept(text)
        if kept is not None:
            cached = _read(kept)
            if cached is not None:
                return cached
        embedder = self.questions
        vector: Vector = embedder.embed([text])[0]
        if kept is not None and type(embedder).__name__ == "OnnxMiniLM":  # not its fallback
            _write(kept, vector)
        return vector

    def _kept(self, text: str) -> Path | None:
        """Where the question's vector is kept: for the transformer's ONNX file, by the
        file's identity and the text; None for other embedders."""
        if (self.name or self.settings.embedder) not in _TRANSFORMER:
            return None
        model = model_place(self.settings, ONNX_NAME)
        try:
            stat = model.stat()
        except OSError:
            return None
        identity = f"{model}|{stat.st_size}|{stat.st_mtime_ns}|{text}"
        key = hashlib.sha256(identity.encode("utf-8", "surrogatepass")).hexdigest()
        return self.settings.model_cache / "questions" / f"{key}.f32"


def _read(path: Path) -> Vector | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if len(data) != 4 * EMBEDDING_DIM:  # not one whole vector: embedded again
        return None
    return array("f", data)  # float32, as written


def _write(path: Path, vector: Vector) -> None:
    """The vector kept, whole or not at all (written aside, then renamed); a cache that cannot
    be written is left alone."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, staging = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as out:
            out.write(array("f", vector.tolist()).tobytes())
        os.replace(staging, path)
    except OSError as exc:
        logger.info("the question's vector is not kept (%s)", exc)
