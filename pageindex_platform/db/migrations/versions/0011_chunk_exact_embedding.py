"""The transformer's own vector of a chunk whose stored one approximates it (a document
embedded with PI_EMBEDDER=fast), stored the first time a question ranks the chunk.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from pgvector.sqlalchemy import Vector

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("chunks", sa.Column("exact_embedding", Vector(384), nullable=True))


def downgrade() -> None:
    op.drop_column("chunks", "exact_embedding")
