"""Helpers for tests: running the CLI, making bad PDFs."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pymupdf
from sqlalchemy.orm import Session
from typer.testing import CliRunner

from pageindex_platform.cli.main import app
from pageindex_platform.db import Database
from pageindex_platform.search.query import Query
from pageindex_platform.search.semantic import ChunkSearch
from pageindex_platform.search.vocabulary import Vocabulary
from pageindex_platform.settings import load_settings

_databases: dict[tuple[str, str | None], Database] = {}


def env_db() -> Database:
    """The database of the corpus the environment points at (the test's), as `pi` opens it;
    one per corpus, its connections closed after each test (`close_env_dbs`)."""
    settings = load_settings()
    key = (str(settings.home), settings.database_url)
    if key not in _databases:
        _databases[key] = Database(settings)
    return _databases[key]


def close_env_dbs() -> None:
    for db in _databases.values():
        db.dispose()
    _databases.clear()


@contextmanager
def session_scope() -> Iterator[Session]:
    """A session of the environment's corpus, committed at the end of the block."""
    with env_db().session() as session:
        yield session


def run_cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def error_lines(err: str) -> list[str]:
    """The lines of a command's stderr that report an error."""
    return [line for line in err.splitlines() if line.startswith("Error")]


def run_json(*args: str) -> Any:
    code, out, err = run_cli(*args, "--json")
    assert code == 0, err
    return json.loads(out)


def stated_value(question: str) -> float:
    """The value of the headline `pi ask` states for `question` (failing, with the answer,
    where it states none)."""
    out = run_json("ask", question)
    assert out["headline"] is not None, out["answer"]
    return float(out["headline"]["value"])


REGISTRANT = "GIZMO WORKS INC."
_REPORTS = {"10-K": "ANNUAL REPORT", "10-Q": "QUARTERLY REPORT"}


def cover(form: str, when: str, *, name: str = REGISTRANT, symbol: str | None = None) -> str:
    """A synthetic periodic filing's cover page, as Markdown: its form, the report it is, its
    period as the cover states it (`when`), the registrant and, with `symbol`, the row of the
    "Trading Symbol(s)" table."""
    text = (
        f"FORM {form}\n\n{_REPORTS[form]} PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES "
        f"EXCHANGE ACT OF 1934\n\n{when}\n\n{name}\n\n(Exact name of registrant as "
        "specified in its charter)\n\n"
    )
    if symbol:
        text += (
            "Title of each class Trading Symbol(s) Name of each exchange on which registered"
            f"\n\nCommon Stock {symbol} New York Stock Exchange\n\n"
        )
    return text


def annual_filing(
    year: int,
    body: str,
    *,
    name: str = REGISTRANT,
    symbol: str | None = None,
    month: str = "December 31",
) -> str:
    """A synthetic 10-K for the fiscal year ended on `month` of `year`."""
    return (
        cover("10-K", f"For the fiscal year ended {month}, {year}", name=name, symbol=symbol) + body
    )


def ingest_files(folder: Path, files: dict[str, str]) -> dict[str, Any]:
    """`files` (name → text) written into a new `folder` and ingested: the `--json` report."""
    folder.mkdir()
    for name, body in files.items():
        (folder / name).write_text(body)
    return dict(run_json("ingest", str(folder)))


def chunk_search(session: Session, question: str, vector: np.ndarray) -> ChunkSearch:
    """The hybrid search of a question as written (no hint, the packaged vocabulary) with a
    given vector."""
    query = Query.parse(question, None, Vocabulary.packaged())
    return ChunkSearch(session, query, vector)


def encrypted_pdf(path: Path) -> Path:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Secret quarterly results " * 5)
    doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="user", owner_pw="owner")
    return path


def image_only_pdf(path: Path) -> Path:
    doc = pymupdf.open()
    for _ in range(3):
        page = doc.new_page()
        page.draw_rect(pymupdf.Rect(50, 50, 300, 300), color=(0, 0, 0), fill=(0.5, 0.5, 0.5))
    doc.save(path)
    return path


PI = str(Path(sys.executable).with_name("pi"))  # the installed command, run as a process


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def refused_without(variable: str, *args: str) -> tuple[int, str]:
    """`pi ARGS` run with `variable` unset: (exit code, its last stderr line)."""
    env = {k: v for k, v in os.environ.items() if k != variable}
    done = subprocess.run([PI, *args], env=env, capture_output=True, text=True, timeout=60)
    return done.returncode, (done.stderr.strip().splitlines() or [""])[-1]
