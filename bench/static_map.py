"""Fit the linear map of PI_EMBEDDER=fast: from the static token table's mean of a chunk's
tokens to all-MiniLM-L6-v2's own vector of that chunk, by ridge regression over the chunks of a
corpus ingested with the transformer (PI_EMBEDDER=minilm), whose stored vectors are the targets.

    PI_HOME=DIR python bench/static_map.py                  # held-out figures only
    PI_HOME=DIR python bench/static_map.py --write          # also ship the map fitted on all
    PI_HOME=COPY python bench/static_map.py --folds-in-place  # for a leave-company-out eval

Held-out figures: the companies (documents.company, read from the filings) are split into
--folds groups; each group's chunks are mapped by the map fitted on the other groups, and their
cosine to the transformer's vectors is reported. --folds-in-place stores exactly those held-out
vectors as the chunks' embeddings (and marks the documents as embedded by the fast embedder),
so that `pi eval` on that database measures retrieval as on companies the map never saw. Run
it on a copy of the corpus: the transformer's vectors are overwritten.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from typing import Any

import numpy as np

PROBE = "Net cash provided by operating activities was $1,234 million in fiscal 2023."


def _corpus() -> tuple[list[int], list[str], list[str], np.ndarray]:
    """Chunk ids, their documents' companies, texts and stored (transformer) vectors."""
    from sqlalchemy import text

    from pageindex_platform import Corpus

    db = Corpus.open().db
    session_scope = db.session
    from pageindex_platform.embeddings.minilm import SentenceTransformerEmbedder

    with session_scope() as session:
        used = set(session.execute(text("SELECT DISTINCT embedder FROM documents")).scalars())
        if used != {SentenceTransformerEmbedder.name}:
            sys.exit(
                f"the corpus must be embedded by {SentenceTransformerEmbedder.name} only "
                f"(found {sorted(used)}): ingest it with PI_EMBEDDER=minilm"
            )
        rows = session.execute(
            text(
                "SELECT c.id, coalesce(d.company, d.name), c.text, c.embedding::text FROM chunks c "
                "JOIN documents d ON d.id = c.document_id ORDER BY c.id"
            )
        ).all()
    vectors = np.array([json.loads(r[3]) for r in rows], dtype=np.float32)
    return [r[0] for r in rows], [_company(r[1]) for r in rows], [r[2] for r in rows], vectors


def _company(name: str) -> str:
    """One key per company however filings spell it ("salesforce.com, inc." and
    "Salesforce, Inc."; "Amcor" and "Amcor Plc"): its first word other than "the"."""
    words = [w for w in re.findall(r"[a-z0-9]+", name.lower()) if w != "the"]
    return words[0] if words else name


def fit(means: np.ndarray, targets: np.ndarray, ridge: float) -> np.ndarray:
    """W (385 x 384, last row the bias) minimizing |[means, 1] W - targets|² + ridge |W|²."""
    x = np.hstack([means, np.ones((len(means), 1), dtype=np.float32)]).astype(np.float64)
    gram = x.T @ x + ridge * np.eye(x.shape[1])
    return np.linalg.solve(gram, x.T @ targets.astype(np.float64)).astype(np.float32)


