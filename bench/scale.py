"""Scale test of the semantic route on synthetic data: ~10k documents with metadata and up to
1M chunks of 384 dims in the product's own tables (a fresh embedded PostgreSQL), loaded in
stages. At each stage the HNSW index is rebuilt (timed) and the product's queries are timed:
document ranking (DocScore in SQL) over the whole corpus, and filtered by metadata (one
company-year: the metadata route; one company; one fiscal year, a tenth of the corpus).

    python bench/scale.py [--chunks 1000000] [--documents 10000] [--budget 600] [--keep DIR]

With --keep DIR holding a corpus of exactly --chunks chunks (an earlier run's), only the
queries are timed again (after a change to the search code); with --steps as well, each step
of the broad routes is timed, and the filtered search with and without server-side prepared
statements.

Vectors are clustered like real embeddings (each document near one of 200 topics, each chunk
near its document); uniform random vectors would be an unrealistically hard case for HNSW.
Stages stop early when the next stage's index build is projected past the budget (~10 min).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from synthetic_corpus import Corpus, build_indexes, drop_indexes, load_chunks, store_documents

from pageindex_platform.embeddings.base import EMBEDDING_DIM
from pageindex_platform.evaluate.metrics import percentile

EXACT_CHECKS = 20  # questions per stage also ranked exactly (untimed), to measure agreement


def _time_queries(corpus: Corpus, n: int) -> dict[str, tuple[float, float, float]]:
    """p50/p95 ms and mean documents returned for each query kind, through the product's
    router filter and SQL."""

    from pageindex_platform import Corpus as Library

    db = Library.open().db
    session_scope = db.session
    from pageindex_platform.search import semantic
    from pageindex_platform.search.constraints import Constraints
    from pageindex_platform.search.filters import filter_documents

    kinds: dict[str, list[float]] = {
        "whole corpus": [],
        "company + year": [],
        "company": [],
        "one fiscal year (10%)": [],
    }
    found: dict[str, list[int]] = {k: [] for k in kinds}
    checks: list[tuple[str, str, np.ndarray, list[int] | None, list[Any]]] = []
    for i in range(n):
        vector = corpus.query()
        question = corpus.question()
        query = _query(question)
        company = f"Company {int(corpus.company[i * 7 % len(corpus.company)]):04d}"
        year = int(corpus.year[i * 7 % len(corpus.year)])
        for kind in kinds:
            began = time.perf_counter()
            with session_scope() as session:
                ids: list[int] | None = None
                if kind == "company + year":
                    wanted = Constraints(companies=[company], years=[year])
                    ids = filter_documents(session=session, constraints=wanted).ids
                elif kind == "company":
                    wanted = Constraints(companies=[company])
                    ids = filter_documents(session=session, constraints=wanted).ids
                elif kind.startswith("one fiscal year"):
                    ids = _year_ids(session, year)
                hits = _search(session, query, vector).rank_documents(ids)
            kinds[kind].append(1000 * (time.perf_counter() - began))
            found[kind].append(len(hits))
            if i < EXACT_CHECKS and (ids is None or len(ids) > semantic.BROAD):
                checks.append((kind, question, vector, ids, hits))
    # The exact rankings read every chunk: they run after the timed questions, not between
    # them, where they would evict the timed queries' pages from the server's buffers.
    agree: dict[str, list[tuple[bool, float]]] = {k: [] for k in kinds}
    for kind, question, vector, ids, hits in checks:
        agree[kind].append(_agreement(question, vector, ids, hits))
    for kind, values in agree.items():
        if values:
            print(
                f"  {kind}: top document as the exact ranking's in "
                f"{sum(a for a, _ in values)}/{len(values)} questions; top-10 overlap "
                f"{statistics.mean(o for _, o in values):.2f}"
            )
    return {
        k: (statistics.median(v), percentile(v, 0.95), statistics.mean(found[k]))
        for k, v in kinds.items()
    }


def _query(question: str) -> Any:
    """A synthetic question as the product reads it (no hint, the packaged vocabulary)."""
    from pageindex_platform.search.query import Query
    from pageindex_platform.search.vocabulary import Vocabulary

    return Query.parse(question, None, Vocabulary.packaged())


def _search(session: Any, query: Any, vector: np.ndarray) -> Any:
    """The product's hybrid search of a question over the synthetic corpus (whose vectors
    are the bench's own)."""
    from pageindex_platform.search.semantic import ChunkSearch

    return ChunkSearch(session, query, vector)


