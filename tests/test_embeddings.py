"""Embedders: the ONNX path of all-MiniLM-L6-v2 gives the model's own vectors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from sqlalchemy import text as text_of

from pageindex_platform.embeddings.hashed import HashEmbedder
from pageindex_platform.embeddings.minilm import SentenceTransformerEmbedder
from pageindex_platform.embeddings.onnx import OnnxMiniLM, export
from pageindex_platform.settings import load_settings

TEXTS = [
    "What is the FY2018 capital expenditure amount (in USD millions) for 3M?",
    "Purchases of property, plant and equipment (PP&E) (1,577) (1,373) (1,420)",
    "Item 7. Management's Discussion and Analysis of Financial Condition",
]


@pytest.mark.slow
@pytest.mark.no_database
def test_onnx_export_reproduces_sentence_transformers(tmp_path: Path) -> None:
    target = tmp_path / "models" / "all-MiniLM-L6-v2.onnx"
    export(target)
    assert target.exists() and not list(target.parent.glob("*.tmp"))
    onnx = OnnxMiniLM(target, batch_size=2).embed(TEXTS)
    reference = SentenceTransformerEmbedder().embed(TEXTS)
    assert onnx.shape == reference.shape == (3, 384)
    assert np.allclose(np.linalg.norm(onnx, axis=1), 1.0, atol=1e-5)
    assert float(np.min(np.sum(onnx * reference, axis=1))) > 0.9999


@pytest.mark.no_database
def test_hash_embedder_is_deterministic_and_lexical() -> None:
    a, b, c = HashEmbedder().embed(["cash flow statement", "statement of cash flow", "aircraft"])
    assert np.allclose(a, HashEmbedder().embed(["cash flow statement"])[0])
    assert float(a @ b) > float(a @ c)


@pytest.mark.slow
def test_static_embedder_is_distilled_once_and_questions_use_the_corpus_embedder(
    samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PI_EMBEDDER=static distils all-MiniLM-L6-v2 into a token table once per user, in the
    model cache every home shares (nothing in PI_HOME); a question is embedded with what the
    stored documents used, whatever is set now."""
    from pageindex_platform.embeddings import get_embedder
    from pageindex_platform.embeddings.static import STATIC_NAME
    from pageindex_platform.settings import EmbedderName, get_settings

    from .helpers import run_cli, run_json

    static = get_embedder(EmbedderName.STATIC, settings=load_settings())
    vectors = static.embed(TEXTS)
    assert vectors.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    question, capex, mdna = vectors
    assert float(question @ capex) > float(question @ mdna)  # the same words matter
    assert (get_settings().model_cache / STATIC_NAME / "model.safetensors").is_file()

    monkeypatch.setenv("PI_EMBEDDER", "static")
    get_settings.cache_clear()
    try:
        code, _, err = run_cli("ingest", str(samples))
        assert code == 0, err
        assert not (get_settings().home / "models").exists()
    finally:
        monkeypatch.setenv("PI_EMBEDDER", "hash")
        get_settings.cache_clear()
    names = [d["name"] for d in run_json("docs", "list")]
    assert {run_json("docs", "show", n)["embedder"] for n in names} == {"all-MiniLM-L6-v2-static"}
    from pageindex_platform.embeddings.space import EmbeddingSpace

    from .helpers import session_scope

    with session_scope() as session:  # PI_EMBEDDER=hash now; the corpus says static
        assert (
            EmbeddingSpace.of_corpus(session, load_settings()).questions.name
            == "all-MiniLM-L6-v2-static"
        )
    out = run_json("ask", "Best Buy Q2 FY2024 comparable sales")
    assert out["citations"][0]["document"] == "BESTBUY_2024Q2_10Q"


