"""Initial schema: documents, pages, nodes, chunks (pgvector HNSW + tsvector GIN).

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from pgvector.sqlalchemy import Vector
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("CREATE EXTENSION IF NOT EXISTS vector")
    op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    op.create_table(
        "documents",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String, nullable=False, unique=True),
        sa.Column("source_path", sa.Text, nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False, index=True),
        sa.Column("status", sa.String(16), nullable=False, server_default="ready"),
        sa.Column("page_count", sa.Integer, nullable=False),
        sa.Column("company", sa.Text),
        sa.Column(
            "company_aliases",
            postgresql.ARRAY(sa.Text),
            nullable=False,
            server_default="{}",
        ),
        sa.Column("doc_type", sa.String(32)),
        sa.Column("fiscal_year", sa.Integer),
        sa.Column("fiscal_period", sa.String(4)),
        sa.Column("period_end", sa.String(10)),
        sa.Column("title", sa.Text),
        sa.Column("description", sa.Text),
        sa.Column("description_embedding", Vector(384)),
        sa.Column("tree_source", sa.String(16), nullable=False),
        sa.Column("embedder", sa.String(64), nullable=False),
        sa.Column("warnings", postgresql.JSONB, nullable=False, server_default="[]"),
        sa.Column("usage", postgresql.JSONB, nullable=False, server_default="{}"),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            nullable=False,
            server_default=sa.func.now(),
        ),
        sa.CheckConstraint(
            "status IN ('ingesting', 'ready', 'failed')", name="ck_documents_status"
        ),
    )
    op.execute(
        "CREATE INDEX ix_documents_company_trgm ON documents USING gin (company gin_trgm_ops)"
    )
    op.create_table(
        "pages",
        sa.Column(
            "document_id",
            sa.Integer,
            sa.ForeignKey("documents.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("page", sa.Integer, primary_key=True),
        sa.Column("text", sa.Text, nullable=False),
    )
    op.create_table(
        "nodes",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "document_id",
            sa.Integer,
            sa.ForeignKey("documents.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("node_id", sa.String(16), nullable=False),
        sa.Column("parent_node_id", sa.String(16)),
        sa.Column("title", sa.Text, nullable=False),
        sa.Column("start_page", sa.Integer, nullable=False),
        sa.Column("end_page", sa.Integer, nullable=False),
        sa.Column("depth", sa.Integer, nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("summary", sa.Text, nullable=False, server_default=""),
        sa.UniqueConstraint("document_id", "node_id"),
        sa.CheckConstraint("start_page >= 1 AND end_page >= start_page", name="ck_nodes_pages"),
    )
    op.create_table(
        "chunks",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "document_id",
            sa.Integer,
            sa.ForeignKey("documents.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("node_id", sa.String(16), nullable=False),
        sa.Column("page", sa.Integer, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("embedding", Vector(384), nullable=False),
        sa.Column(
            "tsv",
            postgresql.TSVECTOR,
            sa.Computed("to_tsvector('english', text)", persisted=True),
        ),
    )
    op.execute(
        "CREATE INDEX ix_chunks_embedding_hnsw ON chunks USING hnsw (embedding vector_cosine_ops)"
    )
    op.create_index("ix_chunks_tsv", "chunks", ["tsv"], postgresql_using="gin")
    op.create_index("ix_chunks_document_page", "chunks", ["document_id", "page"])


def downgrade() -> None:
    op.drop_table("chunks")
    op.drop_table("nodes")
    op.drop_table("pages")
    op.drop_table("documents")
