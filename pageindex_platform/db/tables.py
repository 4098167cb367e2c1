"""SQLAlchemy tables. Alembic migrations (`migrations/`) own the schema; this mirrors it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pgvector.sqlalchemy import Vector
from sqlalchemy import (
    Computed,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    func,
)
from sqlalchemy.dialects.postgresql import ARRAY, JSONB, TSVECTOR
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from ..embeddings.base import EMBEDDING_DIM


class Base(DeclarativeBase):
    pass


class Document(Base):
    __tablename__ = "documents"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String, unique=True)
    source_path: Mapped[str] = mapped_column(Text)
    sha256: Mapped[str] = mapped_column(String(64), index=True)
    status: Mapped[str] = mapped_column(String(16), default="ready")
    page_count: Mapped[int] = mapped_column(Integer)
    company: Mapped[str | None] = mapped_column(Text)
    company_aliases: Mapped[list[str]] = mapped_column(ARRAY(Text), default=list)
    doc_type: Mapped[str | None] = mapped_column(String(32))
    fiscal_year: Mapped[int | None] = mapped_column(Integer)
    fiscal_period: Mapped[str | None] = mapped_column(String(4))
    period_end: Mapped[str | None] = mapped_column(String(10))
    cik: Mapped[str | None] = mapped_column(String(10))
    title: Mapped[str | None] = mapped_column(Text)
    description: Mapped[str | None] = mapped_column(Text)
    description_embedding: Mapped[Any] = mapped_column(Vector(EMBEDDING_DIM), nullable=True)
    tree_source: Mapped[str] = mapped_column(String(16))
    embedder: Mapped[str] = mapped_column(String(64))
    # the document's distinct words (stripped tsvector): candidates for broad questions
    lexemes: Mapped[Any] = mapped_column(TSVECTOR, nullable=True)
    warnings: Mapped[list[str]] = mapped_column(JSONB, default=list)
    usage: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict)
    # names of other files with the same content, linked here instead of stored again
    copies: Mapped[list[str]] = mapped_column(ARRAY(Text), default=list, server_default="{}")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    # each metadata field's source and confidence: {"company": {"source": ..., "confidence": ...}}
    metadata_sources: Mapped[dict[str, Any]] = mapped_column(
        JSONB, default=dict, server_default="{}"
    )
    # an inline-XBRL filing's dei: cover facts, for re-deriving its metadata
    cover_facts: Mapped[dict[str, str]] = mapped_column(JSONB, default=dict, server_default="{}")


class MetadataCorrection(Base):
    """A user's correction of a document's metadata (`pi docs set`), by name; applied while
    the document's content is the one corrected (`sha256`)."""

    __tablename__ = "metadata_corrections"

    name: Mapped[str] = mapped_column(Text, primary_key=True)
    sha256: Mapped[str] = mapped_column(String(64))
    fields: Mapped[dict[str, Any]] = mapped_column(JSONB)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now(), onupdate=func.now()
    )


class Page(Base):
    __tablename__ = "pages"

    document_id: Mapped[int] = mapped_column(
        ForeignKey("documents.id", ondelete="CASCADE"), primary_key=True
    )
    page: Mapped[int] = mapped_column(Integer, primary_key=True)
    text: Mapped[str] = mapped_column(Text)
    tsv: Mapped[Any] = mapped_column(
        TSVECTOR, Computed("to_tsvector('english', text)", persisted=True)
    )

    __table_args__ = (Index("ix_pages_tsv", "tsv", postgresql_using="gin"),)


class Node(Base):
    __tablename__ = "nodes"
    __table_args__ = (UniqueConstraint("document_id", "node_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"))
    node_id: Mapped[str] = mapped_column(String(16))
    parent_node_id: Mapped[str | None] = mapped_column(String(16))
    title: Mapped[str] = mapped_column(Text)
    start_page: Mapped[int] = mapped_column(Integer)
    end_page: Mapped[int] = mapped_column(Integer)
    depth: Mapped[int] = mapped_column(Integer)
    position: Mapped[int] = mapped_column(Integer)
    summary: Mapped[str] = mapped_column(Text, default="")
    title_tsv: Mapped[Any] = mapped_column(
        TSVECTOR, Computed("to_tsvector('english', title)", persisted=True)
    )


class Chunk(Base):
    __tablename__ = "chunks"
    __table_args__ = (
        Index(
            "ix_chunks_embedding_hnsw",
            "embedding",
            postgresql_using="hnsw",
            postgresql_ops={"embedding": "vector_cosine_ops"},
            postgresql_with={"ef_construction": 32},  # migration 0015
        ),
        Index("ix_chunks_tsv", "tsv", postgresql_using="gin"),
        Index("ix_chunks_document_page", "document_id", "page"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"))
    node_id: Mapped[str] = mapped_column(String(16))
    page: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    embedding: Mapped[Any] = mapped_column(Vector(EMBEDDING_DIM))
    tsv: Mapped[Any] = mapped_column(
        TSVECTOR, Computed("to_tsvector('english', text)", persisted=True)
    )


class Fact(Base):
    """A numeric fact tagged in an inline-XBRL filing (migration 0007), or a figure read
    from a table row (source `table`, its row's label; migration 0013)."""

    __tablename__ = "facts"
    __table_args__ = (Index("ix_facts_document_concept", "document_id", "concept"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"))
    concept: Mapped[str] = mapped_column(Text)
    value: Mapped[float] = mapped_column(Float)
    unit: Mapped[str] = mapped_column(Text)
    decimals: Mapped[int | None] = mapped_column(Integer)
    period_start: Mapped[str | None] = mapped_column(String(10))
    period_end: Mapped[str] = mapped_column(String(10))
    dimensions: Mapped[list[list[str]]] = mapped_column(JSONB, default=list)
    page: Mapped[int | None] = mapped_column(Integer)
    label: Mapped[str | None] = mapped_column(Text)
    source: Mapped[str] = mapped_column(Text, server_default="tagged")


class IngestClaim(Base):
    """A worker's claim on a document it is ingesting (migration 0009)."""

    __tablename__ = "ingest_claims"

    name: Mapped[str] = mapped_column(Text, primary_key=True)
    worker: Mapped[str] = mapped_column(Text)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LlmCache(Base):
    __tablename__ = "llm_cache"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    model: Mapped[str] = mapped_column(Text)
    response: Mapped[str] = mapped_column(Text)
    prompt_tokens: Mapped[int] = mapped_column(Integer, default=0)
    completion_tokens: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class QueryLog(Base):
    __tablename__ = "query_log"

    id: Mapped[int] = mapped_column(primary_key=True)
    question: Mapped[str] = mapped_column(Text)
    mode: Mapped[str] = mapped_column(String(8))
    route: Mapped[str] = mapped_column(String(16))
    route_reason: Mapped[str] = mapped_column(Text)
    documents: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, default=list)
    citations: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, default=list)
    latency_ms: Mapped[float] = mapped_column(Float)
    usage: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
