"""Section titles as tsvector, so that a chunk's lexical match can count its section's title.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        "ALTER TABLE nodes ADD COLUMN title_tsv tsvector "
        "GENERATED ALWAYS AS (to_tsvector('english', title)) STORED"
    )


def downgrade() -> None:
    op.drop_column("nodes", "title_tsv")
