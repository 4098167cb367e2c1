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
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from ..embeddings import Embedder
from ..embeddings.static import FastMiniLM

DOC_K = 10  # top-K chunks per list behind DocScore
BROAD = 300  # more documents than this: rank chunks inside candidate documents only
RESCORED = 60  # nearest chunks by stored approximate vectors, re-ordered by the transformer's
CANDIDATE_CHUNKS = 200  # the vector side's nearest chunks name candidate documents...
CANDIDATE_DOCUMENTS = 100  # ...and so do the documents whose words cover the question best
RARE_TERMS = 8  # the question's rarest terms name those documents...
COMMON_SHARE = 0.9  # ...when each is in at most this share of the documents
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


def term_weights(
    session: Session, question: str, document_ids: Sequence[int] | None, phrases: Sequence[str] = ()
) -> list[float]:
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


def _rarity(
    session: Session, n_terms: int, *, rows: str, tsv: str, params: dict[str, Any]
) -> list[float]:
    """ln((N + 1) / (n + 0.5)) of terms `:t0`... over the N rows of `rows` (a FROM clause),
    n of which contain the term in their `tsv` column."""
    counts = ", ".join(
        f"count(*) FILTER (WHERE {tsv} @@ to_tsquery('english', :t{i}))" for i in range(n_terms)
    )
    row = session.execute(text(f"SELECT count(*), {counts} FROM {rows}"), params).one()
    return [math.log((row[0] + 1) / (n + 0.5)) for n in row[1:]]


def _fused_sql(
    document_ids: Sequence[int] | None, n_terms: int, titles: bool = False, nearest: bool = False
) -> str:
    """Vector and lexical top-k fused by reciprocal rank (ties by chunk id, not by where rows
    happen to lie on disk). With `titles`, a chunk's lexical
    match also counts the words of its section's title (the context the chunk sits in). With
    `nearest`, the vector side is the chunk ids `:near`, nearest first, already found."""
    where = _filter(document_ids)
    tsv = "(c.tsv || n.title_tsv)" if titles else "c.tsv"
    join = (
        "JOIN nodes n ON n.document_id = c.document_id AND n.node_id = c.node_id" if titles else ""
    )
    vec = (
        "SELECT id, rank FROM unnest(CAST(:near AS int[])) WITH ORDINALITY AS v(id, rank)"
        if nearest
        else f"""SELECT id, row_number() OVER (ORDER BY dist, id) AS rank FROM (
            SELECT c.id, c.embedding <=> CAST(:v AS vector) AS dist
            FROM chunks c WHERE TRUE {where}
            ORDER BY c.embedding <=> CAST(:v AS vector) LIMIT :k) v"""
    )
    return f"""
    WITH vec AS ({vec}),
    lex AS (
        SELECT id, row_number() OVER (ORDER BY covered DESC, r DESC, id) AS rank FROM (
            SELECT c.id, {_coverage(n_terms, tsv)} AS covered, ts_rank_cd({tsv}, q, 32) AS r
            FROM chunks c {join} CROSS JOIN to_tsquery('english', :tsq) q
            WHERE {tsv} @@ q {where}
            ORDER BY covered DESC, r DESC, c.id LIMIT :k) l
    ),
    fused AS (
        SELECT id, sum(1.0 / (:rrf + rank)) AS score
        FROM (SELECT * FROM vec UNION ALL SELECT * FROM lex) u GROUP BY id
    )"""


def _params(
    question: str,
    vector: np.ndarray,
    k: int,
    ids: Sequence[int] | None,
    weights: Sequence[float] | None = None,
    phrases: Sequence[str] = (),
) -> dict[str, Any]:
    params: dict[str, Any] = {
        "v": vector_literal(vector),
        "tsq": tsquery(question, phrases),
        "k": k,
        "rrf": RRF_K,
    }
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


