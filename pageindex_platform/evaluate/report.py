"""The eval report: a markdown table (our system against the baselines) with the misses, a
JSON file and, with the `eval` extra (matplotlib), a PNG chart of page_recall@k for k = 1..10."""

from __future__ import annotations

import json
import logging
from pathlib import Path

from .financebench import MISS_K, OURS, EvalResult
from .metrics import RANK_LIMIT, Summary

logger = logging.getLogger(__name__)


def table(summaries: list[Summary], ks: list[int]) -> str:
    """One row per system: doc_acc@1, doc_recall@k, page_recall@k, MRR, latency, LLM use."""
    head = (
        ["system", "doc_acc@1"]
        + [f"doc_recall@{k}" for k in ks]
        + [f"page_recall@{k}" for k in ks]
        + ["MRR", "p50 ms", "p95 ms", "LLM calls", "tokens"]
    )
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for s in summaries:
        cells = (
            [s.system, f"{s.doc_acc_at_1:.3f}"]
            + [f"{s.doc_recall[k]:.3f}" for k in ks]
            + [f"{s.page_recall[k]:.3f}" for k in ks]
            + [
                f"{s.mrr:.3f}",
                f"{s.latency_p50_ms:.0f}",
                f"{s.latency_p95_ms:.0f}",
                str(s.calls),
                str(s.prompt_tokens + s.completion_tokens),
            ]
        )
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _cell(value: str) -> str:
    return " ".join(value.replace("|", "/").split())


def _pages(pages: list[list[object]], n: int = 3) -> str:
    return ", ".join(f"{d} p.{p}" for d, p in pages[:n]) or "—"


def markdown(result: EvalResult) -> str:
    ks = result.settings["ks"]
    ours = next(s for s in result.summaries if s.system == OURS)
    parts = [
        "# Retrieval evaluation",
        "",
        f"{result.settings.get('questions', 0)} questions, mode {result.settings.get('mode')}, "
        f"{result.settings.get('documents', '?')} documents from the PDF folder. Pages are "
        "1-based; a page counts when it is a gold evidence page of the question.",
        "",
        table(result.summaries, ks),
        "",
        "Routes chosen: " + ", ".join(f"{k} {v}" for k, v in sorted(ours.routes.items())),
    ]
    if ours.answer_accuracy is not None:
        parts.append(f"Answer accuracy (numbers / judge): {ours.answer_accuracy:.3f}")
    if result.skipped:
        parts.append(
            f"Left out (evidence documents not in the database): {', '.join(result.skipped)}"
        )
    misses = result.misses()
    parts += [
        "",
        f"## Misses: no gold page among our first {MISS_K} citations ({len(misses)})",
        "",
        "| question | gold | we returned | first gold rank |",
        "|---|---|---|---|",
    ]
    for q in misses:
        mine = q["systems"][OURS]
        rank = mine["first_gold_rank"]
        gold = _pages(q["gold_pages"], 2)
        parts.append(
            f"| {_cell(q['question'][:160])} | {gold} | {_pages(mine['pages'])} "
            f"| {rank if rank else f'> {RANK_LIMIT}'} |"
        )
    return "\n".join(parts) + "\n"


def chart(result: EvalResult, path: Path) -> None:
    """page_recall@k for k = 1..10, one line per system."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ks = list(range(1, RANK_LIMIT + 1))
    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=120)
    for s in result.summaries:
        ax.plot(ks, [s.page_recall[k] for k in ks], marker="o", label=s.system)
    ax.set_xlabel("k (citations / pages returned)")
    ax.set_ylabel("page_recall@k")
    ax.set_ylim(0, 1)
    ax.set_xticks(ks)
    ax.grid(alpha=0.3)
    ax.set_title(
        f"Gold evidence page among the first k ({result.settings.get('questions')} questions)"
    )
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def write_report(result: EvalResult, out: Path) -> dict[str, Path]:
    """report.md, report.json and page_recall.png in `out` (created); the chart only where
    matplotlib is installed (`pip install 'pageindex-platform[eval]'`), else no "chart" key."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {"markdown": out / "report.md", "json": out / "report.json"}
    paths["markdown"].write_text(markdown(result), encoding="utf-8")
    paths["json"].write_text(
        json.dumps(result.to_dict(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    try:
        chart(result, out / "page_recall.png")
    except ModuleNotFoundError as exc:
        if exc.name != "matplotlib":
            raise
        logger.info("no page_recall.png: matplotlib is not installed")
        return paths
    paths["chart"] = out / "page_recall.png"
    return paths
