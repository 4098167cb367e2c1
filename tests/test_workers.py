"""Several `pi ingest` processes on one folder divide it: each document is claimed by one
worker; a claim whose lease expired, or whose process on this machine is gone, is taken
over."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import text

from pageindex_platform.database import session_scope
from pageindex_platform.index import pipeline

from .helpers import run_json

REPO = Path(__file__).resolve().parents[1]


def _claims() -> dict[str, str]:
    with session_scope() as session:
        rows = session.execute(text("SELECT name, worker FROM ingest_claims"))
        return {name: worker for name, worker in rows}


@pytest.mark.parametrize("workers", [2, 4])
def test_concurrent_ingests_store_every_file_exactly_once(
    workers: int, samples: Path, database_url: str
) -> None:
    env = {**os.environ, "PI_EMBEDDER": "hash", "PI_DATABASE_URL": database_url}
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "cli.main", "ingest", str(samples), "--json"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            text=True,
            cwd=REPO,
        )
        for _ in range(workers)
    ]
    reports = []
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        reports.append(json.loads(out))
    stored = [f["name"] for r in reports for f in r["files"] if f["status"] == "stored"]
    assert sorted(stored) == sorted(p.stem for p in samples.iterdir())  # each exactly once
    assert sum(r["failed"] for r in reports) == 0
    assert len(run_json("docs", "list")) == len(stored)
    assert _claims() == {}  # every claim released with its document


def test_a_live_claim_is_left_alone_and_an_expired_one_taken_over(small_pdf: Path) -> None:
    name = small_pdf.stem
    with session_scope() as session:
        session.execute(
            text("INSERT INTO ingest_claims VALUES (:n, 'elsewhere:1:abc', now() + :lease)"),
            {"n": name, "lease": timedelta(hours=1)},
        )
    report = pipeline.ingest_paths(paths=[small_pdf], parallel=False)
    assert [(f.status, f.error) for f in report.files] == [("skipped", "claimed by another worker")]
    assert run_json("docs", "list") == []
    with session_scope() as session:  # that worker's lease runs out (its machine died)
        session.execute(text("UPDATE ingest_claims SET expires_at = now() - interval '1 second'"))
    report = pipeline.ingest_paths(paths=[small_pdf], parallel=False)
    assert [f.status for f in report.files] == ["stored"] and _claims() == {}


def test_a_claim_of_a_killed_process_on_this_machine_is_taken_over_at_once(
    small_pdf: Path,
) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    import socket

    with session_scope() as session:
        session.execute(
            text("INSERT INTO ingest_claims VALUES (:n, :w, now() + interval '1 hour')"),
            {"n": small_pdf.stem, "w": f"{socket.gethostname()}:{dead}:abc"},
        )
    report = pipeline.ingest_paths(paths=[small_pdf], parallel=False)
    assert [f.status for f in report.files] == ["stored"] and _claims() == {}
