"""Read side of stored documents: list, show, tree, remove (what `pi docs` prints)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from .db.tables import Chunk, Document, Node, Page
from .errors import DocumentNotFoundError, PageNotFoundError


def list_documents(*, session: Session) -> list[dict[str, Any]]:
    """`pi docs list --json`: one object per document, by name."""
    nodes = select(Node.document_id, func.count().label("n")).group_by(Node.document_id).subquery()
    rows = session.execute(
        select(Document, func.coalesce(nodes.c.n, 0))
        .outerjoin(nodes, nodes.c.document_id == Document.id)
        .order_by(Document.name)
    )
    return [
        {
            "name": d.name,
            "company": d.company,
            "doc_type": d.doc_type,
            "fiscal_year": d.fiscal_year,
            "fiscal_period": d.fiscal_period,
            "page_count": d.page_count,
            "nodes": n,
            "status": d.status,
        }
        for d, n in rows
    ]


def _document(session: Session, name: str) -> Document:
    document = session.scalar(select(Document).where(Document.name == name))
    if document is None:
        raise DocumentNotFoundError(name)
    return document


def show_document(*, session: Session, name: str) -> dict[str, Any]:
    d = _document(session, name)
    nodes = session.scalar(select(func.count()).where(Node.document_id == d.id)) or 0
    chunks = session.scalar(select(func.count()).where(Chunk.document_id == d.id)) or 0
    return {
        "name": d.name,
        "source_path": d.source_path,
        "sha256": d.sha256,
        "status": d.status,
        "page_count": d.page_count,
        "company": d.company,
        "company_aliases": list(d.company_aliases or []),
        "doc_type": d.doc_type,
        "fiscal_year": d.fiscal_year,
        "fiscal_period": d.fiscal_period,
        "period_end": d.period_end,
        "cik": d.cik,
        "title": d.title,
        "description": d.description,
        "tree_source": d.tree_source,
        "embedder": d.embedder,
        "nodes": nodes,
        "chunks": chunks,
        "warnings": list(d.warnings or []),
        "usage": dict(d.usage or {}),
        "created_at": d.created_at.isoformat() if d.created_at else None,
    }


def document_tree(*, session: Session, name: str) -> dict[str, Any]:
    """`pi docs tree DOC --json`: the nested tree as stored."""
    d = _document(session, name)
    rows = session.scalars(select(Node).where(Node.document_id == d.id).order_by(Node.id)).all()
    by_id: dict[str, dict[str, Any]] = {}
    roots: list[dict[str, Any]] = []
    for n in rows:
        item = {
            "node_id": n.node_id,
            "title": n.title,
            "start_page": n.start_page,
            "end_page": n.end_page,
            "summary": n.summary,
            "nodes": [],
        }
        by_id[n.node_id] = item
        parent = by_id.get(n.parent_node_id) if n.parent_node_id else None
        (parent["nodes"] if parent is not None else roots).append(item)
    return {"name": d.name, "page_count": d.page_count, "nodes": roots}


def document_page(*, session: Session, name: str, page: int) -> dict[str, Any]:
    """`pi docs page DOC PAGE --json`: one page's stored text and the section holding it."""
    d = _document(session, name)
    row = session.scalar(select(Page).where(Page.document_id == d.id, Page.page == page))
    if row is None:
        raise PageNotFoundError(name, page, d.page_count)
    holding = session.scalars(
        select(Node)
        .where(Node.document_id == d.id, Node.start_page <= page, Node.end_page >= page)
        .order_by(Node.end_page - Node.start_page, Node.depth.desc())
    ).first()
    return {
        "name": d.name,
        "page": page,
        "page_count": d.page_count,
        "section": holding.title if holding else None,
        "text": row.text,
    }


def invalid_trees(*, session: Session) -> list[str]:
    """The stored documents whose tree breaks the tree invariants (index/tree.check_tree)."""
    from .index.tree import check_tree
    from .records import TreeNode

    invalid = []
    for d in list_documents(session=session):
        tree = document_tree(session=session, name=d["name"])
        if check_tree([TreeNode.from_dict(n) for n in tree["nodes"]], tree["page_count"]):
            invalid.append(d["name"])
    return invalid


def remove_document(*, session: Session, name: str) -> None:
    d = _document(session, name)
    session.execute(delete(Document).where(Document.id == d.id))