def apply(weights: np.ndarray, means: np.ndarray) -> np.ndarray:
    out = means @ weights[:-1] + weights[-1]
    normalized: np.ndarray = out / np.linalg.norm(out, axis=1, keepdims=True)
    return normalized


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=2, help="groups of companies held out")
    parser.add_argument("--ridge", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0, help="how companies fall into groups")
    parser.add_argument("--write", action="store_true", help="write the map fitted on all")
    parser.add_argument(
        "--folds-in-place",
        action="store_true",
        help="store the held-out vectors in this database (a copy!)",
    )
    parser.add_argument(
        "--train-table",
        type=int,
        default=0,
        metavar="EPOCHS",
        help="held out: train every token's vector too (needs torch)",
    )
    args = parser.parse_args()

    from model2vec import StaticModel

    from pageindex_platform.embeddings import model_place
    from pageindex_platform.embeddings.static import (
        MAP_PATH,
        TABLE_NAME,
        distill_static,
        table_means,
    )
    from pageindex_platform.settings import get_settings

    path = model_place(get_settings(), TABLE_NAME)
    if not (path / "model.safetensors").exists():
        distill_static(path, rotate=False)
    table: Any = StaticModel.from_pretrained(str(path), normalize=True)
    ids, companies, texts, targets = _corpus()
    started = time.perf_counter()
    means = table_means(table, texts)
    print(
        f"{len(texts):,} chunks of {len(set(companies))} companies; "
        f"token means in {time.perf_counter() - started:.1f}s"
    )

    names = sorted(set(companies))
    random.Random(args.seed).shuffle(names)
    group = {name: i % args.folds for i, name in enumerate(names)}
    held_out = np.zeros_like(targets)
    for fold in range(args.folds):
        test = np.array([group[c] == fold for c in companies])
        if args.train_table:
            held_out[test] = _trained_table(table, texts, targets, ~test, args.train_table)
        else:
            held_out[test] = apply(fit(means[~test], targets[~test], args.ridge), means[test])
        cos = np.sum(held_out[test] * targets[test], axis=1)
        print(
            f"fold {fold}: {int(test.sum()):,} chunks of "
            f"{sorted(n for n in names if group[n] == fold)}: cosine to the transformer "
            f"mean {cos.mean():.3f}, 5th percentile {np.percentile(cos, 5):.3f}"
        )
    cos = np.sum(held_out * targets, axis=1)
    raw = np.sum(means * targets, axis=1)
    print(
        f"held out, all chunks: cosine mean {cos.mean():.3f} "
        f"(the table's own means, unmapped: {raw.mean():.3f})"
    )

    if args.write:
        weights = fit(means, targets, args.ridge)
        probe_means = table_means(table, [PROBE])[0]
        np.savez(
            MAP_PATH,
            weights=weights.astype(np.float16),
            probe=np.array(PROBE),
            probe_means=probe_means,
        )
        stored = apply(weights.astype(np.float16).astype(np.float32), means)
        print(
            f"wrote {MAP_PATH} (fitted on all {len(texts):,} chunks; float16 weights: "
            f"cosine to float32 min {np.min(np.sum(stored * apply(weights, means), 1)):.5f})"
        )
    if args.folds_in_place:
        _store(ids, held_out)
    return 0


def _trained_table(
    table: Any, texts: list[str], targets: np.ndarray, train: np.ndarray, epochs: int
) -> np.ndarray:
    """Held-out vectors when the table's token vectors are trained too (model2vec's
    tokenlearn idea): a correction to every token's vector (kept small by an L2 penalty) and a
    linear map, fitted by Adam on the cosine to the transformer over the `train` chunks; the
    other chunks' vectors are returned."""
    import torch

    torch.manual_seed(0)
    pieces = [torch.tensor(p[:512], dtype=torch.long) for p in table.tokenize(texts)]
    base = torch.tensor(np.asarray(table.embedding, dtype=np.float32))
    delta = torch.nn.Parameter(torch.zeros_like(base))
    linear = torch.nn.Linear(base.shape[1], base.shape[1])
    optimizer = torch.optim.Adam([delta, *linear.parameters()], lr=2e-3)
    goal = torch.tensor(targets)

    def embed(rows: np.ndarray) -> torch.Tensor:
        chosen = [pieces[i] for i in rows]
        offsets = torch.tensor([0, *np.cumsum([len(p) for p in chosen])[:-1]])
        bags = torch.nn.functional.embedding_bag(torch.cat(chosen), base + delta, offsets)
        mapped: torch.Tensor = linear(bags)
        return mapped

    rows = np.flatnonzero(train)
    shuffle = np.random.default_rng(0)
    for _ in range(epochs):
        shuffle.shuffle(rows)
        for start in range(0, len(rows), 256):
            batch = rows[start : start + 256]
            cos = torch.nn.functional.cosine_similarity(embed(batch), goal[batch])
            loss = 1 - cos.mean() + 1e-2 * (delta**2).sum(1).mean()
            optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimizer.step()
    with torch.no_grad():
        out = embed(np.flatnonzero(~train)).numpy()
    normalized: np.ndarray = out / np.linalg.norm(out, axis=1, keepdims=True)
    return normalized


def _store(ids: list[int], vectors: np.ndarray) -> None:
    from sqlalchemy import text

    from pageindex_platform import Corpus

    db = Corpus.open().db
    session_scope = db.session
    from pageindex_platform.db.vectors import vector_literal
    from pageindex_platform.embeddings.static import FastMiniLM

    started = time.perf_counter()
    with session_scope() as session:
        session.execute(text("CREATE TEMP TABLE held_out (id int, v vector(384)) ON COMMIT DROP"))
        rows = [{"id": i, "v": vector_literal(v)} for i, v in zip(ids, vectors, strict=True)]
        session.execute(text("INSERT INTO held_out VALUES (:id, CAST(:v AS vector))"), rows)
        session.execute(
            text("UPDATE chunks c SET embedding = h.v FROM held_out h WHERE h.id = c.id")
        )
        session.execute(text("UPDATE documents SET embedder = :e"), {"e": FastMiniLM.name})
    print(
        f"stored {len(ids):,} held-out vectors in {time.perf_counter() - started:.0f}s; "
        "now run `pi eval financebench ...` on this PI_HOME"
    )


if __name__ == "__main__":
    sys.exit(main())
