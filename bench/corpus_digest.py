"""A digest of everything stored for each document (metadata, pages, tree, tagged facts,
chunks and their vectors), to check that a change to ingest stores the same corpus: run it
on two databases ingested from the same files and compare.

    PI_HOME=DIR python bench/corpus_digest.py --out A.json     # one corpus's digests
    python bench/corpus_digest.py --compare A.json B.json      # the documents that differ
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

# Each part of a document, as one text per document (its rows in stored order), hashed in SQL.
PARTS = {
    "metadata": """
        SELECT name, md5(concat_ws('|', status, page_count, company, company_aliases::text,
               doc_type, fiscal_year, fiscal_period, period_end, cik, title, description,
               tree_source, embedder, warnings::text, sha256, description_embedding::text,
               lexemes::text))
        FROM documents""",
    "pages": """
        SELECT d.name, md5(string_agg(p.page || '|' || p.text, E'\\n' ORDER BY p.page))
        FROM pages p JOIN documents d ON d.id = p.document_id GROUP BY d.name""",
    "nodes": """
        SELECT d.name, md5(string_agg(concat_ws('|', n.node_id, n.parent_node_id, n.title,
               n.start_page, n.end_page, n.depth, n.position, n.summary), E'\\n' ORDER BY n.id))
        FROM nodes n JOIN documents d ON d.id = n.document_id GROUP BY d.name""",
    "facts": """
        SELECT d.name, md5(string_agg(concat_ws('|', f.concept, f.value, f.unit, f.decimals,
               f.period_start, f.period_end, f.dimensions::text, f.page), E'\\n' ORDER BY f.id))
        FROM facts f JOIN documents d ON d.id = f.document_id GROUP BY d.name""",
    "chunks": """
        SELECT d.name, md5(string_agg(concat_ws('|', c.node_id, c.page, c.text,
               c.embedding::text), E'\\n' ORDER BY c.id))
        FROM chunks c JOIN documents d ON d.id = c.document_id GROUP BY d.name""",
}


def digests() -> dict[str, dict[str, str]]:
    from sqlalchemy import text

    from pageindex_platform import Corpus

    out: dict[str, dict[str, str]] = {}
    with Corpus.open().db.session() as session:
        for part, sql in PARTS.items():
            for name, digest in session.execute(text(sql)):
                out.setdefault(name, {})[part] = digest
    return out


def compare(before: dict[str, dict[str, str]], after: dict[str, dict[str, str]]) -> int:
    differ = 0
    for name in sorted(before.keys() | after.keys()):
        a, b = before.get(name), after.get(name)
        if a is None or b is None:
            print(f"{name}: only in {'the second' if a is None else 'the first'}")
            differ += 1
        elif a != b:
            print(f"{name}: {', '.join(p for p in PARTS if a.get(p) != b.get(p))} differ")
            differ += 1
    total = len(before.keys() | after.keys())
    print(f"{total - differ} of {total} documents stored alike")
    return 1 if differ else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="write this corpus's digests here")
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("A", "B"))
    args = parser.parse_args()
    if args.compare:
        first, second = (json.loads(p.read_text()) for p in args.compare)
        return compare(first, second)
    found = digests()
    if args.out:
        args.out.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
    print(f"{len(found)} documents")
    return 0


if __name__ == "__main__":
    sys.exit(main())
