"""Embedders: the ONNX path of all-MiniLM-L6-v2 gives the model's own vectors."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from pageindex_platform.embeddings import HashEmbedder, SentenceTransformerEmbedder
from pageindex_platform.onnx_minilm import OnnxMiniLM, export

TEXTS = [
    "What is the FY2018 capital expenditure amount (in USD millions) for 3M?",
    "Purchases of property, plant and equipment (PP&E) (1,577) (1,373) (1,420)",
    "Item 7. Management's Discussion and Analysis of Financial Condition",
]


def test_onnx_export_reproduces_sentence_transformers(tmp_path: Path) -> None:
    target = tmp_path / "models" / "all-MiniLM-L6-v2.onnx"
    export(target)
    assert target.exists() and not list(target.parent.glob("*.tmp"))
    onnx = OnnxMiniLM(target, batch_size=2).embed(TEXTS)
    reference = SentenceTransformerEmbedder().embed(TEXTS)
    assert onnx.shape == reference.shape == (3, 384)
    assert np.allclose(np.linalg.norm(onnx, axis=1), 1.0, atol=1e-5)
    assert float(np.min(np.sum(onnx * reference, axis=1))) > 0.9999


def test_hash_embedder_is_deterministic_and_lexical() -> None:
    a, b, c = HashEmbedder().embed(["cash flow statement", "statement of cash flow", "aircraft"])
    assert np.allclose(a, HashEmbedder().embed(["cash flow statement"])[0])
    assert float(a @ b) > float(a @ c)
