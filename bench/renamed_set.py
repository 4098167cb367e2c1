"""The development set with its PDFs named as users' files are named: each filing under the
file name of its download link (`0001558370-19-000470.pdf`), or a random UUID with
`--uuid`, and the questions and documents files rewritten to those names. Nothing in a
name then says which company, type or period a filing is.

    python bench/renamed_set.py --out /tmp/renamed [--uuid]
    pi eval financebench --questions /tmp/renamed/questions.jsonl \
        --documents /tmp/renamed/documents.jsonl --pdfs /tmp/renamed/pdfs
"""

from __future__ import annotations

import argparse
import json
import sys
import uuid
from pathlib import Path
from urllib.parse import unquote, urlparse

DEV = Path(__file__).resolve().parents[2] / "shared" / "financebench-dev"


def link_name(link: str) -> str:
    """The file name a download link saves as, without its suffix."""
    return Path(unquote(urlparse(link).path)).stem


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dev", type=Path, default=DEV, help="FinanceBench-format folder")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--uuid", action="store_true", help="random names instead of links")
    args = parser.parse_args()
    documents = [
        json.loads(x) for x in (args.dev / "documents.jsonl").read_text().splitlines() if x.strip()
    ]
    pdfs = args.out / "pdfs"
    pdfs.mkdir(parents=True, exist_ok=True)
    new: dict[str, str] = {}
    for row in documents:
        name = str(uuid.uuid4()) if args.uuid else link_name(row["doc_link"])
        if name in new.values():
            name = f"{name}-{len(new)}"
        new[row["doc_name"]] = name
        target = pdfs / f"{name}.pdf"
        target.unlink(missing_ok=True)
        target.symlink_to((args.dev / "pdfs" / f"{row['doc_name']}.pdf").resolve())
        row["doc_name"] = name
    (args.out / "documents.jsonl").write_text("".join(json.dumps(r) + "\n" for r in documents))
    lines = []
    for x in (args.dev / "questions.jsonl").read_text().splitlines():
        if x.strip():
            q = json.loads(x)
            q["doc_name"] = new.get(q["doc_name"], q["doc_name"])
            for e in q.get("evidence") or []:
                e["doc_name"] = new.get(e["doc_name"], e["doc_name"])
            lines.append(json.dumps(q) + "\n")
    (args.out / "questions.jsonl").write_text("".join(lines))
    print(f"{len(new)} filings renamed under {pdfs}; questions and documents rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