def document_rarity(session: Session, terms: Sequence[str]) -> list[float] | None:
    """ln((N + 1) / (n + 0.5)) of each term over the N stored documents, n read from the
    planner's statistics of `documents.lexemes` (its most common words and their shares), a
    word not among them counting as half as common as the least common listed; None when
    the table has not been analyzed yet. No document's words are read."""
    row = session.execute(
        text("""
        SELECT c.reltuples, s.most_common_elems::text::text[], s.most_common_elem_freqs,
               ARRAY(SELECT array_to_string(tsvector_to_array(to_tsvector('english', t)), ' ')
                     FROM unnest(CAST(:terms AS text[])) WITH ORDINALITY u(t, i) ORDER BY i)
        FROM pg_class c JOIN pg_stats s ON s.tablename = c.relname AND s.attname = 'lexemes'
             AND s.schemaname = current_schema()
        WHERE c.oid = to_regclass('documents')"""),
        {"terms": list(terms)},
    ).first()
    if row is None or row[1] is None or row[0] <= 0:
        return None
    documents, common, shares, lexemes = row
    share = dict(zip(common, shares, strict=False))  # the shares end with min, max, nulls
    floor = shares[len(common)] / 2 if len(shares) > len(common) else 1.0 / documents
    return [
        math.log((documents + 1) / (share.get(lexeme, floor) * documents + 0.5))
        for lexeme in lexemes
    ]


@dataclass(frozen=True)
class Candidates:
    """A broad question's candidate documents, and the vector side's nearest chunks (ids,
    nearest first) that named some of them."""

    documents: list[int]
    nearest: list[int]


def candidate_documents(
    *, session: Session, question: str, vector: np.ndarray, document_ids: Sequence[int] | None
) -> Candidates:
    """For a broad question: the documents of the vector side's nearest chunks, and those
    whose words (documents.lexemes) hold the question's rarest terms. Runs in
    rank_documents' transaction, whose HNSW settings (iterative scan) let the vector side
    return CANDIDATE_CHUNKS rows."""
    nearest = nearest_chunks(
        session=session, vector=vector, document_ids=document_ids, k=CANDIDATE_CHUNKS
    )
    lexical = rare_term_documents(session=session, question=question, document_ids=document_ids)
    documents = list(dict.fromkeys([*(doc for _, doc in nearest), *lexical]))
    return Candidates(documents, [chunk for chunk, _ in nearest])


def nearest_chunks(
    *, session: Session, vector: np.ndarray, document_ids: Sequence[int] | None, k: int
) -> list[tuple[int, int]]:
    """(chunk id, document id) of the k chunks nearest `vector`, nearest first, among those of
    `document_ids` (all when None)."""
    params: dict[str, Any] = {"v": vector_literal(vector), "k": k}
    if document_ids is not None:
        params["ids"] = list(document_ids)
    rows = session.execute(
        text(f"""
        SELECT c.id, c.document_id FROM chunks c WHERE TRUE {_filter(document_ids)}
        ORDER BY c.embedding <=> CAST(:v AS vector) LIMIT :k"""),
        params,
    )
    return [(int(chunk), int(doc)) for chunk, doc in rows]


def rare_term_documents(
    *, session: Session, question: str, document_ids: Sequence[int] | None
) -> list[int]:
    """The CANDIDATE_DOCUMENTS documents (of `document_ids`, all when None) whose words hold
    the question's rarest terms (at most RARE_TERMS of them, each in at most COMMON_SHARE of
    the documents), rarest counting most. Each term is looked up in the GIN index on its
    own: no document's words are read."""
    params: dict[str, Any] = {}
    doc_where = ""
    if document_ids is not None:
        params["ids"], doc_where = list(document_ids), "AND d.id = ANY(:ids)"
    terms = _terms(question)
    weights = document_rarity(session, terms) if terms else None
    if terms and weights is None:  # never analyzed: count each term's documents
        matching = f"documents d WHERE TRUE {doc_where}"
        params.update({f"t{i}": t for i, t in enumerate(terms)})
        weights = _rarity(session, len(terms), rows=matching, tsv="lexemes", params=params)
    if not terms or not weights:
        return []
    floor = math.log(1 / COMMON_SHARE)
    rare = sorted((i for i, w in enumerate(weights) if w >= floor), key=lambda i: -weights[i])[
        :RARE_TERMS
    ]
    if not rare:
        return []
    params.update({f"t{i}": terms[i] for i in rare})
    params.update({f"w{i}": weights[i] for i in rare})
    params["kl"] = CANDIDATE_DOCUMENTS
    lookups = " UNION ALL ".join(
        f"SELECT d.id, CAST(:w{i} AS float8) AS w FROM documents d "
        f"WHERE d.lexemes @@ to_tsquery('english', :t{i}) {doc_where}"
        for i in rare
    )
    sql = f"SELECT id FROM ({lookups}) h GROUP BY id ORDER BY sum(w) DESC, id LIMIT :kl"
    # The planner prices reading a document's words like any column, but they are stored
    # out of line (TOAST): a scan of every document costs ~40 ms at 10k documents against
    # ~3 ms for the index's list of the documents holding a term (bench/scale.py).
    session.execute(text("SET LOCAL enable_seqscan = off"))
    found = [int(i) for i in session.execute(text(sql), params).scalars()]
    session.execute(text("SET LOCAL enable_seqscan = on"))
    return found


