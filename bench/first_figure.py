"""How often the local answer's first stated figure is the gold number: FinanceBench-format
questions whose gold answer holds a number, asked in local mode against the configured
database (same code path as `pi ask`). The first figure is the stated fact's value when the
answer starts with one, else the first number of the first extracted line (after a row's
label). It matches when equal to the gold number within 1% at any scale (units,
thousands, millions, billions), sign ignored. Also: how often the gold number is anywhere
in the answer.

    python bench/first_figure.py [--questions FILE] [-v]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from pageindex_platform.evaluate.answers import numbers

DEV = Path(__file__).resolve().parents[2] / "shared" / "financebench-dev"
SCALES = (1e-9, 1e-6, 1e-3, 1.0, 1e3, 1e6, 1e9)
_SOURCE = re.compile(r"\s+\[[^\]]+, p\. \d+\]$")
_PERIOD = re.compile(r"\((?:[^()]*\bended\b[^()]*|as of [^()]*)\)")


def same(x: float, gold: float) -> bool:
    return any(abs(abs(x) * s - abs(gold)) <= 0.01 * max(abs(gold), 1e-9) for s in SCALES)


def first_figure(answer: str) -> float | None:
    for line in answer.splitlines():
        line = _SOURCE.sub("", line.strip())
        if line.startswith(("$", "-$")):  # a stated figure
            found = numbers(line.split(" — ")[0])
            return found[0] if found else None
        if line.startswith("- "):
            body = _PERIOD.sub("", line[2:])
            if ": " in body and re.search(r"\d", body.split(": ", 1)[1]):
                body = body.split(": ", 1)[1]
            found = numbers(body)
            if found:
                return found[0]
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, default=DEV / "questions.jsonl")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()

    from pageindex_platform.db import session_scope
    from pageindex_platform.embeddings.space import EmbeddingSpace
    from pageindex_platform.search.pipeline import ask

    rows = [json.loads(x) for x in args.questions.read_text().splitlines() if x.strip()]
    numeric = [r for r in rows if numbers(str(r.get("answer", "")))]
    with session_scope() as session:
        space = EmbeddingSpace.of_corpus(session)
    first_ok = anywhere = 0
    for r in numeric:
        gold = numbers(str(r["answer"]))[0]
        with session_scope() as session:
            answer = ask(session=session, question=r["question"], space=space).answer
        figure = first_figure(answer)
        hit = figure is not None and same(figure, gold)
        first_ok += hit
        found = any(same(x, gold) for x in numbers(_PERIOD.sub("", answer)))
        anywhere += found
        if args.verbose:
            print(
                f"{'ok ' if hit else 'in ' if found else '-- '}{r['question'][:80]!r} "
                f"gold={gold:g} first={figure}"
            )
    n = len(numeric)
    print(
        f"{n} questions with a numeric gold answer (of {len(rows)}): first stated figure "
        f"matches {first_ok} ({first_ok / n:.1%}); the gold number anywhere in the answer "
        f"{anywhere} ({anywhere / n:.1%})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
