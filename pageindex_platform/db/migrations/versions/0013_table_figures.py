"""Figures read from table rows, stored beside the tagged facts: each with its row's label
and its source (`tagged` or `table`). Documents stored before this revision get their
tables read here, from their stored pages, so that no re-ingest is needed.

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
    _read_stored_tables()


def _read_stored_tables() -> None:
    from pageindex_platform.index.tables import read_tables
    from pageindex_platform.records import PageText

    bind = op.get_bind()
    documents = bind.execute(sa.text("SELECT id, period_end, fiscal_year FROM documents")).all()
    insert = sa.text(
        "INSERT INTO facts (document_id, concept, value, unit, decimals, period_start, "
        "period_end, dimensions, page, label, source) VALUES (:d, :concept, :value, :unit, "
        ":decimals, :period_start, :period_end, '[]'::jsonb, :page, :label, 'table')"
    )
    for doc_id, period_end, fiscal_year in documents:
        rows = bind.execute(
            sa.text("SELECT page, text FROM pages WHERE document_id = :d ORDER BY page"),
            {"d": doc_id},
        ).all()
        pages = [PageText(p, t) for p, t in rows]
        figures = read_tables(pages, period_end=period_end, fiscal_year=fiscal_year)
        if figures:
            bind.execute(
                insert,
                [
                    {
                        "d": doc_id,
                        "concept": f.concept,
                        "value": f.value,
                        "unit": f.unit,
                        "decimals": f.decimals,
                        "period_start": f.period_start,
                        "period_end": f.period_end,
                        "page": f.page,
                        "label": f.label,
                    }
                    for f in figures
                ],
            )


def downgrade() -> None:
    op.execute("DELETE FROM facts WHERE source = 'table'")
    op.drop_column("facts", "source")
    op.drop_column("facts", "label")
