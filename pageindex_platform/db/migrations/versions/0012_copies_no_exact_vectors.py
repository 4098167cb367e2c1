"""A document's copies: the names of other files with the same content (a filing downloaded
twice), linked to the one stored document instead of being stored again. And no vectors
written on the question path: the transformer's vectors of `fast` chunks, which questions
stored as they ranked them (0011), are dropped; asking writes nothing that ranks.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-24
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from pgvector.sqlalchemy import Vector
from sqlalchemy.dialects.postgresql import ARRAY

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "documents",
        sa.Column("copies", ARRAY(sa.Text), nullable=False, server_default=sa.text("'{}'")),
    )
    op.create_index("ix_documents_copies", "documents", ["copies"], postgresql_using="gin")
    op.drop_column("chunks", "exact_embedding")


def downgrade() -> None:
    op.add_column("chunks", sa.Column("exact_embedding", Vector(384), nullable=True))
    op.drop_index("ix_documents_copies", table_name="documents")
    op.drop_column("documents", "copies")
