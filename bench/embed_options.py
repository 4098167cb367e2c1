"""Ways to embed a corpus's chunks faster, measured back to back on the same chunk texts: the
default all-MiniLM-L6-v2 (ONNX Runtime, float32), its int8 dynamic quantization, chunk text
without its figures (numbers take many word pieces and carry little meaning for a vector),
both together, one process with two threads against two processes with one thread each, and
how many chunks repeat a text already embedded. Vectors are compared with the default's.

    PI_HOME=DIR python bench/embed_options.py [--documents 6]   # DIR holds an ingested corpus
    PI_HOME=COPY python bench/embed_options.py --store-int8      # then pi eval on COPY

Only speed and closeness are measured here; retrieval quality needs a corpus embedded that way
and the dev eval (docs/benchmarks.md): --store-int8 re-embeds every chunk of the database with
the int8 model in place (run it on a copy of a corpus).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

_FIGURE = re.compile(r"[$(]?\b\d[\d,.]*\b\)?%?")


def _sample(documents: int) -> tuple[list[list[str]], dict[str, float]]:
    """Chunk texts of every n-th stored document (as ingest embeds them: one list per
    document), and corpus-wide counts of repeated texts."""
    from sqlalchemy import text

    from pageindex_platform import Corpus

    db = Corpus.open().db
    session_scope = db.session

    with session_scope() as session:
        names = list(session.execute(text("SELECT name FROM documents ORDER BY name")).scalars())
        step = max(1, len(names) // documents)
        picked = names[::step][:documents]
        lists = []
        for name in picked:
            rows = session.execute(
                text(
                    "SELECT c.text FROM chunks c JOIN documents d ON d.id = c.document_id "
                    "WHERE d.name = :n ORDER BY c.id"
                ),
                {"n": name},
            ).scalars()
            lists.append(list(rows))
        within, across = session.execute(
            text(
                "SELECT sum(n), count(*) FROM (SELECT md5(text) AS h, "
                "count(DISTINCT document_id) AS n FROM chunks GROUP BY md5(text)) t"
            )
        ).one()
        chunks = session.execute(text("SELECT count(*) FROM chunks")).scalar() or 0
    print(
        f"sample: {len(picked)} of {len(names)} documents, "
        f"{sum(map(len, lists)):,} chunks: {', '.join(picked)}"
    )
    return lists, {
        "chunks": chunks,
        "distinct per document": int(within or 0),
        "distinct in corpus": int(across or 0),
    }


def _store(embedder: Any) -> None:
    """Every chunk's vector replaced by `embedder`'s, one transaction per document."""
    from sqlalchemy import text

    from pageindex_platform import Corpus

    db = Corpus.open().db
    session_scope = db.session
    from pageindex_platform.db.vectors import vector_literal

    with session_scope() as session:
        documents = list(session.execute(text("SELECT id FROM documents ORDER BY id")).scalars())
    began, done = time.perf_counter(), 0
    for number, document in enumerate(documents, 1):
        with session_scope() as session:
            rows = session.execute(
                text("SELECT id, text FROM chunks WHERE document_id = :d ORDER BY id"),
                {"d": document},
            ).all()
            vectors = embedder.embed([r.text for r in rows])
            session.execute(
                text("UPDATE chunks SET embedding = CAST(:v AS vector) WHERE id = :i"),
                [{"i": r.id, "v": vector_literal(v)} for r, v in zip(rows, vectors, strict=True)],
            )
        done += len(rows)
        print(
            f"{number}/{len(documents)} documents, {done:,} chunks, "
            f"{done / (time.perf_counter() - began):.1f} chunks/s",
            flush=True,
        )


def quantize(source: Path, target: Path) -> None:
    """int8 dynamic quantization of the exported model: weights int8, activations quantized
    per batch (a few seconds, no torch)."""
    import logging

    from onnxruntime.quantization import QuantType, quantize_dynamic

    logging.getLogger().setLevel(logging.ERROR)  # its advice to pre-process first
    quantize_dynamic(str(source), str(target), weight_type=QuantType.QInt8)


def without_figures(text: str) -> str:
    """Chunk text with its numbers, amounts and percentages removed (years too)."""
    return " ".join(_FIGURE.sub(" ", text).split())


def _timed(
    embed: Callable[[Sequence[str]], np.ndarray],
    lists: list[list[str]],
    transform: Callable[[str], str] | None = None,
) -> tuple[float, np.ndarray]:
    began = time.perf_counter()
    out = [embed([transform(t) for t in texts] if transform else texts) for texts in lists]
    return time.perf_counter() - began, np.vstack(out)


_WORKER: Any = None


def _init_worker(path: str) -> None:
    global _WORKER
    from pageindex_platform.embeddings.onnx import OnnxMiniLM

    _WORKER = OnnxMiniLM(Path(path), threads=1)


def _embed_in_worker(texts: list[str]) -> np.ndarray:
    vectors: np.ndarray = _WORKER.embed(texts)
    return vectors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=6, help="documents in the sample")
    parser.add_argument(
        "--store-int8",
        action="store_true",
        help="re-embed this database's chunks with int8 (a copy!)",
    )
    args = parser.parse_args()
    from pageindex_platform.embeddings import model_place
    from pageindex_platform.embeddings.base import ONNX_NAME
    from pageindex_platform.embeddings.onnx import OnnxMiniLM, export
    from pageindex_platform.settings import get_settings

    fp32 = model_place(get_settings(), ONNX_NAME)
    if not fp32.exists():
        export(fp32)
    int8 = fp32.with_name("all-MiniLM-L6-v2-int8.onnx")
    if not int8.exists():
        quantize(fp32, int8)
    if args.store_int8:
        _store(OnnxMiniLM(int8))
        return 0
    lists, repeats = _sample(args.documents)
    flat = [t for texts in lists for t in texts]
    reference = OnnxMiniLM(fp32)
    pieces = [len(e.ids) for e in reference.tokenizer.encode_batch(flat)]
    stripped = [
        len(e.ids) for e in reference.tokenizer.encode_batch([without_figures(t) for t in flat])
    ]
    print(
        f"word pieces per chunk (at most 256): mean {statistics.mean(pieces):.0f}, "
        f"{sum(p >= 256 for p in pieces) / len(pieces):.0%} truncated; without figures: "
        f"mean {statistics.mean(stripped):.0f} ({sum(stripped) / sum(pieces):.0%} of the "
        "pieces)"
    )
    print(
        f"corpus: {repeats['chunks']:,} chunks; a text repeated inside one document "
        f"{repeats['chunks'] - repeats['distinct per document']:,} times "
        f"({1 - repeats['distinct per document'] / max(1, repeats['chunks']):.1%}); "
        f"across the corpus {1 - repeats['distinct in corpus'] / max(1, repeats['chunks']):.1%}"
    )
    quantized = OnnxMiniLM(int8)
    _timed(reference.embed, [flat[:32]])  # warm both sessions
    _timed(quantized.embed, [flat[:32]])
    options: list[tuple[str, Callable[[Sequence[str]], np.ndarray], Any]] = [
        ("float32 (default)", reference.embed, None),
        ("float32, text without figures", reference.embed, without_figures),
        ("int8 dynamic quantization", quantized.embed, None),
        ("int8, text without figures", quantized.embed, without_figures),
    ]
    print("| option | seconds | chunks/s | speed-up | cosine to default: mean / min |")
    print("|---|---|---|---|---|")
    base_seconds, base = 0.0, np.zeros(0)
    for label, embed, transform in options:
        seconds, vectors = _timed(embed, lists, transform)
        if not base_seconds:
            base_seconds, base = seconds, vectors
        cosine = np.sum(vectors * base, axis=1)
        print(
            f"| {label} | {seconds:.1f} | {len(flat) / seconds:.1f} | "
            f"{base_seconds / seconds:.2f}x | {cosine.mean():.4f} / {cosine.min():.4f} |",
            flush=True,
        )
    for label, path in (("float32", fp32), ("int8", int8)):
        with ProcessPoolExecutor(2, initializer=_init_worker, initargs=(str(path),)) as pool:
            list(pool.map(_embed_in_worker, [flat[:4]] * 2))  # both started
            began = time.perf_counter()
            list(pool.map(_embed_in_worker, [flat[i : i + 64] for i in range(0, len(flat), 64)]))
        seconds = time.perf_counter() - began
        print(
            f"| {label}, 2 processes x 1 thread | {seconds:.1f} | {len(flat) / seconds:.1f} | "
            f"{base_seconds / seconds:.2f}x | (same vectors as one process) |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
