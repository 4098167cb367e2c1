"""Typed values handed from one step to the next (see DESIGN.md: the two flows)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class TreeSource(StrEnum):
    """Where a document's tree came from, best first."""

    OUTLINE = "outline"
    TOC = "toc"
    HEADINGS = "headings"
    WINDOWS = "windows"
    MARKDOWN = "markdown"
    LLM = "llm"  # structure found by the language model (TOC extraction or page groups)


class DocType(StrEnum):
    """What kind of filing a document is (`documents.doc_type`): the one place these names
    are spelled. A stored type is its plain value, so a member equals the stored text."""

    FORM_10K = "10-K"
    FORM_10Q = "10-Q"
    FORM_8K = "8-K"
    EARNINGS = "earnings release"
    OTHER = "other"


PERIODIC = (DocType.FORM_10K, DocType.FORM_10Q)  # the reports a registrant files each period
QUARTERLY = (DocType.FORM_10Q, DocType.EARNINGS)  # the filings that report a quarter


@dataclass(frozen=True)
class FlatEntry:
    """A section start: its level (1 = top), title and 1-based physical start page."""

    level: int
    title: str
    start_page: int


@dataclass(frozen=True)
class PageText:
    """One physical page (1-based) and its text."""

    page: int
    text: str


@dataclass
class TreeNode:
    """A section of a document. Pages are 1-based, physical and inclusive."""

    title: str
    start_page: int
    end_page: int
    node_id: str = ""
    summary: str = ""
    children: list[TreeNode] = field(default_factory=list)

    def walk(self) -> list[TreeNode]:
        """This node and all its descendants, depth-first."""
        out = [self]
        for child in self.children:
            out.extend(child.walk())
        return out

    @classmethod
    def from_dict(cls, item: dict[str, Any]) -> TreeNode:
        """The inverse of `to_dict` (the `pi docs tree --json` node shape)."""
        return cls(
            item["title"],
            item["start_page"],
            item["end_page"],
            item["node_id"],
            item["summary"],
            [cls.from_dict(child) for child in item["nodes"]],
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "node_id": self.node_id,
            "title": self.title,
            "start_page": self.start_page,
            "end_page": self.end_page,
            "summary": self.summary,
            "nodes": [c.to_dict() for c in self.children],
        }


@dataclass
class DocMetadata:
    company: str | None = None
    company_aliases: list[str] = field(default_factory=list)
    doc_type: str | None = None
    fiscal_year: int | None = None
    fiscal_period: str | None = None  # FY, Q1..Q4
    period_end: str | None = None  # ISO date
    cik: str | None = None  # SEC Central Index Key, ten digits, where the filing states it
    title: str | None = None
    description: str | None = None
    # each decided field's source and confidence ({"company": {"source": "cover page",
    # "confidence": 0.9}, ...}), and the signals it was decided from (index/signals.py)
    sources: dict[str, dict[str, Any]] = field(default_factory=dict)
    signals: list[Any] = field(default_factory=list)
    cover_facts: dict[str, str] = field(default_factory=dict)  # an iXBRL filing's dei: facts


@dataclass(frozen=True)
class ChunkText:
    """A piece of one page, at most ~chunk_tokens long, tied to the leaf node holding it."""

    node_id: str
    page: int
    text: str


@dataclass(frozen=True)
class TaggedFact:
    """A numeric fact an inline-XBRL filing tags, or a figure read from a table row: its
    concept, value in units (scale applied, sign applied), period and the page where it is
    shown (None: hidden)."""

    concept: str  # "us-gaap:Revenues"
    value: float
    unit: str  # "iso4217:USD", "xbrli:shares", "iso4217:USD/xbrli:shares"
    decimals: int | None
    period_start: str | None  # ISO date; None for an instant
    period_end: str  # ISO date (the instant for balances)
    dimensions: tuple[tuple[str, str], ...]  # (axis, member): () for the whole company
    page: int | None
    label: str | None = None  # a table row's own label
    source: str = "tagged"  # "tagged" (inline XBRL) or "table" (read from a table row)


@dataclass
class PreparedDocument:
    """Everything ingest computes from a file before embedding and storing it."""

    name: str
    path: str
    sha256: str
    pages: list[PageText]
    tree: list[TreeNode]
    tree_source: TreeSource
    sections: list[FlatEntry]  # the flat section starts the tree was built from
    metadata: DocMetadata
    chunks: list[ChunkText]
    warnings: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)
    facts: list[TaggedFact] = field(default_factory=list)

    @property
    def page_count(self) -> int:
        return len(self.pages)

    def all_nodes(self) -> list[TreeNode]:
        return [n for root in self.tree for n in root.walk()]
