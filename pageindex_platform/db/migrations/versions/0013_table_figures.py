"""Figures read from table rows, stored beside the tagged facts: each with its row's label
and its source (`tagged` or `table`).

Schema only: this revision reads no document. The table figures of documents stored before
it are read from their stored pages by `index/refresh.py: refresh_table_figures` (the command
`pi docs refresh`), with the table reader of the day it is run; a re-ingest reads them too.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-24
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("facts", sa.Column("label", sa.Text, nullable=True))
    op.add_column("facts", sa.Column("source", sa.Text, nullable=False, server_default="tagged"))


def downgrade() -> None:
    op.execute("DELETE FROM facts WHERE source <> 'tagged'")  # every figure read from a table
    op.drop_column("facts", "source")
    op.drop_column("facts", "label")
