"""Page text as tsvector with a GIN index: the full-text baseline of `pi eval` ranks pages.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-22
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        "ALTER TABLE pages ADD COLUMN tsv tsvector "
        "GENERATED ALWAYS AS (to_tsvector('english', text)) STORED"
    )
    op.execute("CREATE INDEX ix_pages_tsv ON pages USING gin (tsv)")


def downgrade() -> None:
    op.drop_index("ix_pages_tsv", table_name="pages")
    op.drop_column("pages", "tsv")
