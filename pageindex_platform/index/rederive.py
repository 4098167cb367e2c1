"""Stored documents read again from their stored pages, without parsing or embedding their
files again — their metadata and their statement tables' figures: after an upgrade of the
readers (`pi docs refresh`), and when a user corrects a document (`pi docs set`). Each
document is updated in a transaction of its own; its description's vector is made again
only when the description changed."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..db import queries
from ..db.engine import Database
from ..db.tables import Document, Page
from ..errors import DocumentNotFoundError
from ..records import DocMetadata, DocType, PageText, TreeNode
from ..settings import Settings
from .corrections import save_stated, stated_for
from .metadata import extract_metadata
from .report import Rederived
from .resolve import known_companies, resolved
from .signals import UNSURE, Source

logger = logging.getLogger(__name__)

COMPARED = (
    "company",
    "company_aliases",
    "doc_type",
    "fiscal_year",
    "fiscal_period",
    "period_end",
    "title",
    "description",
)


Describer = Callable[[str], Any]  # a description → its vector


def describer(settings: Settings) -> Describer:
    """A document description's vector, as ingest makes it with these settings."""
    from ..embeddings import description_embedder, get_embedder

    embedder = description_embedder(get_embedder(settings=settings), settings)
    return lambda text: embedder.embed([text])[0]


def rederive(*, db: Database, names: Sequence[str] | None, describe: Describer) -> list[Rederived]:
    """Each named document's metadata (all stored documents when `names` is None) derived
    again from its stored pages, with the corpus's evidence and what users stated for it."""
    with db.session() as session:
        wanted = list(names) if names is not None else _all_names(session)
        for name in wanted:  # every name known before any is changed
            _row(session, name)
    done = []
    for name in wanted:
        with db.session() as session:
            done.append(_rederive_one(session, name, describe))
    return done


def settle(*, db: Database, names: Sequence[str], settings: Settings) -> list[Rederived]:
    """After a batch: the batch's documents whose company is not sure derived again, now
    that the batch's other filings are stored (a release stored before its company's 10-K
    knows the company's names only then), so that a batch's metadata does not depend on the
    order its files were stored in."""
    with db.session() as session:
        unsure = [
            d.name
            for d in queries.documents(session, names=list(names))
            if d.doc_type != DocType.OTHER
            and float(d.sources.get("company", {}).get("confidence", 0.0)) < UNSURE
        ]
    if not unsure:
        return []
    return rederive(db=db, names=unsure, describe=describer(settings))


def correct(*, db: Database, name: str, fields: dict[str, Any], describe: Describer) -> Rederived:
    """Keep the user's `fields` for the document `name` and derive its metadata again, so
    that they win over what the pages say and over a `--metadata` row."""
    with db.session() as session:
        row = _row(session, name)
        save_stated(session, name=row.name, sha256=row.sha256, source=Source.USER, fields=fields)
        return _rederive_one(session, row.name, describe)


def _all_names(session: Session) -> list[str]:
    return list(session.scalars(select(Document.name).order_by(Document.name)))


def _row(session: Session, name: str) -> Document:
    row = session.scalars(select(Document).where(Document.name == name)).one_or_none()
    if row is None:
        found = queries.document_named(session, name)  # a linked copy's name
        if found is None:
            raise DocumentNotFoundError(name)
        row = session.scalars(select(Document).where(Document.id == found.id)).one()
    return row


def _rederive_one(session: Session, name: str, describe: Describer) -> Rederived:
    row = _row(session, name)
    pages = [
        PageText(p.page, p.text)
        for p in session.scalars(select(Page).where(Page.document_id == row.id).order_by(Page.page))
    ]
    info = queries.document_named(session, row.name)
    assert info is not None
    tree = [TreeNode.from_dict(n) for n in queries.tree(session, info).nested()]
    extracted = extract_metadata(pages=pages, tree=tree, cover_facts=_cover_facts(row))
    metadata = resolved(
        extracted,
        name=row.name,
        pages=pages,
        tree=tree,
        known=known_companies(session, excluding=row.name),
        stated=stated_for(session, row.name, row.sha256),
    )
    changed = _write(row, metadata, describe)
    if changed:
        logger.info("%s: metadata derived again: %s", row.name, ", ".join(changed))
    session.flush()  # the table figures are read with the period just derived
    from .refresh import refresh_table_figures  # the PDF reader's imports: not for a question

    figures = refresh_table_figures(session=session, names=[row.name])
    return Rederived(row.name, changed, figures)


def _write(row: Document, metadata: DocMetadata, describe: Describer) -> dict[str, list[Any]]:
    """Set the derived metadata on the stored row; the fields that changed."""
    from .store import stored_spelling

    session = Session.object_session(row)
    assert session is not None
    if metadata.company:
        metadata.company = stored_spelling(session, metadata.company)
    changed: dict[str, list[Any]] = {}
    written = bool((row.usage or {}).get("calls"))  # llm mode: the model's title, description
    for name in COMPARED[:-2] if written else COMPARED:
        before, after = getattr(row, name), getattr(metadata, name)
        if name == "company_aliases":
            before, after = sorted(before or []), sorted(after or [])
        if before != after:
            changed[name] = [before, after]
            setattr(row, name, after)
    row.metadata_sources = metadata.sources
    if "description" in changed and metadata.description:
        row.description_embedding = describe(metadata.description)
    return changed


def _cover_facts(row: Document) -> dict[str, str]:
    """The document's dei: cover facts: as stored, or — for a document stored before they
    were kept — read again from its source file while it is the file ingested."""
    if row.cover_facts or not row.cik:
        return dict(row.cover_facts or {})
    path = Path(row.source_path)
    if path.suffix.lower() not in (".htm", ".html", ".txt"):
        return {}
    try:
        data = path.read_bytes()
    except OSError:
        return {}
    if hashlib.sha256(data).hexdigest() != row.sha256:
        return {}
    from .html import parse_html
    from .submission import parse_submission

    parse = parse_html if path.suffix.lower() != ".txt" else parse_submission
    try:
        facts = dict(parse(path, data).dei)
    except Exception as exc:  # a file that no longer reads: its pages still do
        logger.info("%s: cover facts not read again (%s)", row.name, exc)
        return {}
    row.cover_facts = facts
    return facts
