"""Hybrid chunk search in SQL: pgvector (HNSW, cosine) fused with Postgres full text
(tsvector) by reciprocal rank, and documents ranked by DocScore = Σ score / √(N+1) over
each document's N hits. A metadata filter is a prefilter (pgvector 0.8 iterative scans keep
recall under filtering)."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from sqlalchemy import text
from sqlalchemy.orm import Session

DOC_K = 10  # top-K chunks per list behind DocScore
BROAD = 300  # more documents than this: rank chunks inside candidate documents only
CANDIDATE_CHUNKS = 200  # the vector side's nearest chunks name candidate documents...
CANDIDATE_DOCUMENTS = 100  # ...and so do the documents whose words cover the question best
RRF_K = 10  # small: the best-ranked chunks dominate (measured: 60 did worse)
_WORD = re.compile(r"[a-z0-9]+(?:[.-][a-z0-9]+)*")
_STOP = frozenset(
    (
        "a an and are as at be by can did do does for from had has have how in is it its of on "
        "or our than that the their then there these this to was were what when where which "
        "while who will with would you your please give answer question using based data shown "
        "details response relying information provided calculate round decimal places"
    ).split()
)


@dataclass(frozen=True)
class ChunkHit:
    document: str
    node_id: str
    page: int
    score: float
    text: str


@dataclass(frozen=True)
class DocumentHit:
    name: str
    score: float


def keywords(question: str) -> list[str]:
    words = [w for w in _WORD.findall(question.lower()) if w not in _STOP and len(w) > 1]
    return list(dict.fromkeys(words))


def _terms(question: str, phrases: Sequence[str] = ()) -> list[str]:
    """The question's keywords as full-text terms ("full-time" is "full" and "time", as the
    text search parser indexes it), then `phrases` as phrase terms ("human <-> capital")."""
    words = (part for w in keywords(question) for part in re.split(r"[.-]", w))
    terms = [t for t in (re.sub(r"[^a-z0-9]", "", w) for w in words) if t][:24]
    for phrase in phrases:
        parts = [t for t in (re.sub(r"[^a-z0-9]", "", w) for w in phrase.lower().split()) if t]
        if parts:
            terms.append(parts[0] if len(parts) == 1 else f"({' <-> '.join(parts)})")
    return list(dict.fromkeys(terms))[:32]


def tsquery(question: str, phrases: Sequence[str] = ()) -> str:
    """An OR query of the question's keywords (to_tsquery syntax, injection-safe)."""
    return " | ".join(_terms(question, phrases))  # "" matches nothing (no syntax error)


def vector_literal(vector: np.ndarray) -> str:
    """A vector as a pgvector text literal, for `CAST(:v AS vector)`."""
    return "[" + ",".join(f"{x:.6f}" for x in vector.tolist()) + "]"


def _filter(document_ids: Sequence[int] | None) -> str:
    return "AND c.document_id = ANY(:ids)" if document_ids is not None else ""


def _coverage(n_terms: int, tsv: str = "c.tsv") -> str:
    """How many distinct question keywords a chunk contains, each weighted by `:w{i}` (a
    word on every page of the filing — "fiscal", "end" — counts for little)."""
    parts = [f"({tsv} @@ to_tsquery('english', :t{i}))::int * :w{i}" for i in range(n_terms)]
    return " + ".join(parts) or "0"


def term_weights(session: Session, question: str, document_ids: Sequence[int] | None,
                 phrases: Sequence[str] = ()) -> list[float]:  # fmt: skip
    """Inverse document frequency of each term among the chunks of `document_ids` (all
    chunks when None): ln((N + 1) / (n + 0.5))."""
    terms = _terms(question, phrases)
    if not terms:
        return []
    where = "WHERE document_id = ANY(:ids)" if document_ids is not None else ""
    params: dict[str, Any] = {f"t{i}": t for i, t in enumerate(terms)}
    if document_ids is not None:
        params["ids"] = list(document_ids)
    return _rarity(session, len(terms), rows=f"chunks {where}", tsv="tsv", params=params)


def _rarity(session: Session, n_terms: int, *, rows: str, tsv: str,
            params: dict[str, Any]) -> list[float]:  # fmt: skip
    """ln((N + 1) / (n + 0.5)) of terms `:t0`... over the N rows of `rows` (a FROM clause),
    n of which contain the term in their `tsv` column."""
    counts = ", ".join(f"count(*) FILTER (WHERE {tsv} @@ to_tsquery('english', :t{i}))"
                       for i in range(n_terms))  # fmt: skip
    row = session.execute(text(f"SELECT count(*), {counts} FROM {rows}"), params).one()
    return [math.log((row[0] + 1) / (n + 0.5)) for n in row[1:]]


def _fused_sql(document_ids: Sequence[int] | None, n_terms: int, titles: bool = False) -> str:
    """Vector and lexical top-k fused by reciprocal rank. With `titles`, a chunk's lexical
    match also counts the words of its section's title (the context the chunk sits in)."""
    where = _filter(document_ids)
    tsv = "(c.tsv || n.title_tsv)" if titles else "c.tsv"
    join = ("JOIN nodes n ON n.document_id = c.document_id AND n.node_id = c.node_id"
            if titles else "")  # fmt: skip
    return f"""
    WITH vec AS (
        SELECT id, row_number() OVER (ORDER BY dist) AS rank FROM (
            SELECT c.id, c.embedding <=> CAST(:v AS vector) AS dist
            FROM chunks c WHERE TRUE {where}
            ORDER BY c.embedding <=> CAST(:v AS vector) LIMIT :k) v
    ),
    lex AS (
        SELECT id, row_number() OVER (ORDER BY covered DESC, r DESC) AS rank FROM (
            SELECT c.id, {_coverage(n_terms, tsv)} AS covered, ts_rank_cd({tsv}, q, 32) AS r
            FROM chunks c {join} CROSS JOIN to_tsquery('english', :tsq) q
            WHERE {tsv} @@ q {where}
            ORDER BY covered DESC, r DESC LIMIT :k) l
    ),
    fused AS (
        SELECT id, sum(1.0 / (:rrf + rank)) AS score
        FROM (SELECT * FROM vec UNION ALL SELECT * FROM lex) u GROUP BY id
    )"""


