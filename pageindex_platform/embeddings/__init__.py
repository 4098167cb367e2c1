"""Embedders: one method, `embed(texts) -> ndarray` of unit-length float32 rows (`base.py`),
made once per process and setting by `get_embedder`.

- minilm: all-MiniLM-L6-v2 through ONNX Runtime (`onnx.py`), or sentence-transformers
  (`minilm.py`) where ONNX cannot run;
- fast (the default) and static: token tables distilled from it (`static.py`);
- hash: a hashed bag of words for tests (`hashed.py`).

Questions are embedded in the space of the corpus they are asked of (`space.py`).
"""

from __future__ import annotations

import logging
from functools import lru_cache
from pathlib import Path

from ..settings import EmbedderName, Settings
from .base import EMBEDDING_DIM, Embedder
from .hashed import HashEmbedder
from .minilm import SentenceTransformerEmbedder
from .static import FastMiniLM, StaticMiniLM, distill_static, static_path, table_path

logger = logging.getLogger(__name__)

__all__ = [
    "EMBEDDING_DIM",
    "Embedder",
    "HashEmbedder",
    "SentenceTransformerEmbedder",
    "description_embedder",
    "embedder_named",
    "get_embedder",
]


def embedder_named(stored: str) -> EmbedderName | None:
    """The setting that makes the embedder whose `name` a document records (None: unknown)."""
    return {
        SentenceTransformerEmbedder.name: EmbedderName.MINILM,
        StaticMiniLM.name: EmbedderName.STATIC,
        FastMiniLM.name: EmbedderName.FAST,
        HashEmbedder.name: EmbedderName.HASH,
    }.get(stored)


def get_embedder(
    name: EmbedderName | None = None, *, settings: Settings, queries: bool = False
) -> Embedder:
    """The embedder `name` (default: the settings' one), made once per process and setting.
    all-MiniLM-L6-v2 runs through ONNX Runtime when its export
    exists or can be made (same vectors, no torch import), else through sentence-transformers.
    `queries`: for a few short texts (a question), where starting fast beats batch speed; a
    question over chunks embedded by FastMiniLM (whose vectors are in all-MiniLM-L6-v2's
    space) is embedded by the transformer."""
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
        from .onnx import OnnxMiniLM

        exported = _onnx_export(home)
        if exported is not None:
            return OnnxMiniLM(exported, batch_size=batch_size, optimize=not queries)
    except Exception as exc:  # no onnxruntime, or no session: the reference implementation
        logger.info("all-MiniLM-L6-v2 through sentence-transformers: no ONNX session (%s)", exc)
    return SentenceTransformerEmbedder(batch_size=batch_size)


def description_embedder(embedder: Embedder, settings: Settings) -> Embedder:
    """The embedder of a document's description (one short text a question is compared with):
    all-MiniLM-L6-v2 itself where `embedder` approximates it (fast), else `embedder`."""
    if embedder.name == FastMiniLM.name:
        return get_embedder(EmbedderName.MINILM, settings=settings, queries=True)
    return embedder


def _onnx_export(home: Path) -> Path | None:
    """all-MiniLM-L6-v2's ONNX export under `home`, made on first use; None when it cannot be
    made (no onnxruntime, or the export failed)."""
    try:
        from .onnx import export, onnx_path

        path = onnx_path(home)
        if not path.exists():
            logger.info("exporting all-MiniLM-L6-v2 to %s (once)", path)
            export(path)
        return path
    except Exception as exc:
        logger.info("no ONNX export of all-MiniLM-L6-v2 (%s)", exc)
        return None
