"""Two `pi eval financebench --json` results compared question by question: the documents and
pages our system returned (and the route), for checking that a change leaves retrieval as it
was, or for listing what it moved. Exits 1 when any question differs.

    python bench/compare_eval.py BEFORE.json AFTER.json [--system pageindex-platform]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

OURS = "pageindex-platform"


def _load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise SystemExit(f"{path}: cannot be read as JSON ({exc})") from None
    if not isinstance(data, dict) or "questions" not in data:
        raise SystemExit(f"{path}: not a `pi eval financebench --json` result (no questions)")
    return data


def _answers(data: dict[str, Any], system: str) -> dict[str, dict[str, Any]]:
    out = {}
    for q in data["questions"]:
        ours = q["systems"][system]
        out[q["id"]] = {
            "question": q["question"],
            "route": q.get("route"),
            "documents": ours["documents"],
            "pages": [tuple(p) for p in ours["pages"]],
        }
    return out


def _summary(data: dict[str, Any], system: str) -> str:
    s = next(x for x in data["systems"] if x["system"] == system)
    recall = s["page_recall"]
    return (
        f"doc_acc@1 {s['doc_acc@1']:.3f}, page_recall@1 {recall['@1']:.3f}, "
        f"@5 {recall['@5']:.3f}, MRR {s['mrr']:.3f}, p50 {s['latency_ms']['p50']:.0f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--system", default=OURS)
    args = parser.parse_args()
    before, after = _load(args.before), _load(args.after)
    old, new = _answers(before, args.system), _answers(after, args.system)
    print(f"before: {_summary(before, args.system)}")
    print(f"after:  {_summary(after, args.system)}")
    differ = 0
    for qid in sorted(old.keys() | new.keys()):
        a, b = old.get(qid), new.get(qid)
        if a is None or b is None:
            print(f"{qid}: only {'after' if a is None else 'before'}")
            differ += 1
            continue
        changed = [key for key in ("route", "documents", "pages") if a[key] != b[key]]
        if changed:
            differ += 1
            print(f"{qid}: {a['question'][:90]!r}")
            for key in changed:
                print(f"  {key}: {a[key]} -> {b[key]}")
    total = len(old.keys() | new.keys())
    print(f"{total - differ} of {total} questions: the same route, documents and pages")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
