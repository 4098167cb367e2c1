"""The stored corpus as `pi docs` shows it: list, show, tree, page, remove — read through the
typed reads of `db.queries`; each result's `to_dict()` is the command's `--json` shape."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete
from sqlalchemy.orm import Session

from .db import queries
from .db.queries import DocumentInfo, TreeInfo
from .db.tables import Document
from .errors import DocumentNotFoundError, PageNotFoundError


@dataclass(frozen=True)
class Listed:
    """A document in the list: its metadata and the size of its tree."""

    document: DocumentInfo
    nodes: int
    rivals: tuple[str, ...] = ()  # other documents claiming the same filing (CIK, form, period)

    def to_dict(self) -> dict[str, Any]:
        d = self.document
        return {
            "name": d.name,
            "company": d.company,
            "doc_type": d.doc_type,
            "fiscal_year": d.fiscal_year,
            "fiscal_period": d.fiscal_period,
            "page_count": d.page_count,
            "nodes": self.nodes,
            "status": d.status,
            "copies": list(d.copies),
            "rivals": list(self.rivals),
        }


@dataclass(frozen=True)
class Shown:
    """One document in full: metadata, sizes, where its tree came from, warnings, usage."""

    document: DocumentInfo
    nodes: int
    chunks: int
    rivals: tuple[str, ...] = ()  # other documents claiming the same filing (CIK, form, period)

    def to_dict(self) -> dict[str, Any]:
        d = self.document
        return {
            "name": d.name,
            "source_path": d.source_path,
            "sha256": d.sha256,
            "status": d.status,
            "page_count": d.page_count,
            "company": d.company,
            "company_aliases": list(d.company_aliases),
            "doc_type": d.doc_type,
            "fiscal_year": d.fiscal_year,
            "fiscal_period": d.fiscal_period,
            "period_end": d.period_end,
            "cik": d.cik,
            "title": d.title,
            "description": d.description,
            "tree_source": d.tree_source,
            "embedder": d.embedder,
            "nodes": self.nodes,
            "chunks": self.chunks,
            "copies": list(d.copies),
            "rivals": list(self.rivals),
            "warnings": list(d.warnings),
            "usage": dict(d.usage),
            "created_at": d.created_at,
        }


@dataclass(frozen=True)
class Tree:
    tree: TreeInfo
    depth: int | None = None  # levels shown (None: all); deeper nodes are left out

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.tree.document,
            "page_count": self.tree.page_count,
            "nodes": _levels(self.tree.nested(), self.depth),
        }


def _levels(nodes: list[dict[str, Any]], depth: int | None) -> list[dict[str, Any]]:
    if depth is None:
        return nodes
    return [{**n, "nodes": _levels(n["nodes"], depth - 1) if depth > 1 else []} for n in nodes]


@dataclass(frozen=True)
class Page:
    """A stored page's text and the section holding it."""

    name: str
    page: int
    page_count: int
    section: str | None
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "page": self.page,
            "page_count": self.page_count,
            "section": self.section,
            "text": self.text,
        }


def _document(session: Session, name: str) -> DocumentInfo:
    document = queries.document_named(session, name)
    if document is None:
        raise DocumentNotFoundError(name)
    return document


def list_documents(*, session: Session) -> list[Listed]:
    """Every stored document, by name."""
    counts = queries.node_counts(session)
    rivals = queries.rivals(session)
    return [
        Listed(d, counts.get(d.id, 0), rivals.get(d.id, ())) for d in queries.documents(session)
    ]


def show_document(*, session: Session, name: str) -> Shown:
    document = _document(session, name)
    nodes, chunks = queries.document_sizes(session, document.id)
    rivals = queries.rivals(session, [document.id]).get(document.id, ())
    return Shown(document, nodes, chunks, rivals)


def document_tree(*, session: Session, name: str) -> Tree:
    return Tree(queries.tree(session, _document(session, name)))


def document_page(*, session: Session, name: str, page: int) -> Page:
    """One page's stored text and the section holding it."""
    document = _document(session, name)
    found = queries.page(session, document, page) if 1 <= page <= document.page_count else None
    if found is None:
        raise PageNotFoundError(name, page, document.page_count)
    section = queries.section_title(session, document.id, page)
    return Page(document.name, page, document.page_count, section, found.text)


def invalid_trees(*, session: Session) -> list[str]:
    """The stored documents whose tree breaks the tree invariants (index/tree.check_tree)."""
    from .index.tree import check_tree
    from .records import TreeNode

    invalid = []
    for document in queries.documents(session):
        tree = queries.tree(session, document)
        roots = [TreeNode.from_dict(n) for n in tree.nested()]
        if check_tree(roots, document.page_count):
            invalid.append(document.name)
    return invalid


def remove_document(*, session: Session, name: str) -> str | None:
    """Remove a document with its pages, tree, chunks and linked copies; a copy's name
    removes that link alone (the document stays under its own name, which is returned)."""
    document = _document(session, name)
    if document.name != name:
        queries.unlink_copy(session, name=name)
        return document.name
    session.execute(delete(Document).where(Document.id == document.id))
    return None
