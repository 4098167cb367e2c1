"""The chunk vectors' HNSW index adds each vector with a candidate list of 32 (pgvector's
`ef_construction`; its default is 64): a chunk's insert costs about a third less, the largest
part of storing a document, for the same retrieval on the dev questions (FinanceBench's 69
over 150 filings: doc_acc@1, page_recall@5 and MRR unchanged; docs/benchmarks.md). Queries
still search with `hnsw.ef_search` = 200. Vectors already in the index keep their links;
those added from now on are linked with the smaller list.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-26
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("ALTER INDEX ix_chunks_embedding_hnsw SET (ef_construction = 32)")


def downgrade() -> None:
    op.execute("ALTER INDEX ix_chunks_embedding_hnsw RESET (ef_construction)")
