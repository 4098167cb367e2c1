"""What every embedder is: one method, `embed(texts) -> ndarray` of unit-length float32 rows of
EMBEDDING_DIM columns (all-MiniLM-L6-v2's width; the tables' vector columns have it too)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # a question whose vector is kept imports no numpy
    import numpy as np

EMBEDDING_DIM = 384

# The names embedders record in documents.embedder (`embedder_named` reads them back).
MINILM_NAME = "all-MiniLM-L6-v2"  # ONNX Runtime's and sentence-transformers' alike
STATIC_EMBEDDER_NAME = "all-MiniLM-L6-v2-static"
FAST_EMBEDDER_NAME = "all-MiniLM-L6-v2-fast"
HASH_NAME = "hash-bow"
# The question model's file in the model cache (onnx.py makes it).
ONNX_NAME = "all-MiniLM-L6-v2.onnx"


class Embedder(Protocol):
    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...
