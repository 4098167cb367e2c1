"""Question latency in local mode against the configured database: in-process p50/p95 over
the dev questions (same code path as `pi ask`), a first pass and a second one over the same
corpus (on a newly ingested corpus the first is what a user meets first), whether the second
pass answered every question as the first did, and `pi ask` as a fresh process.

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
from typing import Any

DEV = Path(__file__).resolve().parents[2] / "shared" / "financebench-dev"


def _pass(questions: list[str], corpus: Any) -> tuple[list[float], list[Any]]:
    """Each question asked once: the seconds it took, and its documents and citations."""
    times, shown = [], []
    for q in questions:
        started = time.perf_counter()
        answer = corpus.ask(q)
        times.append(time.perf_counter() - started)
        shown.append(([d.name for d in answer.documents], answer.citations))
    return times, shown


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, default=DEV / "questions.jsonl")
    parser.add_argument("--fresh", type=int, default=5, help="fresh `pi ask` processes to time")
    args = parser.parse_args()
    questions = [json.loads(x)["question"] for x in args.questions.read_text().splitlines() if x]

    from pageindex_platform import Corpus

    corpus = Corpus.open()  # the environment's (PI_HOME, PI_DATABASE_URL)
    corpus.search("warm up")  # the question model loaded, as after a first question
    answers = []
    for number in (1, 2):
        times, shown = _pass(questions, corpus)
        answers.append(shown)
        times.sort()
        print(
            f"in process, pass {number}: {len(times)} questions, "
            f"p50 {1000 * statistics.median(times):.0f} ms, "
            f"p95 {1000 * times[int(0.95 * (len(times) - 1))]:.0f} ms"
        )
    alike = sum(a == b for a, b in zip(*answers, strict=True))
    print(f"pass 2 answered as pass 1 (documents and citations): {alike} of {len(questions)}")

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
