"""EDGAR HTML ingest on the development filings, without a database: per file the pages, the
tree's source, whether a 10-K's Item 1A, 7 and 8 sections start on a page showing that
heading, the metadata (exact dei: facts where the filing has inline XBRL), the tagged facts
(and how many are shown on a page) and the preparation time.

    python bench/edgar_html.py [--filings DIR]
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

from pageindex_platform.index.build import BuildOptions, prepare_document

DEV = Path(__file__).resolve().parents[2] / "shared" / "edgar-html-dev" / "filings"


def items_found(doc: object) -> str:
    nodes = doc.all_nodes()  # type: ignore[attr-defined]
    pages = doc.pages  # type: ignore[attr-defined]
    ok = []
    for item in ("1A", "7", "8"):
        node = next((n for n in nodes if re.match(rf"item\s*{item}\b", n.title, re.I)), None)
        text = pages[node.start_page - 1].text if node else ""
        if node and re.search(rf"item\s*{item}\.?", text, re.I):
            ok.append(item)
        elif not node and not any(re.search(rf"item\s*{item}\b", p.text, re.I) for p in pages):
            ok.append(f"(no {item})")  # the filing has no such Item (Item 1A began in 2005)
        else:
            ok.append(f"!{item}")
    return " ".join(ok)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--filings", type=Path, default=DEV)
    args = parser.parse_args()
    total_pages, total_seconds, items_ok, tenks = 0, 0.0, 0, 0
    print(
        "| file | pages | tree | Items 1A/7/8 | company | type | year | period | "
        "facts (on a page) | s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for path in sorted(args.filings.glob("*.htm*")):
        started = time.perf_counter()
        doc = prepare_document(path, BuildOptions())
        seconds = time.perf_counter() - started
        m = doc.metadata
        items = items_found(doc) if m.doc_type == "10-K" else ""
        if m.doc_type == "10-K":
            tenks += 1
            items_ok += "!" not in items
        shown = sum(f.page is not None for f in doc.facts)
        print(
            f"| {path.name} | {doc.page_count} | {doc.tree_source} | {items} | {m.company} | "
            f"{m.doc_type} | {m.fiscal_year} | {m.fiscal_period or ''} | "
            f"{len(doc.facts)} ({shown}) | {seconds:.2f} |"
        )
        total_pages += doc.page_count
        total_seconds += seconds
    print(
        f"\n{total_pages} pages in {total_seconds:.1f} s ({total_pages / total_seconds:.0f} "
        f"pages/s, tree and chunking included); 10-Ks with Items 1A, 7 and 8 on their "
        f"headings' pages: {items_ok}/{tenks}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
