"""The API's boundary (`Corpus` methods): a closed corpus is refused, arguments of the wrong
type or holding a NUL character are the package's InputError (never a TypeError from deep
inside, nor a database error about a NUL byte), and a database failure becomes a
DatabaseError in words a user can act on — once, here, for every door."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from functools import wraps
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

from .db.engine import Database
from .db.sql import driver_error
from .errors import CorpusClosedError, DatabaseError, InputError


class Opened(Protocol):
    """What the boundary reads of a corpus: whether it is closed, and its database."""

    _closed: bool
    _db: Database


P = ParamSpec("P")
R = TypeVar("R")
S = TypeVar("S", bound=Opened)

# The text arguments of the API's methods, as a message names them.
_TEXT = {
    "question": "the question",
    "name": "the document name",
    "hint": "the hint",
    "company": "the company",
    "doc_type": "the filing type",
    "period": "the period",
}
_NAMES = ("documents", "names", "paths")  # a text, or a list of texts
_NUMBERS = {"year": "the fiscal year", "number": "the page", "first": "the first page",
            "last": "the last page", "limit": "the limit", "offset": "the offset",
            "depth": "the depth", "max_chars": "max_chars", "workers": "workers"}  # fmt: skip


def guarded(method: Callable[Concatenate[S, P], R]) -> Callable[Concatenate[S, P], R]:
    """A method of an open corpus, its arguments checked, its database failures in words."""
    signature = inspect.signature(method)

    @wraps(method)
    def run(self: S, /, *args: P.args, **kwargs: P.kwargs) -> R:
        if self._closed:
            raise CorpusClosedError(
                f"this corpus ({self._db.location}) is closed: open it again with Corpus.open()"
            )
        try:
            bound = signature.bind(self, *args, **kwargs)
        except TypeError as exc:
            raise InputError(method.__name__, str(exc)) from None
        for key, value in bound.arguments.items():
            _check(key, value)
        try:
            return method(self, *args, **kwargs)
        except Exception as exc:
            if driver_error(exc) is None:
                raise
            raise DatabaseError(self._db.explain(exc)) from exc

    return run


_REQUIRED = ("question", "name")  # never None


def _check(key: str, value: Any) -> None:
    if key in _TEXT and (value is not None or key in _REQUIRED):
        _text(value, _TEXT[key])
    elif key in _NAMES and value is not None and not isinstance(value, str):
        if not isinstance(value, Sequence) and not _is_path(value):
            raise InputError(key, f"must be a text or a list of texts, not {type(value).__name__}")
        for item in value if isinstance(value, Sequence) else [value]:
            if not _is_path(item):
                _text(item, f"an item of {key}")
    elif key in _NAMES and isinstance(value, str):
        _text(value, key)
    elif key in _NUMBERS and (isinstance(value, bool) or not isinstance(value, int | None)):
        raise InputError(_NUMBERS[key], f"must be a whole number, not {type(value).__name__}")


def _is_path(value: Any) -> bool:
    from pathlib import PurePath

    return isinstance(value, PurePath)


def _text(value: Any, what: str) -> None:
    if not isinstance(value, str):
        raise InputError(what, f"must be text, not {type(value).__name__}")
    # a question's control characters are the question parser's to read as spaces (a
    # question of nothing else is a QuestionError); a name never holds one
    if "\x00" in value and what != _TEXT["question"]:
        raise InputError(what, "contains a NUL character (\\x00)")
