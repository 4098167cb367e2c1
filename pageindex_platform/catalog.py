"""The stored corpus as `pi docs` shows it: list, show, tree, page, remove — read through the
typed reads of `db.queries`; each result's `to_dict()` is the command's `--json` shape."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .db import queries
from .db.queries import DocumentInfo, TreeInfo
from .db.sql import Session, text
from .errors import DocumentNotFoundError, PageNotFoundError
from .index.signals import UNSURE
from .records import DocType
from .shapes import Shape


@dataclass(frozen=True)
class FieldSource(Shape):
    """Where a metadata field's value came from ("inline XBRL", "cover page", "text",
    "corpus", "file name", "metadata file", "user") and how sure that is (0-1)."""

    source: str
    confidence: float


def _sources(d: DocumentInfo) -> dict[str, FieldSource]:
    return {
        name: FieldSource(str(v.get("source", "")), float(v.get("confidence", 0.0)))
        for name, v in d.sources.items()
        if isinstance(v, dict)
    }


def _unsure(d: DocumentInfo) -> list[str]:
    """The fields whose value is below the confidence a stored value is sure at, or that no
    evidence gave (a filing with no company, no fiscal year)."""
    if not d.sources:  # stored before sources were kept: nothing is known of them
        return []
    other = d.doc_type == DocType.OTHER  # notes, memos: no company's filing
    fields = ["doc_type"] if other else ["company", "doc_type", "fiscal_year"]
    if d.doc_type in (DocType.FORM_10Q, DocType.EARNINGS, DocType.FORM_10K):
        fields.append("fiscal_period")
    return [f for f in fields if float(d.sources.get(f, {}).get("confidence", 0.0)) < UNSURE]


@dataclass(frozen=True)
class Listed(Shape):
    """A document in the list: its metadata, the size of its tree, each metadata field's
    source and confidence (`sources`) and the fields that are not sure (`unsure`)."""

    name: str
    company: str | None
    doc_type: str | None
    fiscal_year: int | None
    fiscal_period: str | None
    page_count: int
    nodes: int
    status: str
    copies: list[str]
    rivals: list[str]  # other documents claiming the same filing (CIK, form, period)
    sources: dict[str, FieldSource]
    unsure: list[str]

    @classmethod
    def of(cls, d: DocumentInfo, nodes: int, rivals: Sequence[str]) -> Listed:
        return cls(
            d.name,
            d.company,
            d.doc_type,
            d.fiscal_year,
            d.fiscal_period,
            d.page_count,
            nodes,
            d.status,
            list(d.copies),
            list(rivals),
            _sources(d),
            _unsure(d),
        )


@dataclass(frozen=True)
class DocumentList(Shape):
    """Stored documents by name, those matching the filters, from `offset` on; `total`
    counts them all, and `next_offset` is where the next page starts (None: the last)."""

    documents: list[Listed]
    total: int
    offset: int
    next_offset: int | None

    def __iter__(self) -> Iterator[Listed]:
        return iter(self.documents)

    def __len__(self) -> int:
        return len(self.documents)

    def __getitem__(self, index: int) -> Listed:
        return self.documents[index]


@dataclass(frozen=True)
class Shown(Shape):
    """One document in full: metadata, sizes, where its tree came from, warnings, usage."""

    name: str
    source_path: str
    sha256: str
    status: str
    page_count: int
    company: str | None
    company_aliases: list[str]
    doc_type: str | None
    fiscal_year: int | None
    fiscal_period: str | None
    period_end: str | None
    cik: str | None
    title: str | None
    description: str | None
    tree_source: str
    embedder: str
    nodes: int
    chunks: int
    copies: list[str]
    rivals: list[str]  # other documents claiming the same filing (CIK, form, period)
    warnings: list[str]
    usage: dict[str, Any]
    created_at: str | None
    sources: dict[str, FieldSource]
    unsure: list[str]

    @classmethod
    def of(cls, d: DocumentInfo, nodes: int, chunks: int, rivals: Sequence[str]) -> Shown:
        return cls(
            name=d.name,
            source_path=d.source_path,
            sha256=d.sha256,
            status=d.status,
            page_count=d.page_count,
            company=d.company,
            company_aliases=list(d.company_aliases),
            doc_type=d.doc_type,
            fiscal_year=d.fiscal_year,
            fiscal_period=d.fiscal_period,
            period_end=d.period_end,
            cik=d.cik,
            title=d.title,
            description=d.description,
            tree_source=d.tree_source,
            embedder=d.embedder,
            nodes=nodes,
            chunks=chunks,
            copies=list(d.copies),
            rivals=list(rivals),
            warnings=list(d.warnings),
            usage=dict(d.usage),
            created_at=d.created_at,
            sources=_sources(d),
            unsure=_unsure(d),
        )


@dataclass(frozen=True)
class Section(Shape):
    """A node of a document's tree: its title, pages and summary, and its children."""

    node_id: str
    title: str
    start_page: int
    end_page: int
    summary: str
    nodes: list[Section]


