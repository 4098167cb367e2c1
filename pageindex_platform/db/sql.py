"""Statements and the plain session: what reading the corpus needs, without SQLAlchemy.

A question's process reads the corpus through a `PlainSession`, one psycopg connection in a
transaction, so a fresh `pi ask` does not import SQLAlchemy (a third of its start). Ingest
keeps SQLAlchemy's ORM session (`orm.py`). Both run the same statements: `text("... :name
...")` is a `Sql` that a plain session sends with psycopg's placeholders and the ORM session
as its own text clause, and every query function is written against `Session`, the part of
a session both provide.

    with db.reader() as session:                      # a PlainSession
        session.execute(text("SELECT name FROM documents WHERE id = :d"), {"d": 7}).scalar()
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any, ClassVar, Protocol

import psycopg

from ..errors import DatabaseError

# A `:name` parameter and an escaped `\:name`, as SQLAlchemy's text() finds them (not a
# `::type` cast, nor a colon inside a word).
_PARAMETER = re.compile(r"(?<![:\w\\]):(\w+)(?![:\w])")
_ESCAPED = re.compile(r"\\(:\w*)(?![:\w])")


class Sql:
    """A statement with `:name` parameters."""

    __slots__ = ("_driver", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._driver: str | None = None

    @property
    def driver_text(self) -> str:
        """The statement with psycopg's placeholders: `%(name)s` for `:name`, `%%` for a
        literal `%`, `:` for an escaped `\\:`."""
        if self._driver is None:
            escaped = self.text.replace("%", "%%")
            self._driver = _ESCAPED.sub(r"\1", _PARAMETER.sub(r"%(\1)s", escaped))
        return self._driver

    def __clause_element__(self) -> Any:
        """The statement as SQLAlchemy runs it (its text clause; `orm.OrmSession`)."""
        from sqlalchemy import text as sqlalchemy_text

        return sqlalchemy_text(self.text)

    def __repr__(self) -> str:
        return f"Sql({self.text!r})"


def text(statement: str) -> Sql:
    """A statement with `:name` parameters, for any `Session`."""
    return Sql(statement)


class Session(Protocol):
    """What query functions use of a session: a SQLAlchemy `Session` or a `PlainSession`."""

    def execute(self, statement: Any, params: Any = None) -> Any: ...

    def begin_nested(self) -> Any: ...

    def get_bind(self) -> Any: ...

    @property
    def info(self) -> dict[Any, Any]:
        """What the session's readers remember for its duration."""
        ...


class Row(tuple[Any, ...]):
    """A result row: a tuple whose columns are also attributes (`row.name`)."""

    __slots__ = ()
    _index: ClassVar[dict[str, int]] = {}

    def __getattr__(self, name: str) -> Any:
        try:
            return self[self._index[name]]
        except KeyError:
            raise AttributeError(name) from None

    @property
    def _mapping(self) -> dict[str, Any]:
        return {name: self[i] for name, i in self._index.items()}


_ROW_TYPES: dict[tuple[str, ...], type[Row]] = {}


def _column(i: int) -> property:
    def read(row: Row) -> Any:
        return row[i]

    return property(read)


def _row_type(names: tuple[str, ...]) -> type[Row]:
    found = _ROW_TYPES.get(names)
    if found is None:
        index = {name: i for i, name in enumerate(names)}  # a repeated name: its last column's
        members: dict[str, Any] = {"__slots__": (), "_index": index}
        for name in ("count", "index"):  # columns so named, not the tuple's methods
            if name in index:
                members[name] = _column(index[name])
        found = _ROW_TYPES[names] = type("Row", (Row,), members)
    return found


class Values(Sequence[Any]):
    """Rows, or one column's values, or rows as mappings: iterate, or take `all()`,
    `first()`, `one()`, `one_or_none()`."""

    def __init__(self, items: list[Any]) -> None:
        self._items = items

    def __getitem__(self, i: Any) -> Any:
        return self._items[i]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._items)

    def all(self) -> list[Any]:
        return list(self._items)

    def first(self) -> Any:
        return self._items[0] if self._items else None

    def one_or_none(self) -> Any:
        if len(self._items) > 1:
            raise DatabaseError(f"one row was expected, {len(self._items)} came back")
        return self.first()

    def one(self) -> Any:
        if not self._items:
            raise DatabaseError("one row was expected, none came back")
        return self.one_or_none()


class Rows(Values):
    """What a statement returned (its rows, read at once) and how many rows it changed."""

    def __init__(self, items: list[Row], rowcount: int) -> None:
        super().__init__(items)
        self.rowcount = rowcount
        self._fetched = 0

    def fetchall(self) -> list[Any]:
        """The rows not fetched yet."""
        rest = self._items[self._fetched :]
        self._fetched = len(self._items)
        return rest

    def fetchone(self) -> Any:
        """The next row (None after the last)."""
        if self._fetched >= len(self._items):
            return None
        self._fetched += 1
        return self._items[self._fetched - 1]

    def scalars(self) -> Values:
        return Values([row[0] for row in self._items])

    def scalar(self) -> Any:
        return self._items[0][0] if self._items else None

    def scalar_one(self) -> Any:
        return self.scalars().one()

    def scalar_one_or_none(self) -> Any:
        return self.scalars().one_or_none()

    def mappings(self) -> Values:
        return Values([row._mapping for row in self._items])


