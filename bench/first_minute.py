"""A new user's first minute, timed as separate processes the way a user meets them: the
first `pi ingest` of the sample filings into a new PI_HOME (the models prepared once per
user beforehand, as any earlier use leaves them), `pi --version`, a fresh `pi ask` of the
README's question, and the embedded server's `shared_buffers`.

    python bench/first_minute.py [--runs 5] [--folder examples/filings]

Prints each wall time and the 1-minute load average beside them: compare runs only at a
similar load. The processes may write their bytecode caches (PYTHONDONTWRITEBYTECODE is
dropped from their environment), as an installed package has them: pip compiles them at
install, and without them each process compiles every module it imports again.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
QUESTION = "Best Buy Q2 FY2024 comparable sales"


def _pi() -> list[str]:
    found = shutil.which("pi", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "pageindex_platform.cli.main"]


def _timed(args: list[str], env: dict[str, str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--folder", type=Path, default=REPO / "examples" / "filings")
    args = parser.parse_args()
    pi = _pi()
    with tempfile.TemporaryDirectory(prefix="pi-first-minute-") as home:
        env = {**os.environ, "PI_HOME": home}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        print(f"load average (1 min): {os.getloadavg()[0]:.2f}")
        seconds, _ = _timed([*pi, "ingest", str(args.folder)], env)
        print(f"first ingest of {args.folder.name} in a new home: {seconds:.2f} s")
        versions = [_timed([*pi, "--version"], env)[0] for _ in range(args.runs)]
        print(f"pi --version: {min(versions):.2f}-{max(versions):.2f} s ({args.runs} runs)")
        asks = [_timed([*pi, "ask", QUESTION], env) for _ in range(args.runs + 1)]
        walls = [s for s, _ in asks[1:]]  # the first starts the stopped server's caches
        print(f"fresh pi ask: first {asks[0][0]:.2f} s, then {min(walls):.2f}-{max(walls):.2f} s")
        print(f"  {asks[-1][1].splitlines()[0]}")
        status = _timed([*pi, "db", "status"], env)[1]
        print(next((line for line in status.splitlines() if "buffers" in line), status.strip()))
        print(f"load average (1 min): {os.getloadavg()[0]:.2f}")
        subprocess.run([*pi, "db", "stop"], env=env, capture_output=True, check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
