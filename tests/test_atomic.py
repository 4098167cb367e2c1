"""One transaction per document: a failure or a kill leaves only whole documents."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from sqlalchemy import func, select

from pageindex_platform.db.tables import Chunk, Document, Node, Page
from pageindex_platform.embeddings.hashed import HashEmbedder
from pageindex_platform.index import pipeline, store

from .helpers import env_db, run_json, session_scope

# these kill, fill or time processes and servers: run alone (scripts/test.sh)
pytestmark = pytest.mark.serial


def _complete_documents() -> dict[str, int]:
    """Stored documents, each checked to have all its pages, nodes and chunks."""
    out = {}
    with session_scope() as session:
        for doc in session.scalars(select(Document)):
            pages = session.scalar(select(func.count()).where(Page.document_id == doc.id))
            nodes = session.scalar(select(func.count()).where(Node.document_id == doc.id))
            chunks = session.scalar(select(func.count()).where(Chunk.document_id == doc.id))
            assert pages == doc.page_count, doc.name
            assert nodes and chunks, doc.name
            out[doc.name] = doc.page_count
    return out


def test_failure_while_storing_leaves_nothing_of_that_document(
    samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_store = store.store_document

    def failing_store(**kwargs: object) -> int:
        real_store(**kwargs)  # type: ignore[arg-type]  # pages, nodes, chunks written...
        if kwargs["doc"].name == "AMCOR_2023Q2_10Q":  # type: ignore[attr-defined]
            raise RuntimeError("disk full")  # ...then the transaction fails
        return 0

    monkeypatch.setattr(store, "store_document", failing_store)
    report = pipeline.ingest_paths(
        db=env_db(), paths=[samples], embedder=HashEmbedder(), parallel=False
    )
    failed = [f for f in report.files if f.status == "failed"]
    assert [f.name for f in failed] == ["AMCOR_2023Q2_10Q"]
    assert failed[0].error == "RuntimeError: disk full"
    stored = _complete_documents()
    assert "AMCOR_2023Q2_10Q" not in stored
    assert len(stored) == len(list(samples.iterdir())) - 1


def test_embedder_returning_wrong_rows_fails_the_file_not_the_batch(
    small_pdf: Path, samples: Path
) -> None:
    class Broken(HashEmbedder):
        def embed(self, texts: object) -> np.ndarray:
            return np.zeros((1, 384), dtype=np.float32)

    report = pipeline.ingest_paths(
        db=env_db(), paths=[small_pdf], embedder=Broken(), parallel=False
    )
    assert report.failed == 1
    assert _complete_documents() == {}


def test_kill_9_mid_run_then_rerun_finishes(samples: Path, database_url: str) -> None:
    env = {**os.environ, "PI_EMBEDDER": "hash", "PI_DATABASE_URL": database_url}
    proc = subprocess.Popen(
        [sys.executable, "-m", "pageindex_platform.cli.main", "ingest", str(samples)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        text=True,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if line.startswith("stored") or not line:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    proc.stdout.close()
    before = _complete_documents()  # whatever is there is whole
    assert len(before) >= 1
    report = run_json("ingest", str(samples))
    statuses = {f["name"]: f["status"] for f in report["files"]}
    assert all(statuses[name] == "skipped" for name in before)
    after = _complete_documents()
    assert sorted(after) == sorted(p.stem for p in samples.iterdir())