def _year_ids(session: Any, year: int) -> list[int]:
    """The documents of one fiscal year: the broad filter the bench times."""
    from sqlalchemy import text

    sql = text("SELECT id FROM documents WHERE fiscal_year = :y")
    return list(session.execute(sql, {"y": year}).scalars())


def _steps(corpus: Corpus, n: int) -> None:
    """p50/p95 ms of each step of the whole-corpus and one-fiscal-year routes (warm: each
    question asked once before), and the filtered vector search's time by run in one
    connection with psycopg's default server-side prepared statements (runs 11-20 get
    PostgreSQL's generic plan) against the product's connection (none)."""
    from sqlalchemy import create_engine
    from sqlalchemy.orm import Session

    from pageindex_platform import Corpus as Library

    db = Library.open().db
    session_scope = db.session
    from pageindex_platform.search import candidates, semantic

    steps: dict[str, list[float]] = {}
    questions = [
        (corpus.query(), _query(corpus.question()), int(corpus.year[i * 7 % len(corpus.year)]))
        for i in range(n)
    ]

    def timed(name: str, began: float) -> float:
        steps.setdefault(name, []).append(1000 * (time.perf_counter() - began))
        return time.perf_counter()

    for _ in range(2):  # the second pass is the one reported
        steps.clear()
        for vector, query, year in questions:
            for kind in ("whole", "one year"):
                with session_scope() as session:
                    began = time.perf_counter()
                    ids = None
                    if kind == "one year":
                        ids = _year_ids(session, year)
                        began = timed(f"{kind}: filter ids", began)
                    semantic.tune_hnsw(session, True)
                    candidates.nearest_chunks(
                        session=session,
                        vector=vector,
                        document_ids=ids,
                        k=candidates.CANDIDATE_CHUNKS,
                    )
                    began = timed(f"{kind}: 200 nearest chunks", began)
                    candidates.rare_term_documents(
                        session=session, question=query.text, document_ids=ids
                    )
                    began = timed(f"{kind}: documents with the rarest terms", began)
                    _search(session, query, vector).rank_documents(ids)
                    timed(f"{kind}: rank_documents (all of it)", began)
    for name, values in steps.items():
        print(f"  {name}: {statistics.median(values):.1f} / {percentile(values, 0.95):.1f} ms")
    prepared = create_engine(db.url)  # psycopg's default: prepare from the 6th run
    for label, engine in (
        ("psycopg default (prepare from run 6)", prepared),
        ("product", db.engine),
    ):
        runs = []
        with Session(engine) as session:  # one connection, one transaction
            semantic.tune_hnsw(session, True)
            for vector, _, year in questions[:20]:
                ids = _year_ids(session, year)
                began = time.perf_counter()
                candidates.nearest_chunks(
                    session=session, vector=vector, document_ids=ids, k=candidates.CANDIDATE_CHUNKS
                )
                runs.append(1000 * (time.perf_counter() - began))
        print(
            f"  one-year 200 nearest, {label}: runs 1-10 {min(runs[:10]):.0f}-"
            f"{max(runs[:10]):.0f} ms, runs 11-20 {min(runs[10:]):.0f}-{max(runs[10:]):.0f} ms"
        )
    prepared.dispose()


