"""Question log, and the read-only view of document metadata that Query-to-SQL may select from.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "query_log",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("question", sa.Text, nullable=False),
        sa.Column("mode", sa.String(8), nullable=False),
        sa.Column("route", sa.String(16), nullable=False),
        sa.Column("route_reason", sa.Text, nullable=False),
        sa.Column("documents", postgresql.JSONB, nullable=False, server_default="[]"),
        sa.Column("citations", postgresql.JSONB, nullable=False, server_default="[]"),
        sa.Column("latency_ms", sa.Float, nullable=False),
        sa.Column("usage", postgresql.JSONB, nullable=False, server_default="{}"),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()
        ),
    )
    op.execute(
        """
        CREATE VIEW document_metadata AS
        SELECT name, company, company_aliases, doc_type, fiscal_year, fiscal_period,
               period_end, title, description, page_count
        FROM documents WHERE status = 'ready'
        """
    )


def downgrade() -> None:
    op.execute("DROP VIEW document_metadata")
    op.drop_table("query_log")
