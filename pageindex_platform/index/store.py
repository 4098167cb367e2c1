"""A prepared document embedded and written: its chunks (and description) embedded, then the
document, pages, tree, tagged facts and chunks stored in ONE transaction that also releases
the worker's claim — the one place the corpus is written."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from psycopg.types.json import Jsonb
from sqlalchemy import delete, select, text
from sqlalchemy.orm import Session

from ..db import queries
from ..db.engine import Database, connection_lost, database_gone
from ..db.queries import CompanyNames
from ..db.tables import Document
from ..embeddings import Embedder, description_embedder, get_embedder
from ..llm import StructuredChat, Usage
from ..names import SYMBOL, letters
from ..records import PreparedDocument, TreeNode
from .build import BuildOptions
from .bulk import copy_chunks, copy_rows
from .claims import release_in
from .corrections import save_stated, stated_for
from .llm_tree import refine_with_llm
from .overrides import DESCRIBING, apply_overrides
from .report import FileResult, FileStatus
from .resolve import STATED_FIELDS, known_companies, resolved
from .signals import Source
from .slots import CpuSlots

if TYPE_CHECKING:
    import numpy as np

    from ..db.orm import OrmSession

logger = logging.getLogger(__name__)

# a stored document's distinct words (documents.lexemes), from its chunks (`d` is the document)
# (the same value as `strip(tsvector_agg(strip(c.tsv)))`, without concatenating tsvectors one
# chunk at a time)
DOCUMENT_LEXEMES = (
    "(SELECT array_to_tsvector(coalesce(array_agg(w), '{}')) FROM chunks c, "
    "unnest(tsvector_to_array(c.tsv)) w WHERE c.document_id = d.id)"
)


@dataclass(frozen=True)
class StoreOptions:
    """How a prepared document is finished and where it is stored: the corpus's database, the
    embedder of its chunks, the `--metadata` rows by document name, the chat model of llm
    mode (None: local) and its tree options."""

    db: Database
    embedder: Embedder | None  # None: the settings' one, loaded when first needed
    overrides: dict[str, dict[str, Any]]
    chat: StructuredChat | None
    build: BuildOptions
    slots: CpuSlots  # the machine's CPU slots: embedding holds one

    @cached_property
    def chunk_embedder(self) -> Embedder:
        """The embedder of the chunks, loaded when the first document is embedded: a process
        whose files all turn out to be other workers' never loads it."""
        return self.embedder or get_embedder(settings=self.db.settings)


@dataclass
class Embedded:
    """A prepared document with its vectors (one row per chunk, then the description's), its
    stages' times so far and its LLM use."""

    doc: PreparedDocument
    vectors: np.ndarray
    stages: dict[str, float]
    usage: dict[str, Any]


def embed_document(doc: PreparedDocument, options: StoreOptions) -> Embedded:
    """In llm mode the model refines the tree first; then `--metadata` applies, and the
    chunks and the description are embedded (holding a CPU slot)."""
    stages = dict(doc.seconds)
    usage = Usage()
    if options.chat is not None:
        started = time.perf_counter()
        refine_with_llm(doc, options.chat, usage, options.build)
        stages["llm"] = time.perf_counter() - started
    _resolve(doc, options)
    import numpy as np  # here: what only plans a batch never loads numpy

    t0 = time.perf_counter()
    embedder = options.chunk_embedder
    with options.slots.held():
        described = description_embedder(embedder, options.db.settings).embed(
            [doc.metadata.description or doc.name]
        )
        vectors = np.vstack([embedder.embed([c.text for c in doc.chunks]), described])
    stages["embed"] = time.perf_counter() - t0
    return Embedded(doc, vectors, stages, usage.to_dict() if options.chat is not None else {})