@dataclass(frozen=True)
class Tree(Shape):
    """A document's tree, nested: node ids, titles, page ranges and summaries."""

    name: str
    page_count: int
    nodes: list[Section]

    @classmethod
    def of(cls, tree: TreeInfo, depth: int | None = None) -> Tree:
        """The tree, `depth` levels at most (None: all)."""
        return cls(tree.document, tree.page_count, _sections(tree.nested(), depth))


def _sections(nodes: list[dict[str, Any]], depth: int | None) -> list[Section]:
    deeper = depth is None or depth > 1
    return [
        Section(
            n["node_id"],
            n["title"],
            n["start_page"],
            n["end_page"],
            n["summary"],
            _sections(n["nodes"], None if depth is None else depth - 1) if deeper else [],
        )
        for n in nodes
    ]


@dataclass(frozen=True)
class Page(Shape):
    """A stored page's text and the section holding it."""

    name: str
    page: int
    page_count: int
    section: str | None
    text: str


@dataclass(frozen=True)
class PageRange(Shape):
    """Pages' stored text, first to last, cut at `max_chars` (and said so)."""

    name: str
    page_count: int
    pages: list[Page]
    truncated: bool
    note: str | None = None


@dataclass(frozen=True)
class Removed(Shape):
    """A removed document; `copy_of`: for a linked copy's name, the document that stays."""

    name: str
    removed: bool
    copy_of: str | None


def _document(session: Session, name: str) -> DocumentInfo:
    document = queries.document_named(session, name)
    if document is None:
        raise DocumentNotFoundError(name)
    return document


def list_documents(*, session: Session, ids: set[int] | None = None) -> list[Listed]:
    """Every stored document (those of `ids` when given), by name."""
    counts = queries.node_counts(session)
    rivals = queries.rivals(session)
    return [
        Listed.of(d, counts.get(d.id, 0), rivals.get(d.id, ()))
        for d in queries.documents(session)
        if ids is None or d.id in ids
    ]


def show_document(*, session: Session, name: str) -> Shown:
    document = _document(session, name)
    nodes, chunks = queries.document_sizes(session, document.id)
    rivals = queries.rivals(session, [document.id]).get(document.id, ())
    return Shown.of(document, nodes, chunks, rivals)


def document_tree(*, session: Session, name: str, depth: int | None = None) -> Tree:
    return Tree.of(queries.tree(session, _document(session, name)), depth)


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


def remove_document(*, session: Session, name: str) -> Removed:
    """Remove a document with its pages, tree, chunks and linked copies; a copy's name
    removes that link alone (the document stays under its own name, `copy_of`)."""
    document = _document(session, name)
    if document.name != name:
        queries.unlink_copy(session, name=name)
        return Removed(name, True, document.name)
    session.execute(text("DELETE FROM documents WHERE id = :id"), {"id": document.id})
    return Removed(name, True, None)


def page_range(*, session: Session, name: str, first: int, last: int, max_chars: int) -> PageRange:
    """Pages `first` to `last` (inclusive), until `max_chars` characters: a page that would
    pass it is cut, the rest left out, and `note` says where to go on."""
    found: list[Page] = []
    used, truncated, note = 0, False, None
    document = document_page(session=session, name=name, page=first)
    if last < first or last > document.page_count:
        raise PageNotFoundError(name, last, document.page_count)
    for number in range(first, last + 1):
        page = (
            document if number == first else document_page(session=session, name=name, page=number)
        )
        room = max_chars - used
        if len(page.text) > room:
            truncated = True
            if room > 0:
                found.append(replace(page, text=page.text[:room]))
            note = (
                f"cut at {max_chars:,} characters in page {number}: its text "
                f"{'after that is' if room > 0 else 'is'} left out, and the pages "
                f"after it; ask for page {number} onwards to read on"
            )
            break
        found.append(page)
        used += len(page.text)
    return PageRange(document.name, document.page_count, found, truncated, note)
