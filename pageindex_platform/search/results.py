"""What a question returns: the answer with its citations, the route taken and why, the
documents and nodes searched, warnings, model usage and timings (`pi ask --json`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .semantic import DocumentHit
from .tree_search import NodeHit


@dataclass(frozen=True)
class Citation:
    document: str
    page: int
    node_id: str


@dataclass
class Answer:
    question: str
    mode: str
    route: str
    route_reason: str
    sql: str | None
    documents: list[DocumentHit]
    nodes: list[NodeHit]
    citations: list[Citation]
    answer: str
    timings: dict[str, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    usage: dict[str, int] = field(
        default_factory=lambda: {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0}
    )
    figures: list[dict[str, Any]] = field(default_factory=list)  # the figures stated first
    working: dict[str, Any] | None = None  # a computed metric's formula and inputs

    def to_dict(self) -> dict[str, Any]:
        """The stable `pi ask --json` shape."""
        return {
            "question": self.question,
            "mode": self.mode,
            "route": self.route,
            "route_reason": self.route_reason,
            "sql": self.sql,
            "documents": [{"name": d.name, "score": round(d.score, 6)} for d in self.documents],
            "nodes": [
                {
                    "document": n.document,
                    "node_id": n.node_id,
                    "title": n.title,
                    "start_page": n.start_page,
                    "end_page": n.end_page,
                }
                for n in self.nodes
            ],
            "citations": [asdict(c) for c in self.citations],
            "answer": self.answer,
            "figures": self.figures,
            "working": self.working,
            "timings": {k: round(v, 4) for k, v in self.timings.items()},
            "usage": self.usage,
            "warnings": self.warnings,
        }