def store_embedded(embedded: Embedded, options: StoreOptions) -> FileResult:
    """Store an embedded document in one transaction (its stages timed)."""
    doc, stages = embedded.doc, dict(embedded.stages)
    t1 = time.perf_counter()
    row = options.overrides.get(doc.name)
    with options.db.session() as session:
        store_document(
            session=session,
            doc=doc,
            vectors=embedded.vectors,
            embedder_name=options.chunk_embedder.name,
            usage=embedded.usage,
        )
        if row:  # the `--metadata` row kept with the document, in its transaction
            fields = _stated_fields(row)
            source = Source.METADATA_FILE
            save_stated(session, name=doc.name, sha256=doc.sha256, source=source, fields=fields)
    stages["database"] = time.perf_counter() - t1
    logger.debug("%s stored: %s", doc.name, {k: round(v, 3) for k, v in stages.items()})
    # Preparation overlaps the previous file's embedding; count its own time, not the wait.
    return FileResult(
        path=doc.path,
        name=doc.name,
        status=FileStatus.STORED,
        pages=doc.page_count,
        nodes=len(doc.all_nodes()),
        chunks=len(doc.chunks),
        seconds=sum(stages.values()),
        stages=stages,
        usage=embedded.usage,
        warnings=list(doc.warnings),
    )


def _resolve(doc: PreparedDocument, options: StoreOptions) -> None:
    """The document's metadata decided again with the corpus's evidence, its `--metadata`
    row and the user's correction (`resolve.py`); the row's title, description and aliases
    set as given."""
    row = options.overrides.get(doc.name)
    written = (doc.metadata.title, doc.metadata.description) if options.chat else None
    known, stated = _corpus_evidence(doc, options.db)
    if row:
        stated[Source.METADATA_FILE] = _stated_fields(row)
    doc.metadata = resolved(
        doc.metadata, name=doc.name, pages=doc.pages, tree=doc.tree, known=known, stated=stated
    )
    if row:
        apply_overrides(doc.metadata, row, fields=DESCRIBING)
    if written is not None:  # llm mode: the model's title and description stay
        doc.metadata.title, doc.metadata.description = written


def _corpus_evidence(
    doc: PreparedDocument, db: Database
) -> tuple[list[CompanyNames], dict[Source, dict[str, Any]]]:
    """The stored companies and what users stated for the document — read once more after
    the database came back; none when it is gone (the store meets that and says so)."""
    for attempt in (1, 2):
        try:
            with db.session() as session:
                known = known_companies(session, excluding=doc.name)
                return known, stated_for(session, doc.name, doc.sha256)
        except Exception as exc:
            if not database_gone(exc):
                raise
            if attempt == 1 and connection_lost(exc) and db.reconnect():
                continue
            logger.info("%s: metadata decided without the corpus (%s)", doc.name, exc)
    return [], {}


def _stated_fields(row: dict[str, Any]) -> dict[str, Any]:
    return {f: row[f] for f in STATED_FIELDS if row.get(f) not in (None, "")}


def store_document(
    *,
    session: OrmSession,
    doc: PreparedDocument,
    vectors: Any,
    embedder_name: str,
    usage: dict[str, Any] | None = None,
) -> int:
    """Replace any stored document of the same name with `doc`, inside the caller's
    transaction (`vectors`: one row per chunk, then the description's)."""
    # the copies linked to a rebuilt document stay linked while its content is the same
    copies = session.execute(
        select(Document.copies).where(Document.name == doc.name, Document.sha256 == doc.sha256)
    ).scalar_one_or_none()
    session.execute(delete(Document).where(Document.name == doc.name))
    queries.unlink_copy(session, name=doc.name)  # a name stored on its own is no copy
    release_in(session, doc.name)  # with the document stored, in the same transaction
    if doc.metadata.company:
        doc.metadata.company = stored_spelling(session, doc.metadata.company)
    document = _document_row(doc, vectors[-1], embedder_name, usage or {})
    document.copies = list(copies or [])
    session.add(document)
    session.flush()
    doc_id = document.id
    claims = _claims(session, doc, doc_id)
    if claims:
        doc.warnings.extend(claims)
        document.warnings = list(doc.warnings)
    copy_rows(
        session,
        "pages",
        ("document_id", "page", "text"),
        ((doc_id, p.page, p.text) for p in doc.pages),
    )
    copy_rows(session, "nodes", NODE_COLUMNS, _node_rows(doc_id, doc.tree))
    if doc.facts:
        copy_rows(session, "facts", FACT_COLUMNS, (fact_row(doc_id, f) for f in doc.facts))
    if doc.chunks:
        copy_chunks(session, doc_id, doc.chunks, vectors[: len(doc.chunks)])
        session.execute(
            text(f"UPDATE documents d SET lexemes = {DOCUMENT_LEXEMES} WHERE d.id = :id"),
            {"id": doc_id},
        )
    return doc_id


