"""Alembic environment: the URL comes from the config or from pageindex-platform's settings."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine, pool, text

from pageindex_platform.db.tables import Base

config = context.config
MIGRATION_LOCK = 7_305_112_026  # a constant key for pg_advisory_xact_lock
target_metadata = Base.metadata


def _url() -> str:
    url = config.get_main_option("sqlalchemy.url")
    if url:
        return url
    from pageindex_platform.db.engine import database_url
    from pageindex_platform.settings import load_settings

    return database_url(load_settings())  # `alembic` run by hand: the environment's corpus


def run_migrations_offline() -> None:
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    engine = create_engine(_url(), poolclass=pool.NullPool)
    with engine.connect() as connection:
        context.configure(connection=connection, target_metadata=target_metadata)
        with context.begin_transaction():
            # Processes starting together on a new database (several `pi ingest` workers)
            # migrate one after the other: the later ones find the schema current.
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
