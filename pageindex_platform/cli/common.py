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
from ..settings import Mode, Settings, redact_url

if TYPE_CHECKING:
    from ..api import Corpus

P = ParamSpec("P")
JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON (a stable shape, see README).")]
DocName = Annotated[str, typer.Argument(help="Document name (the file stem).")]
ModeFlag = Annotated[
    Mode | None, typer.Option("--mode", help="local (default without PI_LLM_MODEL) or llm.")
]
R = TypeVar("R")

# The filters of a question, and of the documents listed: the same in every command.
DocFilter = Annotated[
    list[str] | None,
    typer.Option("--doc", metavar="NAME", help="Only this stored document (repeat for several)."),
]
CompanyFilter = Annotated[
    str | None,
    typer.Option(help='Only filings of this company ("Nike", "NKE", as in a question).'),
]
YearFilter = Annotated[int | None, typer.Option(help="Only filings of this fiscal year.")]
TypeFilter = Annotated[
    str | None,
    typer.Option("--type", help="Only this filing type: 10-K, 10-Q, 8-K, earnings release."),
]
PeriodFilter = Annotated[
    str | None, typer.Option(help="Only filings of this fiscal period: FY, Q1-Q4.")
]


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
        except BrokenPipeError:  # what read the output went away (`pi ... | head`): quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(141)  # as a process killed by SIGPIPE
        except Exception as exc:  # a bug: still one line
            if os.environ.get("PI_RAISE_ERRORS"):
                raise
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
def open_corpus(mode: Mode | None = None, *, say_mode: bool = False) -> Iterator[Corpus]:
    """The environment's corpus (PI_HOME or PI_DATABASE_URL, the other PI_* settings), with
    `mode` for its questions; with `say_mode`, which mode runs is said on stderr first."""
    from ..api import Corpus

    with Corpus.open(mode=mode) as corpus:
        if say_mode:
            typer.echo(f"mode: {describe_mode(corpus.settings, corpus.mode)}", err=True)
        yield corpus


def describe_mode(settings: Settings, mode: Mode) -> str:
    """ "llm (model at url)" or "local", the URL's secrets masked."""
    if mode == Mode.LLM:
        if not settings.llm_model:
            return "llm (no PI_LLM_MODEL set)"
        where = redact_url(settings.llm_base_url) if settings.llm_base_url else "the OpenAI API"
        return f"llm ({settings.llm_model} at {where})"
    return "local" + ("" if settings.llm_model else " (no PI_LLM_MODEL set)")
