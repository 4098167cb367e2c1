"""What every command shares: one-line errors, JSON printing, the debug switch."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, ParamSpec, TypeVar

import typer

from ..errors import PageIndexError
from ..settings import Mode, get_settings, redact_url

if TYPE_CHECKING:
    from ..llm import StructuredChat

P = ParamSpec("P")
JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON (a stable shape, see README).")]
DocName = Annotated[str, typer.Argument(help="Document name (the file stem).")]
ModeFlag = Annotated[
    Mode | None, typer.Option("--mode", help="local (default without PI_LLM_MODEL) or llm.")
]
R = TypeVar("R")


def print_json(value: Any) -> None:
    typer.echo(json.dumps(value, indent=2, ensure_ascii=False, default=str))


def handle_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn errors into one line on stderr — and, when the command was given --json, a JSON
    error object on stdout — and exit with the error's code (PI_RAISE_ERRORS=1 re-raises):
    ours with their message, anything else (a bug) named as unexpected; never a traceback."""

    @wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        as_json = bool(kwargs.get("as_json"))
        try:
            return func(*args, **kwargs)
        except PageIndexError as exc:
            if os.environ.get("PI_RAISE_ERRORS"):
                raise
            _fail(type(exc).__name__, str(exc), exc.exit_code, as_json)
        except (typer.Exit, typer.Abort, SystemExit):
            raise
        except Exception as exc:  # the database failing, a bug: still one line
            if os.environ.get("PI_RAISE_ERRORS"):
                raise
            from sqlalchemy.exc import DBAPIError

            if isinstance(exc, DBAPIError):
                from ..db import explain_failure

                _fail("DatabaseError", explain_failure(exc), 1, as_json)
            problem = str(exc).splitlines()[0][:300] if str(exc) else ""
            message = (
                f"unexpected {type(exc).__name__}: {problem} "
                "(PI_RAISE_ERRORS=1 shows the traceback)"
            )
            _fail(type(exc).__name__, message, 1, as_json)
        except KeyboardInterrupt:
            typer.echo(
                "Interrupted: documents already stored are complete; "
                "run the command again to finish the rest.",
                err=True,
            )
            sys.exit(130)

    return wrapper


def _fail(kind: str, message: str, code: int, as_json: bool) -> NoReturn:
    if as_json:
        print_json({"error": {"type": kind, "message": message, "exit_code": code}})
    typer.echo(f"Error: {message}", err=True)
    raise typer.Exit(code)


@contextmanager
def open_mode(mode: Mode | None) -> Iterator[StructuredChat | None]:
    """The chat model for llm mode (None for local), after saying on stderr which mode runs;
    closed (its event loop and HTTP connections) when the block ends."""
    from ..llm.openai_compatible import chat_for

    settings = get_settings()
    with chat_for(mode) as chat:
        if chat is not None:
            where = redact_url(settings.llm_base_url) if settings.llm_base_url else "the OpenAI API"
            typer.echo(f"mode: llm ({chat.model} at {where})", err=True)
        else:
            reason = "" if settings.llm_model else " (no PI_LLM_MODEL set)"
            typer.echo(f"mode: local{reason}", err=True)
        yield chat