def _params(question: str, vector: np.ndarray, k: int, ids: Sequence[int] | None,
            weights: Sequence[float] | None = None, phrases: Sequence[str] = ()
            ) -> dict[str, Any]:  # fmt: skip
    params: dict[str, Any] = {"v": vector_literal(vector), "tsq": tsquery(question, phrases),
                              "k": k, "rrf": RRF_K}  # fmt: skip
    terms = _terms(question, phrases)
    params.update({f"t{i}": term for i, term in enumerate(terms)})
    params.update({f"w{i}": 1.0 if weights is None else weights[i] for i in range(len(terms))})
    if ids is not None:
        params["ids"] = list(ids)
    return params


def tune_hnsw(session: Session, filtered: bool) -> None:
    """HNSW search settings for this transaction (iterative scans under a filter)."""
    session.execute(text("SET LOCAL hnsw.ef_search = 200"))
    if filtered:
        session.execute(text("SET LOCAL hnsw.iterative_scan = relaxed_order"))


def candidate_documents(
    *, session: Session, question: str, vector: np.ndarray, document_ids: Sequence[int] | None
) -> list[int]:
    """For a broad question: the documents of the vector side's nearest chunks, and those
    whose words (documents.lexemes) cover the most question terms, rarest counting most."""
    terms = _terms(question)
    where = "AND c.document_id = ANY(:ids)" if document_ids is not None else ""
    params: dict[str, Any] = {"v": vector_literal(vector), "kv": CANDIDATE_CHUNKS,
                              "kl": CANDIDATE_DOCUMENTS, "tsq": tsquery(question)}  # fmt: skip
    if document_ids is not None:
        params["ids"] = list(document_ids)
    lexical = ""
    if terms:
        doc_where = "AND d.id = ANY(:ids)" if document_ids is not None else ""
        params.update({f"t{i}": t for i, t in enumerate(terms)})
        matching = f"documents d WHERE lexemes @@ to_tsquery('english', :tsq) {doc_where}"
        weights = _rarity(session, len(terms), rows=matching, tsv="lexemes", params=params)
        params.update({f"w{i}": w for i, w in enumerate(weights)})
        lexical = f"""UNION
        (SELECT d.id FROM documents d WHERE d.lexemes @@ to_tsquery('english', :tsq) {doc_where}
         ORDER BY {_coverage(len(terms), "d.lexemes")} DESC LIMIT :kl)"""
    sql = f"""
    (SELECT DISTINCT document_id FROM (
        SELECT c.document_id FROM chunks c WHERE TRUE {where}
        ORDER BY c.embedding <=> CAST(:v AS vector) LIMIT :kv) v)
    {lexical}"""
    return [int(i) for i in session.execute(text(sql), params).scalars()]


def rank_documents(
    *,
    session: Session,
    question: str,
    vector: np.ndarray,
    document_ids: Sequence[int] | None = None,
    k: int = DOC_K,
) -> list[DocumentHit]:
    """Documents by DocScore = Σ fused chunk score / √(N+1), computed in SQL. Over more than
    BROAD documents, chunks are ranked inside `candidate_documents` only (measured: whole-corpus
    ranking over every chunk grows linearly with the corpus, bench/scale.py)."""
    if document_ids is None or len(document_ids) > BROAD:
        tune_hnsw(session, document_ids is not None)
        document_ids = candidate_documents(session=session, question=question, vector=vector,
                                           document_ids=document_ids)  # fmt: skip
    tune_hnsw(session, document_ids is not None)
    sql = (
        _fused_sql(document_ids, len(_terms(question)))
        + """
    SELECT d.name, sum(f.score) / sqrt(count(*) + 1) AS doc_score
    FROM fused f JOIN chunks c ON c.id = f.id JOIN documents d ON d.id = c.document_id
    GROUP BY d.name ORDER BY doc_score DESC"""
    )
    rows = session.execute(text(sql), _params(question, vector, k, document_ids))
    return [DocumentHit(name, float(score)) for name, score in rows]


def chunk_hits(
    *,
    session: Session,
    question: str,
    vector: np.ndarray,
    document_ids: Sequence[int],
    k: int = 60,
    phrases: Sequence[str] = (),
) -> list[ChunkHit]:
    """The fused chunk hits inside some documents, best first. `phrases` are searched as
    further full-text terms (see subjects.py); each term counts by its rarity in these
    documents."""
    tune_hnsw(session, True)
    sql = (
        _fused_sql(document_ids, len(_terms(question, phrases)), titles=True)
        + """
    SELECT d.name, c.node_id, c.page, f.score, c.text
    FROM fused f JOIN chunks c ON c.id = f.id JOIN documents d ON d.id = c.document_id
    ORDER BY f.score DESC"""
    )
    weights = term_weights(session, question, document_ids, phrases)
    params = _params(question, vector, k, document_ids, weights, phrases)
    rows = session.execute(text(sql), params)
    return [ChunkHit(name, node_id, page, float(score), body)
            for name, node_id, page, score, body in rows]  # fmt: skip
