"""A stored document's tree: its sections (`StoredNode`) in stored order, and the section
holding a page."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..sql import Session, text
from .metadata import DocumentInfo


@dataclass(frozen=True)
class StoredNode:
    """A section of a stored tree. Pages are 1-based, physical and inclusive."""

    node_id: str
    parent_id: str | None
    title: str
    start_page: int
    end_page: int
    depth: int
    summary: str
    path: str  # titles from the root down, for matching


@dataclass(frozen=True)
class TreeInfo:
    """A stored document's tree: its nodes in stored order (a parent before its children)."""

    document: str
    page_count: int
    nodes: tuple[StoredNode, ...]

    def leaf_of(self, page: int) -> str:
        """The narrowest node holding a page ("" when none does)."""
        holding = [n for n in self.nodes if n.start_page <= page <= n.end_page]
        best = min(holding, key=lambda n: n.end_page - n.start_page, default=None)
        return best.node_id if best else ""

    def nested(self) -> list[dict[str, Any]]:
        """The roots with their children, as `pi docs tree --json` shows them."""
        by_id: dict[str, dict[str, Any]] = {}
        roots: list[dict[str, Any]] = []
        for n in self.nodes:
            item = {
                "node_id": n.node_id,
                "title": n.title,
                "start_page": n.start_page,
                "end_page": n.end_page,
                "summary": n.summary,
                "nodes": [],
            }
            by_id[n.node_id] = item
            parent = by_id.get(n.parent_id) if n.parent_id else None
            (parent["nodes"] if parent is not None else roots).append(item)
        return roots


def tree(session: Session, document: DocumentInfo) -> TreeInfo:
    rows = session.execute(
        text(
            "SELECT node_id, parent_node_id, title, start_page, end_page, depth, summary "
            "FROM nodes WHERE document_id = :d ORDER BY id"
        ),
        {"d": document.id},
    )
    paths: dict[str, str] = {}
    nodes = []
    for node_id, parent, title, start, end, depth, summary in rows:
        path = f"{paths.get(parent, '')} / {title}" if parent else title
        paths[node_id] = path
        nodes.append(StoredNode(node_id, parent, title, start, end, depth, summary or "", path))
    return TreeInfo(document.name, document.page_count, tuple(nodes))


def section_title(session: Session, document_id: int, page: int) -> str | None:
    """The title of the narrowest (then deepest) section holding a page."""
    found = session.execute(
        text(
            "SELECT title FROM nodes WHERE document_id = :d AND start_page <= :p "
            "AND end_page >= :p ORDER BY end_page - start_page, depth DESC, id LIMIT 1"
        ),
        {"d": document_id, "p": page},
    ).scalar()
    return str(found) if found is not None else None
