"""A role that may read only the `document_metadata` view: Query-to-SQL runs as it.

Created where the database user may create roles (the embedded database; a DBA can run the
same statements elsewhere); skipped with a notice where it may not — the SQL guard and the
READ ONLY transaction still hold there.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ROLE = "pageindex_sql_reader"


def upgrade() -> None:
    op.execute(
        f"""
        DO $$
        BEGIN
            IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{ROLE}') THEN
                CREATE ROLE {ROLE} NOLOGIN;
            END IF;
            GRANT SELECT ON document_metadata TO {ROLE};
            IF NOT pg_has_role(current_user, '{ROLE}', 'MEMBER') THEN
                EXECUTE format('GRANT {ROLE} TO %I', current_user);
            END IF;
        EXCEPTION WHEN insufficient_privilege THEN
            RAISE NOTICE 'role {ROLE} not created (%); Query-to-SQL runs as the current user',
                SQLERRM;
        END
        $$;
        """
    )


def downgrade() -> None:
    op.execute(
        f"""
        DO $$
        BEGIN
            IF EXISTS (SELECT FROM pg_roles WHERE rolname = '{ROLE}') THEN
                REVOKE SELECT ON document_metadata FROM {ROLE};
            END IF;
        END
        $$;
        """
    )
