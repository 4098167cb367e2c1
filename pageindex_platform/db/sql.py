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
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any, ClassVar, Protocol

import psycopg

from ..errors import DatabaseError

# A `:name` parameter, as SQLAlchemy's text() finds them: not a `::type` cast, not escaped.
_PARAMETER = re.compile(r"(?<![:\w\\]):(\w+)(?!:)")


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
            self._driver = _PARAMETER.sub(r"%(\1)s", escaped).replace("\\:", ":")
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


def _row_type(names: tuple[str, ...]) -> type[Row]:
    found = _ROW_TYPES.get(names)
    if found is None:
        index: dict[str, int] = {}
        for i, name in enumerate(names):
            index.setdefault(name, i)  # a repeated name is its first column's, as SQLAlchemy
        found = _ROW_TYPES[names] = type("Row", (Row,), {"__slots__": (), "_index": index})
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

    def __init__(self, items: list[Row], names: tuple[str, ...], rowcount: int) -> None:
        super().__init__(items)
        self.names = names
        self.rowcount = rowcount

    def fetchall(self) -> list[Any]:
        return self.all()

    def fetchone(self) -> Any:
        return self.first()

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
            return Rows(rows, names, cursor.rowcount)

    def begin_nested(self) -> AbstractContextManager[Any]:
        """A savepoint: its block's statements are undone alone when it raises."""
        return self.connection.transaction()

    def get_bind(self) -> Any:
        """The SQLAlchemy engine of the same database (llm mode's Query-to-SQL runs there)."""
        return self._bind() if callable(self._bind) else self._bind


class Connections:
    """A small pool of psycopg connections to one database, shared by the threads of a
    door (the web page, the MCP server); a connection that broke is dropped, not reused."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._idle: list[psycopg.Connection[Any]] = []
        self._lock = threading.Lock()

    def _take(self) -> psycopg.Connection[Any]:
        while True:
            with self._lock:
                conn = self._idle.pop() if self._idle else None
            if conn is None:
                # No server-side prepared statements, as the SQLAlchemy engine (engine.py).
                return psycopg.connect(self.url, prepare_threshold=None)
            if _alive(conn):
                return conn
            conn.close()

    def _give(self, conn: psycopg.Connection[Any]) -> None:
        if conn.closed or conn.broken:
            return
        with self._lock:
            self._idle.append(conn)

    @contextmanager
    def session(self, bind: Any = None) -> Iterator[PlainSession]:
        conn = self._take()
        try:
            yield PlainSession(conn, bind)
            conn.commit()
        except BaseException:
            if not (conn.closed or conn.broken):
                conn.rollback()
            raise
        finally:
            self._give(conn)

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
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
