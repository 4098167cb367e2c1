"""A corpus's database (`Database`): PI_DATABASE_URL, else the embedded PostgreSQL
(`embedded.py`), each handed its own settings. The schema is created and upgraded only by
Alembic migrations (`migrate.py`), run on first use; database failures are put in words a
user can act on. Reading runs on plain psycopg sessions (`reader()`, `sql.py`); SQLAlchemy
(`session()`, `engine`) is imported only by what writes through its ORM or migrates.
"""

from __future__ import annotations

import logging
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import psycopg

from ..errors import ConfigurationError, DatabaseError
from ..settings import Settings, redact_url
from .embedded import embedded_running, restart_embedded, shared_buffers_mb, start_embedded
from .sql import Connections, PlainSession, driver_error

if TYPE_CHECKING:
    from sqlalchemy import Engine
    from sqlalchemy.orm import sessionmaker

    from .orm import OrmSession

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class DatabaseStatus:
    url: str
    embedded: bool
    running: bool
    data_dir: str | None
    revision: str | None
    documents: int | None
    shared_buffers: str | None = None  # the running server's (SHOW shared_buffers)


def _sqlalchemy_url(url: str) -> str:
    for prefix in ("postgresql://", "postgres://", "postgresql+psycopg://"):
        if url.startswith(prefix):
            _check_port(url)
            return "postgresql+psycopg://" + url[len(prefix) :]
    raise ConfigurationError(
        f"PI_DATABASE_URL must be a PostgreSQL URL such as "
        f"postgresql://user:password@host:5432/dbname (got {redact_url(url)!r}); "
        "unset it to use the embedded database"
    )


def _check_port(url: str) -> None:
    try:
        urlsplit(url).port  # noqa: B018 - raises on a port that is not a number
    except ValueError as exc:
        raise ConfigurationError(
            f"PI_DATABASE_URL has a port that is not a number from 0 to 65535 "
            f"({redact_url(url)!r}): {exc}"
        ) from None


EXTENSIONS = ("vector", "pg_trgm")


def explain_failure(exc: BaseException, settings: Settings) -> str:
    """A database failure in words a user can act on (the driver's message last)."""
    cause = getattr(exc, "orig", None) or exc
    detail = (str(cause).strip().splitlines() or [type(cause).__name__])[0][:240]
    text_ = str(cause).lower()
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
    if isinstance(driver_error(exc), psycopg.OperationalError) or "connection" in text_:
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


# SQLSTATEs of a connection that went away: connection exceptions (class 08) and the server
# shutting down or refusing connections; other operational errors (a program limit such as
# a tsvector over 1 MB, a statement timeout) are a problem of one statement.
_GONE = ("08", "57P01", "57P02", "57P03", "57P04", "57P05")


