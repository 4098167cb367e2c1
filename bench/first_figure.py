"""How often the local answer's first stated figure is the gold number: FinanceBench-format
questions whose gold answer holds a number, asked in local mode against the configured
database (same code path as `pi ask`). The first figure is the stated fact's value when the
answer starts with one, else the first number of the first extracted line (after a row's
label). It matches when equal to the gold number within 1% at any scale (units,
thousands, millions, billions), sign ignored. Also: how often the gold number is anywhere
in the answer, and how many stated figures (a figure or metric the answer states first, not
an extracted line) differ from the gold answer — each to be read: another line, segment or
period than asked is a wrong answer stated with confidence. Figures by question type
(FinanceBench's `question_type`: metrics-generated, domain-relevant, novel-generated).

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


def first_figure(answer: str) -> tuple[float | None, bool]:
    """(the first figure, whether the answer states it rather than quoting a line)."""
    for line in answer.splitlines():
        line = _SOURCE.sub("", line.strip())
        if re.match(r"[-+]?\$?\d", line):  # a stated figure or a computed metric
            found = numbers(line.split(" — ")[0])
            return (found[0] if found else None), True
        if line.startswith("- "):
            body = _PERIOD.sub("", line[2:])
            if ": " in body and re.search(r"\d", body.split(": ", 1)[1]):
                body = body.split(": ", 1)[1]
            found = numbers(body)
            if found:
                return found[0], False
    return None, False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, default=DEV / "questions.jsonl")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()

    from pageindex_platform import Corpus

    rows = [json.loads(x) for x in args.questions.read_text().splitlines() if x.strip()]
    numeric = [r for r in rows if numbers(str(r.get("answer", "")))]
    corpus = Corpus.open(mode="local")  # the environment's (PI_HOME, PI_DATABASE_URL)
    tally: dict[str, list[int]] = {}  # type → [questions, first ok, anywhere, stated wrong]
    for r in numeric:
        gold = numbers(str(r["answer"]))[0]
        answer = corpus.ask(r["question"]).answer
        figure, stated = first_figure(answer)
        hit = figure is not None and same(figure, gold)
        found = any(same(x, gold) for x in numbers(_PERIOD.sub("", answer)))
        wrong = stated and not hit
        for key in ("all", str(r.get("question_type") or "untyped")):
            row = tally.setdefault(key, [0, 0, 0, 0])
            row[0] += 1
            row[1] += hit
            row[2] += found
            row[3] += wrong
        if args.verbose:
            mark = "ok " if hit else "WRONG " if wrong else "in " if found else "-- "
            print(f"{mark}{r['question'][:80]!r} gold={gold:g} first={figure}")
            if wrong:
                print("      " + answer.split("\n\n")[-2 if "\n\n" in answer else 0][:300])
    print(f"{len(numeric)} questions with a numeric gold answer (of {len(rows)})")
    for key, (n, ok, anywhere, misstated) in sorted(tally.items()):
        print(
            f"{key:18} {n:3} questions: first stated figure matches {ok} ({ok / n:.1%}); gold "
            f"anywhere in the answer {anywhere} ({anywhere / n:.1%}); stated and not the gold "
            f"{misstated}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
