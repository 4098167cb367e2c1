"""Which worker ingests which document: a claim per document name in `ingest_claims` (one
INSERT ... ON CONFLICT with a lease), taken before the document is prepared, renewed before
it is embedded and released in the transaction that stores it. A claim of a worker on this
machine whose process is gone is taken over at once; one from another machine when its lease
(PI_INGEST_LEASE_SECONDS) expires."""

from __future__ import annotations

import hashlib
import logging
import os
import socket
import uuid
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from ..db import queries
from ..db.embedded import process_alive
from ..db.engine import Database, database_gone
from ..db.sql import Session, text
from .build import document_name

if TYPE_CHECKING:
    from ..db.orm import OrmSession

logger = logging.getLogger(__name__)

WORKER = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class Claim(StrEnum):
    """Whether a file's document is this worker's to build."""

    OURS = "ours"
    ELSEWHERE = "claimed by another worker"  # another worker holds a live claim
    STORED = "stored meanwhile"  # another worker stored this very file after the batch looked


def file_sha256(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None  # prepare_document reports the problem


class Claims:
    """This worker's claims in one corpus's database."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.lease = db.settings.ingest_lease_seconds

    def claim(self, name: str) -> bool:
        """Claim a document for this worker (or renew its claim): true unless another
        worker holds a claim that has not expired. One statement, so two workers cannot
        both win."""
        with self.db.session() as session:
            won = session.execute(
                text(
                    "INSERT INTO ingest_claims (name, worker, expires_at) "
                    "VALUES (:n, :w, now() + make_interval(secs => :lease)) "
                    "ON CONFLICT (name) DO UPDATE SET worker = EXCLUDED.worker, "
                    "expires_at = EXCLUDED.expires_at "
                    "WHERE ingest_claims.expires_at < now() "
                    "OR ingest_claims.worker = EXCLUDED.worker "
                    "RETURNING worker"
                ),
                {"n": name, "w": WORKER, "lease": self.lease},
            ).first()
            return won is not None or _take_over(session, name, self.lease)

    def renew(self, name: str) -> bool:
        """`claim`, going ahead when the database cannot be reached: storing the document
        will meet the same problem and stop the batch with its explanation (or
        reconnect)."""
        try:
            return self.claim(name)
        except Exception as exc:
            if database_gone(exc):
                return True
            raise

    def take(self, path: Path, force: bool) -> Claim:
        """Claim `path`'s document for this worker, unless another worker has it or stored
        this very file meanwhile (`force`: rebuild it all the same)."""
        name = document_name(path)
        if not self.renew(name):
            return Claim.ELSEWHERE
        if not force:
            try:
                with self.db.session() as session:
                    sha = queries.stored_sha256(session, name)
            except Exception as exc:
                if database_gone(exc):
                    return Claim.OURS
                raise
            if sha is not None and sha == file_sha256(path):
                self.release(name)
                return Claim.STORED
        return Claim.OURS

    def release(self, name: str) -> None:
        """Drop this worker's claim (it expires on its own when the database is gone)."""
        try:
            with self.db.session() as own:
                release_in(own, name)
        except Exception as exc:
            if not database_gone(exc):
                raise
            logger.info("%s: claim not released (the database is gone); it expires", name)


def release_in(session: Session, name: str) -> None:
    """Drop this worker's claim inside the caller's transaction (the one storing it)."""
    session.execute(
        text("DELETE FROM ingest_claims WHERE name = :n AND worker = :w"),
        {"n": name, "w": WORKER},
    )


def _take_over(session: OrmSession, name: str, lease: float) -> bool:
    """Take the claim of a worker on this machine whose process is gone (killed)."""
    holder = session.scalar(text("SELECT worker FROM ingest_claims WHERE name = :n"), {"n": name})
    host, _, rest = (holder or "").partition(":")
    pid = rest.partition(":")[0]
    if host != socket.gethostname() or not pid.isdigit() or process_alive(int(pid)):
        return False
    taken = session.execute(
        text(
            "UPDATE ingest_claims SET worker = :w, "
            "expires_at = now() + make_interval(secs => :lease) "
            "WHERE name = :n AND worker = :holder RETURNING worker"
        ),
        {"n": name, "w": WORKER, "lease": lease, "holder": holder},
    ).first()
    if taken is not None:
        logger.info("%s: claim of a stopped worker (%s) taken over", name, holder)
    return taken is not None
