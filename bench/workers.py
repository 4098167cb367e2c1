"""Several `pi ingest` processes dividing one folder: for 1, 2 and 4 processes started
together on a fresh PI_HOME, the wall time, how many files each stored, and whether every
file was stored exactly once with no failure. The processes share the machine's CPU slots
(one per core), so 4 processes on 2 cores should take about the time of 2.

    python bench/workers.py [--folder DIR] [--files N] [--workers 1,2,4]

The embedded server is started and the models prepared (once per user) before the clock
starts; `--folder` takes every filing in it (links followed), else the N smallest dev PDFs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEV = Path(__file__).resolve().parents[2] / "shared" / "financebench-dev" / "pdfs"
REPO = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, help="a folder of filings (default: dev PDFs)")
    parser.add_argument("--files", type=int, default=8, help="the N smallest dev PDFs")
    parser.add_argument("--workers", default="1,2,4")
    args = parser.parse_args()
    if args.folder:
        files = sorted(p for p in args.folder.iterdir() if p.suffix.lower() == ".pdf")
    else:
        files = sorted(DEV.glob("*.pdf"), key=lambda p: p.stat().st_size)[: args.files]
    print(f"{len(files)} files: {', '.join(f.stem for f in files)}")
    pi = [sys.executable, "-m", "pageindex_platform.cli.main"]
    prepare = "from pageindex_platform.embeddings import prepare_models as p; "
    prepare += "from pageindex_platform.settings import load_settings as s; p(settings=s())"
    subprocess.run([sys.executable, "-c", prepare], cwd=REPO, check=True)
    times: dict[int, float] = {}
    for count in (int(x) for x in args.workers.split(",")):
        home = Path(tempfile.mkdtemp(prefix="pi-workers-"))
        folder = home / "filings"
        folder.mkdir()
        for f in files:
            (folder / f.name).symlink_to(f.resolve())
        env = {**os.environ, "PI_HOME": str(home)}
        subprocess.run([*pi, "db", "upgrade"], env=env, cwd=REPO, capture_output=True, check=True)
        load = os.getloadavg()[0]
        started = time.perf_counter()
        procs = [
            subprocess.Popen(
                [*pi, "ingest", str(folder), "--follow-links", "--json"],
                env=env,
                cwd=REPO,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
            for _ in range(count)
        ]
        outs = [p.communicate()[0] for p in procs]
        seconds = times[count] = time.perf_counter() - started
        reports = [json.loads(o) for o in outs]
        for r in reports:
            if "files" not in r:
                print(f"  a process failed: {r}")
                r.update(files=[], failed=1)
        stored = [f["name"] for r in reports for f in r["files"] if f["status"] == "stored"]
        once = sorted(stored) == sorted(f.stem for f in files)
        failed = sum(r["failed"] for r in reports)
        codes = [p.returncode for p in procs]
        print(
            f"{count} process(es): {seconds:.1f} s for {len(files)} files; stored per process "
            f"{[sum(f['status'] == 'stored' for f in r['files']) for r in reports]}; "
            f"each file once: {once}; failed: {failed}; exit codes {codes}; "
            f"load {load:.1f} -> {os.getloadavg()[0]:.1f}"
        )
        subprocess.run([*pi, "db", "stop"], env=env, cwd=REPO, capture_output=True)
        shutil.rmtree(home, ignore_errors=True)
    cores = os.cpu_count() or 1
    if cores in times:
        for count, seconds in times.items():
            if count > cores:
                print(f"{count} processes take {seconds / times[cores]:.2f}x the time of {cores}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