@pytest.mark.slow
def test_fast_embedder_puts_chunks_in_the_transformers_space_and_asks_through_it(
    samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PI_EMBEDDER=fast: chunk vectors from the token table, mapped near all-MiniLM-L6-v2's own
    vectors of the same texts (much nearer than the table's raw means), so that a question
    embedded by the transformer finds them; the documents record the fast embedder, and
    questions are embedded by MiniLM."""
    from pageindex_platform.embeddings import get_embedder
    from pageindex_platform.embeddings.space import EmbeddingSpace
    from pageindex_platform.settings import EmbedderName

    from .helpers import run_json, session_scope

    fast = get_embedder(EmbedderName.FAST, settings=load_settings())
    assert fast.name == "all-MiniLM-L6-v2-fast"
    assert (
        get_embedder(EmbedderName.FAST, settings=load_settings(), queries=True).name
        == "all-MiniLM-L6-v2"
    )
    chunks = [
        "Purchases of property, plant and equipment (PP&E) (1,577) (1,373) (1,420). Net cash "
        "used in investing activities.",
        "Item 7. Management's Discussion and Analysis of Financial Condition and Results of "
        "Operations: overview of our business segments.",
        "Our stores sell consumer electronics, computing, appliances and entertainment.",
    ]
    vectors = fast.embed(chunks)
    assert vectors.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    reference = get_embedder(EmbedderName.MINILM, settings=load_settings()).embed(chunks)
    mapped = np.sum(vectors * reference, axis=1)
    raw = np.sum(fast.token_means(chunks) * reference, axis=1)  # type: ignore[attr-defined]
    assert mapped.min() > 0.7 and (mapped > raw + 0.15).all(), (mapped, raw)
    question = get_embedder(EmbedderName.MINILM, settings=load_settings(), queries=True).embed(
        ["How much did the company spend on capital expenditures?"]
    )[0]
    assert int(np.argmax(vectors @ question)) == 0 == int(np.argmax(reference @ question))

    _ingest_as(samples, monkeypatch)
    names = [d["name"] for d in run_json("docs", "list")]
    assert {run_json("docs", "show", n)["embedder"] for n in names} == {"all-MiniLM-L6-v2-fast"}
    with session_scope() as session:
        assert (
            EmbeddingSpace.of_corpus(session, load_settings()).questions.name == "all-MiniLM-L6-v2"
        )
    out = run_json("ask", "Best Buy Q2 FY2024 comparable sales")
    assert out["citations"][0]["document"] == "BESTBUY_2024Q2_10Q"


@pytest.mark.no_database
def test_distilling_tells_its_progress_through_the_vocabulary() -> None:
    """model2vec's bar over the vocabulary, while a table is distilled, tells the progress
    callback each whole percent, never 100 before the table is saved."""
    from model2vec.distill import inference

    from pageindex_platform.embeddings.static import _told

    told: list[tuple[str, int, int]] = []
    with _told(lambda *event: told.append(event)):
        bar = getattr(inference, "tqdm")(total=30522, desc="Encoding tokens")  # noqa: B009 - as create_embeddings does
        for _ in range(0, 30522, 1024):
            bar.update(1024)
    percents = [done for _, done, _ in told]
    assert {(what, total) for what, _, total in told} == {("token table", 100)}
    assert percents == sorted(set(percents)) and len(percents) > 20  # growing, told often
    assert percents[-1] == 99  # 100 is told once the table is saved
    assert getattr(inference, "tqdm").__name__ == "tqdm"  # noqa: B009 - model2vec's own again


@pytest.mark.no_database
def test_fast_embedder_refuses_a_table_its_map_was_not_fitted_on(tmp_path: Path) -> None:
    from pageindex_platform.embeddings import get_embedder
    from pageindex_platform.embeddings.static import MAP_PATH, TABLE_NAME, FastMiniLM
    from pageindex_platform.errors import ConfigurationError
    from pageindex_platform.settings import EmbedderName, get_settings

    get_embedder(EmbedderName.FAST, settings=load_settings())  # prepared once per user
    with np.load(MAP_PATH) as shipped:
        fitted = dict(shipped)
    fitted["probe_means"] = -fitted["probe_means"]
    other = tmp_path / "map.npz"
    np.savez(other, **fitted)
    with pytest.raises(ConfigurationError, match=r"not the one map\.npz was fitted on"):
        FastMiniLM(get_settings().model_cache / TABLE_NAME, map_path=other)


def _ingest_as(folder: Path, monkeypatch: pytest.MonkeyPatch, embedder: str = "fast") -> None:
    from pageindex_platform.settings import get_settings

    from .helpers import run_cli

    monkeypatch.setenv("PI_EMBEDDER", embedder)
    get_settings.cache_clear()
    try:
        code, _, err = run_cli("ingest", str(folder))
        assert code == 0, err
    finally:
        monkeypatch.setenv("PI_EMBEDDER", "hash")
        get_settings.cache_clear()


def test_with_no_setting_filings_are_embedded_by_fast_and_questions_by_the_transformer(
    small_pdf: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The default embedder is `fast`: a user who sets nothing gets the token table's vectors
    mapped into all-MiniLM-L6-v2's space (`pi docs show` says which), and a question over them
    is embedded by the transformer and answered with a cited page."""
    from pageindex_platform.embeddings.space import EmbeddingSpace
    from pageindex_platform.embeddings.static import FastMiniLM
    from pageindex_platform.settings import get_settings

    from .helpers import run_cli, run_json, session_scope

    monkeypatch.delenv("PI_EMBEDDER")
    get_settings.cache_clear()
    try:
        code, _, err = run_cli("ingest", str(small_pdf))
        assert code == 0, err
        shown = run_json("docs", "show", small_pdf.stem)
        assert shown["embedder"] == FastMiniLM.name and shown["chunks"] > 0
        with session_scope() as session:
            assert (
                EmbeddingSpace.of_corpus(session, load_settings()).questions.name
                == SentenceTransformerEmbedder.name
            )
        answer = run_json("ask", "Ulta Beauty 8-K September 2023")
        assert answer["citations"] and answer["citations"][0]["document"] == small_pdf.stem
    finally:
        monkeypatch.setenv("PI_EMBEDDER", "hash")
        get_settings.cache_clear()


def _stored_state() -> list[tuple[Any, ...]]:
    """Everything a question ranks by: each table's rows, digested (the query log aside)."""
    from sqlalchemy import text

    from .helpers import session_scope

    digest = "count(*), md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), ''))"
    with session_scope() as session:
        return [
            tuple(session.execute(text(f"SELECT {digest} FROM {table} t")).one())
            for table in ("documents", "pages", "nodes", "chunks", "facts")
        ]


def test_asking_writes_nothing_and_ranks_alike_whatever_was_asked_before(
    samples: Path, small_pdf: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fast corpus (approximate chunk vectors) and a minilm filing beside it: questions are
    compared with the stored vectors as they are, so asking writes nothing that ranks, and
    the same question gives the same documents and citations before and after others were
    asked, in metadata and semantic routes alike. A fast filing's description is embedded by
    the transformer itself at ingest."""
    import json

    from pageindex_platform.embeddings import get_embedder
    from pageindex_platform.settings import EmbedderName

    from .helpers import run_json, session_scope

    _ingest_as(small_pdf, monkeypatch, "minilm")
    _ingest_as(samples, monkeypatch)  # the minilm filing is unchanged: kept as it is
    before = _stored_state()
    questions = [
        ("Best Buy Q2 FY2024 comparable sales",),
        ("comparable sales growth by channel", "--route", "semantic"),
        ("Amcor adjusted EBIT fiscal 2023",),
    ]

    def shown(args: tuple[str, ...]) -> tuple[Any, ...]:
        out = run_json("ask", *args)
        return out["route"], out["documents"], out["citations"]

    first = [shown(q) for q in questions]
    again = [shown(q) for q in reversed(questions)][::-1]
    assert first == again and all(f[2] for f in first)
    assert _stored_state() == before

    transformer = get_embedder(EmbedderName.MINILM, settings=load_settings(), queries=True)
    with session_scope() as session:
        described = session.execute(
            text_of(
                "SELECT description, description_embedding::text FROM documents "
                "WHERE name <> :n AND description IS NOT NULL"
            ),
            {"n": small_pdf.stem},
        ).all()
    assert described
    vectors = np.array([json.loads(v) for _, v in described])
    assert np.min(np.sum(vectors * transformer.embed([d for d, _ in described]), axis=1)) > 0.999
