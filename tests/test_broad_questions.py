"""Broad questions over a corpus of more than BROAD documents: chunks are ranked inside
candidate documents found through the indexes (the nearest chunks' documents and those whose
stored words hold the question's rarest terms), and the ranking agrees with ranking every
chunk on the sample filings."""

from __future__ import annotations

from pathlib import Path

import pytest

from pageindex_platform.settings import load_settings

from .helpers import chunk_search, session_scope


def test_broad_questions_rank_chunks_inside_candidate_documents(
    corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over more than BROAD documents, chunks are ranked inside candidate documents (nearest
    chunks' documents and those whose stored words cover the question); on this corpus the
    candidate-first ranking orders documents as ranking every chunk does."""
    from sqlalchemy import text

    from pageindex_platform.embeddings import get_embedder
    from pageindex_platform.search import candidates, semantic

    question = "comparable sales decline in the second quarter"
    vector = get_embedder(settings=load_settings()).embed([question])[0]
    with session_scope() as session:
        empty = session.execute(
            text("SELECT count(*) FROM documents WHERE lexemes IS NULL OR length(lexemes) = 0")
        ).scalar()
        assert empty == 0  # every stored document has its words
        exact = chunk_search(session, question, vector).rank_documents()
    monkeypatch.setattr(semantic, "BROAD", 0)
    monkeypatch.setattr(candidates, "CANDIDATE_CHUNKS", 5)
    monkeypatch.setattr(candidates, "CANDIDATE_DOCUMENTS", 2)
    with session_scope() as session:
        ids = candidates.candidate_documents(
            session=session, question=question, vector=vector, document_ids=None
        ).documents
        names = set(
            session.execute(
                text("SELECT name FROM documents WHERE id = ANY(:i)"), {"i": ids}
            ).scalars()
        )
        broad = chunk_search(session, question, vector).rank_documents()
    assert 0 < len(ids) < len(exact)  # fewer documents than the whole corpus...
    assert {h.name for h in broad} <= names
    assert broad[0].name == exact[0].name == "BESTBUY_2024Q2_10Q"  # ...the same best one


def test_broad_ranking_uses_the_nearest_chunks_it_found_for_its_vector_side(
    corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The nearest chunks that named the candidate documents are the vector side of their
    ranking: the documents come out as a fresh vector search inside the candidates ranks them."""
    from pageindex_platform.embeddings import get_embedder
    from pageindex_platform.search import candidates, semantic

    question = "comparable sales decline in the second quarter"
    vector = get_embedder(settings=load_settings()).embed([question])[0]
    monkeypatch.setattr(semantic, "BROAD", 0)
    with session_scope() as session:
        found = candidates.candidate_documents(
            session=session, question=question, vector=vector, document_ids=None
        )
        broad = chunk_search(session, question, vector).rank_documents()
    monkeypatch.setattr(semantic, "BROAD", 10**9)
    with session_scope() as session:
        inside = chunk_search(session, question, vector).rank_documents(found.documents)
    assert len(found.nearest) >= semantic.DOC_K
    assert [(h.name, round(h.score, 6)) for h in broad] == [
        (h.name, round(h.score, 6)) for h in inside
    ]


def test_document_rarity_comes_from_the_planners_statistics(corpus: Path) -> None:
    """A broad question weighs its terms by the share of documents holding them, read from
    the statistics of documents.lexemes (no document's words are read): a listed common word
    weighs what counting documents gives; a word in no filing weighs more than any listed."""
    from sqlalchemy import text

    from pageindex_platform.search.candidates import document_rarity
    from pageindex_platform.search.terms import rarity

    terms = ["revenue", "sales", "zzyzx"]
    with session_scope() as session:
        session.execute(text("ANALYZE documents"))
    with session_scope() as session:
        stats = document_rarity(session, terms)
        params = {f"t{i}": t for i, t in enumerate(terms)}
        counted = rarity(session, len(terms), rows="documents", tsv="lexemes", params=params)
    assert stats is not None
    assert stats[:2] == pytest.approx(counted[:2], abs=0.01)
    assert stats[2] > max(stats[:2])
