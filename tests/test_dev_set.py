"""Tree invariants on every PDF of ../shared/financebench-dev (skipped when it is absent).

Building trees needs no database or embeddings, so all 74 filings are checked on every run.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from pageindex_platform.index.build import BuildOptions, prepare_document
from pageindex_platform.index.tree import check_tree
from pageindex_platform.records import PreparedDocument

from .conftest import DEV_SET

pytestmark = pytest.mark.no_database  # pure: no database is started

PDFS = sorted((DEV_SET / "pdfs").glob("*.pdf")) if DEV_SET.exists() else []


@pytest.fixture(scope="module")
def prepared() -> Iterator[dict[Path, PreparedDocument]]:
    """Every dev PDF prepared once, by as many processes as the machine has cores (as
    `pi ingest` prepares a folder's files)."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1, mp_context=context) as pool:
        yield dict(zip(PDFS, pool.map(_prepare, PDFS), strict=True))


def _prepare(pdf: Path) -> PreparedDocument:
    return prepare_document(pdf, BuildOptions())


@pytest.mark.skipif(not PDFS, reason="../shared/financebench-dev is not present")
@pytest.mark.parametrize("pdf", PDFS, ids=[p.stem for p in PDFS])
def test_dev_pdf_tree_is_valid(pdf: Path, prepared: dict[Path, PreparedDocument]) -> None:
    doc = prepared[pdf]
    assert check_tree(doc.tree, doc.page_count) == []
    assert doc.warnings == []
    nodes = doc.all_nodes()
    leaves = [n for n in nodes if not n.children]
    assert all(n.end_page - n.start_page < 10 or n.children or _small(doc, n) for n in leaves)
    assert doc.chunks and {c.node_id for c in doc.chunks} <= {n.node_id for n in leaves}
    assert doc.metadata.company and doc.metadata.doc_type


def _small(doc: object, node: object) -> bool:
    from pageindex_platform.tokens import count_tokens

    pages = doc.pages[node.start_page - 1 : node.end_page]  # type: ignore[attr-defined]
    return count_tokens("\n".join(p.text for p in pages)) <= 20_000