def _document_count(session: Session) -> int:
    return int(session.execute(text("SELECT count(*) FROM documents")).scalar() or 0)


def rank_documents(
    *,
    session: Session,
    question: str,
    vector: np.ndarray,
    document_ids: Sequence[int] | None = None,
    k: int = DOC_K,
    rescorer: Embedder | None = None,
) -> list[DocumentHit]:
    """Documents by DocScore = Σ fused chunk score / √(N+1), computed in SQL. Over more than
    BROAD documents, chunks are ranked inside `candidate_documents` only (measured: whole-corpus
    ranking over every chunk grows linearly with the corpus, bench/scale.py). `rescorer`: the
    transformer some stored vectors approximate; the RESCORED nearest chunks are then ordered
    by its own vectors (`rescored`) before the vector side's k are taken."""
    size = len(document_ids) if document_ids is not None else _document_count(session)
    tune_hnsw(session, document_ids is not None or size > BROAD)
    nearest: list[int] | None = None
    if size > BROAD:
        found = candidate_documents(
            session=session, question=question, vector=vector, document_ids=document_ids
        )
        document_ids = found.documents
        # The k nearest chunks inside the candidates are the k nearest found: every chunk's
        # document among those is a candidate. No second (filtered) vector search.
        nearest = found.nearest
        if rescorer is not None:
            nearest = rescored(
                session=session, chunk_ids=nearest[:RESCORED], vector=vector, rescorer=rescorer
            )
        nearest = nearest[:k] if len(nearest) >= k else None
    elif rescorer is not None:
        nearest = rescored_nearest(
            session=session, vector=vector, document_ids=document_ids, k=RESCORED, rescorer=rescorer
        )[:k]
    sql = (
        _fused_sql(document_ids, len(_terms(question)), nearest=nearest is not None)
        + """
    SELECT d.name, sum(f.score) / sqrt(count(*) + 1) AS doc_score
    FROM fused f JOIN chunks c ON c.id = f.id JOIN documents d ON d.id = c.document_id
    GROUP BY d.name ORDER BY doc_score DESC"""
    )
    params = _params(question, vector, k, document_ids)
    if nearest is not None:
        params["near"] = nearest
    rows = session.execute(text(sql), params)
    return [DocumentHit(name, float(score)) for name, score in rows]


def approximate_stored(session: Session) -> bool:
    """Whether any stored document's chunk vectors approximate all-MiniLM-L6-v2's
    (PI_EMBEDDER=fast): questions over them are ordered by the transformer's own."""
    found = session.execute(
        text("SELECT EXISTS (SELECT 1 FROM documents WHERE embedder = :n)"), {"n": FastMiniLM.name}
    )
    return bool(found.scalar())


def rescored_nearest(
    *,
    session: Session,
    vector: np.ndarray,
    document_ids: Sequence[int] | None,
    k: int,
    rescorer: Embedder,
) -> list[int]:
    """The k chunks of `document_ids` (all when None) nearest `vector` by their stored vectors,
    ordered by `rescorer`'s (all-MiniLM-L6-v2's) own vectors (`rescored`)."""
    nearest = nearest_chunks(session=session, vector=vector, document_ids=document_ids, k=k)
    return rescored(
        session=session, chunk_ids=[chunk for chunk, _ in nearest], vector=vector, rescorer=rescorer
    )


