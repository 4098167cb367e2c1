"""Ingest throughput on a folder of filings (default: the dev set), with per-stage shares.

Runs the same code path as `pi ingest` against a fresh embedded database (or PI_DATABASE_URL
with --keep-db), then ingests the folder again to show that unchanged files are skipped.

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
STAGES = ("parse", "tree", "chunk", "embed", "database")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, nargs="?", default=DEV_PDFS)
    parser.add_argument(
        "--embedder",
        default=str(Settings.model_fields["embedder"].default),
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
    from pageindex_platform.embeddings import get_embedder
    from pageindex_platform.settings import get_settings

    corpus = Corpus.open(mode="local")
    corpus.db.engine  # noqa: B018 - the server started and the schema made, not timed
    get_embedder(settings=corpus.settings)  # a model's one-time preparation is not timed
    files = sorted(
        p for p in args.folder.rglob("*") if p.suffix.lower() in (".pdf", ".md", ".htm", ".html")
    )
    if args.limit:
        files = files[: args.limit]
    started = time.perf_counter()
    report = corpus.ingest(files)
    wall = time.perf_counter() - started
    stored = [f for f in report.files if f.status == FileStatus.STORED]
    stages: Counter[str] = Counter()
    for f in stored:
        stages.update(f.stages)
    total_stage = sum(stages.values()) or 1.0
    pages = sum(f.pages for f in stored)
    chunks = sum(f.chunks for f in stored)

    again = time.perf_counter()
    second = corpus.ingest(files)
    again_s = time.perf_counter() - again

    figures = {
        "files": len(files),
        "stored": len(stored),
        "failed": report.failed,
        "pages": pages,
        "chunks": chunks,
        "embedder": args.embedder,
        "wall_seconds": round(wall, 1),
        "pages_per_second": round(pages / wall, 2) if wall else None,
        "chunks_per_second": round(chunks / wall, 2) if wall else None,
        "stage_seconds": {s: round(stages[s], 1) for s in STAGES},
        "stage_share": {s: round(stages[s] / total_stage, 4) for s in STAGES},
        "non_embedding_share": round(1 - stages["embed"] / total_stage, 4),
        "reingest_skipped": second.count(FileStatus.SKIPPED),
        "reingest_seconds": round(again_s, 2),
        "cpu_count": os.cpu_count(),
    }
    print(
        f"files {len(files)}: stored {len(stored)}, failed {report.failed}; "
        f"{pages} pages, {chunks} chunks in {wall:.1f}s wall ({args.embedder} embedder)"
    )
    print(
        f"throughput: {figures['pages_per_second']} pages/s, "
        f"{figures['chunks_per_second']} chunks/s"
    )
    print("time per stage (summed over files):")
    for s in STAGES:
        print(f"  {s:<9} {stages[s]:8.1f}s  {stages[s] / total_stage:6.1%}")
    print(f"everything except embedding: {figures['non_embedding_share']:.1%}")
    print(f"re-ingest: {figures['reingest_skipped']} skipped in {again_s:.1f}s")
    for f in report.files:
        if f.status == FileStatus.FAILED:
            print(f"FAILED {f.path}: {f.error}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))
    if not args.keep_db:
        stop_embedded(get_settings().pgdata)
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
