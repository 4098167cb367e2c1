"""What every command shares: one-line errors, JSON printing, the debug switch."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Annotated, Any, ParamSpec, TypeVar

import typer

from pageindex_platform.errors import PageIndexError
from pageindex_platform.settings import Mode, get_settings

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
    """Turn our errors into one line on stderr and exit 1 (PI_RAISE_ERRORS=1 re-raises)."""

    @wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except PageIndexError as exc:
            if os.environ.get("PI_RAISE_ERRORS"):
                raise
            typer.echo(f"Error: {exc}", err=True)
            raise typer.Exit(1) from None
        except KeyboardInterrupt:
            typer.echo(
                "Interrupted: documents already stored are complete; "
                "run the command again to finish the rest.",
                err=True,
            )
            sys.exit(130)

    return wrapper


def open_mode(mode: Mode | None) -> StructuredChat | None:
    """The chat model for llm mode (None for local), after saying on stderr which mode runs."""
    from pageindex_platform.llm import open_chat

    settings = get_settings()
    mode = mode or settings.default_mode
    if mode == Mode.LLM:
        chat = open_chat(settings)
        where = settings.llm_base_url or "the OpenAI API"
        typer.echo(f"mode: llm ({chat.model} at {where})", err=True)
        return chat
    reason = "" if settings.llm_model else " (no PI_LLM_MODEL set)"
    typer.echo(f"mode: local{reason}", err=True)
    return None
