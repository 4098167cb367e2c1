"""Whether the figure an answer states is the right one, and how often a wrong figure is
stated as the answer: questions with a gold number asked in local mode against the corpus the
environment points at (PI_HOME / PI_DATABASE_URL), through the public API as `pi ask` does.

    PI_HOME=DIR python bench/figure_trust.py --questions eval/held_out/more_figure_questions.jsonl \
        [--json OUT.json] [-v]

The stated figure is the answer's `headline` where the answer has that field (null: nothing
stated); for answers without it (code before `headline`), the figure the answer states first
(bench/first_figure.py's reading: a stated figure or computed metric, not an extracted line).
A stated figure is right when it equals the gold value within 1% at any scale (units,
thousands, millions, billions), sign ignored; else it is a wrong figure stated as the answer.
"Not sure" (no headline, candidates listed) is not wrong. A `not_stored` question is right
when no figure is stated and the answer says the company or period is not stored.

Rows: {"id", "question", "value" (the gold number; null for not_stored), "kind", "company",
"doc_name"} (eval/held_out/more_figure_questions.jsonl); FinanceBench rows (`answer` text,
no `value`) take the first number of the answer as gold.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from first_figure import first_figure, same

from pageindex_platform.evaluate.answers import numbers

_NOT_STORED = re.compile(r"\bno\b[^\n]{0,100}?\bis stored\b|\bnot stored\b", re.IGNORECASE)


def _gold(row: dict[str, Any]) -> float | None:
    if row.get("kind") == "not_stored":
        return None
    if row.get("value") is not None:
        return float(row["value"])
    found = numbers(str(row.get("answer", "")))
    return found[0] if found else None


def stated(answer: dict[str, Any]) -> float | None:
    """The figure the answer states as its answer (None: none stated)."""
    if "headline" in answer:
        headline = answer["headline"]
        return None if headline is None else float(headline["value"])
    value, is_stated = first_figure(str(answer.get("answer", "")))
    return value if is_stated else None


def outcome(row: dict[str, Any], answer: dict[str, Any]) -> str:
    """right / wrong (a figure stated that is not the gold) / not stated."""
    figure = stated(answer)
    if row.get("kind") == "not_stored":
        noticed = bool(_NOT_STORED.search(str(answer.get("answer", ""))))
        return "wrong" if figure is not None else "right" if noticed else "not stated"
    gold = _gold(row)
    if figure is None or gold is None:
        return "not stated"
    return "right" if same(figure, gold) else "wrong"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, required=True)
    parser.add_argument("--json", type=Path, help="write each question's outcome here")
    parser.add_argument("-v", "--verbose", action="store_true", help="list the wrong ones")
    args = parser.parse_args()

    from pageindex_platform import Corpus

    rows = [json.loads(x) for x in args.questions.read_text().splitlines() if x.strip()]
    corpus = Corpus.open(mode="local")
    tally: dict[str, Counter[str]] = {}
    results = []
    for row in rows:
        answer = corpus.ask(row["question"]).to_dict()
        result = outcome(row, answer)
        results.append({"id": row.get("id"), "outcome": result, "stated": stated(answer)})
        for key in ("all", f"kind {row.get('kind', '?')}", f"company {row.get('company', '?')}"):
            tally.setdefault(key, Counter())[result] += 1
        if args.verbose and result != "right":
            first = str(answer.get("answer", "")).splitlines()[:1]
            print(f"{result:>10}  {row.get('id')}: {row['question']} → {first}")
    print(f"{'':<40} {'questions':>9} {'right':>6} {'wrong':>6} {'not stated':>11}")
    for key, counts in sorted(tally.items(), key=lambda kv: (kv[0] != "all", kv[0])):
        total = sum(counts.values())
        print(
            f"{key:<40} {total:>9} {counts['right']:>6} {counts['wrong']:>6} "
            f"{counts['not stated']:>11}"
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")
    corpus.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
