"""What every command shares: one-line errors, JSON printing, the debug switch."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import TYPE_CHECKING, Annotated, Any, ParamSpec, TypeVar

import typer

from pageindex_platform.errors import PageIndexError
from pageindex_platform.settings import Mode, get_settings, redact_url

if TYPE_CHECKING:
    from pageindex_platform.llm import StructuredChat

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
    """Turn errors into one line on stderr and exit 1 (PI_RAISE_ERRORS=1 re-raises): ours with
    their message, anything else (a bug) named as unexpected — never a traceback."""

    @wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except PageIndexError as exc:
            if os.environ.get("PI_RAISE_ERRORS"):
                raise
            typer.echo(f"Error: {exc}", err=True)
            raise typer.Exit(1) from None
        except (typer.Exit, typer.Abort, SystemExit):
            raise
        except Exception as exc:  # a bug or an unforeseen failure: still one line
            if os.environ.get("PI_RAISE_ERRORS"):
                raise
            problem = str(exc).splitlines()[0][:300] if str(exc) else ""
            typer.echo(f"Error: unexpected {type(exc).__name__}: {problem} "
                       "(PI_RAISE_ERRORS=1 shows the traceback)", err=True)  # fmt: skip
            raise typer.Exit(1) from None
        except KeyboardInterrupt:
            typer.echo(
                "Interrupted: documents already stored are complete; "
                "run the command again to finish the rest.",
                err=True,
            )
            sys.exit(130)

    return wrapper


@contextmanager
def open_mode(mode: Mode | None) -> Iterator[StructuredChat | None]:
    """The chat model for llm mode (None for local), after saying on stderr which mode runs;
    closed (its event loop and HTTP connections) when the block ends."""
    from pageindex_platform.llm import open_chat

    settings = get_settings()
    mode = mode or settings.default_mode
    if mode == Mode.LLM:
        with open_chat(settings) as chat:
            where = redact_url(settings.llm_base_url) if settings.llm_base_url else "the OpenAI API"
            typer.echo(f"mode: llm ({chat.model} at {where})", err=True)
            yield chat
        return
    reason = "" if settings.llm_model else " (no PI_LLM_MODEL set)"
    typer.echo(f"mode: local{reason}", err=True)
    yield None
