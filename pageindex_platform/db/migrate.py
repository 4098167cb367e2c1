"""Run Alembic migrations from code (the CLI and tests use this; never `create_all`).

Checking that a database is current happens on every command, so it avoids importing Alembic:
the head revision is read from the revision files' text (their module-level `revision` and
`down_revision` assignments) and the current one with one query. Alembic is imported only to
upgrade. The migrations live in this package (`migrations/`, revision files in `versions/`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import psycopg

from .sql import PlainSession

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def alembic_config(url: str | None = None) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("path_separator", "os")
    config.set_main_option("script_location", str(MIGRATIONS))
    if url:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


# a module-level `revision = "0007"` or `down_revision: str | None = "0006"` (None: no match)
_ASSIGNED = re.compile(
    r"^(?P<name>revision|down_revision)\s*(?::[^=\n]+)?=\s*(?P<q>[\"'])(?P<value>[^\"'\n]+)(?P=q)",
    re.MULTILINE,
)


def _assigned(path: Path) -> dict[str, str]:
    """The revision ids a revision file assigns at module level (read as text: parsing each
    file's syntax tree cost a fresh command a tenth of a second)."""
    text = path.read_text(encoding="utf-8")
    return {m["name"]: m["value"] for m in _ASSIGNED.finditer(text)}


@lru_cache(maxsize=1)
def head_revision() -> str | None:
    """The revision no other revision builds on (read from the revision files)."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in (MIGRATIONS / "versions").glob("*.py"):
        assigned = _assigned(path)
        if "revision" in assigned:
            revisions.add(assigned["revision"])
        if "down_revision" in assigned:
            parents.add(assigned["down_revision"])
    heads = sorted(revisions - parents)
    return heads[0] if len(heads) == 1 else None


def plain_revision(session: PlainSession) -> str | None:
    """The database's schema revision, read on a plain session (None: an empty database)."""
    try:
        with session.begin_nested():
            found = session.execute("SELECT version_num FROM alembic_version").scalar()
            return None if found is None else str(found)
    except psycopg.errors.UndefinedTable:
        return None


def upgrade(url: str, revision: str = "head") -> None:
    from alembic import command

    command.upgrade(alembic_config(url), revision)