class PlainSession:
    """One psycopg connection inside a transaction (`Database.reader()` commits it on
    success and rolls it back on any error)."""

    def __init__(self, connection: psycopg.Connection[Any], bind: Any = None) -> None:
        self.connection = connection
        self._bind = bind
        self.info: dict[Any, Any] = {}

    def execute(self, statement: Sql | str, params: Mapping[str, Any] | None = None) -> Rows:
        query = statement if isinstance(statement, Sql) else Sql(statement)
        with self.connection.cursor() as cursor:
            cursor.execute(query.driver_text, params or {})
            names = tuple(c.name for c in cursor.description or ())
            kind = _row_type(names)
            rows = [kind(r) for r in cursor.fetchall()] if cursor.description else []
            return Rows(rows, cursor.rowcount)

    def begin_nested(self) -> AbstractContextManager[Any]:
        """A savepoint: its block's statements are undone alone when it raises."""
        return self.connection.transaction()

    def get_bind(self) -> Any:
        """The SQLAlchemy engine of the same database (llm mode's Query-to-SQL runs there)."""
        return self._bind() if callable(self._bind) else self._bind


# The pool of a corpus's reading connections: how many stay open between reads, how many may
# be open at once (the threads of the web page and the MCP server beyond them wait), and how
# long a read waits for one — SQLAlchemy's defaults, which the pool replaced.
KEPT_CONNECTIONS = 5
MOST_CONNECTIONS = 15
CONNECTION_WAIT_SECONDS = 30.0


class Connections:
    """A small pool of psycopg connections to one database, shared by the threads of a door
    (the web page, the MCP server): at most MOST_CONNECTIONS open, KEPT_CONNECTIONS of them
    kept between reads; a connection that broke is dropped, not reused, and one in use when
    the pool is closed is closed when it comes back."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._idle: list[psycopg.Connection[Any]] = []
        self._open = 0  # idle and in use
        self._generation = 0  # closing the pool starts a new one
        self._free = threading.Condition()

    def _connect(self) -> psycopg.Connection[Any]:
        # No server-side prepared statements, as the SQLAlchemy engine (engine.py).
        return psycopg.connect(self.url, prepare_threshold=None)

    def _take(self) -> tuple[psycopg.Connection[Any], int]:
        deadline = time.monotonic() + CONNECTION_WAIT_SECONDS
        with self._free:
            while not self._idle and self._open >= MOST_CONNECTIONS:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise DatabaseError(
                        f"all {MOST_CONNECTIONS} database connections of this process stayed "
                        f"busy for {CONNECTION_WAIT_SECONDS:.0f} s; try again"
                    )
                self._free.wait(left)
            pooled = self._idle.pop() if self._idle else None
            if pooled is None:
                self._open += 1
            generation = self._generation
        try:
            if pooled is not None and _alive(pooled):
                return pooled, generation
            if pooled is not None:
                pooled.close()
            return self._connect(), generation
        except BaseException:
            self._dropped()
            raise

    def _dropped(self) -> None:
        with self._free:
            self._open -= 1
            self._free.notify()

    def _give(self, conn: psycopg.Connection[Any], generation: int) -> None:
        with self._free:
            keep = (
                not (conn.closed or conn.broken)
                and generation == self._generation
                and len(self._idle) < KEPT_CONNECTIONS
            )
            if keep:
                self._idle.append(conn)
                self._free.notify()
        if not keep:
            conn.close()
            self._dropped()

    @contextmanager
    def session(self, bind: Any = None) -> Iterator[PlainSession]:
        conn, generation = self._take()
        try:
            yield PlainSession(conn, bind)
            conn.commit()
        except BaseException:
            if not (conn.closed or conn.broken):
                conn.rollback()
            raise
        finally:
            self._give(conn, generation)

    def close(self) -> None:
        """Close the idle connections; those in use are closed when they come back."""
        with self._free:
            idle, self._idle = self._idle, []
            self._open -= len(idle)
            self._generation += 1
            self._free.notify_all()
        for conn in idle:
            conn.close()


def _alive(conn: psycopg.Connection[Any]) -> bool:
    """Whether a pooled connection still reaches its server (a server restarted since
    drops them), as SQLAlchemy's pre-ping checks."""
    if conn.closed or conn.broken:
        return False
    try:
        conn.execute("SELECT 1")
        conn.rollback()
        return True
    except psycopg.Error:
        return False


def driver_error(exc: BaseException) -> psycopg.Error | None:
    """The database driver's error behind `exc` (a SQLAlchemy error wraps it as `orig`), or
    None when `exc` is no database error."""
    if isinstance(exc, psycopg.Error):
        return exc
    orig = getattr(exc, "orig", None)
    return orig if isinstance(orig, psycopg.Error) else None
