"""The database: a corpus's `Database` (engine and sessions, `engine`), the embedded
PostgreSQL (`embedded`), the tables (`tables`), Alembic migrations (`migrate`,
`migrations/`) and the typed reads (`queries`)."""

from .embedded import postmaster_pid, process_alive, stop_embedded
from .engine import Database, DatabaseStatus, explain_failure

__all__ = [
    "Database",
    "DatabaseStatus",
    "explain_failure",
    "postmaster_pid",
    "process_alive",
    "stop_embedded",
]
