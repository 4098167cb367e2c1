"""`--metadata FILE`: CSV or JSONL rows keyed by file name that override extracted metadata."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import InputError
from ..jsonl import parse_jsonl, read_text
from ..records import DocMetadata

if TYPE_CHECKING:  # a stored row (the ORM's: imported by what writes it)
    from ..db.tables import Document

M = TypeVar("M", DocMetadata, "Document")
KEYS = ("name", "file", "doc_name", "filename", "path")
FIELDS = ("company", "doc_type", "fiscal_year", "fiscal_period", "title", "description")
DESCRIBING = ("title", "description")  # what a row sets beside the fields that are evidence


def load_overrides(path: Path) -> dict[str, dict[str, Any]]:
    """Rows by document name (file stem). Raises InputError naming the file and the problem."""
    text = read_text(path, "metadata file")
    rows: list[dict[str, Any]] = []
    if path.suffix.lower() in (".jsonl", ".ndjson", ".json"):
        rows = parse_jsonl(path, text)
    elif path.suffix.lower() == ".csv":
        rows = list(csv.DictReader(text.splitlines()))
    else:
        raise InputError(path, "metadata file must be .csv or .jsonl")
    out: dict[str, dict[str, Any]] = {}
    for number, row in enumerate(rows, 1):
        key = next((str(row[k]) for k in KEYS if row.get(k)), None)
        if key is None:
            raise InputError(path, f"row {number}: no file name column ({', '.join(KEYS)})")
        out[Path(key).stem] = row
    return out


def apply_overrides(metadata: M, row: dict[str, Any], *, fields: tuple[str, ...] = FIELDS) -> M:
    """Set the row's non-empty `fields` (and aliases) on extracted metadata (or on a stored
    document)."""
    for field in fields:
        value = row.get(field)
        if value in (None, ""):
            continue
        if field == "fiscal_year":
            value = int(value)
        setattr(metadata, field, value)
    aliases = row.get("company_aliases")
    if isinstance(aliases, str):
        aliases = [a.strip() for a in aliases.split(";") if a.strip()]
    if aliases:
        setattr(metadata, "company_aliases", list(aliases))  # noqa: B010
    return metadata
