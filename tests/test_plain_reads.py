"""Reading the corpus without SQLAlchemy: the plain session (db/sql.py) runs the statements
the query functions write, as the ORM session runs them, and a question asked in a fresh
process imports neither SQLAlchemy nor a settings framework."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from pageindex_platform.db import sql
from pageindex_platform.db.sql import Sql, text
from pageindex_platform.errors import DatabaseError

from .helpers import env_db

# What a local-mode question never uses: SQLAlchemy and Alembic (ingest writes through
# them), the settings framework, the SQL parser and the model client of llm mode.
NOT_FOR_A_QUESTION = ("sqlalchemy", "alembic", "pydantic_settings", "pglast", "openai")


def test_a_statements_parameters_casts_and_percent_signs_read_as_sqlalchemy_reads_them() -> None:
    statement = text(
        "SELECT CAST(:a AS text) AS a, '12:30'::text AS clock, 'x%' AS pct, "
        "'to\\:day' AS escaped, :b + 1 AS b"
    )
    assert statement.driver_text == (
        "SELECT CAST(%(a)s AS text) AS a, '12:30'::text AS clock, 'x%%' AS pct, "
        "'to:day' AS escaped, %(b)s + 1 AS b"
    )
    db = env_db()
    with db.reader() as plain, db.session() as orm:
        params = {"a": "one", "b": 41}
        assert plain.execute(statement, params).all() == [("one", "12:30", "x%", "to:day", 42)]
        assert [tuple(r) for r in orm.execute(statement, params)] == [
            ("one", "12:30", "x%", "to:day", 42)
        ]


def test_a_colon_inside_a_word_is_no_parameter() -> None:
    statement = text("SELECT 'see :ab: here' AS said, CAST(:n AS int) AS n")
    with env_db().reader() as session:
        assert session.execute(statement, {"n": 4}).all() == [("see :ab: here", 4)]


def test_columns_named_like_tuple_methods_are_read_by_name() -> None:
    with env_db().reader() as session:
        row = session.execute(text("SELECT 3 AS count, 4 AS index, 1 AS a, 2 AS a")).one()
        assert (row.count, row.index, row.a) == (3, 4, 2)  # a repeated name: its last column


def test_rows_fetched_one_by_one_end_with_none() -> None:
    with env_db().reader() as session:
        rows = session.execute(text("SELECT n FROM generate_series(1, 3) AS s(n)"))
        fetched = []
        while (row := rows.fetchone()) is not None:
            fetched.append(row.n)
        assert fetched == [1, 2, 3] and rows.fetchall() == []


def test_rows_read_by_position_by_name_and_as_mappings() -> None:
    with env_db().reader() as session:
        rows = session.execute(
            text("SELECT n, n * 2 AS twice, 'a' AS n FROM generate_series(1, 3) AS s(n)")
        )
        first = rows.first()
        assert first[0] == 1 and first.twice == 2 and first.n == "a"
        assert [r.twice for r in rows] == [2, 4, 6]
        assert rows.scalars().all() == [1, 2, 3]
        assert rows.mappings().first() == {"n": "a", "twice": 2}
        assert session.execute(text("SELECT 1 WHERE false")).scalar() is None
        with pytest.raises(DatabaseError, match="one row was expected, 3 came back"):
            rows.one()
        with pytest.raises(AttributeError):
            _ = first.missing


def test_a_failed_savepoint_undoes_its_own_statements_and_the_rest_commits() -> None:
    db = env_db()
    with db.reader() as session:
        session.execute(text("CREATE TEMP TABLE kept (n int) ON COMMIT PRESERVE ROWS"))
        session.execute(text("INSERT INTO kept VALUES (1)"))
        with pytest.raises(psycopg.errors.DivisionByZero), session.begin_nested():
            session.execute(text("INSERT INTO kept VALUES (2)"))
            session.execute(text("SELECT 1 / 0"))
        assert session.execute(text("SELECT array_agg(n) FROM kept")).scalar() == [1]


def test_a_reading_error_rolls_back_and_the_next_reader_works() -> None:
    db = env_db()
    with pytest.raises(psycopg.errors.UndefinedTable), db.reader() as session:
        session.execute(text("SELECT * FROM no_such_table"))
    with db.reader() as session:
        assert session.execute(text("SELECT count(*) FROM documents")).scalar() == 0


def test_a_pooled_connection_the_server_dropped_is_replaced() -> None:
    db = env_db()
    with db.reader() as session:
        pid = session.execute(text("SELECT pg_backend_pid()")).scalar()
    with db.session() as orm:  # the server ends the idle pooled connection
        orm.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid})
    with db.reader() as session:
        assert session.execute(text("SELECT pg_backend_pid()")).scalar() != pid


_BACKENDS = text(
    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
    "AND backend_type = 'client backend' AND pid <> pg_backend_pid()"
)


class _Counter:
    """Counts the database's client connections through one connection of its own, kept
    open: a counting connection opened per count would linger a moment after closing and be
    counted by the next."""

    def __init__(self) -> None:
        self._conn = psycopg.connect(os.environ["PI_DATABASE_URL"], autocommit=True)

    def __call__(self) -> int:
        row = self._conn.execute(_BACKENDS.driver_text).fetchone()
        return int(row[0]) if row else 0

    def settles_at(self, count: int, before: int) -> bool:
        """Whether the connections beyond `before` come to `count` (a closed one's server
        process takes a moment to end)."""
        deadline = time.monotonic() + 5
        while self() - before != count:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)
        return True

    def settled(self) -> int:
        """The count once it holds for a tenth of a second (an earlier test's connection may
        still be ending)."""
        count = self()
        for _ in range(50):
            time.sleep(0.1)
            count, last = self(), count
            if count == last:
                break
        return count

    def close(self) -> None:
        self._conn.close()


@pytest.fixture
def backends() -> Iterator[_Counter]:
    counter = _Counter()
    yield counter
    counter.close()


def test_many_threads_reading_at_once_share_a_bounded_pool(
    monkeypatch: pytest.MonkeyPatch, backends: _Counter
) -> None:
    """The web page and the MCP server read from many threads: at most MOST_CONNECTIONS are
    open at once (the others wait), KEPT_CONNECTIONS stay open after, none after closing."""
    monkeypatch.setattr(sql, "MOST_CONNECTIONS", 4)
    monkeypatch.setattr(sql, "KEPT_CONNECTIONS", 2)
    db = env_db()
    db.dispose()
    before = backends.settled()
    errors: list[BaseException] = []

    def read() -> None:
        try:
            with db.reader() as session:
                session.execute(text("SELECT pg_sleep(0.2)"))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=read) for _ in range(12)]
    for thread in threads:
        thread.start()
    seen = []
    while any(thread.is_alive() for thread in threads):
        seen.append(backends() - before)
    for thread in threads:
        thread.join()
    assert not errors
    assert max(seen) == 4  # twelve readers, four connections
    assert backends.settles_at(2, before)
    db.dispose()
    assert backends.settles_at(0, before)


def test_a_connection_in_use_when_the_pool_closes_is_closed_when_it_comes_back(
    backends: _Counter,
) -> None:
    db = env_db()
    db.dispose()
    before = backends.settled()
    with db.reader() as session:
        session.execute(text("SELECT 1"))
        db.dispose()
    assert backends.settles_at(0, before)
    with db.reader() as session:  # the database is read again, on a new connection
        assert session.execute(text("SELECT 2")).scalar() == 2


def test_statements_are_sql_values_not_strings() -> None:
    assert isinstance(text("SELECT 1"), Sql) and "SELECT 1" in repr(text("SELECT 1"))


def _in_a_fresh_process(work: str, shown: str, watched: tuple[str, ...]) -> tuple[str, str]:
    """Run `work` with a corpus open (`corpus`) in a new Python process: what `shown` prints
    of its result, and which of the `watched` modules it imported ("-": none)."""
    probe = (
        "import sys\n"
        "from pageindex_platform import Corpus\n"
        "with Corpus.open() as corpus:\n"
        f"    result = {work}\n"
        f"print({shown})\n"
        f"print(' '.join(m for m in {watched!r} if m in sys.modules) or '-')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=dict(os.environ)
    )
    assert done.returncode == 0, done.stderr[-2000:]
    first, imported = done.stdout.split("\n")[:2]
    return first, imported


def test_a_question_in_a_fresh_process_imports_neither_sqlalchemy_nor_settings_frameworks(
    corpus: Path,
) -> None:
    cited, imported = _in_a_fresh_process(
        "corpus.ask('Best Buy Q2 FY2024 comparable sales')",
        "len(result.citations) > 0",
        NOT_FOR_A_QUESTION,
    )
    assert cited == "True"
    assert imported == "-", f"imported to answer a question: {imported}"


# What building a document needs: a batch whose files are all stored loads none of it.
NOT_FOR_A_STORED_BATCH = ("pymupdf", "numpy", "sqlalchemy.orm", "onnxruntime")


def test_ingesting_a_folder_already_stored_loads_nothing_that_builds_documents(
    corpus: Path,
) -> None:
    statuses, imported = _in_a_fresh_process(
        f"corpus.ingest([{str(corpus)!r}])",
        "sorted({f.status.value for f in result.files})",
        NOT_FOR_A_STORED_BATCH,
    )
    assert statuses == "['skipped']"
    assert imported == "-", f"loaded to skip a stored batch: {imported}"


def test_files_stored_by_another_process_while_waiting_for_a_seat_are_skipped(
    corpus: Path,
) -> None:
    """A process plans its batch, then waits for an ingest seat while another stores the same
    files: with the seat, it skips them as unchanged and builds nothing."""
    from pageindex_platform.index.batch_state import Batch
    from pageindex_platform.index.claims import Claims
    from pageindex_platform.index.pipeline import _not_stored_meanwhile
    from pageindex_platform.index.report import IngestReport, SkipReason

    db = env_db()
    batch = Batch(db, Claims(db), IngestReport(), None)
    files = sorted(p for p in corpus.iterdir() if p.is_file())
    changed = files[0]
    changed.write_bytes(changed.read_bytes() + b"\n")  # this one is not the stored file
    assert _not_stored_meanwhile(files, batch) == [changed]
    assert [r.skip for r in batch.report.files] == [SkipReason.UNCHANGED] * (len(files) - 1)


def test_a_database_gone_while_waiting_for_a_seat_leaves_the_files_to_the_building(
    corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check for files stored meanwhile is only a shortcut: when the database went away
    during the wait, every file goes on to the building, which reconnects (or reports the
    batch stopped) as for any file, instead of the ingest failing with no report."""
    from contextlib import contextmanager

    from pageindex_platform.index.batch_state import Batch
    from pageindex_platform.index.claims import Claims
    from pageindex_platform.index.pipeline import _not_stored_meanwhile
    from pageindex_platform.index.report import IngestReport

    db = env_db()

    @contextmanager
    def gone():  # type: ignore[no-untyped-def]
        raise psycopg.OperationalError("connection is bad: no such file or directory")
        yield

    monkeypatch.setattr(db, "reader", gone)
    batch = Batch(db, Claims(db), IngestReport(), None)
    files = sorted(p for p in corpus.iterdir() if p.is_file())
    assert _not_stored_meanwhile(files, batch) == files
    assert batch.report.files == []
