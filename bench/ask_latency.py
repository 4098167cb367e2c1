"""Question latency in local mode against the configured database: in-process p50/p95 over
the dev questions (same code path as `pi ask`), and `pi ask` as a fresh process.

    python bench/ask_latency.py [--questions FILE] [--fresh N]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

DEV = Path(__file__).resolve().parents[2] / "shared" / "financebench-dev"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, default=DEV / "questions.jsonl")
    parser.add_argument("--fresh", type=int, default=5, help="fresh `pi ask` processes to time")
    args = parser.parse_args()
    questions = [json.loads(x)["question"] for x in args.questions.read_text().splitlines() if x]

    from pageindex_platform.db import session_scope
    from pageindex_platform.embeddings.space import EmbeddingSpace
    from pageindex_platform.search.pipeline import ask

    with session_scope() as session:
        space = EmbeddingSpace.of_corpus(session)
    space.embed_question("warm up")
    times = []
    for q in questions:
        started = time.perf_counter()
        with session_scope() as session:
            ask(session=session, question=q, space=space)
        times.append(time.perf_counter() - started)
    times.sort()
    print(
        f"in process: {len(times)} questions, p50 {1000 * statistics.median(times):.0f} ms, "
        f"p95 {1000 * times[int(0.95 * (len(times) - 1))]:.0f} ms"
    )

    pi = shutil.which("pi") or str(Path(sys.executable).parent / "pi")
    walls = []
    for q in questions[: args.fresh]:
        started = time.perf_counter()
        subprocess.run([pi, "ask", q, "--json"], check=True, capture_output=True)
        walls.append(time.perf_counter() - started)
    if walls:
        median = statistics.median(walls)
        print(
            f"fresh process `pi ask`: {len(walls)} runs, median {median:.2f} s, "
            f"max {max(walls):.2f} s wall"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
