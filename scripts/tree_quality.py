"""Tree quality on the dev set: invariants for every PDF, and for the 10-K filings the share
whose tree has "Item 1A", "Item 7" and "Item 8" nodes starting on a page with that heading.

    python scripts/tree_quality.py [--pdfs DIR] [--documents FILE] [-v]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from pageindex_platform.index.build import BuildOptions, prepare_document
from pageindex_platform.index.text import item_label
from pageindex_platform.index.tree import check_tree

DEV = Path(__file__).resolve().parents[2] / "shared" / "financebench-dev"
ITEMS = ("1a", "7", "8")


def item_check(doc: object) -> dict[str, bool]:
    nodes = doc.all_nodes()  # type: ignore[attr-defined]
    pages = doc.pages  # type: ignore[attr-defined]
    result = {}
    for label in ITEMS:
        node = next((n for n in nodes if item_label(n.title) == label), None)
        ok = False
        if node is not None:
            rows = pages[node.start_page - 1].text.splitlines()
            ok = any(item_label(r) == label for r in rows)
        result[label] = ok
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pdfs", type=Path, default=DEV / "pdfs")
    parser.add_argument("--documents", type=Path, default=DEV / "documents.jsonl")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    kinds = {}
    if args.documents.exists():
        for line in args.documents.read_text().splitlines():
            row = json.loads(line)
            kinds[row["doc_name"]] = row["doc_type"]
    invalid = 0
    sources: Counter[str] = Counter()
    tenk = passed = 0
    per_item: Counter[str] = Counter()
    started = time.perf_counter()
    paths = sorted(args.pdfs.glob("*.pdf"))
    for path in paths:
        doc = prepare_document(path, BuildOptions())
        problems = check_tree(doc.tree, doc.page_count)
        sources[doc.tree_source] += 1
        if problems:
            invalid += 1
            print(f"INVALID {doc.name}: {problems[:3]}")
        is_10k = kinds.get(doc.name, "").lower() == "10k"
        if is_10k:
            tenk += 1
            checks = item_check(doc)
            per_item.update(k for k, v in checks.items() if v)
            passed += all(checks.values())
            if args.verbose and not all(checks.values()):
                print(f"  miss {doc.name} ({doc.tree_source}): {checks}")
    print(
        f"documents: {len(paths)}  invalid trees: {invalid}  "
        f"seconds: {time.perf_counter() - started:.1f}"
    )
    print("tree sources: " + ", ".join(f"{k}={v}" for k, v in sorted(sources.items())))
    if tenk:
        print(
            f"10-K filings with Item 1A, 7 and 8 on their heading pages: {passed}/{tenk} "
            f"= {passed / tenk:.1%}"
        )
        print("  per item: " + ", ".join(f"Item {k.upper()} {per_item[k]}/{tenk}" for k in ITEMS))
    return 1 if invalid else 0


if __name__ == "__main__":
    sys.exit(main())
