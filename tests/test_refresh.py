"""Table figures read again from the stored pages (`refresh_table_figures`, behind `pi db
refresh`): a document whose figures are gone, or a corpus upgraded from before they were
kept, gets back the very figures an ingest reads, and nothing else changes."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import text
from sqlalchemy.orm import Session

from pageindex_platform.db.migrate import alembic_config, upgrade
from pageindex_platform.errors import DocumentNotFoundError
from pageindex_platform.index.refresh import refresh_table_figures

from .helpers import close_env_dbs, env_db, session_scope

_FACTS = (
    "SELECT d.name, f.concept, f.value, f.unit, f.decimals, f.period_start, f.period_end, "
    "f.dimensions::text, f.page, f.label FROM facts f JOIN documents d ON d.id = f.document_id "
    "WHERE f.source = ANY(:sources) ORDER BY f.id"
)


def _facts(session: Session, *sources: str) -> dict[str, list[tuple[Any, ...]]]:
    """Each document's facts of some sources (`tagged`; `table`, `table_percent`: read from a
    table's rows of amounts and of percentages), in stored order."""
    out: dict[str, list[tuple[Any, ...]]] = {}
    for row in session.execute(text(_FACTS), {"sources": list(sources)}):
        out.setdefault(row[0], []).append(tuple(row[1:]))
    return out


def _stored() -> tuple[dict[str, list[tuple[Any, ...]]], dict[str, list[tuple[Any, ...]]]]:
    with session_scope() as session:
        return _facts(session, "table", "table_percent"), _facts(session, "tagged")


def test_a_documents_lost_table_figures_come_back_as_ingest_read_them(corpus: Path) -> None:
    tables, tagged = _stored()
    counts = Counter({name: len(rows) for name, rows in tables.items()})
    assert len(counts) >= 2, counts  # the samples' statements are read at ingest
    name, count = counts.most_common(1)[0]
    with session_scope() as session:
        session.execute(
            text(
                "DELETE FROM facts f USING documents d WHERE d.id = f.document_id "
                "AND d.name = :n AND f.source LIKE 'table%'"
            ),
            {"n": name},
        )
    assert name not in _stored()[0]
    with session_scope() as session:
        assert refresh_table_figures(session=session, names=[name]) == count
    assert _stored() == (tables, tagged)


def test_refreshing_every_document_replaces_its_figures_not_adds_to_them(corpus: Path) -> None:
    tables, tagged = _stored()
    with session_scope() as session:
        # a figure an older reader would have read, on a document's first page
        session.execute(
            text(
                "INSERT INTO facts (document_id, concept, value, unit, period_end, dimensions, "
                "page, label, source) SELECT id, 'table:stale', 1, 'iso4217:USD', '2020-01-01', "
                "'[]'::jsonb, 1, 'Stale', 'table' FROM documents"
            )
        )
    with session_scope() as session:
        assert refresh_table_figures(session=session) == sum(map(len, tables.values()))
    assert _stored() == (tables, tagged)


def test_an_unknown_name_is_refused_and_nothing_changes(corpus: Path) -> None:
    before = _stored()
    refused = pytest.raises(DocumentNotFoundError, match="no document named 'NOT_STORED'")
    with refused, session_scope() as session:
        session.execute(text("DELETE FROM facts WHERE source LIKE 'table%'"))
        refresh_table_figures(session=session, names=["NOT_STORED"])
    assert _stored() == before


def test_an_upgrade_reads_no_document_and_refresh_fills_in_the_figures(corpus: Path) -> None:
    """Revision 0013 only adds the columns: a corpus stored before it has no table figures
    after the upgrade, whatever the code of the day; the refresh reads them."""
    tables, tagged = _stored()
    url = env_db().url
    close_env_dbs()
    try:
        command.downgrade(alembic_config(url), "0012")
        upgrade(url)
    finally:
        upgrade(url)  # the next tests' schema, whatever happened
    assert _stored() == ({}, tagged)
    with session_scope() as session:
        refresh_table_figures(session=session)
    assert _stored() == (tables, tagged)
