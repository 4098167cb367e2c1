"""Metadata as evidence: each document's fields keep where their value came from and how sure
that is (`documents.metadata_sources`: {"company": {"source": "cover page", "confidence":
0.9}, ...}) and an inline-XBRL filing's dei: cover facts (`documents.cover_facts`, read again
when the metadata is re-derived), and a user's corrections (`pi docs set`) are kept by document name
(`metadata_corrections`), so that they win over extraction and over `--metadata` and survive
a re-ingest of the same content. Documents stored before this revision have no sources until
`pi docs refresh` re-derives their metadata from their stored pages.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-25
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "documents",
        sa.Column("metadata_sources", JSONB, nullable=False, server_default=sa.text("'{}'")),
    )
    op.add_column(
        "documents",
        sa.Column("cover_facts", JSONB, nullable=False, server_default=sa.text("'{}'")),
    )
    op.create_table(
        "metadata_corrections",
        sa.Column("name", sa.Text, primary_key=True),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("fields", JSONB, nullable=False),
        sa.Column(
            "updated_at",
            sa.DateTime(timezone=True),
            nullable=False,
            server_default=sa.text("now()"),
        ),
    )


def downgrade() -> None:
    op.drop_table("metadata_corrections")
    op.drop_column("documents", "cover_facts")
    op.drop_column("documents", "metadata_sources")
