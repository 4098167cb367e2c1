"""The SEC Central Index Key of a document's registrant, where the filing states it (inline
XBRL's dei:EntityCentralIndexKey).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("documents", sa.Column("cik", sa.String(10)))


def downgrade() -> None:
    op.drop_column("documents", "cik")
