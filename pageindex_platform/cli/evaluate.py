"""`pi eval`: measure retrieval against naive baselines on the same database."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..api import Route
from ..errors import InputError
from .ask import RouteFlag
from .common import JsonFlag, ModeFlag, handle_errors, open_corpus, print_json

if TYPE_CHECKING:
    from ..evaluate.financebench import EvalResult

app = typer.Typer(
    rich_markup_mode=None,
    help="Measure retrieval (documents, pages) against naive baselines in the same run.",
    no_args_is_help=True,
)


def _ks(value: str) -> list[int]:
    try:
        ks = sorted({int(x) for x in value.split(",") if x.strip()})
    except ValueError:
        raise typer.BadParameter("a comma-separated list of integers, e.g. 1,3,5,10") from None
    if not ks or ks[0] < 1 or ks[-1] > 10:
        raise typer.BadParameter("each k must be between 1 and 10")
    return ks


@app.command()
@handle_errors
def financebench(
    questions: Annotated[
        Path, typer.Option("--questions", help="FinanceBench questions JSONL (0-based pages).")
    ],
    documents: Annotated[
        Path, typer.Option("--documents", help="FinanceBench documents JSONL (doc_name, ...).")
    ],
    pdfs: Annotated[Path, typer.Option("--pdfs", help="Folder with <doc_name>.pdf files.")],
    mode: ModeFlag = None,
    k: Annotated[
        str, typer.Option("--k", help="Cut-offs for doc_recall@k and page_recall@k (≤ 10).")
    ] = "1,3,5,10",
    out: Annotated[
        Path, typer.Option("--out", help="Folder for report.md, report.json, page_recall.png.")
    ] = Path("eval-report"),
    gold_metadata: Annotated[
        bool,
        typer.Option(
            "--gold-metadata",
            help="Store the documents file's company, type and year as document metadata "
            "(as `pi ingest --metadata` would) instead of relying on extracted metadata.",
        ),
    ] = False,
    score_answers: Annotated[
        bool,
        typer.Option(
            "--score-answers",
            help="llm mode: score answers (numbers must match numeric gold answers).",
        ),
    ] = False,
    judge: Annotated[
        bool,
        typer.Option("--judge", help="With --score-answers: the model judges non-numeric ones."),
    ] = False,
    route: RouteFlag = Route.AUTO,
    as_json: JsonFlag = False,
) -> None:
    """Ingest the PDFs not yet ingested (metadata extracted as `pi ingest` does), run every
    question through the `pi ask` pipeline and through two baselines — pgvector top-k chunks
    over all documents, and Postgres full-text top-k pages — and report doc_acc@1,
    doc_recall@k, page_recall@k, MRR, routes, latency and LLM use side by side."""
    from ..evaluate.financebench import evaluate_financebench, load_gold, load_questions
    from ..evaluate.report import write_report
    from .ingest import run_ingest

    ks = _ks(k)
    if not pdfs.is_dir():
        raise InputError(pdfs, "not a folder of PDFs")
    items = load_questions(questions)
    gold = load_gold(documents)  # read and checked even when not stored

    def progress(done: int, total: int) -> None:
        if done % 10 == 0 or done == total:
            typer.echo(f"questions: {done}/{total}", err=True)

    with open_corpus(mode, say_mode=True) as corpus:

        def ingest(paths: list[Path], overrides: dict[str, dict[str, Any]] | None) -> Any:
            report = run_ingest(
                corpus, paths, metadata=overrides, lines_to_stderr=True, follow_links=True
            )
            d = report.summary()
            typer.echo(
                f"ingest: {d.stored} stored, {d.skipped} already stored, {d.failed} failed",
                err=True,
            )
            return report

        result = evaluate_financebench(
            corpus=corpus,
            questions=items,
            gold=gold if gold_metadata else None,
            pdfs=pdfs,
            ks=ks,
            ingest=ingest,
            score_answers=score_answers,
            judge=judge,
            route=route,
            progress=progress,
        )
    if not result.summaries:
        raise InputError(questions, "no question's evidence document is in the database")
    paths = write_report(result, out)
    if as_json:
        print_json(result.to_dict() | {"files": {key: str(p) for key, p in paths.items()}})
        return
    _print_report(result, paths, ks)


def _print_report(result: EvalResult, paths: dict[str, Path], ks: list[int]) -> None:
    """The report's tables, routes and misses, and where its files are."""
    from ..evaluate.report import table

    typer.echo(table(result.summaries, ks))
    ours = result.summaries[0]
    typer.echo("\nroutes: " + ", ".join(f"{r} {n}" for r, n in sorted(ours.routes.items())))
    if ours.answer_accuracy is not None:
        typer.echo(f"answer accuracy: {ours.answer_accuracy:.3f}")
    if result.skipped:
        typer.echo(f"left out {len(result.skipped)} question(s): evidence document not stored")
    also = ", ".join(str(paths[key]) for key in ("json", "chart") if key in paths)
    typer.echo(f"{len(result.misses())} misses listed in {paths['markdown']}; also {also}")
    if "chart" not in paths:
        typer.echo(
            "no page_recall.png: pip install 'pageindex-platform[eval]' for the chart", err=True
        )
