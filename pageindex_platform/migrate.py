"""Run Alembic migrations from code (the CLI and tests use this; never `create_all`).

Checking that a database is current happens on every command, so it avoids importing Alembic:
the head revision is read from the revision files and the current one with one query. Alembic
is imported only to upgrade.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Engine, text
from sqlalchemy.exc import ProgrammingError

if TYPE_CHECKING:
    from alembic.config import Config

_PACKAGE_DIR = Path(__file__).resolve().parent
_REVISION = re.compile(r'^revision: str = "([^"]+)"', re.M)
_DOWN = re.compile(r'^down_revision: str \| None = (?:"([^"]+)"|None)', re.M)


def _locations() -> tuple[Path, Path]:
    """alembic/ and migrations/: beside the package in a checkout, inside it when installed."""
    installed = (_PACKAGE_DIR / "_alembic", _PACKAGE_DIR / "_migrations")
    if installed[0].is_dir():
        return installed
    root = _PACKAGE_DIR.parent
    return root / "alembic", root / "migrations"


def alembic_config(url: str | None = None) -> Config:
    from alembic.config import Config

    script_location, versions = _locations()
    config = Config()
    config.set_main_option("path_separator", "os")
    config.set_main_option("script_location", str(script_location))
    config.set_main_option("version_locations", str(versions))
    if url:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


@lru_cache(maxsize=1)
def head_revision() -> str | None:
    """The revision no other revision builds on (read from the revision files)."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in _locations()[1].glob("*.py"):
        source = path.read_text(encoding="utf-8")
        revision, down = _REVISION.search(source), _DOWN.search(source)
        if revision:
            revisions.add(revision.group(1))
        if down and down.group(1):
            parents.add(down.group(1))
    heads = sorted(revisions - parents)
    return heads[0] if len(heads) == 1 else None


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        try:
            return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
        except ProgrammingError:  # no alembic_version table: an empty database
            return None


def upgrade(url: str, revision: str = "head") -> None:
    from alembic import command

    command.upgrade(alembic_config(url), revision)
