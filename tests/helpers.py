"""Helpers for tests: running the CLI, making bad PDFs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pymupdf
from sqlalchemy.orm import Session
from typer.testing import CliRunner

from pageindex_platform.cli.main import app
from pageindex_platform.embeddings import HashEmbedder
from pageindex_platform.embeddings.space import EmbeddingSpace
from pageindex_platform.search.query import Query
from pageindex_platform.search.semantic import ChunkSearch
from pageindex_platform.search.vocabulary import Vocabulary


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


def chunk_search(
    session: Session, question: str, vector: np.ndarray, space: EmbeddingSpace | None = None
) -> ChunkSearch:
    """The hybrid search of a question as written (no hint, the packaged vocabulary) with a
    given vector; by default in the hash embedder's space (no re-ordering)."""
    query = Query.parse(question, None, Vocabulary.packaged())
    return ChunkSearch(session, query, vector, space or EmbeddingSpace(HashEmbedder()))


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
