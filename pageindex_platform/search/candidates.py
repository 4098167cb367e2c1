"""A broad question's candidate documents: over a corpus of more than `semantic.BROAD`
documents, chunks are ranked only inside the documents of the vector side's nearest chunks
and those whose words (`documents.lexemes`) hold the question's rarest terms — found through
the indexes, no document's words read (measured: ranking every chunk grows linearly with the
corpus, bench/scale.py)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..db.sql import Session, text
from ..db.vectors import Vector, vector_literal
from .terms import rarity, terms

CANDIDATE_CHUNKS = 200  # the vector side's nearest chunks name candidate documents...
CANDIDATE_DOCUMENTS = 100  # ...and so do the documents whose words cover the question best
RARE_TERMS = 8  # the question's rarest terms name those documents...
COMMON_SHARE = 0.9  # ...when each is in at most this share of the documents


def in_documents(document_ids: Sequence[int] | None) -> str:
    """The SQL condition on chunks `c` of `document_ids` (`:ids`; none when None)."""
    return "AND c.document_id = ANY(:ids)" if document_ids is not None else ""


def document_rarity(session: Session, words: Sequence[str]) -> list[float] | None:
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
        {"terms": list(words)},
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
    *, session: Session, question: str, vector: Vector, document_ids: Sequence[int] | None
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
    *, session: Session, vector: Vector, document_ids: Sequence[int] | None, k: int
) -> list[tuple[int, int]]:
    """(chunk id, document id) of the k chunks nearest `vector`, nearest first, among those of
    `document_ids` (all when None)."""
    params: dict[str, Any] = {"v": vector_literal(vector), "k": k}
    if document_ids is not None:
        params["ids"] = list(document_ids)
    rows = session.execute(
        text(f"""
        SELECT c.id, c.document_id FROM chunks c WHERE TRUE {in_documents(document_ids)}
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
    found_terms = terms(question)
    weights = document_rarity(session, found_terms) if found_terms else None
    if found_terms and weights is None:  # never analyzed: count each term's documents
        matching = f"documents d WHERE TRUE {doc_where}"
        params.update({f"t{i}": t for i, t in enumerate(found_terms)})
        weights = rarity(session, len(found_terms), rows=matching, tsv="lexemes", params=params)
    if not found_terms or not weights:
        return []
    floor = math.log(1 / COMMON_SHARE)
    rare = sorted((i for i, w in enumerate(weights) if w >= floor), key=lambda i: -weights[i])[
        :RARE_TERMS
    ]
    if not rare:
        return []
    params.update({f"t{i}": found_terms[i] for i in rare})
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