def rescored(
    *, session: Session, chunk_ids: Sequence[int], vector: np.ndarray, rescorer: Embedder
) -> list[int]:
    """`chunk_ids`, found by their stored vectors, ordered by `rescorer`'s own vectors. Where
    the stored ones approximate them (documents embedded with PI_EMBEDDER=fast), the
    transformer's vector of a chunk is made once and stored beside the approximate one,
    which keeps finding the candidates: every chunk is found in one space. Ties keep the
    order found."""
    rows = session.execute(
        text("""
        SELECT c.id, c.text, c.exact_embedding IS NULL AND d.embedder = :approximate AS pending,
               1 - (coalesce(c.exact_embedding, c.embedding) <=> CAST(:v AS vector)) AS score
        FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.id = ANY(:ids)"""),
        {"v": vector_literal(vector), "ids": list(chunk_ids), "approximate": FastMiniLM.name},
    ).all()
    score = {int(r.id): float(r.score) for r in rows}
    pending = [r for r in rows if r.pending]
    if pending:
        fresh = dict(
            zip(
                (int(r.id) for r in pending), rescorer.embed([r.text for r in pending]), strict=True
            )
        )
        _store_exact(session, fresh)
        score.update({i: float(v @ vector) for i, v in fresh.items()})
    found = {chunk: n for n, chunk in enumerate(chunk_ids)}
    return sorted(score, key=lambda i: (-score[i], found[i]))


def _store_exact(session: Session, vectors: dict[int, np.ndarray]) -> None:
    """Store the transformer's vectors of chunks whose stored ones are approximate. Rows another
    question is storing right now are left to it (no waiting, no deadlock); a database that
    refuses the write (a read-only replica) keeps none, and the question is answered alike."""
    unlocked = text(
        "SELECT id FROM chunks WHERE id = ANY(:ids) AND exact_embedding IS NULL "
        "ORDER BY id FOR UPDATE SKIP LOCKED"
    )
    store = text("UPDATE chunks SET exact_embedding = CAST(:v AS vector) WHERE id = :id")
    try:
        with session.begin_nested():
            locked = session.execute(unlocked, {"ids": list(vectors)}).scalars().all()
            if locked:
                session.execute(store, [{"id": i, "v": vector_literal(vectors[i])} for i in locked])
    except SQLAlchemyError:
        pass


def chunk_hits(
    *,
    session: Session,
    question: str,
    vector: np.ndarray,
    document_ids: Sequence[int],
    k: int = 60,
    phrases: Sequence[str] = (),
    rescorer: Embedder | None = None,
) -> list[ChunkHit]:
    """The fused chunk hits inside some documents, best first. `phrases` are searched as
    further full-text terms (see subjects.py); each term counts by its rarity in these
    documents. `rescorer`: the transformer some stored vectors approximate (PI_EMBEDDER=fast);
    the vector side is then ordered by its own (`rescored_nearest`)."""
    tune_hnsw(session, True)
    nearest = (
        rescored_nearest(
            session=session, vector=vector, document_ids=document_ids, k=k, rescorer=rescorer
        )
        if rescorer is not None
        else None
    )
    sql = (
        _fused_sql(
            document_ids, len(_terms(question, phrases)), titles=True, nearest=nearest is not None
        )
        + """
    SELECT d.name, c.node_id, c.page, f.score, c.text
    FROM fused f JOIN chunks c ON c.id = f.id JOIN documents d ON d.id = c.document_id
    ORDER BY f.score DESC"""
    )
    weights = term_weights(session, question, document_ids, phrases)
    params = _params(question, vector, k, document_ids, weights, phrases)
    if nearest is not None:
        params["near"] = nearest
    rows = session.execute(text(sql), params)
    return [
        ChunkHit(name, node_id, page, float(score), body)
        for name, node_id, page, score, body in rows
    ]
