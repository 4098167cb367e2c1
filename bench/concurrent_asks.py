"""Questions while an ingest runs: N concurrent `pi ask` processes (fresh processes, as users
start them) against the configured corpus, first alone, then while `pi ingest --force`
rebuilds a folder of filings in the same database. Prints asks, errors and p50/p95 wall time
of each phase, and how long the ingest took.

    PI_HOME=... python bench/concurrent_asks.py [--askers 8] [--folder examples/filings]
        [--questions FILE] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEV = REPO.parent / "shared" / "financebench-dev"


def _pi() -> str:
    return shutil.which("pi") or str(Path(sys.executable).parent / "pi")


def _ask_loop(
    questions: list[str], start: int, stop: threading.Event, rounds: int
) -> list[tuple[float, str | None]]:
    """Ask questions one after another until `stop` is set (at least `rounds` of them)."""
    out: list[tuple[float, str | None]] = []
    i = start
    while len(out) < rounds or not stop.is_set():
        question = questions[i % len(questions)]
        i += 7
        began = time.perf_counter()
        done = subprocess.run([_pi(), "ask", question, "--json"], capture_output=True, text=True)
        wall = time.perf_counter() - began
        error = None
        if done.returncode != 0:
            error = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
        elif not json.loads(done.stdout).get("citations"):
            error = "no citation"
        out.append((wall, error))
        if len(out) >= 50:
            break
    return out


def _phase(
    name: str, questions: list[str], askers: int, rounds: int, stop: threading.Event
) -> None:
    with ThreadPoolExecutor(askers) as pool:
        futures = [pool.submit(_ask_loop, questions, k, stop, rounds) for k in range(askers)]
        results = [r for f in futures for r in f.result()]
    walls = sorted(w for w, _ in results)
    errors = [e for _, e in results if e]
    p95 = walls[int(0.95 * (len(walls) - 1))]
    print(
        f"{name}: {askers} concurrent `pi ask`, {len(results)} asks, {len(errors)} errors, "
        f"p50 {statistics.median(walls):.2f} s, p95 {p95:.2f} s, "
        f"max {walls[-1]:.2f} s"
    )
    for error in sorted(set(errors))[:5]:
        print(f"  error: {error}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--askers", type=int, default=8)
    parser.add_argument("--folder", type=Path, default=REPO / "examples" / "filings")
    parser.add_argument("--questions", type=Path, default=DEV / "questions.jsonl")
    parser.add_argument("--rounds", type=int, default=3, help="asks per asker, at least")
    args = parser.parse_args()
    questions = [json.loads(x)["question"] for x in args.questions.read_text().splitlines() if x]

    alone = threading.Event()
    alone.set()  # `rounds` asks each, then stop
    _phase("alone", questions, args.askers, args.rounds, alone)
    stop = threading.Event()
    ingest_wall: list[float] = []
    ingest_out: list[str] = []

    def ingest() -> None:
        began = time.perf_counter()
        done = subprocess.run(
            [_pi(), "ingest", str(args.folder), "--force"], capture_output=True, text=True
        )
        ingest_wall.append(time.perf_counter() - began)
        ingest_out.append(f"exit {done.returncode}: {done.stdout.strip().splitlines()[-1:]}")
        stop.set()

    thread = threading.Thread(target=ingest)
    thread.start()
    _phase("during ingest", questions, args.askers, args.rounds, stop)
    thread.join()
    print(f"ingest --force of {args.folder}: {ingest_wall[0]:.1f} s ({ingest_out[0]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
