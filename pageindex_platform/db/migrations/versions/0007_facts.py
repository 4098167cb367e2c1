"""Numeric facts tagged in inline-XBRL filings (concept, value, unit, period, page).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "facts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "document_id",
            sa.Integer,
            sa.ForeignKey("documents.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("concept", sa.Text, nullable=False),
        sa.Column("value", sa.Float, nullable=False),
        sa.Column("unit", sa.Text, nullable=False),
        sa.Column("decimals", sa.Integer),
        sa.Column("period_start", sa.String(10)),
        sa.Column("period_end", sa.String(10), nullable=False),
        sa.Column("dimensions", JSONB, nullable=False, server_default="[]"),
        sa.Column("page", sa.Integer),
    )
    op.create_index("ix_facts_document_concept", "facts", ["document_id", "concept"])


def downgrade() -> None:
    op.drop_index("ix_facts_document_concept", table_name="facts")
    op.drop_table("facts")
