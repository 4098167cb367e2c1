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

from pageindex_platform.index import pipeline

from .conftest import REPO
from .helpers import env_db, run_json, session_scope

# these kill, fill or time processes and servers: run alone (scripts/test.sh)
pytestmark = pytest.mark.serial


def _claims() -> dict[str, str]:
    with session_scope() as session:
        rows = session.execute(text("SELECT name, worker FROM ingest_claims"))
        return {name: worker for name, worker in rows}


@pytest.mark.slow
@pytest.mark.parametrize("workers", [2, 4])
def test_concurrent_ingests_store_every_file_exactly_once(
    workers: int, samples: Path, database_url: str
) -> None:
    env = {**os.environ, "PI_EMBEDDER": "hash", "PI_DATABASE_URL": database_url}
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "pageindex_platform.cli.main", "ingest", str(samples), "--json"],
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
    report = pipeline.ingest_paths(db=env_db(), paths=[small_pdf], parallel=False)
    assert [(f.status, f.error) for f in report.files] == [("skipped", "claimed by another worker")]
    assert run_json("docs", "list") == []
    with session_scope() as session:  # that worker's lease runs out (its machine died)
        session.execute(text("UPDATE ingest_claims SET expires_at = now() - interval '1 second'"))
    report = pipeline.ingest_paths(db=env_db(), paths=[small_pdf], parallel=False)
    assert [f.status for f in report.files] == ["stored"] and _claims() == {}


def test_a_claim_of_a_killed_process_on_this_machine_is_taken_over_at_once(
    small_pdf: Path,
) -> None:
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    import socket

    with session_scope() as session:
        session.execute(
            text("INSERT INTO ingest_claims VALUES (:n, :w, now() + interval '1 hour')"),
            {"n": small_pdf.stem, "w": f"{socket.gethostname()}:{dead}:abc"},
        )
    report = pipeline.ingest_paths(db=env_db(), paths=[small_pdf], parallel=False)
    assert [f.status for f in report.files] == ["stored"] and _claims() == {}


def _long_pdf(path: Path, pages: int = 400) -> Path:
    """A filing long enough that a worker is caught in the middle of it (seconds of work)."""
    import pymupdf

    doc = pymupdf.open()
    para = "Revenue from services increased on higher volumes and pricing actions. " * 6
    for i in range(pages):
        doc.new_page().insert_textbox(
            pymupdf.Rect(50, 50, 550, 780),
            f"Section {i // 20 + 1}\n" + (para + "\n") * 8,
            fontsize=9,
        )
    doc.save(path)
    return path


def _kill_when_claimed(name: str, proc: subprocess.Popen[str], timeout: float = 120.0) -> int:
    """Wait until a worker claims `name`, kill that worker (SIGKILL: no cleanup), return its
    pid. The claim is taken before the document is prepared, so the worker is mid-document."""
    import signal
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        worker = _claims().get(name)
        if worker:
            pid = int(worker.split(":")[1])
            os.kill(pid, signal.SIGKILL)
            return pid
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.02)
    raise AssertionError(f"no worker claimed {name}")


def _pi(*args: str, database_url: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PI_EMBEDDER": "hash", "PI_DATABASE_URL": database_url}
    return subprocess.Popen(
        [sys.executable, "-m", "pageindex_platform.cli.main", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
        cwd=REPO,
    )


def test_a_worker_killed_mid_document_leaves_nothing_and_another_finishes_it(
    tmp_path: Path, database_url: str
) -> None:
    folder = tmp_path / "batch"
    folder.mkdir()
    _long_pdf(folder / "LONGCO_2023_10K.pdf")
    proc = _pi("ingest", str(folder), "--json", database_url=database_url)
    pid = _kill_when_claimed("LONGCO_2023_10K", proc)
    proc.communicate(timeout=60)
    assert proc.returncode == -9
    assert run_json("docs", "list") == []  # nothing half-written
    assert _claims()["LONGCO_2023_10K"].split(":")[1] == str(pid)  # its claim is left behind
    report = run_json("ingest", str(folder))  # another worker: the dead one's claim is taken
    assert (report["stored"], report["failed"]) == (1, 0)
    assert run_json("docs", "show", "LONGCO_2023_10K")["page_count"] == 400
    assert _claims() == {}


@pytest.mark.slow
def test_workers_option_divides_the_batch_and_shows_each_file_once(
    samples: Path, database_url: str
) -> None:
    proc = _pi("ingest", str(samples), "--workers", "2", "--json", database_url=database_url)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    report = json.loads(out)
    names = sorted(f["name"] for f in report["files"])
    assert names == sorted(p.stem for p in samples.iterdir())  # each file once in the report
    assert report["stored"] == len(names) and report["failed"] == 0
    assert len(run_json("docs", "list")) == len(names) and _claims() == {}
    proc = _pi("ingest", str(samples), "--workers", "2", "--json", database_url=database_url)
    again = json.loads(proc.communicate(timeout=300)[0])  # unchanged: each skipped, once
    assert (again["stored"], again["skipped"], again["failed"]) == (0, len(names), 0)


@pytest.mark.slow
def test_a_killed_worker_of_workers_n_has_its_document_finished(
    samples: Path, database_url: str
) -> None:
    _long_pdf(samples / "LONGCO_2023_10K.pdf")
    proc = _pi("ingest", str(samples), "--workers", "2", "--json", database_url=database_url)
    _kill_when_claimed("LONGCO_2023_10K", proc)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    report = json.loads(out)
    assert report["failed"] == 0
    assert sorted(f["name"] for f in report["files"] if f["status"] == "stored") == sorted(
        p.stem for p in samples.iterdir()
    )
    assert run_json("docs", "show", "LONGCO_2023_10K")["page_count"] == 400
    assert _claims() == {}
