"""How reading time grows with a hostile file's size: every pathological input of
`tests/pathological.py` (dot leaders, whitespace runs, repeated unterminated marks, deep
nesting, for every reader) prepared at 10 KB and at 200 KB, without a database. A linear
reader takes about 20x as long for 20x the bytes. Each input is read in a process of its own,
stopped after `--limit` seconds (shown as "over"), so the script also measures code that has
no time budget of its own.

    python bench/parse_complexity.py [--limit 20]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests import pathological

_CHILD = """
import sys, time
from pathlib import Path
from pageindex_platform.errors import InputError
from pageindex_platform.index.build import BuildOptions, prepare_document
started = time.perf_counter()
try:
    prepare_document(Path(sys.argv[1]), BuildOptions())
    outcome = "read"
except InputError:
    outcome = "refused"
print(time.perf_counter() - started, outcome)
"""


def _seconds(path: Path, limit: float) -> tuple[float, str]:
    """Seconds to prepare `path` in a process of its own, stopped after `limit`."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, str(path)],
            capture_output=True,
            text=True,
            timeout=limit + 10,  # the child's imports
        )
    except subprocess.TimeoutExpired:
        return limit, "over"
    seconds, outcome = done.stdout.split()
    return float(seconds), outcome


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=20.0, help="seconds per input")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="pi-complexity-"))
    small = dict(pathological.cases(10_000))
    print(f"{'input':28} {'10 KB':>8} {'200 KB':>8} {'ratio':>6}  outcome")
    worst = 0.0
    for name, data in pathological.cases(200_000):
        times = []
        for size, content in (("10k", small[name]), ("200k", data)):
            path = folder / f"{size}-{name}"
            path.write_bytes(content)
            times.append(_seconds(path, args.limit))
        (t_small, _), (t_large, outcome) = times
        ratio = t_large / max(t_small, 1e-3)
        worst = max(worst, t_large)
        print(f"{name:28} {t_small:8.3f} {t_large:8.3f} {ratio:6.1f}  {outcome}")
    print(f"slowest 200 KB input: {worst:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