def connection_lost(exc: BaseException) -> bool:
    """Whether `exc` says the database went away (not a problem of one document)."""
    cause = driver_error(exc)
    if cause is None:
        return False
    if getattr(exc, "connection_invalidated", False):  # SQLAlchemy's word for it
        return True
    state = cause.sqlstate
    return isinstance(cause, psycopg.OperationalError) and (
        state is None or state.startswith(_GONE)
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


def database_gone(exc: BaseException) -> bool:
    """The database cannot be reached or written: no later document could be stored."""
    return connection_lost(exc) or disk_full(exc)


def corpus_location(settings: Settings) -> str:
    """Where the corpus is, in words: the database at PI_DATABASE_URL, or PI_HOME."""
    return "the database at PI_DATABASE_URL" if settings.database_url else str(settings.home)


def database_url(settings: Settings) -> str:
    """The SQLAlchemy URL: PI_DATABASE_URL, else the embedded server (started if needed)."""
    if settings.database_url:
        return _sqlalchemy_url(settings.database_url)
    return _sqlalchemy_url(start_embedded(settings.pgdata, shared_buffers_mb(settings)))


def _new_engine(url: str) -> Engine:
    from sqlalchemy import create_engine

    # No server-side prepared statements: after a statement's fifth run psycopg prepares
    # it, and PostgreSQL may then plan it once for any value. A generic plan for
    # `document_id = ANY(:ids)` ignores how many documents a filter keeps and the vector
    # being searched: one fiscal year's filtered HNSW search at 1M chunks took
    # 493-1,630 ms from the 11th run in a connection, 17-41 ms without (bench/scale.py
    # --steps).
    return create_engine(url, pool_pre_ping=True, connect_args={"prepare_threshold": None})


_migrated: set[str] = set()  # URLs whose schema this process found current


class Database:
    """One corpus's database, given its own settings: its plain reading sessions and its
    SQLAlchemy engine (each made on first use, when the embedded server is started and the
    schema migrated), its sessions, and its failures in words. Nothing here reads or changes
    process-wide settings, so the `Database`s of two corpora live side by side in one
    process."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._engine: Engine | None = None
        self._url: str | None = None
        self._factory: sessionmaker[OrmSession] | None = None
        self._connections: Connections | None = None

    @property
    def url(self) -> str:
        """The SQLAlchemy URL (the embedded server is started to know it)."""
        if self._url is None:
            self._url = database_url(self.settings)
        return self._url

    def connect(self, *, migrate: bool = True) -> Engine:
        """The engine, the schema migrated to the latest revision on first use (unless
        `migrate` is False)."""
        if self._engine is None:
            self._engine = _new_engine(self.url)
            # connections closed when this Database is dropped unclosed, not left to the
            # garbage collector (which warns of each one)
            weakref.finalize(self, self._engine.dispose)
        if migrate and self.url not in _migrated:
            self._migrate()
        return self._engine

    @property
    def engine(self) -> Engine:
        return self.connect()

    def _migrate(self) -> None:
        from .migrate import head_revision, plain_revision, upgrade

        try:
            with self._plain().session() as session:
                current, head = plain_revision(session), head_revision()
            if current != head:
                logger.info("schema %s upgraded to %s", current or "(none)", head)
                upgrade(self.url)
        except Exception as exc:
            if driver_error(exc) is None:
                raise
            raise DatabaseError(self.explain(exc)) from exc
        _migrated.add(self.url)

    def _plain(self) -> Connections:
        if self._connections is None:
            self._connections = Connections(_driver_url(self.url))
            weakref.finalize(self, self._connections.close)
        return self._connections

    @contextmanager
    def session(self) -> Iterator[OrmSession]:
        """A SQLAlchemy ORM session whose transaction commits on success and rolls back on
        any error (what writes documents uses)."""
        if self._factory is None:
            from sqlalchemy.orm import sessionmaker

            from .orm import OrmSession

            self._factory = sessionmaker(
                bind=self.engine, class_=OrmSession, expire_on_commit=False
            )
        with self._factory() as session, session.begin():
            yield session

    @contextmanager
    def reader(self) -> Iterator[PlainSession]:
        """A plain session (psycopg, no SQLAlchemy) whose transaction commits on success and
        rolls back on any error: what questions and the catalog read with."""
        if self.url not in _migrated:
            self._migrate()
        with self._plain().session(bind=lambda: self.engine) as session:
            yield session

    def explain(self, exc: BaseException) -> str:
        """`exc` in words a user can act on (`explain_failure`)."""
        return explain_failure(exc, self.settings)

    @property
    def location(self) -> str:
        return corpus_location(self.settings)

    def reconnect(self, *, wait: float = 10.0) -> bool:
        """After a lost connection: start the embedded server again if it died (an external
        one is not ours to start) and drop the pooled connections. True when the database
        answers within `wait` seconds."""
        deadline = time.monotonic() + wait
        pause = 0.2
        settings = self.settings
        while True:
            try:
                if not settings.database_url and not embedded_running(settings.pgdata):
                    restart_embedded(settings.pgdata, shared_buffers_mb(settings))
                self.dispose()
                with self._plain().session() as session:
                    session.execute("SELECT 1")
                return True
            except (DatabaseError, psycopg.Error):
                if time.monotonic() + pause > deadline:
                    return False
                time.sleep(pause)  # a killed server takes a moment to be gone
                pause = min(pause * 2, 2.0)

    def dispose(self) -> None:
        """Close the pooled connections (they are opened again on next use)."""
        if self._engine is not None:
            self._engine.dispose()
        if self._connections is not None:
            self._connections.close()

    def status(self) -> DatabaseStatus:
        """Which database, whether it runs, its schema revision, documents and buffers."""
        settings = self.settings
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
        from .migrate import plain_revision

        try:
            with self._plain().session() as session:
                revision = plain_revision(session)
                documents = (
                    session.execute("SELECT count(*) FROM documents").scalar_one()
                    if revision
                    else None
                )
                buffers = str(session.execute("SHOW shared_buffers").scalar_one())
        except psycopg.Error as exc:
            raise DatabaseError(self.explain(exc)) from exc
        return DatabaseStatus(
            url=_shown_url(_driver_url(self.url)),
            embedded=embedded,
            running=True,
            data_dir=str(settings.pgdata) if embedded else None,
            revision=revision,
            documents=documents,
            shared_buffers=buffers,
        )

    def upgrade(self) -> str | None:
        """Create or upgrade the schema to the latest migration; the revision it is at."""
        from .migrate import plain_revision

        self.connect()  # migrates on first use
        with self._plain().session() as session:
            return plain_revision(session)


def _shown_url(url: str) -> str:
    """The URL as `pi db status` shows it: the password masked, the rest as it is."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user, _, host = parts.netloc.rpartition("@")
    return parts._replace(netloc=f"{user.partition(':')[0]}:***@{host}").geturl()


def _driver_url(url: str) -> str:
    """The SQLAlchemy URL as libpq (psycopg) takes it."""
    return url.replace("postgresql+psycopg://", "postgresql://", 1)
