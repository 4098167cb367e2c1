"""What every embedder is: one method, `embed(texts) -> ndarray` of unit-length float32 rows of
EMBEDDING_DIM columns (all-MiniLM-L6-v2's width; the tables' vector columns have it too)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

EMBEDDING_DIM = 384


class Embedder(Protocol):
    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...
