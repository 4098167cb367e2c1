"""What a user states of a document's metadata, kept by the document's name with the content it
was stated for: a correction (`pi docs set NAME --company ...`) and a `--metadata FILE` row.
Both win over extraction (a correction over the row), apply again when the same content is
ingested again or its metadata re-derived, and are written, like everything stored, by the
index's writer."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from ..db.tables import MetadataCorrection
from ..errors import MetadataError
from ..records import DocType
from .signals import Source, plausible_company


def stated_for(session: Session, name: str, sha256: str) -> dict[Source, dict[str, Any]]:
    """What was stated for `name` while its content is the one it was stated for, by
    source (the user's correction, the metadata file's row)."""
    row = session.scalars(
        select(MetadataCorrection).where(MetadataCorrection.name == name)
    ).one_or_none()
    if row is None or row.sha256 != sha256:
        return {}
    return {Source(source): dict(fields) for source, fields in row.fields.items()}


def save_stated(
    session: Session, *, name: str, sha256: str, source: Source, fields: dict[str, Any]
) -> None:
    """Keep `fields` as `source` states them for `name` (merged into what it stated before
    for the same content)."""
    stated = {str(k): v for k, v in stated_for(session, name, sha256).items()}
    stated[str(source)] = {**stated.get(str(source), {}), **fields}
    session.execute(
        insert(MetadataCorrection)
        .values(name=name, sha256=sha256, fields=stated)
        .on_conflict_do_update(index_elements=["name"], set_={"sha256": sha256, "fields": stated})
    )


def checked_fields(
    *, company: str | None, year: int | None, doc_type: str | None, period: str | None
) -> dict[str, Any]:
    """The fields a user sets, as stored: a company that reads as a name, a filing type and
    a period spelled in any case ("10-k", "q2"), a fiscal year; at least one of them."""
    fields: dict[str, Any] = {}
    if company is not None:
        name = " ".join(company.split())
        if not plausible_company(name):
            raise MetadataError(f"{company!r} does not read as a company's name")
        fields["company"] = name
    if year is not None:
        if not 1900 <= year <= 2200:
            raise MetadataError(f"{year} is not a fiscal year")
        fields["fiscal_year"] = year
    if doc_type is not None:
        fields["doc_type"] = _choice(doc_type, [str(t) for t in DocType], "type")
    if period is not None:
        fields["fiscal_period"] = _choice(period, ["FY", "Q1", "Q2", "Q3", "Q4"], "period")
    if not fields:
        raise MetadataError("nothing to set: give --company, --year, --type or --period")
    return fields


def _choice(value: str, choices: list[str], what: str) -> str:
    found = next((c for c in choices if c.lower() == value.strip().lower()), None)
    if found is None:
        raise MetadataError(f"unknown {what} {value!r} (one of: {', '.join(choices)})")
    return found
