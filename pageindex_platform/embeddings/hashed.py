"""A deterministic hashed bag of words and bigrams (PI_EMBEDDER=hash): no model, for tests and
smoke runs."""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Sequence

import numpy as np

from .base import EMBEDDING_DIM, HASH_NAME

_WORD = re.compile(r"[a-z0-9]+")


class HashEmbedder:
    """A deterministic hashed bag of words and bigrams: fast, no model, for tests and smoke runs.

    Texts sharing words get similar vectors, so retrieval through it is meaningful, if crude.
    """

    name = HASH_NAME
    dim = EMBEDDING_DIM

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            words = _WORD.findall(text.lower())
            for feature in [*words, *(f"{a} {b}" for a, b in itertools.pairwise(words))]:
                digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
                index = int.from_bytes(digest[:4], "little") % self.dim
                out[row, index] += 1.0 if digest[4] & 1 else -1.0
            norm = np.linalg.norm(out[row])
            if norm > 0:
                out[row] /= norm
            else:
                out[row, 0] = 1.0
        return out
