"""Retrieval metrics over ranked documents and pages. Pages are (document, 1-based page)."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

PageKey = tuple[str, int]
RANK_LIMIT = 10  # every system returns at most this many documents and pages


@dataclass(frozen=True)
class Gold:
    documents: frozenset[str]
    pages: frozenset[PageKey]


@dataclass
class Ranking:
    """What one system returned for one question."""

    documents: list[str]
    pages: list[PageKey]
    seconds: float
    route: str | None = None
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    answer: str = ""
    answer_correct: bool | None = None


def first_gold_rank(pages: Sequence[PageKey], gold: Gold) -> int | None:
    """1-based rank of the first gold page, None when none is returned."""
    return next((i for i, p in enumerate(pages[:RANK_LIMIT], 1) if p in gold.pages), None)


def doc_hit(documents: Sequence[str], gold: Gold, k: int) -> bool:
    return any(d in gold.documents for d in documents[:k])


def page_hit(pages: Sequence[PageKey], gold: Gold, k: int) -> bool:
    return any(p in gold.pages for p in pages[:k])


def percentile(values: Sequence[float], q: float) -> float:
    """The value at quantile q (nearest rank; 0 for no values)."""
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


@dataclass
class Summary:
    system: str
    questions: int
    doc_acc_at_1: float
    doc_recall: dict[int, float]
    page_recall: dict[int, float]
    mrr: float
    latency_p50_ms: float
    latency_p95_ms: float
    routes: dict[str, int] = field(default_factory=dict)
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    answer_accuracy: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "questions": self.questions,
            "doc_acc@1": round(self.doc_acc_at_1, 4),
            "doc_recall": {f"@{k}": round(v, 4) for k, v in self.doc_recall.items()},
            "page_recall": {f"@{k}": round(v, 4) for k, v in self.page_recall.items()},
            "mrr": round(self.mrr, 4),
            "latency_ms": {
                "p50": round(self.latency_p50_ms, 1),
                "p95": round(self.latency_p95_ms, 1),
            },
            "routes": self.routes,
            "usage": {
                "calls": self.calls,
                "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens,
            },
            "answer_accuracy": self.answer_accuracy,
        }


def summarize(
    system: str, rankings: Sequence[Ranking], golds: Sequence[Gold], ks: Sequence[int]
) -> Summary:
    """Averages over questions: doc_acc@1, doc_recall@k, page_recall@k for each k (and for
    k = 1..10, for the chart), MRR of the first gold page (0 when absent), latency p50/p95."""
    n = len(rankings)
    if n == 0 or n != len(golds):
        raise ValueError("one ranking per question is needed")
    all_ks = sorted(set(ks) | set(range(1, RANK_LIMIT + 1)))
    ranks = [first_gold_rank(r.pages, g) for r, g in zip(rankings, golds, strict=True)]
    routes: dict[str, int] = {}
    for r in rankings:
        if r.route:
            routes[r.route] = routes.get(r.route, 0) + 1
    judged = [r.answer_correct for r in rankings if r.answer_correct is not None]
    latencies = [1000 * r.seconds for r in rankings]
    return Summary(
        system=system,
        questions=n,
        doc_acc_at_1=sum(doc_hit(r.documents, g, 1) for r, g in zip(rankings, golds, strict=True))
        / n,
        doc_recall={
            k: sum(doc_hit(r.documents, g, k) for r, g in zip(rankings, golds, strict=True)) / n
            for k in all_ks
        },
        page_recall={
            k: sum(page_hit(r.pages, g, k) for r, g in zip(rankings, golds, strict=True)) / n
            for k in all_ks
        },
        mrr=sum(1.0 / rank for rank in ranks if rank) / n,
        latency_p50_ms=statistics.median(latencies),
        latency_p95_ms=percentile(latencies, 0.95),
        routes=routes,
        calls=sum(r.calls for r in rankings),
        prompt_tokens=sum(r.prompt_tokens for r in rankings),
        completion_tokens=sum(r.completion_tokens for r in rankings),
        answer_accuracy=sum(judged) / len(judged) if judged else None,
    )
