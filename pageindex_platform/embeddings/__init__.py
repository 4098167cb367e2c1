"""Embedders: one method, `embed(texts) -> ndarray` of unit-length float32 rows (`base.py`),
made once per process and setting by `get_embedder`.

- minilm: all-MiniLM-L6-v2 through ONNX Runtime (`onnx.py`), or sentence-transformers
  (`minilm.py`) where ONNX cannot run;
- fast (the default) and static: token tables distilled from it (`static.py`);
- hash: a hashed bag of words for tests (`hashed.py`).

What they need beyond the shipped weights is prepared once per user in the model cache
(`cache.py`).

Questions are embedded in the space of the corpus they are asked of (`space.py`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..settings import EmbedderName, Settings
from .base import (
    EMBEDDING_DIM,
    FAST_EMBEDDER_NAME,
    HASH_NAME,
    MINILM_NAME,
    ONNX_NAME,
    STATIC_EMBEDDER_NAME,
    Embedder,
)
from .cache import PrepareProgress, locate, prepare

logger = logging.getLogger(__name__)

__all__ = [
    "EMBEDDING_DIM",
    "Embedder",
    "description_embedder",
    "embedder_named",
    "get_embedder",
    "model_place",
    "prepare_models",
]


def embedder_named(stored: str) -> EmbedderName | None:
    """The setting that makes the embedder whose `name` a document records (None: unknown)."""
    return {
        MINILM_NAME: EmbedderName.MINILM,
        STATIC_EMBEDDER_NAME: EmbedderName.STATIC,
        FAST_EMBEDDER_NAME: EmbedderName.FAST,
        HASH_NAME: EmbedderName.HASH,
    }.get(stored)


def get_embedder(
    name: EmbedderName | None = None, *, settings: Settings, queries: bool = False
) -> Embedder:
    """The embedder `name` (default: the settings' one), made once per process and setting.
    all-MiniLM-L6-v2 runs through ONNX Runtime when its export
    exists or can be made (same vectors, no torch import), else through sentence-transformers.
    `queries`: for a few short texts (a question), where starting fast beats batch speed; a
    question over chunks embedded by FastMiniLM (whose vectors are in all-MiniLM-L6-v2's
    space) is embedded by the transformer. What it needs is prepared first, once per user
    (`prepare_models`)."""
    chosen = name or settings.embedder
    return _embedder(chosen, queries, _Places.of(settings), settings.embed_batch_size)


def model_place(settings: Settings, name: str) -> Path:
    """Where the model file or folder `name` is read from (the home's own copy, else the user
    cache), whether or not it is there yet."""
    return _Places.of(settings).find(name)


def prepare_models(
    name: EmbedderName | None = None,
    *,
    settings: Settings,
    progress: PrepareProgress | None = None,
) -> None:
    """Prepare what the embedder `name` (default: the settings' one) and its questions need,
    once per user in the model cache (PI_MODEL_CACHE), telling `progress` how far it got:
    the token table of `fast` and `static`, the transformer's ONNX file of `fast` and
    `minilm`. Another process preparing the same file meanwhile is waited for."""
    chosen = name or settings.embedder
    places = _Places.of(settings)
    if chosen in (EmbedderName.FAST, EmbedderName.STATIC):
        _table(places, rotate=chosen == EmbedderName.STATIC, progress=progress)
    if chosen in (EmbedderName.FAST, EmbedderName.MINILM):
        _onnx_export(places, progress)


@dataclass(frozen=True)
class _Places:
    """Where models are read from: the home's own copies (made before the user cache), else
    the user cache."""

    home: Path
    cache: Path

    @classmethod
    def of(cls, settings: Settings) -> _Places:
        return cls(settings.home, settings.model_cache)

    def find(self, name: str) -> Path:
        return locate(name, cache=self.cache, home=self.home)


@lru_cache(maxsize=8)
def _embedder(name: EmbedderName, queries: bool, places: _Places, batch_size: int) -> Embedder:
    # imported here: a question whose vector is kept (space.py) loads no embedder nor numpy
    from .hashed import HashEmbedder
    from .minilm import SentenceTransformerEmbedder
    from .static import FastMiniLM, StaticMiniLM

    if name == EmbedderName.FAST and not queries:
        table = _table(places, rotate=False)
        _onnx_export(places)  # the questions' model, ready before the first question
        return FastMiniLM(table)
    if name == EmbedderName.HASH:
        return HashEmbedder()
    if name == EmbedderName.STATIC:
        return StaticMiniLM(_table(places, rotate=True))
    try:  # MINILM, or FAST for questions
        from .onnx import OnnxMiniLM

        exported = _onnx_export(places)
        if exported is not None:
            return OnnxMiniLM(exported, batch_size=batch_size, optimize=not queries)
    except Exception as exc:  # no onnxruntime, or no session: the reference implementation
        logger.info("all-MiniLM-L6-v2 through sentence-transformers: no ONNX session (%s)", exc)
    return SentenceTransformerEmbedder(batch_size=batch_size)


def description_embedder(embedder: Embedder, settings: Settings) -> Embedder:
    """The embedder of a document's description (one short text a question is compared with):
    all-MiniLM-L6-v2 itself where `embedder` approximates it (fast), else `embedder`."""
    if embedder.name == FAST_EMBEDDER_NAME:
        return get_embedder(EmbedderName.MINILM, settings=settings, queries=True)
    return embedder


def _table(places: _Places, *, rotate: bool, progress: PrepareProgress | None = None) -> Path:
    """The token table of StaticMiniLM (`rotate`) or FastMiniLM, distilled once per user."""
    from .static import STATIC_NAME, TABLE_NAME, TABLE_STEPS, TABLE_WHAT, distill_static

    name = STATIC_NAME if rotate else TABLE_NAME
    return prepare(
        places.find(name),
        lambda target: distill_static(target, rotate=rotate, progress=progress),
        what=TABLE_WHAT,
        total=TABLE_STEPS,
        progress=progress,
    )


def _onnx_export(places: _Places, progress: PrepareProgress | None = None) -> Path | None:
    """all-MiniLM-L6-v2's ONNX export, made once per user; None when it cannot be made (no
    onnxruntime, or the export failed)."""
    try:
        from .onnx import ONNX_WHAT, export

        return prepare(places.find(ONNX_NAME), export, what=ONNX_WHAT, progress=progress)
    except Exception as exc:
        logger.info("no ONNX export of all-MiniLM-L6-v2 (%s)", exc)
        return None
