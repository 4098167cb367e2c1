"""`pi ingest`: files and folders → document trees in the database."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ..logs import log_to_stderr, shown_level
from ..settings import Mode
from .common import handle_errors, open_corpus, print_json

if TYPE_CHECKING:
    from ..api import Corpus, FileResult, IngestReport, Preparing, ProgressEvent


@handle_errors
def ingest(
    paths: Annotated[
        list[Path],
        typer.Argument(
            help="Filings (.pdf, .htm/.html, EDGAR .txt, .md) or folders (searched recursively)."
        ),
    ],
    force: Annotated[
        bool, typer.Option("--force", help="Rebuild documents even when unchanged.")
    ] = False,
    replace: Annotated[
        bool,
        typer.Option(
            "--replace",
            help="Let a file replace a stored document of the same name that came from "
            "another file (refused otherwise).",
        ),
    ] = False,
    metadata: Annotated[
        Path | None,
        typer.Option(
            "--metadata",
            help="CSV or JSONL keyed by file name; its fields override the extracted company, "
            "doc_type, fiscal_year, fiscal_period, title, description.",
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print a JSON summary (see README).")
    ] = False,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            min=1,
            help="Worker processes dividing the batch on this machine (each document is "
            "claimed by one; pi ingest processes on other machines against the same "
            "PI_DATABASE_URL join in the same way).",
        ),
    ] = 1,
    follow_links: Annotated[
        bool,
        typer.Option(
            "--follow-links",
            help="Ingest the files that links inside a folder lead to outside it (by default "
            "they are listed and left alone).",
        ),
    ] = False,
    mode: Annotated[
        Mode | None,
        typer.Option(
            "--mode",
            help="llm: an OpenAI-compatible model refines trees and writes summaries "
            "(PI_LLM_MODEL, PI_LLM_BASE_URL, PI_LLM_API_KEY); local: deterministic, no model. "
            "Default: llm when PI_LLM_MODEL is set, else local.",
        ),
    ] = None,
) -> None:
    """Parse, build trees, extract metadata, chunk and embed each file; store each in one
    transaction. Unchanged files are skipped; a bad file is reported and the rest go on.
    Exits 1 when any file failed."""
    from ..api import FileStatus

    with open_corpus(mode, say_mode=True) as corpus:
        report = run_ingest(
            corpus,
            paths,
            force=force,
            metadata=metadata,
            quiet=as_json,
            replace=replace,
            workers=workers,
            follow_links=follow_links,
        )
    if as_json:
        print_json(report.to_dict())
        for failed in (f for f in report.files if f.status == FileStatus.FAILED):
            typer.echo(f"Error: {failed.path}: {failed.error}", err=True)
    else:
        if report.ignored:
            n = len(report.ignored)
            typer.echo(
                f"ignored {n} file(s) inside folders: unsupported extensions, or .txt files "
                "that are not EDGAR submissions (name a plain .txt to ingest it)",
                err=True,
            )
        if report.not_followed:
            typer.echo(
                f"not followed: {len(report.not_followed)} link(s) leading outside the folder "
                f"({', '.join(report.not_followed[:3])}"
                f"{', ...' if len(report.not_followed) > 3 else ''}); --follow-links ingests them",
                err=True,
            )
        d = report.to_dict()
        typer.echo(
            f"{d['stored']} stored, {d['skipped']} skipped, {d['failed']} failed "
            f"({d['pages']} pages, {d['chunks']} chunks) in {d['seconds']:.1f}s"
        )
    if report.stopped:
        typer.echo(
            f"Error: stopped: {report.stopped}; {len(report.not_attempted)} file(s) not "
            "ingested — run the command again to finish",
            err=True,
        )
    if report.failed:
        raise typer.Exit(1)


def run_ingest(
    corpus: Corpus,
    paths: list[Path],
    *,
    quiet: bool = False,
    lines_to_stderr: bool = False,
    **options: Any,
) -> IngestReport:
    """`corpus.ingest(paths, **options)` with a progress bar on a terminal and one line per
    file (failures on stderr; the others on stdout, or stderr with `lines_to_stderr`; none
    when `quiet`)."""
    from ..api import BatchStarted, FileBegun, FileDone, Preparing, WorkerStopped

    err = Console(stderr=True)
    bar = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[pages]}"),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=not (err.is_terminal and not quiet),
    )
    task = bar.add_task("ingest", total=None, pages="0 pages")
    pages = 0
    preparing: dict[str, Any] = {}  # what is being prepared → its task on the bar

    def progress(event: ProgressEvent) -> None:
        nonlocal pages
        if isinstance(event, Preparing):
            _show_preparing(event, bar, preparing)
        elif isinstance(event, BatchStarted):
            bar.update(task, total=event.total)
        elif isinstance(event, FileBegun):  # the file now being embedded and stored
            bar.update(task, description=event.result.name[:40])
        elif isinstance(event, FileDone):
            result = event.result
            pages += result.pages
            bar.update(task, advance=1, pages=f"{pages} pages")
            if not quiet:
                failed = result.status == "failed"
                _print_line(err if failed else None, result, bar, lines_to_stderr)
        elif isinstance(event, WorkerStopped):
            line = f"warning: {event.why}; its files are finished by the main process"
            _print_error(line, bar, err)

    with bar:
        if bar.live.is_started:  # log records above the bar (its stderr), not through it
            log_to_stderr(shown_level())
        try:
            return corpus.ingest(paths, progress=progress, **options)
        finally:
            if bar.live.is_started:
                bar.stop()
                log_to_stderr(shown_level())


def _show_preparing(event: Preparing, bar: Progress, tasks: dict[str, Any]) -> None:
    """A model being prepared (once per user): its own line on the bar (the log's warning
    says it where no bar shows)."""
    if event.what not in tasks:
        description = f"preparing the {event.what} (once)"
        tasks[event.what] = bar.add_task(description, total=event.total, pages="")
    bar.update(tasks[event.what], completed=event.done)
    if event.done >= event.total:
        bar.remove_task(tasks[event.what])


def _print_error(line: str, bar: Progress, err: Console) -> None:
    """A line on stderr, above the progress bar while it shows."""
    if bar.live.is_started and err.is_terminal:
        bar.console.print(line, markup=False, highlight=False)
    else:
        print(line, file=sys.stderr)


def _print_line(err: Console | None, r: FileResult, bar: Progress, to_stderr: bool) -> None:
    if r.status == "failed":
        line = f"Error: {r.path}: {r.error}"
        if err is not None:
            _print_error(line, bar, err)
        else:
            print(line, file=sys.stderr)
        return
    if r.status == "skipped":
        line = f"skipped  {r.name} ({r.error or 'unchanged'})"
    else:
        line = (
            f"stored   {r.name}: {r.pages} pages, {r.nodes} nodes, {r.chunks} chunks "
            f"in {r.seconds:.1f}s"
        )
        if r.usage:
            line += f", {r.usage['calls']} LLM calls ({r.usage['cached']} cached)"
        line += "".join(f"\n  warning: {w}" for w in r.warnings)
    if bar.live.is_started and bar.console.is_terminal:
        bar.console.print(line, markup=False, highlight=False)
    else:
        typer.echo(line, err=to_stderr)
