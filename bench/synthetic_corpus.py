"""The synthetic corpus of bench/scale.py: deterministic documents with metadata and chunks
whose vectors cluster like real embeddings (each document near one of TOPICS topics, each
chunk near its document) and whose words follow a Zipf-like law, loaded into the product's
own tables in bulk, with the indexes built afterwards."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from pageindex_platform.embeddings.base import EMBEDDING_DIM

DIM = EMBEDDING_DIM
TOPICS = 200
COMPANIES = 1000
YEARS = list(range(2015, 2025))
VOCABULARY = 5000  # synthetic words with Zipf-like frequencies, 12 per chunk
WORDS_PER_CHUNK = 12


def _unit(x: np.ndarray) -> np.ndarray:
    unit: np.ndarray = (x / np.linalg.norm(x, axis=-1, keepdims=True)).astype(np.float32)
    return unit


class Corpus:
    """Deterministic synthetic documents and chunks."""

    def __init__(self, documents: int, seed: int = 7) -> None:
        rng = np.random.default_rng(seed)
        self.topics = _unit(rng.standard_normal((TOPICS, DIM)))
        self.doc_topic = rng.integers(0, TOPICS, documents)
        self.doc_centre = _unit(
            self.topics[self.doc_topic] + 0.6 * _unit(rng.standard_normal((documents, DIM)))
        )
        self.company = rng.integers(0, COMPANIES, documents)
        self.year = rng.choice(YEARS, documents)
        self.rng = rng
        weights = 1.0 / np.arange(1, VOCABULARY + 1)
        self.word_p = weights / weights.sum()
        self.words = [f"w{i}x" for i in range(VOCABULARY)]

    def texts(self, n: int) -> list[str]:
        picks = self.rng.choice(VOCABULARY, (n, WORDS_PER_CHUNK), p=self.word_p)
        return [" ".join(self.words[w] for w in row) for row in picks]

    def question(self) -> str:
        """Four words of middling frequency (each in about 0.1-2% of the chunks)."""
        return " ".join(self.words[w] for w in self.rng.integers(20, 400, 4))

    def chunks(self, doc_ids: np.ndarray) -> np.ndarray:
        noise = _unit(self.rng.standard_normal((len(doc_ids), DIM)))
        return _unit(self.doc_centre[doc_ids] + 0.8 * noise)

    def query(self) -> np.ndarray:
        doc = int(self.rng.integers(0, len(self.doc_centre)))
        return _unit(self.doc_centre[doc] + 0.9 * _unit(self.rng.standard_normal(DIM)))


def store_documents(conn: Any, corpus: Corpus) -> list[int]:
    rows = [
        (
            f"SYN_{i:05d}",
            f"/synthetic/{i}.pdf",
            f"{i:064x}",
            100,
            f"Company {c:04d}",
            "10-K",
            int(y),
            "FY",
            "toc",
            "synthetic",
        )
        for i, (c, y) in enumerate(zip(corpus.company, corpus.year, strict=True))
    ]
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO documents (name, source_path, sha256, status, page_count, company, "
            "company_aliases, doc_type, fiscal_year, fiscal_period, tree_source, embedder, "
            "warnings, usage) VALUES (%s, %s, %s, 'ready', %s, %s, '{}', %s, %s, %s, %s, %s, "
            "'[]', '{}')",
            rows,
        )
        cur.execute("SELECT id FROM documents ORDER BY name")
        return [r[0] for r in cur.fetchall()]


def load_chunks(conn: Any, corpus: Corpus, ids: list[int], start: int, stop: int) -> float:
    """Chunks start..stop (round-robin over documents) by binary COPY; returns seconds."""
    from pgvector.psycopg import register_vector

    register_vector(conn)
    began = time.perf_counter()
    step = 50_000
    for lo in range(start, stop, step):
        hi = min(stop, lo + step)
        positions = np.arange(lo, hi)
        docs = positions % len(ids)
        vectors = corpus.chunks(docs)
        texts = corpus.texts(hi - lo)
        with (
            conn.cursor() as cur,
            cur.copy(
                "COPY chunks (document_id, node_id, page, text, embedding) FROM STDIN "
                "WITH (FORMAT BINARY)"
            ) as copy,
        ):
            copy.set_types(["int4", "varchar", "int4", "text", "vector"])
            for j, doc in enumerate(docs):
                copy.write_row(
                    [ids[doc], "0001", int(positions[j] // len(ids)) + 1, texts[j], vectors[j]]
                )
        conn.commit()
    return time.perf_counter() - began


def drop_indexes(conn: Any) -> None:
    """Bulk loads go without the HNSW and full-text indexes; they are built afterwards."""
    with conn.cursor() as cur:
        cur.execute("DROP INDEX IF EXISTS ix_chunks_embedding_hnsw")
        cur.execute("DROP INDEX IF EXISTS ix_chunks_tsv")
        cur.execute("DROP INDEX IF EXISTS ix_documents_lexemes")
    conn.commit()


def build_indexes(conn: Any) -> tuple[float, float]:
    """(HNSW build seconds, full-text GIN build seconds: chunks, then each document's words
    as ingest stores them, and their GIN index)."""
    from pageindex_platform.index.store import DOCUMENT_LEXEMES

    with conn.cursor() as cur:
        cur.execute("SET maintenance_work_mem = '6GB'")
        cur.execute("SET max_parallel_maintenance_workers = 1")  # 2 cores: leader + 1 worker
        began = time.perf_counter()
        cur.execute(
            "CREATE INDEX ix_chunks_embedding_hnsw ON chunks "
            "USING hnsw (embedding vector_cosine_ops)"
        )
        hnsw = time.perf_counter() - began
        began = time.perf_counter()
        cur.execute("CREATE INDEX ix_chunks_tsv ON chunks USING gin (tsv)")
        cur.execute(f"UPDATE documents d SET lexemes = {DOCUMENT_LEXEMES}")
        cur.execute("CREATE INDEX ix_documents_lexemes ON documents USING gin (lexemes)")
        gin = time.perf_counter() - began
        cur.execute("ANALYZE")
    conn.commit()
    return hnsw, gin