def _claims(session: Session, doc: PreparedDocument, doc_id: int) -> list[str]:
    """What the new document claims that stored ones claim too: the same filing (CIK, form
    and fiscal period: a copy, an amendment, another format, or a tampered file), or a
    trading symbol stored under another company's name."""
    said: list[str] = []
    meta = doc.metadata
    rivals = queries.rivals(session, [doc_id]).get(doc_id, ())
    if rivals:
        said.append(
            f"claims the same filing as {', '.join(rivals)} (CIK {meta.cik}, {meta.doc_type} "
            f"for fiscal {meta.fiscal_year} {meta.fiscal_period}): answers about that period "
            "cite both; `pi docs rm` the one that is not the filing"
        )
    symbols = [a for a in meta.company_aliases if SYMBOL.fullmatch(a)]
    if symbols and meta.company:
        holders = queries.symbol_holders(session, symbols, meta.company, doc_id)
        said.extend(
            f"trading symbol {symbol} is also stored under another name: {', '.join(names)}"
            for symbol, names in holders.items()
        )
    return said


def _document_row(
    doc: PreparedDocument, description_vector: Any, embedder_name: str, usage: dict[str, Any]
) -> Document:
    meta = doc.metadata
    return Document(
        name=doc.name,
        source_path=str(Path(doc.path).resolve()),
        sha256=doc.sha256,
        status="ready",
        page_count=doc.page_count,
        company=meta.company,
        company_aliases=meta.company_aliases,
        doc_type=meta.doc_type,
        fiscal_year=meta.fiscal_year,
        fiscal_period=meta.fiscal_period,
        period_end=meta.period_end,
        cik=meta.cik,
        title=meta.title,
        description=meta.description,
        metadata_sources=meta.sources,
        cover_facts=meta.cover_facts,
        description_embedding=description_vector,
        tree_source=str(doc.tree_source),
        embedder=embedder_name,
        warnings=doc.warnings,
        usage=usage,
    )


FACT_COLUMNS = (
    "document_id",
    "concept",
    "value",
    "unit",
    "decimals",
    "period_start",
    "period_end",
    "dimensions",
    "page",
    "label",
    "source",
)
NODE_COLUMNS = (
    "document_id",
    "node_id",
    "parent_node_id",
    "title",
    "start_page",
    "end_page",
    "depth",
    "position",
    "summary",
)


def fact_row(doc_id: int, fact: Any) -> tuple[Any, ...]:
    """A fact's row of the `facts` table, in `FACT_COLUMNS` order."""
    return (
        doc_id,
        fact.concept,
        fact.value,
        fact.unit,
        fact.decimals,
        fact.period_start,
        fact.period_end,
        Jsonb([list(d) for d in fact.dimensions]),
        fact.page,
        fact.label,
        fact.source,
    )


def stored_spelling(session: Session, company: str) -> str:
    """The spelling already stored for this company when one differs only in case, spacing
    or punctuation ("McDONALD’S CORPORATION" / "McDonald's Corporation"), so that one company
    is stored under one name."""
    wanted = letters(company)
    for stored in queries.stored_companies(session):
        if letters(stored) == wanted:
            return stored
    return company


def _node_rows(doc_id: int, roots: list[TreeNode]) -> Iterator[tuple[Any, ...]]:
    def visit(nodes: list[TreeNode], parent: str | None, depth: int) -> Iterator[tuple[Any, ...]]:
        for position, node in enumerate(nodes):
            yield (
                doc_id,
                node.node_id,
                parent,
                node.title,
                node.start_page,
                node.end_page,
                depth,
                position,
                node.summary,
            )
            yield from visit(node.children, node.node_id, depth + 1)

    yield from visit(roots, None, 0)


def override_stored(
    *, db: Database, name: str, row: dict[str, Any], embedder: Embedder | None
) -> None:
    """`--metadata` for an unchanged, already stored document: its metadata is updated
    (the description's embedding too, the only case that loads the embedder) without
    rebuilding it."""
    with db.session() as session:
        doc = session.scalars(select(Document).where(Document.name == name)).one()
        before = doc.description
        apply_overrides(doc, row)
        if doc.description and doc.description != before:
            used = embedder or get_embedder(settings=db.settings)
            described = description_embedder(used, db.settings)
            doc.description_embedding = described.embed([doc.description])[0]