def _agreement(
    question: str, vector: np.ndarray, ids: list[int] | None, hits: list[Any]
) -> tuple[bool, float]:
    """Whether the candidate-first ranking's top document is the exact ranking's (every
    chunk of the documents ranked), and how much of the top 10 they share (untimed)."""
    from pageindex_platform import Corpus as Library

    db = Library.open().db
    session_scope = db.session
    from pageindex_platform.search import semantic

    broad, semantic.BROAD = semantic.BROAD, 10**9
    try:
        with session_scope() as session:
            exact = _search(session, _query(question), vector).rank_documents(ids)
    finally:
        semantic.BROAD = broad
    top = {h.name for h in hits[:10]}
    overlap = len(top & {h.name for h in exact[:10]}) / max(1, min(10, len(exact)))
    return bool(hits and exact and hits[0].name == exact[0].name), overlap


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=1_000_000)
    parser.add_argument("--documents", type=int, default=10_000)
    parser.add_argument("--budget", type=float, default=600, help="seconds of index building")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--keep", type=Path, help="use this PI_HOME and keep it")
    parser.add_argument(
        "--steps",
        action="store_true",
        help="with --keep: time each step of the broad routes instead",
    )
    args = parser.parse_args()
    home = args.keep or Path(tempfile.mkdtemp(prefix="pi-scale-"))
    os.environ["PI_HOME"] = str(home)
    os.environ.pop("PI_DATABASE_URL", None)
    from pageindex_platform import Corpus as Library
    from pageindex_platform.db import stop_embedded

    db = Library.open().db
    from pageindex_platform.settings import get_settings

    engine = db.engine
    corpus = Corpus(args.documents)
    stages = [s for s in (args.chunks // 8, args.chunks // 4, args.chunks // 2, args.chunks) if s]
    print(
        f"synthetic corpus: {args.documents} documents, up to {args.chunks} chunks of "
        f"{EMBEDDING_DIM} dims; HNSW m=16 ef_construction=64, ef_search=200; "
        f"budget {args.budget:.0f} s"
    )
    print(
        "| chunks | load s | HNSW build s | GIN build s | table+indexes MB "
        "| whole corpus p50/p95 ms | company+year p50/p95 ms | company p50/p95 ms "
        "| one year p50/p95 ms |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    loaded = 0
    timed: dict[str, tuple[float, float, float]] = {}
    last: tuple[int, float] | None = None
    try:
        raw = engine.raw_connection()
        conn: Any = raw.driver_connection
        with conn.cursor() as cur:
            cur.execute("SELECT count(*) FROM chunks")
            kept = cur.fetchone()[0]
        if kept == args.chunks and args.steps:
            stages = []
            _steps(corpus, args.queries)
        elif kept == args.chunks:  # a kept corpus of this size: time the queries again only
            stages = []
            timed = _time_queries(corpus, args.queries)
            cells = " | ".join(f"{p50:.0f} / {p95:.0f}" for p50, p95, _ in timed.values())
            print(f"| {kept:,} (kept) | | | | | {cells} |", flush=True)
        ids = store_documents(conn, corpus) if stages else []
        conn.commit()
        for size in stages:
            if last and last[1] * size / last[0] * 1.3 > args.budget:
                print(f"stopped before {size:,} chunks: its build is projected past the budget")
                break
            drop_indexes(conn)
            load = load_chunks(conn, corpus, ids, loaded, size)
            loaded = size
            build, gin = build_indexes(conn)
            last = (size, build)
            with conn.cursor() as cur:
                cur.execute("SELECT pg_total_relation_size('chunks')")
                megabytes = cur.fetchone()[0] / 2**20
            timed = _time_queries(corpus, args.queries)
            cells = " | ".join(f"{p50:.0f} / {p95:.0f}" for p50, p95, _ in timed.values())
            print(
                f"| {size:,} | {load:.0f} | {build:.0f} | {gin:.0f} | {megabytes:,.0f} | {cells} |",
                flush=True,
            )
        if timed:
            print(
                "documents returned per query (mean): "
                + ", ".join(f"{k} {v[2]:.1f}" for k, v in timed.items())
            )
        raw.close()
    finally:
        engine.dispose()
        if not args.keep:
            stop_embedded(get_settings().pgdata)
            shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
