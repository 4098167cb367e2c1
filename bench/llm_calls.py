"""LLM calls and tokens of LLM-mode indexing, per document, with a counting fake model.

A competent fake OpenAI-compatible server (tests/fake_llm.py) answers from the page text;
this script builds every document's LLM-mode tree through the real provider over HTTP and
prints calls per 100 pages (for filings with a table of contents, and overall), prompt and
completion tokens, and checks every tree's invariants.

    python bench/llm_calls.py [FOLDER] [--limit N] [-v]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

DEV_PDFS = Path(__file__).resolve().parents[2] / "shared" / "financebench-dev" / "pdfs"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, nargs="?", default=DEV_PDFS)
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()

    from tests.fake_llm import FakeLLM

    with FakeLLM() as fake, ExitStack() as stack:
        os.environ.update(
            PI_LLM_BASE_URL=fake.url,
            PI_LLM_MODEL="counting-fake",
            PI_HOME=tempfile.mkdtemp(prefix="pi-llm-bench-"),
        )
        from pageindex_platform.index.build import BuildOptions, prepare_document
        from pageindex_platform.index.llm_tree import build_llm_tree
        from pageindex_platform.index.tree import check_tree
        from pageindex_platform.llm import StructuredChat, Usage
        from pageindex_platform.llm.openai_compatible import OpenAICompatible
        from pageindex_platform.records import TreeSource
        from pageindex_platform.settings import get_settings

        settings = get_settings()
        chat = StructuredChat(OpenAICompatible(settings), cache=None, settings=settings)
        stack.enter_context(chat)
        paths = sorted(args.folder.glob("*.pdf"))[: args.limit or None]
        rows = []
        invalid = 0
        for path in paths:
            doc = prepare_document(path, BuildOptions())
            had_toc = doc.tree_source in (TreeSource.OUTLINE, TreeSource.TOC)
            usage = Usage()
            result = chat.run(
                build_llm_tree(doc, chat, usage=usage, max_pages=10, max_tokens=20_000)
            )
            problems = check_tree(result.tree, doc.page_count)
            invalid += bool(problems)
            rows.append((doc.name, doc.page_count, had_toc, usage, result.source))
            if args.verbose:
                print(
                    f"{doc.name:<42} {doc.page_count:4d} pages  {usage.calls:3d} calls  "
                    f"{usage.prompt_tokens:7d}+{usage.completion_tokens:5d} tokens  "
                    f"{result.source:<9} {dict(usage.by_step)}"
                )

    def report(label: str, subset: list[tuple[str, int, bool, Usage, TreeSource]]) -> None:
        pages = sum(r[1] for r in subset) or 1
        calls = sum(r[3].calls for r in subset)
        prompt = sum(r[3].prompt_tokens for r in subset)
        completion = sum(r[3].completion_tokens for r in subset)
        print(
            f"{label:<28} docs {len(subset):3d}  pages {pages:5d}  calls {calls:4d}  "
            f"calls/100 pages {100 * calls / pages:5.2f}  prompt tokens {prompt:8d}  "
            f"completion tokens {completion:7d}"
        )

    report("filings with a TOC/outline", [r for r in rows if r[2]])
    report("filings without", [r for r in rows if not r[2]])
    report("all", rows)
    print(f"invalid trees: {invalid}; HTTP requests seen by the fake server: {fake.calls}")
    return 1 if invalid else 0


if __name__ == "__main__":
    sys.exit(main())
