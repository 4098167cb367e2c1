"""Re-derive the metadata of every stored document (company, aliases, type, fiscal year and
period, title, description) from its stored page text and top-level sections with the
current extractor, in name order as `pi ingest` stores a folder — so that a change to the
extractor is measured on a stored corpus in seconds instead of re-embedding it. A fresh
ingest gives the same metadata (`--check` compares without writing).

    PI_HOME=/tmp/pi-dev python bench/rederive_metadata.py [--check]

Development use only: metadata given with `pi ingest --metadata` is overwritten.
"""

from __future__ import annotations

import argparse
import sys

from sqlalchemy import select, update

from pageindex_platform import Corpus
from pageindex_platform.db.tables import Document, Node, Page
from pageindex_platform.embeddings import get_embedder
from pageindex_platform.index.metadata import extract_metadata
from pageindex_platform.index.store import stored_spelling
from pageindex_platform.records import PageText, TreeNode

FIELDS = (
    "company",
    "company_aliases",
    "doc_type",
    "fiscal_year",
    "fiscal_period",
    "period_end",
    "title",
    "description",
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report differences, write nothing")
    args = parser.parse_args()
    db = Corpus.open().db
    embedder = None if args.check else get_embedder(settings=db.settings)
    changed = 0
    with db.session() as session:
        documents = session.scalars(select(Document).order_by(Document.name)).all()
        stored = {d.id: {f: getattr(d, f) for f in FIELDS} for d in documents}
        if not args.check:  # each document's company is matched against those before it
            session.execute(update(Document).values(company=None))
        for doc in documents:
            pages = [
                PageText(p.page, p.text)
                for p in session.scalars(
                    select(Page).where(Page.document_id == doc.id).order_by(Page.page)
                )
            ]
            roots = [
                TreeNode(n.title, n.start_page, n.end_page)
                for n in session.scalars(
                    select(Node)
                    .where(Node.document_id == doc.id, Node.depth == 0)
                    .order_by(Node.position)
                )
            ]
            meta = extract_metadata(pages=pages, tree=roots)
            if meta.company and not args.check:
                meta.company = stored_spelling(session, meta.company)
            new = {f: getattr(meta, f) for f in FIELDS}
            diff = {f: (stored[doc.id][f], new[f]) for f in FIELDS if stored[doc.id][f] != new[f]}
            if diff:
                changed += 1
                shown = {f: v for f, v in diff.items() if f not in ("title", "description")}
                print(f"{doc.name}: {shown}")
            if args.check:
                continue
            for f in FIELDS:
                setattr(doc, f, new[f])
            if embedder is not None and diff.get("description"):
                doc.description_embedding = embedder.embed([meta.description or doc.name])[0]
            session.flush()
    print(
        f"{changed} of {len(documents)} documents' metadata {'differ' if args.check else 'changed'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
