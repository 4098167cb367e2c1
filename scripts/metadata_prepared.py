"""Metadata accuracy on the dev set without --metadata: company, doc_type and fiscal year
extracted from each PDF, compared with ../shared/financebench-dev/documents.jsonl.
`--link-names` reads each PDF under the file name of its download link instead (through a
symbolic link), as users' files are named.

    python scripts/metadata_prepared.py [--pdfs DIR] [--documents FILE] [--link-names] [-v]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path
from urllib.parse import unquote, urlparse

from pageindex_platform.index.build import BuildOptions, prepare_document
from pageindex_platform.names import short_company

DEV = Path(__file__).resolve().parents[2] / "shared" / "financebench-dev"
DOC_TYPES = {"10k": "10-K", "10q": "10-Q", "8k": "8-K", "earnings": "earnings release"}


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", short_company(name).lower())


def company_matches(gold: str, extracted: str | None) -> bool:
    """Same company when one normalized name contains the other ('Verizon' ~ 'Verizon
    Communications Inc.', 'McDonalds' ~ "McDonald's Corporation")."""
    if not extracted:
        return False
    a, b = _norm(gold), _norm(extracted)
    return bool(a and b) and (a in b or b in a)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pdfs", type=Path, default=DEV / "pdfs")
    parser.add_argument("--documents", type=Path, default=DEV / "documents.jsonl")
    parser.add_argument("--link-names", action="store_true", help="files named as downloaded")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    gold = [json.loads(line) for line in args.documents.read_text().splitlines() if line.strip()]
    hits = {"company": 0, "doc_type": 0, "fiscal_year": 0}
    links = Path(tempfile.mkdtemp(prefix="pi-link-names-"))
    for row in gold:
        path = (args.pdfs / f"{row['doc_name']}.pdf").resolve()
        if args.link_names:
            named = links / f"{Path(unquote(urlparse(row['doc_link']).path)).stem}.pdf"
            named.unlink(missing_ok=True)
            named.symlink_to(path)
            path = named
        doc = prepare_document(path, BuildOptions())
        m = doc.metadata
        ok = {
            "company": company_matches(row["company"], m.company),
            "doc_type": DOC_TYPES.get(row["doc_type"].lower()) == m.doc_type,
            "fiscal_year": int(row["doc_period"]) == m.fiscal_year,
        }
        for key, value in ok.items():
            hits[key] += int(value)
        if args.verbose and not all(ok.values()):
            print(
                f"  miss {row['doc_name']}: gold=({row['company']}, {row['doc_type']}, "
                f"{row['doc_period']}) got=({m.company}, {m.doc_type}, {m.fiscal_year} "
                f"{m.fiscal_period})"
            )
    n = len(gold)
    for key, count in hits.items():
        print(f"{key:<12} {count}/{n} = {count / n:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
