"""Each document's distinct words (`documents.lexemes`, a stripped tsvector with a GIN index),
so that a whole-corpus or broad question first picks candidate documents by their words
before chunks are ranked: the chunk-level lexical ranking then runs over a few hundred
documents instead of every chunk of the corpus.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-23
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        "CREATE AGGREGATE tsvector_agg (tsvector) (SFUNC = tsvector_concat, STYPE = tsvector, "
        "INITCOND = '')"
    )
    op.execute("ALTER TABLE documents ADD COLUMN lexemes tsvector")
    op.execute(
        "UPDATE documents d SET lexemes = (SELECT strip(tsvector_agg(strip(c.tsv))) "
        "FROM chunks c WHERE c.document_id = d.id)"
    )
    op.execute("CREATE INDEX ix_documents_lexemes ON documents USING gin (lexemes)")


def downgrade() -> None:
    op.execute("DROP INDEX ix_documents_lexemes")
    op.execute("ALTER TABLE documents DROP COLUMN lexemes")
    op.execute("DROP AGGREGATE tsvector_agg (tsvector)")
