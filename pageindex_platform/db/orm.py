"""The SQLAlchemy ORM session that writes documents (`Database.session()`): it also runs the
query functions' `Sql` statements (`sql.py`), as its own text clauses. Imported only where
the ORM is used, never on the question path."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from .sql import Sql


def _statement(statement: Any) -> Any:
    return statement.__clause_element__() if isinstance(statement, Sql) else statement


class OrmSession(Session):
    """A SQLAlchemy `Session` that takes a `Sql` statement wherever it takes a statement."""

    def execute(self, statement: Any, *args: Any, **kwargs: Any) -> Any:
        return super().execute(_statement(statement), *args, **kwargs)

    def scalar(self, statement: Any, *args: Any, **kwargs: Any) -> Any:
        return super().scalar(_statement(statement), *args, **kwargs)

    def scalars(self, statement: Any, *args: Any, **kwargs: Any) -> Any:
        return super().scalars(_statement(statement), *args, **kwargs)
