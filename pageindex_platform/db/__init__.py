"""The database: engine and sessions (`engine`), the embedded PostgreSQL (`embedded`), the
tables (`tables`), Alembic migrations (`migrate`, `migrations/`) and the typed reads
(`queries`)."""

from .embedded import postmaster_pid, process_alive, stop_embedded
from .engine import (
    database_url,
    dispose_engines,
    explain_failure,
    get_engine,
    session_scope,
    status,
)

__all__ = [
    "database_url",
    "dispose_engines",
    "explain_failure",
    "get_engine",
    "postmaster_pid",
    "process_alive",
    "session_scope",
    "status",
    "stop_embedded",
]
