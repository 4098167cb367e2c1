"""Leave-company-out figures from one `pi eval financebench` report: the development
companies split into two fixed halves (alphabetical order, alternating), each half's
questions scored on their own, and the whole set.

    python bench/company_split.py --report eval-report/report.json \
        --questions ../shared/financebench-dev/questions.jsonl [--half A|B] [--misses]

Retrieval has no trained parameters; "develop on one half, report on the other" means that
changes are judged by looking only at one half's misses (`--half A --misses`), and the
other half's figures are read as held out.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

OURS = "pageindex-platform"


def halves(companies: set[str]) -> dict[str, str]:
    """Company → "A" or "B": alphabetical order, alternating."""
    return {c: "AB"[i % 2] for i, c in enumerate(sorted(companies, key=str.lower))}


def figures(rows: list[dict[str, Any]]) -> dict[str, float]:
    n = len(rows) or 1
    ranks = [r["systems"][OURS]["first_gold_rank"] for r in rows]
    first = [(r["systems"][OURS]["documents"][:1], r["gold_documents"]) for r in rows]
    return {
        "questions": len(rows),
        "doc_acc@1": sum(bool(top) and top[0] in gold for top, gold in first) / n,
        "page_recall@1": sum(bool(k) and k <= 1 for k in ranks) / n,
        "page_recall@5": sum(bool(k) and k <= 5 for k in ranks) / n,
        "mrr": sum(1.0 / k for k in ranks if k) / n,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", type=Path, required=True, help="report.json of pi eval")
    parser.add_argument("--questions", type=Path, required=True, help="questions JSONL")
    parser.add_argument("--half", choices=["A", "B"], help="list this half's misses")
    parser.add_argument("--misses", action="store_true", help="print the misses of --half")
    args = parser.parse_args()
    report = json.loads(args.report.read_text())
    company = {}
    for line in args.questions.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            company[str(row["financebench_id"])] = row["company"]
    side = halves(set(company.values()))
    rows = report["questions"]
    print("| set | companies | questions | doc_acc@1 | page_recall@1 | page_recall@5 | MRR |")
    print("|---|---|---|---|---|---|---|")
    for label in ("A", "B", None):
        kept = [r for r in rows if label is None or side[company[r["id"]]] == label]
        names = sorted(c for c, s in side.items() if label is None or s == label)
        f = figures(kept)
        who = ", ".join(names) if label else f"all {len(names)}"
        print(
            f"| {label or 'all'} | {who} | {f['questions']} | {f['doc_acc@1']:.3f} | "
            f"{f['page_recall@1']:.3f} | {f['page_recall@5']:.3f} | {f['mrr']:.3f} |"
        )
    if args.misses and args.half:
        for r in rows:
            if side[company[r["id"]]] != args.half:
                continue
            ours = r["systems"][OURS]
            rank = ours["first_gold_rank"]
            if rank is None or rank > 5 or ours["documents"][:1] != r["gold_documents"][:1]:
                print(f"\n{r['id']} rank={rank} {r['question'][:160]}")
                print(f"  gold {r['gold_pages']}  got {ours['documents'][:2]} {ours['pages'][:5]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
