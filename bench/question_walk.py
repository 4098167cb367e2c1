"""The walk of one question through the code: the package's files in the order the question's
execution enters them (consecutive calls inside one file collapsed), how many files, and how
often it comes back to a file it had left. A reading aid for the ask pipeline's shape.

`--depth 2` (the default) follows `ask` and the functions it calls: the stages as a reader of
`ask` meets them; a deeper walk also shows what each stage calls (every helper at depth 0).
Ingests the sample filings into a fresh embedded database (the default embedder), asks once
to warm up, then traces `ask` for the question.

    python bench/question_walk.py ["QUESTION"] [--depth N] [--keep-db]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from types import FrameType
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "examples" / "filings"


class Walk:
    """The package file executing after each call and return (profile events)."""

    def __init__(self, package: Path, depth: int) -> None:
        self.package = package
        self.depth = depth  # 0: every call
        self.stack: list[str] = []
        self.files: list[str] = []

    def _ours(self, frame: FrameType) -> str | None:
        path = Path(frame.f_code.co_filename)
        return (
            str(path.relative_to(self.package.parent))
            if path.is_relative_to(self.package)
            else None
        )

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event not in ("call", "return"):
            return
        name = self._ours(frame)
        if name is None:
            return
        if event == "call":
            self.stack.append(name)
        elif self.stack:
            self.stack.pop()
        if not self.stack:
            return
        current = self.stack[min(len(self.stack), self.depth or len(self.stack)) - 1]
        if not self.files or self.files[-1] != current:
            self.files.append(current)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("question", nargs="?", default="Best Buy Q2 FY2024 comparable sales")
    parser.add_argument("--depth", type=int, default=2, help="calls followed below ask (0: all)")
    parser.add_argument("--keep-db", action="store_true", help="use the configured database")
    args = parser.parse_args()
    if not args.keep_db:
        os.environ["PI_HOME"] = tempfile.mkdtemp(prefix="pi-walk-")
        os.environ.pop("PI_DATABASE_URL", None)

    import pageindex_platform
    from pageindex_platform.db import stop_embedded
    from pageindex_platform.settings import get_settings

    corpus = pageindex_platform.Corpus.open(mode="local")
    if not args.keep_db:
        corpus.ingest([SAMPLES])
    corpus.ask(args.question)  # models loaded, caches warm
    walk = Walk(Path(pageindex_platform.__file__).parent, args.depth)
    sys.setprofile(walk)
    try:
        corpus.ask(args.question)
    finally:
        sys.setprofile(None)
    seen: set[str] = set()
    returns = 0
    for name in walk.files:
        returns += name in seen
        seen.add(name)
    print(" -> ".join(walk.files))
    print(
        f"\ndepth {args.depth or 'all'}: {len(seen)} files entered; {len(walk.files)} steps; "
        f"{returns} returns to a file already left"
    )
    root = walk.files[0]
    handoffs = [name for name in walk.files if name != root]
    again = len(handoffs) - len(set(handoffs))
    print(
        f"from {root}: {len(handoffs)} hand-offs to {len(set(handoffs))} files, "
        f"{again} to a file already handed to"
    )
    print("files in order of first entry:")
    for number, name in enumerate(dict.fromkeys(walk.files), 1):
        print(f"  {number:2d}. {name} ({walk.files.count(name)}x)")
    if not args.keep_db:
        stop_embedded(get_settings().pgdata)
    return 0


if __name__ == "__main__":
    sys.exit(main())
