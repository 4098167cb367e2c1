"""Run Alembic migrations from code (the CLI and tests use this; never `create_all`)."""

from __future__ import annotations

from pathlib import Path

from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine

from alembic import command

_PACKAGE_DIR = Path(__file__).resolve().parent


def _locations() -> tuple[Path, Path]:
    """alembic/ and migrations/: beside the package in a checkout, inside it when installed."""
    installed = (_PACKAGE_DIR / "_alembic", _PACKAGE_DIR / "_migrations")
    if installed[0].is_dir():
        return installed
    root = _PACKAGE_DIR.parent
    return root / "alembic", root / "migrations"


def alembic_config(url: str | None = None) -> Config:
    script_location, versions = _locations()
    config = Config()
    config.set_main_option("path_separator", "os")
    config.set_main_option("script_location", str(script_location))
    config.set_main_option("version_locations", str(versions))
    if url:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)
