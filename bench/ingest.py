"""Ingest throughput on a folder of filings (default: the dev set), with per-stage shares, next
to PyMuPDF's plain text extraction (`page.get_text()`, one process) of the same PDFs.

Runs the same code path as `pi ingest` against a fresh embedded database (or PI_DATABASE_URL
with --keep-db), then ingests the folder again to show that unchanged files are skipped.
The models the embedder needs are prepared (once per user, in the model cache) before the
clock starts.

    python bench/ingest.py [FOLDER] [--embedder fast|minilm|static|hash] [--limit N] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from pageindex_platform.settings import EmbedderName, Settings

DEV_PDFS = Path(__file__).resolve().parents[2] / "shared" / "financebench-dev" / "pdfs"
# the stages a file's time is told in (FileResult.stages), and the names printed for them
STAGES = {
    "parse": "parse",
    "tree": "tree",
    "chunk": "chunk",
    "tables": "tables",
    "embed": "embed",
    "database": "store",
}
SUFFIXES = (".pdf", ".md", ".htm", ".html")


def plain_extraction(files: list[Path]) -> tuple[int, float]:
    """PDF pages, and seconds for PyMuPDF to open each PDF and `get_text()` every page, in one
    process (the best of three runs)."""
    import pymupdf

    pdfs = [f for f in files if f.suffix.lower() == ".pdf"]
    best, pages = float("inf"), 0
    for _ in range(3):
        started, pages = time.perf_counter(), 0
        for path in pdfs:
            with pymupdf.open(path) as doc:
                for page in doc:
                    page.get_text()
                    pages += 1
        best = min(best, time.perf_counter() - started)
    return pages, best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, nargs="?", default=DEV_PDFS)
    parser.add_argument(
        "--embedder",
        default=str(Settings.embedder),
        choices=[str(name) for name in EmbedderName],
        help="default: the product's default (%(default)s)",
    )
    parser.add_argument("--limit", type=int, default=0, help="only the first N files")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--keep-db", action="store_true", help="use the configured database")
    args = parser.parse_args()

    if not args.keep_db:
        os.environ["PI_HOME"] = tempfile.mkdtemp(prefix="pi-bench-")
        os.environ.pop("PI_DATABASE_URL", None)
    os.environ["PI_EMBEDDER"] = args.embedder

    from pageindex_platform import Corpus
    from pageindex_platform.api import FileStatus
    from pageindex_platform.db import stop_embedded
    from pageindex_platform.embeddings import get_embedder, prepare_models

    corpus = Corpus.open(mode="local")
    corpus.db.engine  # noqa: B018 - the server started and the schema made, not timed
    prepare_models(settings=corpus.settings)  # once per user: not timed
    get_embedder(settings=corpus.settings)
    files = sorted(p for p in args.folder.rglob("*") if p.suffix.lower() in SUFFIXES)
    if args.limit:
        files = files[: args.limit]
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    report = corpus.ingest(files)
    wall = time.perf_counter() - started
    load_after = os.getloadavg()[0]
    stored = [f for f in report.files if f.status == FileStatus.STORED]
    stages: Counter[str] = Counter()
    for f in stored:
        stages.update(f.stages)
    total_stage = sum(stages[s] for s in STAGES) or 1.0
    pages = sum(f.pages for f in stored)
    chunks = sum(f.chunks for f in stored)

    again = time.perf_counter()
    second = corpus.ingest(files)
    again_s = time.perf_counter() - again
    plain_pages, plain_s = plain_extraction(files)

    figures = {
        "files": len(files),
        "stored": len(stored),
        "failed": report.failed,
        "pages": pages,
        "chunks": chunks,
        "embedder": args.embedder,
        "wall_seconds": round(wall, 2),
        "pages_per_second": round(pages / wall, 1) if wall else None,
        "chunks_per_second": round(chunks / wall, 1) if wall else None,
        "stage_seconds": {STAGES[s]: round(stages[s], 2) for s in STAGES},
        "stage_share": {STAGES[s]: round(stages[s] / total_stage, 4) for s in STAGES},
        "plain_pymupdf_pages": plain_pages,
        "plain_pymupdf_seconds": round(plain_s, 2),
        # copies of one file are stored once: PyMuPDF's time scaled to the pages stored
        "times_plain_pymupdf": round(wall / (plain_s * pages / plain_pages), 2)
        if plain_s and plain_pages and pages
        else None,
        "reingest_skipped": second.count(FileStatus.SKIPPED),
        "reingest_seconds": round(again_s, 2),
        "cpu_count": os.cpu_count(),
        "load_average": [round(load_before, 2), round(load_after, 2)],
    }
    print(
        f"files {len(files)}: stored {len(stored)}, failed {report.failed}; "
        f"{pages} pages, {chunks} chunks in {wall:.2f}s wall ({args.embedder} embedder)"
    )
    print(
        f"throughput: {figures['pages_per_second']} pages/s, "
        f"{figures['chunks_per_second']} chunks/s"
    )
    print(
        f"PyMuPDF plain get_text() of the same {plain_pages} PDF pages: {plain_s:.2f}s "
        f"(ingest takes {figures['times_plain_pymupdf']}x that"
        + (f", per page stored: {pages} of them)" if pages != plain_pages else ")")
    )
    print("time per stage (summed over files; parsing runs in worker processes meanwhile):")
    for s, shown in STAGES.items():
        print(f"  {shown:<7} {stages[s]:8.2f}s  {stages[s] / total_stage:6.1%}")
    print(f"re-ingest: {figures['reingest_skipped']} skipped in {again_s:.1f}s")
    print(f"load average (1 min) before / after: {load_before:.2f} / {load_after:.2f}")
    for f in report.files:
        if f.status == FileStatus.FAILED:
            print(f"FAILED {f.path}: {f.error}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))
    corpus.close()
    if not args.keep_db:
        stop_embedded(corpus.settings.pgdata)
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
