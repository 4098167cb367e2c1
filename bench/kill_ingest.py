"""`kill -9` of `pi ingest` at random moments, then a re-run: what is left behind.

Ten filings (the first ten dev PDFs by default) are ingested into a fresh PI_HOME, rebuilt
(--force) and killed with SIGKILL at a random moment, ROUNDS times, each time checking that
none of its processes (the ingest, its parse workers) is left running; then one ingest runs
to the end.
Prints, per round, the kill time and leftover processes, and at the end the documents stored:
duplicates, missing files, half-written documents (not ready, no pages, no nodes, no chunks).

    python bench/kill_ingest.py [--rounds 10] [--files 10] [--folder DIR] [--seed 1]
                                [--embedder minilm|hash] [--window SECONDS]
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

DEV_PDFS = Path(__file__).resolve().parents[2] / "shared" / "financebench-dev" / "pdfs"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--files", type=int, default=10)
    parser.add_argument("--folder", type=Path, default=DEV_PDFS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--embedder", default="minilm", choices=["minilm", "hash"])
    parser.add_argument("--window", type=float, default=30.0, help="kill within these seconds")
    args = parser.parse_args()

    from pageindex_platform.db import process_alive

    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="pi-kill-"))
    folder = work / "filings"
    folder.mkdir()
    pdfs = sorted(args.folder.glob("*.pdf"))[: args.files]
    for pdf in pdfs:
        (folder / pdf.name).symlink_to(pdf)
    env = {**os.environ, "PI_HOME": str(work / "home"), "PI_EMBEDDER": args.embedder}
    env.pop("PI_DATABASE_URL", None)
    pi = str(Path(sys.executable).parent / "pi")
    subprocess.run([pi, "db", "upgrade"], env=env, check=True, capture_output=True)
    postgres = _postgres(work)

    left_behind = 0
    for round_ in range(1, args.rounds + 1):
        # --force: every round rebuilds all files, so a kill can land in any document's
        # replacement transaction (the stored version must survive it whole).
        run = subprocess.Popen(
            [pi, "ingest", str(folder), "--follow-links", "--force"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        after = rng.uniform(0.5, args.window)
        family: set[int] = {run.pid}
        deadline = time.monotonic() + after
        while time.monotonic() < deadline and run.poll() is None:
            try:  # everything the ingest started, but the database server it may have started
                family |= {p.pid for p in psutil.Process(run.pid).children(recursive=True)}
            except psutil.Error:
                break
            time.sleep(0.05)
        finished = run.poll() is not None
        if not finished:
            os.kill(run.pid, signal.SIGKILL)
        run.wait()
        time.sleep(2.0)  # time for orphans to notice
        alive = [pid for pid in family - postgres if process_alive(pid)]
        left_behind += len(alive)
        what = "finished first" if finished else f"killed at {after:4.1f}s"
        print(
            f"round {round_:2d}: {what}; processes seen {len(family)}, left running {len(alive)}",
            flush=True,
        )
        for pid in alive:
            print(f"    left: {pid} {' '.join(psutil.Process(pid).cmdline())[:120]}")
            os.kill(pid, signal.SIGKILL)

    final = subprocess.run(
        [pi, "ingest", str(folder), "--follow-links"], env=env, capture_output=True, text=True
    )
    print(f"re-run: exit {final.returncode}: {final.stdout.strip().splitlines()[-1]}")

    os.environ.update(PI_HOME=env["PI_HOME"])
    os.environ.pop("PI_DATABASE_URL", None)
    from sqlalchemy import text

    from pageindex_platform import Corpus
    from pageindex_platform.db import stop_embedded
    from pageindex_platform.settings import get_settings

    with Corpus.open().db.session() as session:
        rows = session.execute(
            text(
                "SELECT d.name, d.status, d.page_count, "
                "(SELECT count(*) FROM pages p WHERE p.document_id = d.id), "
                "(SELECT count(*) FROM nodes n WHERE n.document_id = d.id), "
                "(SELECT count(*) FROM chunks c WHERE c.document_id = d.id) FROM documents d"
            )
        ).all()
    stop_embedded(get_settings().pgdata)
    names = [r[0] for r in rows]
    duplicates = len(names) - len(set(names))
    missing = sorted({p.stem for p in pdfs} - set(names))
    half = [r[0] for r in rows if r[1] != "ready" or r[3] != r[2] or not r[4] or not r[5]]
    print(
        f"documents {len(rows)} of {len(pdfs)}: duplicates {duplicates}, missing "
        f"{len(missing)} {missing}, half-written {len(half)} {half}; processes left behind "
        f"over {args.rounds} kills: {left_behind}"
    )
    ok = not (duplicates or missing or half or left_behind or final.returncode)
    return 0 if ok else 1


def _postgres(work: Path) -> set[int]:
    """The embedded server's processes (started by `pi db upgrade`, meant to stay)."""
    from pageindex_platform.db import postmaster_pid

    pid = postmaster_pid(work / "home" / "pgdata")
    assert pid is not None, "pi db upgrade started no server"
    return {pid, *(p.pid for p in psutil.Process(pid).children(recursive=True))}


if __name__ == "__main__":
    sys.exit(main())
