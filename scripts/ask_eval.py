"""Retrieval quality of `pi ask` on the dev questions: doc_acc@1 (the top document is a gold
evidence document) and page_recall@5 (a gold evidence page is among the first 5 citations),
with latency. Runs the same code path as `pi ask` against the configured database, which must
hold the dev filings (`pi ingest ../shared/financebench-dev/pdfs`).

    python scripts/ask_eval.py [--questions FILE] [--route auto] [-v]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from pageindex_platform.database import session_scope
from pageindex_platform.embeddings import get_embedder
from pageindex_platform.search.pipeline import ask
from pageindex_platform.search.router import Route

DEV = Path(__file__).resolve().parents[2] / "shared" / "financebench-dev"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, default=DEV / "questions.jsonl")
    parser.add_argument("--route", type=Route, default=Route.AUTO)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    questions = [json.loads(x) for x in args.questions.read_text().splitlines() if x.strip()]
    embedder = get_embedder()
    embedder.embed(["warm up"])
    doc_hits = page_hits = 0
    latencies = []
    routes: dict[str, int] = {}
    for q in questions:
        gold_docs = {e["doc_name"] for e in q["evidence"]}
        gold_pages = {(e["doc_name"], e["evidence_page_num"] + 1) for e in q["evidence"]}
        started = time.perf_counter()
        with session_scope() as session:
            answer = ask(session=session, question=q["question"], route=args.route,
                         embedder=embedder)  # fmt: skip
        latencies.append(time.perf_counter() - started)
        routes[answer.route] = routes.get(answer.route, 0) + 1
        top = answer.documents[0].name if answer.documents else None
        doc_ok = top in gold_docs
        cited = [(c.document, c.page) for c in answer.citations[:5]]
        page_ok = bool(gold_pages & set(cited))
        doc_hits += doc_ok
        page_hits += page_ok
        if args.verbose and not (doc_ok and page_ok):
            print(f"  miss doc={'ok' if doc_ok else top} page={'ok' if page_ok else cited[:3]} "
                  f"gold={sorted(gold_pages)[:2]} q={q['question'][:80]!r}")  # fmt: skip
    n = len(questions)
    latencies.sort()
    print(
        f"questions {n}: doc_acc@1 {doc_hits / n:.3f} ({doc_hits}/{n}), "
        f"page_recall@5 {page_hits / n:.3f} ({page_hits}/{n})"
    )
    print(
        f"latency in process: p50 {1000 * statistics.median(latencies):.0f} ms, "
        f"p95 {1000 * latencies[int(0.95 * (n - 1))]:.0f} ms; routes {routes}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
