"""Claims on documents being ingested, so that several `pi ingest` processes (on one machine
or several, against one PostgreSQL) divide a batch: a document is claimed by one worker
until its lease expires; a killed worker's claim is taken over after it expires.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "ingest_claims",
        sa.Column("name", sa.Text, primary_key=True),
        sa.Column("worker", sa.Text, nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("ingest_claims")
